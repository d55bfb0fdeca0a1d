package systems

// A level restart: a system value initialized, run and finalized on one world may be
// initialized again on another and then runs exactly as a fresh value would there. Each
// Initialize builds its filters, columns, buffers and workers anew and calls the
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
}

// restart drops the columns of the last world and zeroes the strike counts.
func (s *Combat) restart() {
	s.cols.reset()
	s.Strikes, s.TotalStrikes = 0, 0
}

// restart zeroes the think counts (the budget's cursor, always 0, is left as loaded).
func (t *thinkers[B]) restart() { t.Thought, t.Waiting, t.TotalThought, t.Counted = 0, 0, 0, 0 }

// mustInitialized panics with a message naming system sys if p, a field its Initialize
// sets, is nil: Update was called before Initialize (a programming error, reported
// like Arche's own). It costs one comparison a frame.
func mustInitialized[T any](p *T, sys string) {
	if p == nil {
		panic(notInitialized(sys))
	}
}

// notInitialized is the panic message of an Update before Initialize.
func notInitialized(sys string) string {
	return "systems: " + sys + ".Update called before Initialize: call Initialize(w) on every system " +
		"(ecs.Scheduler.Initialize, or arche-model's model.Run) before the first Update"
}
