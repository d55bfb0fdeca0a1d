package systems

import "github.com/archai-go/archai/ecs"

// A level restart: a system value initialized, run and finalized on one world may be
// initialized again on another and then runs exactly as a fresh value would there. Each
// Initialize builds its filters, columns, buffers and workers anew (closing the
// workers of an Initialize not finalized since: see reopenPool) and calls the
// system's restart, which drops what the system learnt of the last world (queued
// searches, counters since Initialize). The settings the user set (Workers, Budget, ...)
// are kept, including the defaults Initialize filled in.

// restart drops the queue's jobs and columns of the last world and zeroes its
// statistics.
func (s *PathQueue) restart() {
	s.reset()
	s.cols.reset()
	s.Waiting, s.Expansions, s.Searches, s.Served, s.Dropped, s.Repathed, s.Requeued = 0, 0, 0, 0, 0, 0, 0
	s.TotalServed, s.TotalDropped, s.TotalExpansions, s.TotalSearches, s.TotalRepathed, s.TotalRequeued = 0, 0, 0, 0, 0, 0
	s.Orphaned, s.Replaced, s.Cancelled, s.TotalOrphaned, s.TotalReplaced, s.TotalCancelled = 0, 0, 0, 0, 0, 0
	s.Overtaken, s.AStarInstead, s.TotalOvertaken, s.TotalAStarInstead = 0, 0, 0, 0
}

// restart drops the columns of the last world and zeroes the strike counts.
func (s *Combat) restart() {
	s.cols.reset()
	s.Strikes, s.TotalStrikes, s.Cooling, s.AttackersDown = 0, 0, 0, 0
	s.Downed, s.downedFrame = s.Downed[:0], -1
	s.Allies, s.allies = 0, s.allies[:0]
}

// restart zeroes the think counts (the budget's cursor, always 0, is left as loaded).
func (t *thinkers[B]) restart() {
	t.Thought, t.Waiting, t.TotalThought, t.Counted, t.backlog, t.runs = 0, 0, 0, 0, 0, 0
}

// Finalize releases what Initialize built (the workers, the filter) and clears the field
// mustInitialized checks, setting the system's finalized flag; an Update after it, with
// no Initialize between, panics naming the system (a finalized system's workers are
// closed, so without this check systems with workers would panic in the pool and the
// others run on, silently, on a world the program has finished with). A Finalize of a
// system never initialized, or finalized already, releases nothing (it used to panic on
// the missing worker pool); it still counts as a Finalize for Diagnose's Report.Twice,
// since a value added twice to a schedule is initialized twice and finalized twice.

// mustInitialized panics with a message naming system sys if p, a field its Initialize
// sets and its Finalize clears, is nil: Update was called before Initialize, or after
// Finalize (finalized) with no Initialize since (programming errors, reported like
// Arche's own). It costs one comparison a frame.
func mustInitialized[T any](p *T, finalized bool, sys string) {
	if p == nil {
		if finalized {
			panic(updatedAfterFinalize(sys))
		}
		panic(notInitialized(sys))
	}
}

// updatedAfterFinalize is the panic message of an Update after Finalize.
func updatedAfterFinalize(sys string) string {
	return "systems: " + sys + ".Update called after Finalize: the system has released its workers and the world; " +
		"call Initialize(w) again first (a level restart), or stop updating it"
}

// notInitialized is the panic message of an Update before Initialize.
func notInitialized(sys string) string {
	return "systems: " + sys + ".Update called before Initialize: call Initialize(w) on every system " +
		"(ecs.Scheduler.Initialize, or arche-model's model.Run) before the first Update"
}

// reopenPool returns a new pool of n workers for a system's Initialize (ecs.NewWorkers),
// closing old first: the pool of an earlier Initialize, or nil. An Initialize without a
// Finalize since the last (the same value added twice to a schedule, a level restarted
// without finalizing the last) used to leave the old pool open, and with it the helper
// goroutines that every open pool shares, running for good after the last Finalize.
// Closing a pool closed already (by Finalize) does nothing.
func reopenPool(old *ecs.Workers, n int) *ecs.Workers {
	if old != nil {
		old.Close()
	}
	return ecs.NewWorkers(n)
}

// setupFault is the panic value of a fault of setup found by system sys's
// Initialize (a missing resource, an unusable setting, an impossible order):
// an *ecs.SetupError of kind (ecs.ErrMissingResource, ErrSettings or ErrOrder)
// with message msg, which ecs.Scheduler.InitializeChecked returns as an error.
func setupFault(sys string, kind error, msg string) *ecs.SetupError {
	return &ecs.SetupError{System: sys, Kind: kind, Msg: msg}
}
