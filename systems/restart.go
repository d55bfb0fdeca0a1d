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
	s.Waiting, s.Expansions, s.Searches, s.Served, s.Dropped, s.Repathed = 0, 0, 0, 0, 0, 0
	s.TotalServed, s.TotalDropped, s.TotalExpansions, s.TotalSearches, s.TotalRepathed = 0, 0, 0, 0, 0
}

// restart drops the columns of the last world and zeroes the strike counts.
func (s *Combat) restart() {
	s.cols.reset()
	s.Strikes, s.TotalStrikes = 0, 0
}

// restart zeroes the think counts (the budget's cursor, always 0, is left as loaded).
func (t *thinkers[B]) restart() { t.Thought, t.Waiting, t.TotalThought, t.Counted = 0, 0, 0, 0 }
