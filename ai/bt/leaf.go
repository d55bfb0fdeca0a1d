package bt

import "cmp"

// Wait is a leaf that is Running until seconds of simulation time have passed since it
// started, then succeeds:
//   - entered (not Running): the timer starts at 0; the dt of this first tick is not
//     counted, since the wait starts now;
//   - every later tick adds ctx.DT to the timer;
//   - returns Success on the first tick with timer >= seconds (within 1e-9 s), else Running.
//
// With a constant dt, Wait returns Running on exactly ceil(seconds/dt) ticks and Success
// on the next one; Wait(0) succeeds on its first tick. Halting resets the timer, so a
// re-entered Wait waits its full time again. seconds must be finite and >= 0 ([Compile]
// and the loaders reject others); a ctx.DT that is NaN, infinite or negative counts as 0
// (see [Tree.Tick]), so the timer never runs backwards or turns NaN.
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
// The functions are shared by every agent: per-agent state belongs in ctx.Agent, in
// ctx.Blackboard or in [Context.Node] (Count, Timer, Child are free for the action to use
// while it runs: a per-node memory of one counter and one timer). tick must not be nil.
func Action(name string, tick func(*Context) Status) *Node {
	return &Node{kind: kindAction, name: name, tick: tick}
}

// AlwaysSuccess is a leaf that returns Success.
func AlwaysSuccess() *Node { return &Node{kind: kindAlwaysSuccess} }

// AlwaysFailure is a leaf that returns Failure.
func AlwaysFailure() *Node { return &Node{kind: kindAlwaysFailure} }

// SetBlackboard is a leaf that writes value into out (BehaviorTree.CPP v4's
// SetBlackboard):
//   - value readable and written: returns Success;
//   - value missing, or no blackboard ([Context.Blackboard] nil): returns Failure.
func SetBlackboard[T any](out Out[T], value In[T]) *Node {
	return &Node{kind: kindSetBlackboard, tick: func(c *Context) Status {
		if v, ok := value.Get(c); ok && out.Set(c, v) {
			return Success
		}
		return Failure
	}}
}

// Op is a comparison of [CheckBlackboard].
type Op uint8

// Comparisons.
const (
	Eq Op = iota // ==
	Ne           // !=
	Lt           // <
	Le           // <=
	Gt           // >
	Ge           // >=
)

var opNames = [...]string{Eq: "==", Ne: "!=", Lt: "<", Le: "<=", Gt: ">", Ge: ">="}

// String returns the operator as written in Go ("==", "<", …).
func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return "?"
}

// CheckBlackboard is a condition leaf comparing two inputs (a blackboard entry and a
// literal, or two entries):
//   - both readable and a op b holds: returns Success;
//   - false, either input missing, or op unknown: returns Failure.
//
// Never Running. In a tree file: <CheckBlackboard value_A="{hp}" op="<" value_B="30"/>,
// op one of == (the default) != < <= > >= (XML-escaped: &lt; &lt;= &gt; &gt;=), each value a "{key}"
// or a literal.
func CheckBlackboard[T cmp.Ordered](a In[T], op Op, b In[T]) *Node {
	return &Node{kind: kindCheckBlackboard, cond: compare(a, op, b, cmp.Compare[T])}
}

// compare builds the condition a op b; order is nil for types without an order (then
// only Eq and Ne hold).
func compare[T comparable](a In[T], op Op, b In[T], order func(x, y T) int) func(*Context) bool {
	return func(c *Context) bool {
		x, ok1 := a.Get(c)
		y, ok2 := b.Get(c)
		if !ok1 || !ok2 {
			return false
		}
		switch op {
		case Eq:
			return x == y
		case Ne:
			return x != y
		}
		if order == nil {
			return false
		}
		r := order(x, y)
		switch op {
		case Lt:
			return r < 0
		case Le:
			return r <= 0
		case Gt:
			return r > 0
		case Ge:
			return r >= 0
		}
		return false
	}
}
