package bt

// Forever is the count of a [Repeat] or [Retry] without limit: -1, as
// num_cycles="-1" and num_attempts="-1" in a BehaviorTree.CPP file. No other
// negative count is one: [Compile] refuses it with [ErrInvalidCount], and so
// does a file's loader.
const Forever = -1

// MaxCount is the largest count of [Repeat] and [Retry].
const MaxCount = 1<<16 - 1

// MaxTickCycles bounds the node ticks one tick of a tree can take: a finite [Repeat] or
// [Retry] re-runs a child that completes at once in the same tick, so nested counts
// multiply (Repeat(65535, Repeat(65535, leaf)) would tick the leaf 4.3 billion times in
// one tick: hours), and siblings add. [Compile], and so every loader, refuses a tree
// beyond it with [ErrInvalidCount]. A child that cannot complete in the tick it starts (a
// Wait or Sleep of more than 0 s, a Delay, a [Forever] loop of such a child) runs once a
// tick and counts once. A node that may return without ticking its own child (a Cooldown
// cooling down, a Precondition, a RunOnce that has finished, a Choose picking no child, a
// Repeat or Retry of count 0, a node with a precondition script) and a SequenceWithMemory
// (it resumes at the child that failed) count as able to complete at once.
const MaxTickCycles = 1 << 20

// Inverter ticks its child and swaps Success and Failure:
//   - child Success: returns Failure;
//   - child Failure: returns Success;
//   - child Running or Skipped: returns it.
func Inverter(child *Node) *Node { return decorator(kindInverter, child) }

// ForceSuccess ticks its child and turns a finished result into Success:
//   - child Running or Skipped: returns it;
//   - child Success or Failure: returns Success.
func ForceSuccess(child *Node) *Node { return decorator(kindForceSuccess, child) }

// ForceFailure ticks its child and turns a finished result into Failure:
//   - child Running or Skipped: returns it;
//   - child Success or Failure: returns Failure.
func ForceFailure(child *Node) *Node { return decorator(kindForceFailure, child) }

// Repeat runs its child n times in a row ([Forever] if n is -1), like BehaviorTree.CPP v4's
// Repeat:
//   - child Running: returns Running;
//   - child Failure: returns Failure, the count restarts;
//   - child Success: counts one cycle; after n cycles returns Success and the count
//     restarts; otherwise starts the child again in the same tick (n finite), or returns
//     Running and starts it again on the next tick (Forever: at most one cycle per tick,
//     so a child that succeeds at once cannot hang the tick);
//   - n == 0: returns Success without ticking the child;
//   - child Skipped: returns Skipped and keeps the count: the next entry continues it
//     (BehaviorTree.CPP's rule).
//
// n must be -1 ([Forever]) to [MaxCount]: [Compile] refuses any other count with
// [ErrInvalidCount], as the loaders refuse num_cycles="-5": BehaviorTree.CPP's port
// documents only -1 ("Use -1 to create an infinite loop"), and its RepeatNode loops
// while count < num_cycles or num_cycles == -1, so it runs no cycle for -5 in silence.
// Until 2026-12 any n < 0 meant Forever here. Memory: Count holds the cycles done.
func Repeat(n int, child *Node) *Node {
	d := decorator(kindRepeat, child)
	d.n1 = n
	return d
}

// RepeatUntilFailure runs its child again and again until it fails:
//   - child Success: returns Running; the child starts again on the next tick (one cycle
//     per tick);
//   - child Failure: returns Success;
//   - child Running or Skipped: returns it.
//
// BehaviorTree.CPP's KeepRunningUntilFailure is ForceFailure(RepeatUntilFailure(child)),
// except for a skipped child, where BehaviorTree.CPP returns Running (a case its source
// marks TODO) and we return Skipped.
func RepeatUntilFailure(child *Node) *Node { return decorator(kindRepeatUntilFailure, child) }

// RepeatUntilSuccess runs its child again and again until it succeeds (Retry forever):
//   - child Failure: returns Running; the child starts again on the next tick (one cycle
//     per tick);
//   - child Success: returns Success;
//   - child Running or Skipped: returns it.
func RepeatUntilSuccess(child *Node) *Node { return decorator(kindRepeatUntilSuccess, child) }

// Retry gives its child up to n attempts ([Forever] if n is -1), like BehaviorTree.CPP v4's
// RetryUntilSuccessful:
//   - child Running: returns Running;
//   - child Success: returns Success, the count restarts;
//   - child Failure: counts one attempt; after n attempts returns Failure and the count
//     restarts; otherwise starts the child again in the same tick (n finite), or returns
//     Running and starts it again on the next tick (Forever: one attempt per tick);
//   - n == 0: returns Failure without ticking the child;
//   - child Skipped: returns Skipped and keeps the count, as [Repeat].
//
// n must be -1 ([Forever]) to [MaxCount], as for [Repeat] (num_attempts="-7" and
// Retry(-7, child) are both refused with [ErrInvalidCount]). Memory: Count holds the
// failed attempts.
func Retry(n int, child *Node) *Node {
	d := decorator(kindRetry, child)
	d.n1 = n
	return d
}

// Cooldown lets its child run at most once per seconds of simulation time, like Unreal's
// Cooldown decorator. The cooldown starts when the child completes:
//   - cooling down (ctx.Time < completion time + seconds): returns Failure without
//     ticking the child;
//   - otherwise: ticks the child; Running returns Running;
//   - child Success or Failure: returns the child's status and starts the cooldown at
//     ctx.Time of that tick; the child is available again on the first tick with
//     ctx.Time >= that time + seconds (within 1e-9 s);
//   - child Skipped: returns Skipped; no cooldown starts.
//
// A halted Cooldown (its child was Running) does not start a cooldown: halting resets its
// memory (Unreal's decorator also starts the cooldown when its branch is aborted). The
// cooldown survives the Cooldown node completing and halts, [Tree.Halt] included (so a
// state machine state left and re-entered does not run the child again early); only a
// new memory clears it.
// Cooldown needs [Context.Time]; seconds must be finite and >= 0 ([Compile] and the
// loaders reject others). A cooldown never lasts longer than seconds from the current
// ctx.Time, so if Time goes backwards the wait shrinks instead of growing; a Time that is
// NaN or infinite counts as 0 (see [Tree.Tick]). A tree with a Cooldown (or another timer)
// over systems.MaxTreeTimer (600 s) is reported by systems.Diagnose as
// tree_timer_too_long: seconds="5000" is most often 5000 ms meant ([Tree.LongestTimer]).
//
// Memory: Count is 1 while cooling down, and Timer holds the time it becomes available.
func Cooldown(seconds float64, child *Node) *Node {
	n := decorator(kindCooldown, child)
	n.seconds = seconds
	return n
}

// Timeout limits how long its child may run, in seconds of simulation time (like
// BehaviorTree.CPP v4's Timeout, on simulation time). The clock counts like [Wait]:
//   - entered (not Running): the timer starts at 0 and the child is ticked;
//   - later ticks: adds ctx.DT; if the timer reached seconds (within 1e-9 s), halts the
//     child's subtree and returns Failure without ticking it;
//   - otherwise returns the child's status; a skipped child's Skipped ends the Timeout
//     (the next entry starts the timer afresh, where BehaviorTree.CPP's timer would
//     keep running).
//
// So with a constant dt the child is ticked on at most ceil(seconds/dt) ticks before the
// timeout fires; a Timeout racing a Wait of the same length fires first. seconds must be
// finite and >= 0; 0 sets no limit (the child runs as long as it is Running), as
// BehaviorTree.CPP's msec="0" starts no timer; a bad ctx.DT counts as 0 (see [Tree.Tick]). Memory: Timer holds the
// seconds elapsed.
func Timeout(seconds float64, child *Node) *Node {
	n := decorator(kindTimeout, child)
	n.seconds = seconds
	return n
}

// Delay waits seconds of simulation time before ticking its child (BehaviorTree.CPP v4's
// Delay, on simulation time). The clock counts like [Wait]:
//   - entered: the timer starts at 0; later ticks add ctx.DT;
//   - timer < seconds: returns Running without ticking the child;
//   - then: ticks the child on every tick until it finishes, and returns its status; a
//     skipped child's Skipped ends the Delay (the next entry waits again, where
//     BehaviorTree.CPP would tick the child at once).
//
// Delay(s, x) gives the same trace as Sequence(Wait(s), x). seconds must be finite and
// >= 0; a bad ctx.DT counts as 0 (see [Tree.Tick]). Memory: Timer holds the seconds
// waited, Count is 1 once the delay is over.
func Delay(seconds float64, child *Node) *Node {
	n := decorator(kindDelay, child)
	n.seconds = seconds
	return n
}

// RunOnce ticks its child until it finishes once, then never again (BehaviorTree.CPP's
// RunOnce with then_skip="false"):
//   - not yet finished: ticks the child and returns its status (a skipped child has not
//     finished: RunOnce returns Skipped and tries again next time);
//   - finished: returns the child's final status without ticking it.
//
// Only [Tree.Halt] forgets it. Memory: Count is 1 once finished, Child holds the final
// status.
func RunOnce(child *Node) *Node { return decorator(kindRunOnce, child) }

// RunOnceThenSkip is [RunOnce] returning [Skipped] once the child has finished, instead
// of its final status: BehaviorTree.CPP's RunOnce with then_skip="true", its default.
// The parent then moves on as if the node were not there.
func RunOnceThenSkip(child *Node) *Node {
	n := decorator(kindRunOnce, child)
	n.n1 = 1
	return n
}

// Precondition guards its child with a condition checked when the child is entered, like
// BehaviorTree.CPP v4's Precondition:
//   - entered (not Running): if cond(ctx) is false, returns otherwise (Success, Failure or
//     Skipped; any other status counts as Failure) without ticking the child;
//   - otherwise, and while the child is Running: ticks the child and returns its status
//     (cond is not asked again while the child runs; for a guard checked every tick use a
//     [ReactiveSequence] or [WhileDoElse]).
//
// During cond, [Context.Node] is the Precondition's memory. name is shown by
// [Tree.NodeName]; cond must not be nil.
func Precondition(name string, cond func(*Context) bool, otherwise Status, child *Node) *Node {
	n := decorator(kindPrecondition, child)
	n.name = name
	n.cond = cond
	n.other = otherwise
	return n
}

// SubTree marks root as a tree used inside another under the name id: it ticks root and
// returns its status, and shows as its own node in traces and dumps. Trees loaded from
// files also give a SubTree its own blackboard scope (see [Registry]); a SubTree built in
// Go shares the keys its leaves were built with.
func SubTree(id string, root *Node) *Node {
	n := decorator(kindSubTree, root)
	n.name = id
	return n
}
