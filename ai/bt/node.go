package bt

import (
	"strconv"

	"github.com/archai-go/archai/ai/script"
)

// Status is the result of ticking a node, and the last status kept in its memory.
type Status uint8

// Node statuses.
const (
	// Idle: the node has not been ticked since it was created, reset or halted.
	Idle Status = iota
	// Running: the node has not finished; it is ticked again on the next tick.
	Running
	// Success: the node finished and achieved its goal.
	Success
	// Failure: the node finished and did not achieve its goal.
	Failure
	// Skipped: the node did not take part in this tick: a precondition ([Node.SkipIf],
	// [Node.While]) skipped it, or all its children were skipped, or it is a
	// [SkipUnlessUpdated] whose entry was not updated or a [Loop] with ifEmpty Skipped
	// and nothing left. A parent moves on as if the node were not there (each control
	// node's doc says how); the next tick enters it afresh. Leaves never return it (an Action's Skipped counts as Failure). As in
	// BehaviorTree.CPP 4.x, whose SKIPPED it is.
	Skipped
)

// String returns "Idle", "Running", "Success", "Failure", "Skipped", or "Status(n)" for
// other values.
func (s Status) String() string {
	switch s {
	case Idle:
		return "Idle"
	case Running:
		return "Running"
	case Success:
		return "Success"
	case Failure:
		return "Failure"
	case Skipped:
		return "Skipped"
	}
	return "Status(" + strconv.Itoa(int(s)) + ")"
}

// Node is a builder specification of one node and its children. Nodes are made by the
// constructors below ([Sequence], [Action], …), combined into a tree and passed to
// [Compile]; they are never ticked themselves. A Node may be used in several places of
// one or several trees: compiling copies it.
//
// Important: constructors do not validate their arguments (they never panic); [Compile]
// reports every problem as an error.
type Node struct {
	kind     kind
	name     string
	children []*Node
	seconds  float64
	n1, n2   int    // Repeat/Retry count; Parallel thresholds; Switch case count and 1 + its first unreachable case (0: none)
	other    Status // Precondition's status when the condition is false
	cond     func(*Context) bool
	choose   func(*Context) int
	tick     func(*Context) Status
	onStart  func(*Context)
	onHalt   func(*Context)
	tag      string                   // the type as written in a loaded file ("Fallback") or given with Typed, else ""
	prog     *script.Program          // Script, ScriptCondition
	conds    *conds                   // pre- and post-conditions; nil if none
	validate func(children int) error // Validate's check; nil if none
	leaf     bool                     // a registered leaf loaded from a file: tag is its registered type (see Tree.printLabel)
	attached any                      // Attach's value, read back with Tree.Attached; nil if none
}

// OnHalt sets the halt hook of an Action: fn is called when the Action is Running and its
// parent abandons it (preemption, a halted ancestor, [Tree.Halt]). [Context.Node] is the
// action's memory, still holding its values. It returns n. On other kinds [Compile]
// reports an error.
func (n *Node) OnHalt(fn func(*Context)) *Node {
	if n != nil {
		n.onHalt = fn
	}
	return n
}

// OnStart sets the start hook of an Action: fn is called when the Action is ticked while
// not Running, just before its tick function. It returns n. On other kinds [Compile]
// reports an error.
func (n *Node) OnStart(fn func(*Context)) *Node {
	if n != nil {
		n.onStart = fn
	}
	return n
}

// Named sets the display name of n, returned by [Tree.NodeName], and returns n.
func (n *Node) Named(name string) *Node {
	if n != nil {
		n.name = name
	}
	return n
}

// Typed sets the type shown for n in place of its kind, and returns n: for a node that
// a library builds on one of this package's kinds, so that a reader sees the type the
// user wrote (hybrid.UtilitySelector is a [Choose], typed "UtilitySelector"). The type
// is returned by [Tree.NodeType], shown by [Tree.Dump] and [Tracer.WriteLog], and names
// an unnamed node ([Tree.NodeName]); it changes nothing of how n ticks, and
// [Tree.NodeKind] still returns the kind. A node loaded from a file has the type
// written there.
func (n *Node) Typed(typ string) *Node {
	if n != nil {
		n.tag = typ
	}
	return n
}

// Attach sets a value that tools inspecting the compiled tree read back with
// [Tree.Attached]: a library that builds a node on one of this package's kinds
// attaches what the node runs, so that a diagnosis or a debugger can find it
// (hybrid.HTNAction attaches its domain and run function, hybrid.UtilitySelector its
// reasoner and state function: systems.Diagnose reads them). It changes nothing of how
// n ticks, and no tick reads it. A later call replaces the value; nil removes it. It
// returns n.
func (n *Node) Attach(v any) *Node {
	if n != nil {
		n.attached = v
	}
	return n
}

// Validate sets a check that [Compile] runs on n, for a node that a library builds on one
// of this package's kinds and whose arguments bt cannot check itself: a
// hybrid.UtilitySelector is a [Choose] that needs one child per action of its reasoner.
// Compile calls check with n's number of children after its own checks of n (a nil
// function, a count of children its kind does not allow) and before compiling the
// children; a non-nil error fails Compile, wrapped with the tree name and the path to n
// as Compile's own errors are (root/Sequence[0]/UtilitySelector("Pick"): …). Make the
// error wrap a sentinel error, this package's (such as ErrChildCount) or one of your
// own, so callers can test it with errors.Is; say in it what is wrong and what was
// wanted. check must not panic or keep n. A later call replaces the check; a nil check
// removes it. It returns n.
func (n *Node) Validate(check func(children int) error) *Node {
	if n != nil {
		n.validate = check
	}
	return n
}
