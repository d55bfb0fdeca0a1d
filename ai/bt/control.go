package bt

import "slices"

// All is the Parallel threshold "every child": Parallel(All, 1, …) succeeds when all
// children succeed and fails on the first failure.
const All = -1

// Sequence ticks its children in order until one fails or is Running. It has memory and
// follows BehaviorTree.CPP v4's Sequence:
//   - entered (not Running): starts at child 0;
//   - while Running: resumes at the child that returned Running, without re-ticking the
//     earlier children;
//   - child Success: ticks the next child in the same tick; after the last, returns
//     Success and resets to child 0;
//   - child Running: returns Running and remembers that child;
//   - child Failure: returns Failure and resets to child 0 (the next tick starts over);
//   - child Skipped: ticks the next child in the same tick, as if the skipped one were
//     not there; after the last, returns Skipped if every child was skipped since the
//     Sequence was entered (also in earlier ticks while it was Running), else Success.
//
// Important: a condition before a Running action is not checked again while the action
// runs. In ReactiveSelector(Sequence(SeesFoe, Chase), Patrol), Chase keeps running after
// the foe is lost (the Sequence is Running, so the selector never gets to Patrol); write
// ReactiveSequence(SeesFoe, Chase) for a guard that must stop the action.
//
// Memory: Child holds the index (0-based, among its children) of the running child,
// Count the number of children skipped so far.
func Sequence(children ...*Node) *Node { return composite(kindSequence, children) }

// SequenceWithMemory is a Sequence that never forgets its progress, like
// BehaviorTree.CPP v4's SequenceWithMemory: a plan re-entered after a failure or a halt
// continues where it was.
//   - every tick (Running or not): resumes at the remembered child;
//   - child Success: ticks the next child in the same tick; after the last, returns
//     Success and resets to child 0;
//   - child Running: returns Running and remembers that child;
//   - child Failure: returns Failure and remembers that child (the next tick retries it,
//     the earlier children are not ticked again);
//   - halted: the running child's subtree is halted, the position is kept;
//   - child Skipped: as in [Sequence]; all children skipped returns Skipped (the skips
//     before the kept position count).
//
// Only [Tree.Halt] (tree swap) forgets the position. Memory: Child holds the position,
// Count the children before it that were skipped.
func SequenceWithMemory(children ...*Node) *Node {
	return composite(kindSequenceWithMemory, children)
}

// Selector (Fallback) ticks its children in order until one succeeds or is Running. It
// has memory, like BehaviorTree.CPP v4's Fallback:
//   - entered (not Running): starts at child 0;
//   - while Running: resumes at the child that returned Running;
//   - child Failure: ticks the next child in the same tick; after the last, returns
//     Failure and resets to child 0;
//   - child Running: returns Running and remembers that child;
//   - child Success: returns Success and resets to child 0;
//   - child Skipped: ticks the next child in the same tick; after the last, returns
//     Skipped if every child was skipped since the Selector was entered, else Failure.
//
// Memory: Child holds the index of the running child, Count the children skipped so far.
func Selector(children ...*Node) *Node { return composite(kindSelector, children) }

// ReactiveSequence re-evaluates its children from child 0 on every tick, so earlier
// children act as guards of later ones (BehaviorTree.CPP v4's ReactiveSequence):
//   - child Success: ticks the next child in the same tick; after the last, returns Success;
//   - child Running: halts every later child that is Running (a guard now Running stops
//     the action after it) and returns Running;
//   - child Failure: halts every later child that is Running and returns Failure;
//   - child Skipped: ticks the next child; after the last, returns Skipped if every child
//     was skipped in this tick, else Success.
//
// Important: as in BehaviorTree.CPP, the preempted later child is halted after the earlier
// child's tick decided the preemption (no look-ahead), so that earlier child's subtree is
// ticked before the halt hooks run.
//
// Memory: Child holds the index of the child that returned Running (for debugging).
func ReactiveSequence(children ...*Node) *Node { return composite(kindReactiveSequence, children) }

// ReactiveSelector re-evaluates its children from child 0 on every tick, so a
// higher-priority (earlier) child preempts a lower one (BehaviorTree.CPP v4's
// ReactiveFallback):
//   - child Failure: ticks the next child in the same tick; after the last, returns Failure;
//   - child Running: halts every later child that is Running and returns Running;
//   - child Success: halts every later child that is Running and returns Success;
//   - child Skipped: ticks the next child; after the last, returns Skipped if every child
//     was skipped in this tick, else Failure.
//
// The halt comes after the preempting child's tick, as for [ReactiveSequence].
//
// Memory: Child holds the index of the child that returned Running (for debugging).
func ReactiveSelector(children ...*Node) *Node { return composite(kindReactiveSelector, children) }

// Parallel ticks all its children in each tick and counts how they finish, like
// BehaviorTree.CPP v4's Parallel. success and failure are thresholds: a count in
// 1…len(children), or a negative number counting from the end (-1 = [All], -2 = all but
// one, …).
//   - entered (not Running): every child counts as unfinished;
//   - each tick: ticks the unfinished children in order; a child that finished (Success or
//     Failure) since the Parallel was entered is not ticked again;
//   - after each child: successes >= success: halts the Running children, returns Success;
//     failures >= failure, or too few children left to reach success: halts the Running
//     children, returns Failure; the remaining children are not ticked;
//   - otherwise: returns Running.
//
// A skipped child has not finished: it is ticked again on the next tick. It counts
// toward neither threshold, except that a success threshold counted from the end
// (negative, such as [All]) adds the children skipped in this tick to the successes, as
// BehaviorTree.CPP's Parallel does (so Parallel(All, …) whose children are all skipped
// succeeds). When every child ticked in a tick was skipped and none finished before,
// returns Skipped.
//
// Memory: the children's own statuses record which have finished; counts are recomputed.
func Parallel(success, failure int, children ...*Node) *Node {
	n := composite(kindParallel, children)
	n.n1, n.n2 = success, failure
	return n
}

// IfThenElse ticks cond, then one branch (BehaviorTree.CPP v4's IfThenElse). otherwise may
// be nil.
//   - entered: ticks cond; Running returns Running (cond is ticked again next tick);
//   - cond Success: ticks then; cond Failure: ticks otherwise, or returns Failure if nil;
//   - branch Running: returns Running; the next tick resumes the branch without
//     re-checking cond (not reactive);
//   - branch Success or Failure: returns it; the next tick starts at cond;
//   - cond Skipped: returns Skipped without ticking a branch (BehaviorTree.CPP throws);
//     a branch Skipped: returns Skipped.
//
// Memory: Child is 0 while at cond, else the index of the running branch (1 or 2).
func IfThenElse(cond, then, otherwise *Node) *Node {
	return composite(kindIfThenElse, optional(cond, then, otherwise))
}

// WhileDoElse is the reactive IfThenElse (BehaviorTree.CPP v4's WhileDoElse): cond is
// ticked on every tick. otherwise may be nil.
//   - cond Running: returns Running; a branch that was Running stays so, unticked;
//   - cond Success: halts otherwise if it is Running, then ticks do and returns its status;
//   - cond Failure: halts do if it is Running, then ticks otherwise and returns its
//     status, or returns Failure if otherwise is nil;
//   - cond Skipped: halts the branch that is Running and returns Skipped
//     (BehaviorTree.CPP returns Idle, which its parents reject); a branch Skipped:
//     returns Skipped.
//
// Memory: Child is the index of the branch ticked last (1 or 2), for debugging.
func WhileDoElse(cond, do, otherwise *Node) *Node {
	return composite(kindWhileDoElse, optional(cond, do, otherwise))
}

func optional(cond, then, otherwise *Node) []*Node {
	if otherwise == nil {
		return []*Node{cond, then}
	}
	return []*Node{cond, then, otherwise}
}

// Switch ticks the child whose case equals value, or the last child (the default) when
// none does or value is missing; len(children) must be len(cases)+1. It follows
// BehaviorTree.CPP v4's SwitchN and is reactive, like [Choose]:
//   - each tick: reads value and picks the child (first equal case wins);
//   - a different child still Running is halted before the picked one is ticked;
//   - returns the picked child's status, Skipped included (BehaviorTree.CPP's Switch does
//     not fall back to the default then).
//
// Loaded from a file (Switch1…Switch9), a case equals the value also when both are
// numbers of equal value, as in BehaviorTree.CPP 4.x: case_1="5" matches "5.0" in a
// string key and 5 in an int key, never "5abc"; a case equal so to an earlier one is a
// load error ([ErrPort]): its child could never run. Built in Go, a case equal to an
// earlier one, or a float NaN (equal to no value), fails [Compile] with
// [ErrUnreachableCase].
//
// Memory: Child holds the index of the running child.
func Switch[T comparable](value In[T], cases []T, children ...*Node) *Node {
	cs := append([]T(nil), cases...)
	n := composite(kindSwitch, children)
	n.n1 = len(cs) + 1
	for i, x := range cs { // Compile refuses a case that can never be picked
		if x != x || slices.Index(cs[:i], x) >= 0 { // NaN, or equal to an earlier case
			n.n2 = i + 1
			break
		}
	}
	n.choose = func(c *Context) int {
		v, ok := value.Get(c)
		if ok {
			for i, x := range cs {
				if x == v {
					return i
				}
			}
		}
		return len(cs)
	}
	return n
}

// Choose is the hook for hybrids: a composite whose branch is picked by a function, such as
// a utility reasoner choosing the best option or an FSM mode. Every tick:
//   - choose(ctx) returns a child index (0-based); during the call [Context.Node] is the
//     Choose node's own memory, whose Count and Timer are free for choose (hysteresis,
//     last score, time since the choice changed); Child is reserved;
//   - if a different child is still Running, its subtree is halted first (halt contract:
//     hooks deepest first, memory reset), before the chosen child is ticked;
//   - index out of range: returns Failure (after that halt) without ticking a child;
//   - otherwise ticks the chosen child and returns its status.
//
// Choose is reactive: choose is asked on every tick, also while a child is Running. name is
// shown by [Tree.NodeName]; choose must not be nil.
//
// Memory: Child holds the index of the running child.
func Choose(name string, choose func(*Context) int, children ...*Node) *Node {
	n := composite(kindChoose, children)
	n.name = name
	n.choose = choose
	return n
}
