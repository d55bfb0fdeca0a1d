package bt

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"
)

// Transition is one change of one node's status for one agent.
type Transition struct {
	Time     float64 // ctx.Time of the tick that made the change, in seconds
	Node     int     // pre-order index; see [Tree.NodeName]
	From, To Status
}

// Tracer records one agent's transition log: only the changes of node statuses from one
// tick to the next (which node went from what to what, at which simulation time), not
// the ticks. It costs nothing to agents that are not traced: it compares the agent's
// [Memory] after each tick with a copy of the statuses before it.
//
// Important: the log shows each node's status at the end of each tick; a node that
// finished and restarted within one tick (Success again) shows no change, a halted
// node shows Running → Idle, and a node skipped by a precondition shows Skipped
// (BehaviorTree.CPP's observers see it stay Idle).
type Tracer struct {
	tree *Tree
	prev []Status
	log  []Transition
	max  int
}

// NewTracer returns a tracer for one agent running tree. It keeps at most max transitions
// (the oldest are dropped), or every one if max <= 0.
func NewTracer(tree *Tree, max int) *Tracer {
	return &Tracer{tree: tree, prev: make([]Status, tree.Len()), max: max}
}

// Tick ticks the tree for the agent and records the transitions it made. It returns the
// root's status.
func (tr *Tracer) Tick(m *Memory, ctx *Context) Status {
	s := tr.tree.Tick(m, ctx)
	tr.Observe(m, ctx.Time)
	return s
}

// Observe records the transitions between the statuses seen last and m's, at time. Call
// it after each [Tree.Tick] or [Tree.Halt] of the agent when not using [Tracer.Tick].
func (tr *Tracer) Observe(m *Memory, time float64) {
	for i, nm := range m.nodes {
		if i >= len(tr.prev) {
			break
		}
		if nm.Status != tr.prev[i] {
			tr.log = append(tr.log, Transition{Time: time, Node: i, From: tr.prev[i], To: nm.Status})
			tr.prev[i] = nm.Status
		}
	}
	if tr.max > 0 && len(tr.log) > tr.max {
		n := copy(tr.log, tr.log[len(tr.log)-tr.max:])
		tr.log = tr.log[:n]
	}
}

// Log returns the transitions recorded, oldest first, aliasing the tracer's buffer.
func (tr *Tracer) Log() []Transition { return tr.log }

// Reset forgets the log and the statuses seen (after a [Tree.Halt], for example).
func (tr *Tracer) Reset() {
	tr.log = tr.log[:0]
	clear(tr.prev)
}

// WriteLog writes the log, one transition a line:
//
//	t=1.250   [3]    Sequence "attack"              Idle → Running
func (tr *Tracer) WriteLog(w io.Writer) error {
	for _, x := range tr.log {
		if _, err := fmt.Fprintf(w, "t=%-7.3f %-6s %-30s %s → %s\n", x.Time, "["+strconv.Itoa(x.Node)+"]", tr.tree.label(x.Node), x.From, x.To); err != nil {
			return err
		}
	}
	return nil
}

// label is a node's type ([Tree.NodeType]: for a loaded node its type as written in the
// file, a registered leaf's registered name) and, if set, its name: `Sequence "attack"`,
// `Action "shoot"`, `Fallback "guard"`, `TargetSeen "sees thief"`, `Patrol`.
func (t *Tree) label(i int) string {
	n := &t.nodes[i]
	kind := n.tag
	if kind == "" {
		kind = n.kind.String()
	}
	if n.name == "" {
		return kind
	}
	return fmt.Sprintf("%s %q", kind, n.name)
}

// Dump writes the tree as indented text, one node a line, with each node's pre- and
// post-conditions (_skipIf="…", scripts cut to 32 bytes), its last status in m (nil: no
// statuses; Skipped for a node skipped last) and the memory a reader may want: the
// running child of a composite, the timer of a running timed node.
//
//	ReactiveSelector "guard"                 Running
//	├── ReactiveSequence "flee"              Failure
//	│   ├── Condition "hurt"                 Failure
//
// A node more than [DumpIndentDepth] (64) levels deep is written with its depth
// ([Tree.Depth]) in brackets in place of the indentation, then its branch, so that the
// text grows linearly with the nodes (indented, a chain of 10,000 decorators was about
// 200 MB). The 66th and 67th nodes of a chain of Inverters:
//
//	[65] └── Inverter
//	[66] └── Inverter
//
// It returns an error for a Memory of another tree, and the first error of w.
func (t *Tree) Dump(w io.Writer, m *Memory) error {
	return t.dump(w, m, DumpIndentDepth)
}

// DumpIndentDepth is the depth down to which [Tree.Dump] indents a node's line; a
// deeper node's line starts with its depth in brackets instead.
const DumpIndentDepth = 64

// dump is Dump, indenting the nodes down to depth indent (math.MaxInt: every node, as
// Fingerprint hashes the text).
func (t *Tree) dump(w io.Writer, m *Memory, indent int) error {
	if m != nil && (len(m.nodes) != len(t.nodes) || m.tree != nil && m.tree != t) {
		return fmt.Errorf("bt: Dump: %s", errMemoryMismatched)
	}
	// written as it goes, with one prefix that grows and shrinks along the path (down
	// to depth indent): a line is as long as its node is deep, so indented, a tree of
	// depth d writes O(d²) bytes, which held in memory at once (and a prefix per level)
	// came to gigabytes for a chain of 65,535 decorators
	bw := bufio.NewWriter(w)
	var prefix []byte
	var num []byte
	var walk func(i, level int, branch string)
	walk = func(i, level int, branch string) {
		label := t.label(i) + t.condLabel(i)
		if level > indent {
			num = append(strconv.AppendInt(append(num[:0], '['), int64(level), 10), "] "...)
			bw.Write(num)
		} else {
			bw.Write(prefix)
		}
		bw.WriteString(branch)
		bw.WriteString(label)
		if m != nil {
			nm := m.nodes[i]
			status := nm.Status.String()
			if nm.Status == Running {
				switch n := &t.nodes[i]; {
				case n.nkids > 1 && n.kind != kindParallel:
					status += fmt.Sprintf(" (child %d)", nm.Child)
				case n.kind == kindWait || n.kind == kindTimeout || n.kind == kindDelay:
					status += fmt.Sprintf(" (%.3gs)", nm.Timer)
				}
			}
			// every step of the prefix, and a branch, is 4 runes (no padding past
			// column 44, so none for a numbered line)
			runes := 4*level + utf8.RuneCountInString(label)
			for pad := 44 - runes; pad > 0; pad-- {
				bw.WriteByte(' ')
			}
			bw.WriteString(" " + status)
		}
		bw.WriteByte('\n')
		n := len(prefix)
		if level < indent { // the children's lines are indented
			switch branch {
			case "├── ":
				prefix = append(prefix, "│   "...)
			case "└── ":
				prefix = append(prefix, "    "...)
			}
		}
		kids := t.Children(nil, i)
		for k, c := range kids {
			br := "├── "
			if k == len(kids)-1 {
				br = "└── "
			}
			walk(c, level+1, br)
		}
		prefix = prefix[:n]
	}
	if len(t.nodes) > 0 {
		walk(0, 0, "")
	}
	return bw.Flush()
}
