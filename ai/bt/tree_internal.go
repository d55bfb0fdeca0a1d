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
// root/Sequence("guard")[1]/Wait; each step is the node's type as [Tree.NodeType] gives
// it (UtilitySelector, not the Choose it is built on) and its name if it has one.
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
	return fmt.Errorf("bt: tree %s: %s: %w", quote(c.tree.name), b.String(), err)
}

// add appends n and its subtree and returns the first error found.
func (c *compiler) add(n *Node) error {
	if n == nil {
		return c.fail(false, ErrNilNode)
	}
	if n.kind == kindInvalid || n.kind >= kindCount {
		return c.fail(false, ErrInvalidNode)
	}
	label := n.kind.String()
	if n.tag != "" { // the type the user wrote (Node.Typed, a loaded file's type)
		label = n.tag
	}
	if n.name != "" {
		label += "(" + quote(n.name) + ")"
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
	info := kinds[n.kind]
	nk := len(n.children)
	switch {
	case info.minKids > 0 && info.maxKids > 1 && nk == 0:
		return c.fail(true, ErrEmptyComposite)
	case nk > math.MaxUint16:
		return c.fail(true, ErrTooManyChildren)
	case nk < info.minKids || nk > info.maxKids:
		return c.fail(true, fmt.Errorf("%w: %d, want %s", ErrChildCount, nk, wantKids(info)))
	}
	cn := node{
		kind:    n.kind,
		nkids:   uint16(nk),
		seconds: n.seconds,
		other:   n.other,
		cond:    n.cond,
		choose:  n.choose,
		tick:    n.tick,
		onStart: n.onStart,
		onHalt:  n.onHalt,
		name:    n.name,
		tag:     n.tag,
		leaf:    n.leaf,
		prog:    n.prog,
	}
	var err error
	if cn.conds, err = compileConds(n); err != nil {
		return c.fail(true, err)
	}
	switch n.kind {
	case kindWait, kindCooldown, kindTimeout, kindDelay:
		if math.IsNaN(n.seconds) || math.IsInf(n.seconds, 0) || n.seconds < 0 {
			return c.fail(true, fmt.Errorf("%w, got %v", ErrInvalidDuration, n.seconds))
		}
	case kindCondition, kindCheckBlackboard, kindPrecondition:
		if n.cond == nil {
			return c.fail(true, ErrNilFunc)
		}
	case kindAction, kindSetBlackboard:
		if n.tick == nil {
			return c.fail(true, ErrNilFunc)
		}
	case kindScript, kindScriptCondition:
		if err := checkScript(n); err != nil {
			return c.fail(true, err)
		}
	case kindChoose, kindSwitch:
		if n.choose == nil {
			return c.fail(true, ErrNilFunc)
		}
		if n.kind == kindSwitch && nk != n.n1 {
			return c.fail(true, fmt.Errorf("%w: %d, want %d (one per case and a default)", ErrChildCount, nk, n.n1))
		}
		if n.kind == kindSwitch && n.n2 > 0 {
			return c.fail(true, fmt.Errorf("%w: case %d (0-based) is NaN or equals an earlier case, so its child %d never runs", ErrUnreachableCase, n.n2-1, n.n2-1))
		}
	case kindRunOnce:
		cn.n1 = int32(n.n1)
	case kindRepeat, kindRetry:
		if n.n1 > MaxCount || n.n1 < Forever {
			return c.fail(true, fmt.Errorf("%w: %d, want %d (Forever) to %d", ErrInvalidCount, n.n1, Forever, MaxCount))
		}
		cn.n1 = int32(n.n1)
	case kindParallel:
		s, f := threshold(n.n1, nk), threshold(n.n2, nk)
		if s < 1 || s > nk || f < 1 || f > nk {
			return c.fail(true, fmt.Errorf("%w: Parallel thresholds success %d, failure %d with %d children",
				ErrInvalidCount, n.n1, n.n2, nk))
		}
		cn.n1, cn.n2 = int32(s), int32(f)
		cn.neg = n.n1 < 0
	default:
		if err := c.addV4(n, &cn, nk); err != nil {
			return err
		}
	}
	if n.validate != nil { // a library's check of its node (Node.Validate)
		if err := n.validate(nk); err != nil {
			return c.fail(true, err)
		}
	}

	i := len(t.nodes)
	t.nodes = append(t.nodes, cn)
	if n.attached != nil {
		if t.attached == nil {
			t.attached = make([]any, cap(t.nodes))
		}
		for len(t.attached) < len(t.nodes) { // nodes grew past the count made at Compile
			t.attached = append(t.attached, nil)
		}
		t.attached[i] = n.attached
	}
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

func wantKids(info kindInfo) string {
	switch {
	case info.minKids == info.maxKids:
		return strconv.Itoa(info.minKids)
	case info.maxKids == manyKids:
		return "at least " + strconv.Itoa(info.minKids)
	}
	return strconv.Itoa(info.minKids) + " or " + strconv.Itoa(info.maxKids)
}

// threshold resolves a Parallel threshold: negative counts from the end (-1 = all).
func threshold(t, n int) int {
	if t < 0 {
		return n + t + 1
	}
	return t
}

// tick ticks node i and records its status in m[i]. A node with pre- or
// post-conditions runs them around its own tick (script_internal.go).
func (t *Tree) tick(m []NodeMemory, i int32, ctx *Context) Status {
	n := &t.nodes[i]
	mem := &m[i]
	ctx.visits++
	if r := ctx.ticks; r != nil {
		r.last[i] = r.tick
		if mem.Status != Running { // a new run of node i begins
			r.start[i] = r.tick
		}
	}
	if n.conds != nil {
		if s, decided := t.precondition(m, i, n.conds, ctx); decided {
			mem.Status = s
			t.postcondition(n.conds, s, i, ctx)
			return s
		}
	}
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
		} else {
			mem.Count = 0 // children skipped so far
		}
		kids := t.kids[n.kidOff : n.kidOff+int32(n.nkids)]
		for ; k < len(kids); k++ {
			if s = t.tick(m, kids[k], ctx); s == Skipped {
				mem.Count++
			} else if s != next {
				break
			}
		}
		if k >= len(kids) { // (> only for a corrupt Memory)
			s = allSkipped(next, int(mem.Count), len(kids))
		}
		if s == Running {
			mem.Child = uint16(k)
		} else {
			mem.Child, mem.Count = 0, 0
		}

	case kindSequenceWithMemory:
		kids := t.kids[n.kidOff : n.kidOff+int32(n.nkids)]
		k := int(mem.Child)
		if k == 0 {
			mem.Count = 0 // children before Child that were skipped
		}
		for ; k < len(kids); k++ {
			if s = t.tick(m, kids[k], ctx); s == Skipped {
				mem.Count++
			} else if s != Success {
				break
			}
		}
		if k >= len(kids) {
			s = allSkipped(Success, int(mem.Count), len(kids))
			mem.Child, mem.Count = 0, 0
		} else {
			mem.Child = uint16(k)
		}

	case kindReactiveSequence, kindReactiveSelector:
		next := Success
		if n.kind == kindReactiveSelector {
			next = Failure
		}
		kids := t.kids[n.kidOff : n.kidOff+int32(n.nkids)]
		k, skipped := 0, 0
		for ; k < len(kids); k++ {
			if s = t.tick(m, kids[k], ctx); s == Skipped {
				skipped++
			} else if s != next {
				break
			}
		}
		if k == len(kids) {
			s = allSkipped(next, skipped, len(kids))
		} else {
			// Halt the later children; any that is Running was abandoned.
			t.haltKids(m, kids[k+1:], ctx)
		}
		if s == Running {
			mem.Child = uint16(k)
		} else {
			mem.Child = 0
		}

	case kindParallel:
		s = t.tickParallel(m, n, mem, ctx)

	case kindIfThenElse:
		kids := t.kids[n.kidOff : n.kidOff+int32(n.nkids)]
		k := 0
		if mem.Status == Running {
			k = int(mem.Child)
		}
		if k == 0 {
			switch t.tick(m, kids[0], ctx) {
			case Running:
				s = Running
			case Success:
				k = 1
			case Skipped:
				s = Skipped
			default:
				if k = 2; len(kids) < 3 {
					s = Failure
				}
			}
		}
		branch := k > 0 && k < len(kids)
		if branch {
			s = t.tick(m, kids[k], ctx)
		}
		// set after the branch's tick: a leaf panicking in it leaves the running branch
		// of before the tick (see Tree.Tick, "A leaf that panics")
		mem.Child = 0
		if branch && s == Running {
			mem.Child = uint16(k)
		}

	case kindWhileDoElse:
		kids := t.kids[n.kidOff : n.kidOff+int32(n.nkids)]
		switch t.tick(m, kids[0], ctx) {
		case Running:
			s = Running
		case Skipped:
			t.haltKids(m, kids[1:], ctx)
			s = Skipped
		case Success:
			if len(kids) == 3 {
				t.haltKids(m, kids[2:3], ctx)
			}
			s = t.tick(m, kids[1], ctx)
			mem.Child = 1
		default:
			t.haltKids(m, kids[1:2], ctx)
			s = Failure
			if len(kids) == 3 {
				s = t.tick(m, kids[2], ctx)
				mem.Child = 2
			}
		}

	case kindSwitch, kindChoose:
		ctx.mem, ctx.node = mem, int(i)
		k := n.choose(ctx)
		if mem.Status == Running && int(mem.Child) != k && int(mem.Child) < int(n.nkids) {
			if j := t.kids[n.kidOff+int32(mem.Child)]; m[j].Status == Running {
				t.haltRange(m, j, t.nodes[j].end, ctx)
			}
		}
		if k < 0 || k >= int(n.nkids) {
			mem.Child = 0
			s = Failure
			break
		}
		s = t.tick(m, t.kids[n.kidOff+int32(k)], ctx)
		mem.Child = 0 // after the tick, as IfThenElse's
		if s == Running {
			mem.Child = uint16(k)
		}

	case kindInverter:
		switch s = t.tick(m, i+1, ctx); s {
		case Success:
			s = Failure
		case Failure:
			s = Success
		}

	case kindForceSuccess, kindForceFailure:
		if s = t.tick(m, i+1, ctx); s != Running && s != Skipped {
			s = Success
			if n.kind == kindForceFailure {
				s = Failure
			}
		}

	case kindSubTree:
		s = t.tick(m, i+1, ctx)

	case kindRepeat, kindRetry:
		// Repeat loops on Success until n, Retry on Failure until n.
		again, done := Success, Failure
		if n.kind == kindRetry {
			again, done = Failure, Success
		}
		if mem.Status != Running && mem.Status != Skipped {
			mem.Count = 0 // a skipped Repeat keeps its count, as in BehaviorTree.CPP
		}
		if n.n1 == 0 {
			s = again
			break
		}
		for {
			s = t.tick(m, i+1, ctx)
			if s == Running || s == Skipped {
				break
			}
			if s == done {
				mem.Count = 0
				break
			}
			if n.n1 < 0 {
				s = Running
				break
			}
			if mem.Count++; int32(mem.Count) >= n.n1 {
				mem.Count = 0
				break
			}
		}

	case kindRepeatUntilFailure, kindRepeatUntilSuccess:
		stop := Failure
		if n.kind == kindRepeatUntilSuccess {
			stop = Success
		}
		switch s = t.tick(m, i+1, ctx); s {
		case stop:
			s = Success
		case Running, Skipped:
		default:
			s = Running
		}

	case kindCooldown:
		if mem.Count != 0 {
			// Never cool down longer than seconds from now: Time went backwards, or a
			// loaded Memory holds +Inf. A NaN ready time counts as passed.
			if mem.Timer > ctx.Time+n.seconds {
				mem.Timer = ctx.Time + n.seconds
			}
			if ctx.Time+epsilon < mem.Timer {
				s = Failure
				break
			}
			mem.Count = 0
		}
		s = t.tick(m, i+1, ctx)
		if s != Running && s != Skipped && n.seconds > 0 {
			mem.Count = 1
			mem.Timer = ctx.Time + n.seconds
		}

	case kindTimeout:
		if mem.Status == Running && n.seconds > 0 { // 0: no limit, as BehaviorTree.CPP's msec="0" starts no timer
			mem.Timer += ctx.DT
			if !(mem.Timer+epsilon < n.seconds) { // a NaN timer (corrupt Memory) has expired
				t.haltRange(m, i+1, n.end, ctx)
				mem.Timer = 0
				s = Failure
				break
			}
		} else {
			mem.Timer = 0
		}
		s = t.tick(m, i+1, ctx)

	case kindDelay:
		if mem.Status != Running {
			mem.Timer, mem.Count = 0, 0
		} else if mem.Count == 0 {
			mem.Timer += ctx.DT
		}
		if mem.Count == 0 {
			if mem.Timer+epsilon < n.seconds {
				s = Running
				break
			}
			mem.Count = 1
		}
		s = t.tick(m, i+1, ctx)

	case kindRunOnce:
		if mem.Count == 1 {
			if s = Status(mem.Child); n.n1 == 1 {
				s = Skipped
			}
			break
		}
		if s = t.tick(m, i+1, ctx); s != Running && s != Skipped {
			mem.Count, mem.Child = 1, uint16(s)
		}

	case kindPrecondition:
		if mem.Status != Running {
			ctx.mem, ctx.node = mem, int(i)
			if !n.cond(ctx) {
				if s = n.other; s != Success && s != Skipped {
					s = Failure
				}
				break
			}
		}
		s = t.tick(m, i+1, ctx)

	case kindWait:
		if mem.Status == Running {
			mem.Timer += ctx.DT
		} else {
			mem.Timer = 0
		}
		s = Running
		if !(mem.Timer+epsilon < n.seconds) { // a NaN timer (corrupt Memory) has expired
			s = Success
		}

	case kindCondition, kindCheckBlackboard:
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

	case kindSetBlackboard:
		ctx.mem, ctx.node = mem, int(i)
		if s = n.tick(ctx); s != Success {
			s = Failure
		}

	case kindScript:
		s = Success
		if err := n.prog.Exec(ctx.Blackboard); err != nil {
			ctx.scriptFailed(i, err)
			s = Failure
		}

	case kindScriptCondition:
		ok, err := n.prog.Bool(ctx.Blackboard)
		if err != nil {
			ctx.scriptFailed(i, err)
		}
		s = Failure
		if ok && err == nil {
			s = Success
		}

	case kindAlwaysSuccess:
		s = Success

	case kindAlwaysFailure:
		s = Failure

	default:
		s = t.tickV4(m, i, n, mem, ctx)
	}
	mem.Status = s
	if n.conds != nil {
		t.postcondition(n.conds, s, i, ctx)
	}
	return s
}

// tickParallel implements Parallel: see its doc comment.
func (t *Tree) tickParallel(m []NodeMemory, n *node, mem *NodeMemory, ctx *Context) Status {
	kids := t.kids[n.kidOff : n.kidOff+int32(n.nkids)]
	total := int32(len(kids))
	var succ, fail, skipped int32
	fresh := mem.Status != Running
	if !fresh {
		for _, j := range kids {
			switch m[j].Status {
			case Success:
				succ++
			case Failure:
				fail++
			}
		}
	}
	for _, j := range kids {
		if !fresh && (m[j].Status == Success || m[j].Status == Failure) {
			continue
		}
		switch t.tick(m, j, ctx) {
		case Success:
			succ++
		case Failure:
			fail++
		case Skipped:
			skipped++
		default:
			continue
		}
		if succ >= n.n1 || n.neg && succ+skipped >= n.n1 {
			t.haltKids(m, kids, ctx)
			return Success
		}
		if fail >= n.n2 || total-fail < n.n1 {
			t.haltKids(m, kids, ctx)
			return Failure
		}
	}
	if skipped == total {
		return Skipped
	}
	return Running
}

// haltKids halts the subtree of every Running node among kids.
func (t *Tree) haltKids(m []NodeMemory, kids []int32, ctx *Context) {
	for _, j := range kids {
		if m[j].Status == Running {
			t.haltRange(m, j, t.nodes[j].end, ctx)
		}
	}
}

// haltRange halts every Running node with index in [from, to), last index first: as a
// pre-order range, every node comes after its ancestors, so descendants are halted
// before their ancestors. Each halted node gets its hook (Actions) and is reset to Idle;
// a SequenceWithMemory keeps its position.
func (t *Tree) haltRange(m []NodeMemory, from, to int32, ctx *Context) {
	for j := to - 1; j >= from; j-- {
		mem := &m[j]
		if mem.Status != Running {
			continue
		}
		n := &t.nodes[j]
		if n.onHalt != nil {
			ctx.mem, ctx.node = mem, int(j)
			n.onHalt(ctx)
		}
		if n.conds != nil {
			t.runScript(n.conds[condOnHalted], j, ctx)
		}
		if n.kind == kindSequenceWithMemory {
			*mem = NodeMemory{Child: mem.Child, Count: mem.Count}
			continue
		}
		if t.haltV4(m, j, n, mem, ctx) {
			continue
		}
		*mem = NodeMemory{}
	}
}

// haltOrphans runs as Tick unwinds from a panic of user code: it halts (haltRange: hooks,
// deepest first, memory reset) the subtree of every Running node whose parent is not
// Running, left so by a tick that stopped before that parent recorded its status. After
// a tick that returns, no such node exists; every node is visited once (the children of
// a node not Running are checked, and a halted subtree holds no Running node).
//
// First, an Action that started in this tick (its memory zeroed, its OnStart called) and
// did not return is the one that panicked, in OnStart or in its tick: it is halted alone
// (its OnHalt pairs its OnStart) and left Idle, so it starts again when next ticked. (Left
// Running, a parent Running at another child from before the tick would not resume it.)
func (t *Tree) haltOrphans(m []NodeMemory, ctx *Context) {
	if k := ctx.node; ctx.mem != nil && k >= 0 && k < len(m) && ctx.mem == &m[k] &&
		t.nodes[k].kind == kindAction && m[k].Status == Idle {
		m[k].Status = Running
		t.haltRange(m, int32(k), int32(k+1), ctx)
	}
	for p := range t.nodes {
		if m[p].Status == Running {
			continue
		}
		n := &t.nodes[p]
		for _, k := range t.kids[n.kidOff : n.kidOff+int32(n.nkids)] {
			if m[k].Status == Running {
				t.haltRange(m, k, t.nodes[k].end, ctx)
			}
		}
	}
	ctx.mem = nil
}

// allSkipped returns Skipped if all n children of a Sequence or Selector were skipped,
// else done (its status after the last child).
func allSkipped(done Status, skipped, n int) Status {
	if skipped == n {
		return Skipped
	}
	return done
}

// tickWork returns the most node ticks one tick of t can take, and the
// innermost node whose subtree alone takes more than MaxTickCycles (0, the
// root, if none does), bottom-up over the pre-order array: a leaf
// ticks once; a node ticks itself and its children; a finite Repeat or Retry
// (count n) ticks its child n times if the child can complete in the tick it
// starts (not so: a Wait or Sleep of more than 0 s, a Delay, a loop whose
// child cannot), else once. A sequence or fallback (not a
// SequenceWithMemory, which resumes where it failed) can complete at once only
// if its first child can; a node that may return without ticking its child
// (Cooldown, Precondition, RunOnce, Loop, SkipUnlessUpdated, Choose, a Repeat or
// Retry of count 0, a node with a precondition script) always can; any other
// composite if any child can (an
// overestimate, so no hang slips through).
func tickWork(t *Tree) (work float64, node int) {
	w := make([]float64, len(t.nodes))
	sync := make([]bool, len(t.nodes))
	for i := len(t.nodes) - 1; i >= 0; i-- {
		n := &t.nodes[i]
		kids := t.kids[n.kidOff : n.kidOff+int32(n.nkids)]
		sum, any := 0.0, false
		for _, k := range kids {
			sum += w[k]
			any = any || sync[k]
		}
		switch n.kind {
		case kindRepeat, kindRetry:
			// a Forever loop also ends at once when its child does (Repeat on a
			// Failure, Retry on a Success); a count of 0 ends without ticking it
			w[i], sync[i] = 1+sum, any || n.n1 == 0
			if n.n1 > 1 && any {
				w[i] = 1 + float64(float64(n.n1)*sum) // (rounded: no fused multiply-add, see .ci/nofma)
			}
		case kindWait, kindSleep, kindDelay:
			w[i], sync[i] = 1+sum, !(n.seconds > 0)
		case kindSequence, kindSelector, kindReactiveSequence, kindReactiveSelector, kindAsyncSequence, kindAsyncFallback:
			// completes in the tick it starts only if its first child can
			w[i], sync[i] = 1+sum, sync[kids[0]]
		case kindCooldown:
			// cooling down, it fails without ticking its child
			w[i], sync[i] = 1+sum, any || n.seconds > 0
		case kindPrecondition, kindRunOnce, kindLoop, kindEntryUpdated, kindChoose:
			// may return without ticking its child (condition false, finished once,
			// queue empty, entry not updated, an index out of range)
			w[i], sync[i] = 1+sum, true
		default:
			// (a SequenceWithMemory re-entered resumes at the child that failed)
			w[i], sync[i] = 1+sum, len(kids) == 0 || any
		}
		if n.conds != nil && (n.conds[condFailureIf] != nil || n.conds[condSuccessIf] != nil ||
			n.conds[condSkipIf] != nil || n.conds[condWhile] != nil) {
			sync[i] = true // a precondition script may decide the node's status at once
		}
	}
	// a node's work is at least its children's, so the root is over the bound
	// whenever any node is: name the innermost one over it (the last in
	// pre-order), the loop that crosses the bound
	for i := len(w) - 1; i > 0; i-- {
		if w[i] > MaxTickCycles {
			return w[0], i
		}
	}
	return w[0], 0
}
