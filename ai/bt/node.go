package bt

import "strconv"

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
)

// String returns "Idle", "Running", "Success", "Failure", or "Status(n)" for other values.
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
	}
	return "Status(" + strconv.Itoa(int(s)) + ")"
}

// kind identifies a node type. The zero kind marks a Node that was not made by a
// constructor of this package; [Compile] rejects it.
type kind uint8

const (
	kindInvalid kind = iota
	kindSequence
	kindSelector
	kindReactiveSequence
	kindReactiveSelector
	kindInverter
	kindCooldown
	kindWait
	kindCondition
	kindAction
)

var kindNames = [...]string{
	kindInvalid:          "Invalid",
	kindSequence:         "Sequence",
	kindSelector:         "Selector",
	kindReactiveSequence: "ReactiveSequence",
	kindReactiveSelector: "ReactiveSelector",
	kindInverter:         "Inverter",
	kindCooldown:         "Cooldown",
	kindWait:             "Wait",
	kindCondition:        "Condition",
	kindAction:           "Action",
}

func (k kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
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
	cond     func(*Context) bool
	tick     func(*Context) Status
	onStart  func(*Context)
	onHalt   func(*Context)
}

func composite(k kind, children []*Node) *Node {
	// Copy: the caller owns the variadic slice and could otherwise change it later.
	return &Node{kind: k, children: append([]*Node(nil), children...)}
}

// Sequence ticks its children in order until one fails or is Running. It has memory and
// follows BehaviorTree.CPP v4's Sequence (not SequenceWithMemory):
//   - entered (not Running): starts at child 0;
//   - while Running: resumes at the child that returned Running, without re-ticking the
//     earlier children;
//   - child Success: ticks the next child in the same tick; after the last, returns
//     Success and resets to child 0;
//   - child Running: returns Running and remembers that child;
//   - child Failure: returns Failure and resets to child 0 (the next tick starts over).
//
// Memory: Child holds the index (0-based, among its children) of the running child.
func Sequence(children ...*Node) *Node { return composite(kindSequence, children) }

// Selector (Fallback) ticks its children in order until one succeeds or is Running. It
// has memory, like BehaviorTree.CPP v4's Fallback:
//   - entered (not Running): starts at child 0;
//   - while Running: resumes at the child that returned Running;
//   - child Failure: ticks the next child in the same tick; after the last, returns
//     Failure and resets to child 0;
//   - child Running: returns Running and remembers that child;
//   - child Success: returns Success and resets to child 0.
//
// Memory: Child holds the index of the running child.
func Selector(children ...*Node) *Node { return composite(kindSelector, children) }

// ReactiveSequence re-evaluates its children from child 0 on every tick, so earlier
// children act as guards of later ones (BehaviorTree.CPP v4's ReactiveSequence):
//   - child Success: ticks the next child in the same tick; after the last, returns Success;
//   - child Running: halts every later child that is Running (a guard now Running stops
//     the action after it) and returns Running;
//   - child Failure: halts every later child that is Running and returns Failure.
//
// Memory: Child holds the index of the child that returned Running (for debugging).
func ReactiveSequence(children ...*Node) *Node { return composite(kindReactiveSequence, children) }

// ReactiveSelector re-evaluates its children from child 0 on every tick, so a
// higher-priority (earlier) child preempts a lower one (BehaviorTree.CPP v4's
// ReactiveFallback):
//   - child Failure: ticks the next child in the same tick; after the last, returns Failure;
//   - child Running: halts every later child that is Running and returns Running;
//   - child Success: halts every later child that is Running and returns Success.
//
// Memory: Child holds the index of the child that returned Running (for debugging).
func ReactiveSelector(children ...*Node) *Node { return composite(kindReactiveSelector, children) }

// Inverter ticks its child and swaps Success and Failure:
//   - child Success: returns Failure;
//   - child Failure: returns Success;
//   - child Running: returns Running.
func Inverter(child *Node) *Node { return composite(kindInverter, []*Node{child}) }

// Cooldown lets its child run at most once per seconds of simulation time, like Unreal's
// Cooldown decorator. The cooldown starts when the child completes:
//   - cooling down (ctx.Time < completion time + seconds): returns Failure without
//     ticking the child;
//   - otherwise: ticks the child; Running returns Running;
//   - child Success or Failure: returns the child's status and starts the cooldown at
//     ctx.Time of that tick; the child is available again on the first tick with
//     ctx.Time >= that time + seconds (within 1e-9 s).
//
// A halted Cooldown (its child was Running) does not start a cooldown: halting resets its
// memory (Unreal's decorator also starts the cooldown when its branch is aborted). The cooldown survives the Cooldown node completing; only [Tree.Halt] clears it.
// Cooldown needs [Context.Time]; seconds must be finite and >= 0.
//
// Memory: Count is 1 while cooling down, and Timer holds the time it becomes available.
func Cooldown(seconds float64, child *Node) *Node {
	n := composite(kindCooldown, []*Node{child})
	n.seconds = seconds
	return n
}

// Wait is a leaf that is Running until seconds of simulation time have passed since it
// started, then succeeds:
//   - entered (not Running): the timer starts at 0; the dt of this first tick is not
//     counted, since the wait starts now;
//   - every later tick adds ctx.DT to the timer;
//   - returns Success on the first tick with timer >= seconds (within 1e-9 s), else Running.
//
// With a constant dt, Wait returns Running on exactly ceil(seconds/dt) ticks and Success
// on the next one; Wait(0) succeeds on its first tick. Halting resets the timer, so a
// re-entered Wait waits its full time again. seconds must be finite and >= 0.
//
// Memory: Timer holds the seconds waited so far.
func Wait(seconds float64) *Node { return &Node{kind: kindWait, seconds: seconds} }

// Condition is a leaf that asks fn a question: true returns Success, false returns
// Failure. A Condition is never Running and so never halted. name is shown by
// [Tree.NodeName]; fn must not be nil.
func Condition(name string, fn func(*Context) bool) *Node {
	return &Node{kind: kindCondition, name: name, cond: fn}
}

// Action is a leaf that does something over one or more ticks:
//   - entered (not Running: first tick, or first tick after it completed or was
//     halted): its node memory is zeroed, then the OnStart hook (if any) is called,
//     then tick;
//   - tick returns Running, Success or Failure; any other value counts as Failure;
//   - halted while Running: the OnHalt hook (if any) is called once, then its memory is
//     reset to Idle.
//
// The functions are shared by every agent: per-agent state belongs in ctx.Agent or in
// [Context.Node] (Count, Timer, Child are free for the action to use while it runs).
// tick must not be nil.
func Action(name string, tick func(*Context) Status) *Node {
	return &Node{kind: kindAction, name: name, tick: tick}
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
