package scenario

// The scenario's own systems (GoalDirector, Casualties) follow the lifecycle of the
// systems of package systems: an Update before Initialize, or after Finalize with no
// Initialize since, panics naming the system (a programming error), rather than failing
// on a nil field or running on over a world the program has finished with. A Finalize
// before Initialize, or a second one, does nothing; Initialize again (a level restart)
// makes the system run.

// mustInitialized panics with a message naming system sys unless ready (a field its
// Initialize sets and its Finalize clears is set): Update was called before Initialize,
// or after Finalize (finalized) with no Initialize since.
func mustInitialized(ready, finalized bool, sys string) {
	if ready {
		return
	}
	if finalized {
		panic("scenario: " + sys + ".Update called after Finalize: call Initialize(w) again first (a level restart), or stop updating it")
	}
	panic("scenario: " + sys + ".Update called before Initialize: call Initialize(w) on every system " +
		"(ecs.Scheduler.Initialize, or arche-model's model.Run) before the first Update")
}
