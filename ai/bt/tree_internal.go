package bt

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// epsilon is the tolerance of time comparisons, absorbing float error in sums of dt.
const epsilon = 1e-9

// compiler flattens a Node spec into a Tree in pre-order.
type compiler struct {
	tree  *Tree
	stack []frame // the path from the root to the node being added
}

// frame is one step of the path: a node's label and the child being added.
type frame struct {
	label string
	child int
}

// maxPath is the number of path steps shown in full at each end of a long path.
const maxPath = 4

// fail wraps err with the tree name and the path to the node being added, such as
// root/Sequence("guard")[1]/Wait.
// If self, the last step is the bad node itself, else its parent.
func (c *compiler) fail(self bool, err error) error {
	var b strings.Builder
	b.WriteString("root")
	for d, f := range c.stack {
		if len(c.stack) > 2*maxPath && d == maxPath {
			fmt.Fprintf(&b, "/…%d more…", len(c.stack)-2*maxPath)
		}
		if len(c.stack) > 2*maxPath && d >= maxPath && d < len(c.stack)-maxPath {
			continue
		}
		b.WriteString("/" + f.label)
		if !self || d < len(c.stack)-1 {
			b.WriteString("[" + strconv.Itoa(f.child) + "]")
		}
	}
	return fmt.Errorf("bt: tree %q: %s: %w", c.tree.name, b.String(), err)
}

// add appends n and its subtree and returns the first error found.
func (c *compiler) add(n *Node) error {
	if n == nil {
		return c.fail(false, ErrNilNode)
	}
	if n.kind == kindInvalid || int(n.kind) >= len(kindNames) {
		return c.fail(false, ErrInvalidNode)
	}
	label := n.kind.String()
	if n.name != "" {
		label += "(" + strconv.Quote(n.name) + ")"
	}
	c.stack = append(c.stack, frame{label: label})
	defer func() { c.stack = c.stack[:len(c.stack)-1] }()
	t := c.tree
	if len(t.nodes) >= MaxNodes {
		return c.fail(true, fmt.Errorf("%w: more than %d", ErrTooManyNodes, MaxNodes))
	}
	if (n.onStart != nil || n.onHalt != nil) && n.kind != kindAction {
		return c.fail(true, ErrHookNotAction)
	}
	switch n.kind {
	case kindWait, kindCooldown:
		if math.IsNaN(n.seconds) || math.IsInf(n.seconds, 0) || n.seconds < 0 {
			return c.fail(true, fmt.Errorf("%w, got %v", ErrInvalidDuration, n.seconds))
		}
	case kindCondition:
		if n.cond == nil {
			return c.fail(true, ErrNilFunc)
		}
	case kindAction:
		if n.tick == nil {
			return c.fail(true, ErrNilFunc)
		}
	}
	isComposite := n.kind <= kindCooldown
	if isComposite && len(n.children) == 0 {
		return c.fail(true, ErrEmptyComposite)
	}
	if len(n.children) > math.MaxUint16 {
		return c.fail(true, ErrTooManyChildren)
	}

	i := len(t.nodes)
	t.nodes = append(t.nodes, node{
		kind:    n.kind,
		nkids:   uint16(len(n.children)),
		seconds: n.seconds,
		cond:    n.cond,
		tick:    n.tick,
		onStart: n.onStart,
		onHalt:  n.onHalt,
		name:    n.name,
	})
	var kids []int32
	for k, child := range n.children {
		kids = append(kids, int32(len(t.nodes)))
		c.stack[len(c.stack)-1].child = k
		if err := c.add(child); err != nil {
			return err
		}
	}
	t.nodes[i].kidOff = int32(len(t.kids))
	t.nodes[i].end = int32(len(t.nodes))
	t.kids = append(t.kids, kids...)
	return nil
}

// tick ticks node i and records its status in m[i].
func (t *Tree) tick(m []NodeMemory, i int32, ctx *Context) Status {
	n := &t.nodes[i]
	mem := &m[i]
	var s Status
	switch n.kind {
	case kindSequence, kindSelector:
		// Sequence stops on the first non-Success, Selector on the first non-Failure.
		next := Success
		if n.kind == kindSelector {
			next = Failure
		}
		k := 0
		if mem.Status == Running {
			k = int(mem.Child)
		}
		s = next
		kids := t.kids[n.kidOff : n.kidOff+int32(n.nkids)]
		for ; k < len(kids); k++ {
			if s = t.tick(m, kids[k], ctx); s != next {
				break
			}
		}
		if s == Running {
			mem.Child = uint16(k)
		} else {
			mem.Child = 0
		}

	case kindReactiveSequence, kindReactiveSelector:
		next := Success
		if n.kind == kindReactiveSelector {
			next = Failure
		}
		s = next
		kids := t.kids[n.kidOff : n.kidOff+int32(n.nkids)]
		k := 0
		for ; k < len(kids); k++ {
			if s = t.tick(m, kids[k], ctx); s != next {
				break
			}
		}
		if k < len(kids) {
			// Halt the later children; any that is Running was abandoned.
			for _, j := range kids[k+1:] {
				if m[j].Status == Running {
					t.haltRange(m, j, t.nodes[j].end, ctx)
				}
			}
		}
		if s == Running {
			mem.Child = uint16(k)
		} else {
			mem.Child = 0
		}

	case kindInverter:
		switch s = t.tick(m, i+1, ctx); s {
		case Success:
			s = Failure
		case Failure:
			s = Success
		}

	case kindCooldown:
		if mem.Count != 0 {
			if ctx.Time+epsilon < mem.Timer {
				mem.Status = Failure
				return Failure
			}
			mem.Count = 0
		}
		s = t.tick(m, i+1, ctx)
		if s != Running && n.seconds > 0 {
			mem.Count = 1
			mem.Timer = ctx.Time + n.seconds
		}

	case kindWait:
		if mem.Status == Running {
			mem.Timer += ctx.DT
		} else {
			mem.Timer = 0
		}
		s = Running
		if mem.Timer+epsilon >= n.seconds {
			s = Success
		}

	case kindCondition:
		ctx.mem, ctx.node = mem, int(i)
		s = Failure
		if n.cond(ctx) {
			s = Success
		}

	case kindAction:
		ctx.mem, ctx.node = mem, int(i)
		if mem.Status != Running {
			*mem = NodeMemory{}
			if n.onStart != nil {
				n.onStart(ctx)
			}
		}
		s = n.tick(ctx)
		if s != Running && s != Success {
			s = Failure
		}
	}
	mem.Status = s
	return s
}

// haltRange halts every Running node with index in [from, to), last index first: as a
// pre-order range, every node comes after its ancestors, so descendants are halted
// before their ancestors. Each halted node gets its hook (Actions) and is reset to Idle.
func (t *Tree) haltRange(m []NodeMemory, from, to int32, ctx *Context) {
	for j := to - 1; j >= from; j-- {
		mem := &m[j]
		if mem.Status != Running {
			continue
		}
		if n := &t.nodes[j]; n.onHalt != nil {
			ctx.mem, ctx.node = mem, int(j)
			n.onHalt(ctx)
		}
		*mem = NodeMemory{}
	}
}
