package bt

import (
	"errors"

	"github.com/archai-go/archai/ai/blackboard"
)

// BehaviorTree.CPP 4.x built-in nodes beyond the classic set: TryCatch, ParallelAll,
// AsyncSequence, the queue loops, WasEntryUpdated, SkipUnlessUpdated, WaitValueUpdate and
// Sleep. Their tick code is in nodes_v4_internal.go, their loaders in load_v4.go.

// ErrInvalidStatus is wrapped by [Compile] when a node is given a result status it cannot
// return (a Loop's ifEmpty that is not Success, Failure or Skipped).
var ErrInvalidStatus = errors.New("invalid status")

// TryCatch runs its children but the last as a Sequence (the try block); if one of them
// fails, it runs the last child (the catch block, for clean-up) and fails whatever the
// catch block returns (BehaviorTree.CPP 4.x's TryCatch). It needs at least two children.
//   - entered (not Running): starts at try child 0;
//   - try child Success or Skipped: ticks the next try child in the same tick; after the
//     last one, returns Success, or Skipped if every try child was skipped (since the
//     TryCatch was entered), like [Sequence] (the catch child is not ticked);
//   - try child Running: returns Running; the next tick resumes at that child;
//   - try child Failure: ticks the catch child in the same tick; while it is Running,
//     returns Running (later ticks tick only the catch child); when it finishes, Success
//     or Failure, returns Failure;
//   - halted while a try child is Running and catchOnHalt is true: after the try block's
//     Running nodes are halted (deepest first, as always), the catch child is ticked once
//     with the same [Context] (a bad DT or Time counting as 0, as in [Tree.Tick]); if it
//     is then Running, its subtree is halted too. A
//     TryCatch halted while the catch child runs does not run it again;
//   - catch child Skipped: counts as finished: returns Failure.
//
// catchOnHalt is the catch_on_halt port (false in files unless written).
// Memory: Child holds the index of the running child (the last one while the catch child
// runs), Count the number of try children skipped so far.
func TryCatch(catchOnHalt bool, children ...*Node) *Node {
	n := composite(kindTryCatch, children)
	if catchOnHalt {
		n.n1 = 1
	}
	return n
}

// ParallelAll ticks all its children until every one has finished, then fails if at
// least maxFailures of them failed and succeeds otherwise (BehaviorTree.CPP 4.x's
// ParallelAll, whose max_failures port defaults to 1). maxFailures is a count in
// 1…len(children), or a negative number counting from the end (-1 = all children).
//   - entered (not Running): every child counts as unfinished;
//   - each tick: ticks every unfinished child, in order; a child that finished since the
//     ParallelAll was entered is not ticked again; failures do not stop the others;
//   - child Skipped: does not count as finished and is ticked again on the next tick;
//   - every child skipped in this tick: returns Skipped (as BehaviorTree.CPP);
//   - every child finished or skipped in this tick: returns Failure if failures >=
//     maxFailures, else Success;
//   - otherwise: returns Running.
//
// Since it only completes when no child is Running, ParallelAll never halts a child
// itself; halting it halts its Running children.
// Memory: the children's own statuses record which have finished.
func ParallelAll(maxFailures int, children ...*Node) *Node {
	n := composite(kindParallelAll, children)
	n.n1 = maxFailures
	return n
}

// AsyncSequence is a [Sequence] that returns Running after each child that finished at
// once, so that a long chain of instantaneous children is spread over several ticks and
// can be preempted between them (BehaviorTree.CPP 4.x's AsyncSequence):
//   - entered (not Running): starts at child 0; while Running: resumes at the remembered
//     child;
//   - child Success, the child was not Running before this tick (it started and finished
//     in this tick) and it is not the last child: returns Running and remembers the next
//     child, which is ticked on the next tick;
//   - child Success after running over several ticks: ticks the next child in the same
//     tick, like Sequence; after the last child, returns Success;
//   - child Running: returns Running; child Failure: returns Failure and resets to child 0;
//   - child Skipped: ticks the next child in the same tick (no yield); after the last
//     child, returns Skipped if every child was skipped since the AsyncSequence was
//     entered, else Success, like [Sequence].
//
// What the Running means: BehaviorTree.CPP's AsyncSequence also emits a wake-up signal,
// and its tickOnce and tickWhileRunning then tick the root again at once, so there the
// yield only lets reactive ancestors re-check their conditions between children (only
// tickExactlyOnce shows the Running). [Tree.Tick] is one pass and never re-ticks: the
// next child runs on the agent's next tick, which under a decision system is its next
// think (its cadence), so an AsyncSequence of n instantaneous children takes n of the
// agent's ticks, spreading the work, and a reactive ancestor may halt it in between (it
// then starts over at child 0). These are BehaviorTree.CPP's tickExactlyOnce traces.
// BehaviorTree.CPP's SequenceWithMemory, Repeat and Retry yield the same way; in archai
// they do not: their children run back to back within one Tick, as under tickOnce (see
// [Repeat] for the unbounded case).
//
// Memory: Child holds the index of the child to tick next, Count the number of children
// skipped so far.
func AsyncSequence(children ...*Node) *Node { return composite(kindAsyncSequence, children) }

// Loop runs its child once per element of a queue, writing the element to value before
// each run (BehaviorTree.CPP 4.x's LoopInt, LoopDouble, LoopString and LoopBool, whose
// tags name T = int, float64, string, bool; any T works from Go). queue is read when the
// element is taken, so a queue on the blackboard may change between elements.
//   - entered (not Running): the position starts at element 0;
//   - each tick, unless the child is Running: if the position is past the end of the queue
//     (or the queue is missing), returns ifEmpty without ticking the child; otherwise
//     writes the element to value, moves to the next element and ticks the child;
//   - while the child is Running: ticks it again, taking no element;
//   - child Success, Running or Skipped: returns Running (the next element is taken on
//     the next tick unless the child is Running); child Failure: returns Failure, ending
//     the loop.
//
// So a loop over n elements whose child succeeds at once returns Running n times, then
// ifEmpty. ifEmpty must be Success, Failure or Skipped ([Compile] reports others). value may be
// the zero Out (the element is not written); writing a bound value that fails (no
// blackboard) returns Failure without ticking the child.
//
// Important: BehaviorTree.CPP pops elements off a shared queue on the blackboard, so a
// loop re-entered later finds it empty; here the queue is a []T that is read, never
// consumed (BehaviorTree.CPP's behaviour for a std::vector queue and for literal queues),
// and the position lives in the loop's memory: re-entered after finishing or being
// halted, the loop starts again at element 0.
//
// Memory: Timer holds the index of the next element (a whole number).
func Loop[T any](queue In[[]T], value Out[T], ifEmpty Status, child *Node) *Node {
	n := decorator(kindLoop, child)
	n.other = ifEmpty
	n.name = loopName[T]()
	bound := value.key.Valid()
	n.choose = func(c *Context) int {
		q, ok := queue.Get(c)
		pos := c.mem.Timer
		if !ok || !(pos >= 0 && pos < float64(len(q))) { // a NaN position (corrupt Memory) is past the end
			return 0
		}
		if bound && !value.Set(c, q[int(pos)]) {
			return -1
		}
		c.mem.Timer = float64(int(pos) + 1)
		return 1
	}
	return n
}

// loopName is the BehaviorTree.CPP tag of Loop[T], shown by [Tree.NodeName].
func loopName[T any]() string {
	var zero T
	switch any(zero).(type) {
	case int:
		return "LoopInt"
	case float64:
		return "LoopDouble"
	case string:
		return "LoopString"
	case bool:
		return "LoopBool"
	}
	return "Loop"
}

// WasEntryUpdated is a condition leaf: Success if the blackboard entry was written since
// this node last looked, for this agent (BehaviorTree.CPP 4.x's WasEntryUpdated, which
// compares the entry's sequence number, [blackboard.Entry.Seq]):
//   - entry not set (or no blackboard): returns Failure; the memory is not changed;
//   - otherwise: returns Success if the entry's sequence number differs from the one
//     remembered (so Success the first time after the entry is written), else Failure,
//     and remembers the current one.
//
// A write of the same value counts as an update. Never Running, so never halted; only
// [Tree.Halt] forgets what it saw. Memory: Timer holds the last sequence number seen
// (exact below 2^53 writes).
func WasEntryUpdated(entry blackboard.Entry) *Node {
	return &Node{kind: kindWasEntryUpdated, cond: updated(entry)}
}

// SkipUnlessUpdated ticks its child only when the blackboard entry was written since it
// last looked (BehaviorTree.CPP 4.x's SkipUnlessUpdated):
//   - child Running (from an earlier tick): ticks it again without looking at the entry,
//     and returns its status;
//   - otherwise: looks at the entry as [WasEntryUpdated] does; not updated (or not set):
//     returns [Skipped] without ticking the child (BehaviorTree.CPP's SKIPPED: a
//     [Sequence] goes on, a [Selector] tries its next child); updated: ticks the child
//     and returns its status.
//
// The sequence number seen survives halts (as in BehaviorTree.CPP); only [Tree.Halt]
// forgets it. Memory: Timer holds the last sequence number seen.
func SkipUnlessUpdated(entry blackboard.Entry, child *Node) *Node {
	n := decorator(kindEntryUpdated, child)
	n.cond = updated(entry)
	n.other = Skipped
	return n
}

// WaitValueUpdate is [SkipUnlessUpdated] returning Running instead while the entry is not
// updated (BehaviorTree.CPP 4.x's WaitValueUpdate): it waits for the next write, then
// runs its child.
func WaitValueUpdate(entry blackboard.Entry, child *Node) *Node {
	n := SkipUnlessUpdated(entry, child)
	n.other = Running
	n.name = "WaitValueUpdate"
	return n
}

// updated is the check of WasEntryUpdated and SkipUnlessUpdated, on the memory of the
// node being ticked ([Context.Node]).
func updated(entry blackboard.Entry) func(*Context) bool {
	return func(c *Context) bool {
		seq, ok := entry.Seq(c.Blackboard)
		if !ok {
			return false
		}
		last := c.mem.Timer
		c.mem.Timer = float64(seq)
		return float64(seq) != last
	}
}

// Sleep is a leaf that is Running until seconds of simulation time have passed since it
// started, then succeeds: BehaviorTree.CPP 4.x's Sleep, which counts the wall clock in
// milliseconds (msec), counted here in simulation time exactly like [Wait] (the first
// tick's dt is not counted; Sleep(0) succeeds on its first tick; halting resets it). It
// differs from Wait only in its name.
//
// Memory: Timer holds the seconds slept so far.
func Sleep(seconds float64) *Node { return &Node{kind: kindSleep, seconds: seconds} }

// AsyncFallback is a [Selector] (BehaviorTree.CPP's Fallback) that returns Running after
// each child that failed at once, so that a long chain of instantaneous alternatives is
// spread over several ticks and can be preempted between them (BehaviorTree.CPP 4.x's
// AsyncFallback). It is [AsyncSequence] with Success and Failure swapped:
//   - entered (not Running): starts at child 0; while Running: resumes at the remembered
//     child;
//   - child Failure, the child was not Running before this tick and it is not the last
//     child: returns Running and remembers the next child, ticked on the next tick;
//   - child Failure after running over several ticks: ticks the next child in the same
//     tick, like Selector; after the last child, returns Failure;
//   - child Running: returns Running; child Success: returns Success and resets to
//     child 0;
//   - child Skipped: ticks the next child in the same tick (no yield); after the last
//     child, returns Skipped if every child was skipped since the AsyncFallback was
//     entered, else Failure.
//
// The Running has the meaning described at [AsyncSequence]: the next child runs on the
// agent's next tick (BehaviorTree.CPP's tickExactlyOnce traces).
//
// Memory: Child holds the index of the child to tick next, Count the number of children
// skipped so far.
func AsyncFallback(children ...*Node) *Node { return composite(kindAsyncFallback, children) }

// UnsetBlackboard is a leaf that removes the value of key from the agent's blackboard,
// whatever its type, and returns Success, also when the key was not set
// (BehaviorTree.CPP 4.x's UnsetBlackboard). Make key with [blackboard.Schema.Entry] or
// [blackboard.EntryOf]; a zero Entry unsets nothing. It allocates nothing.
func UnsetBlackboard(key blackboard.Entry) *Node {
	return &Node{kind: kindUnsetBlackboard, tick: func(c *Context) Status {
		key.Unset(c.Blackboard)
		return Success
	}}
}
