package systems

import (
	"math/bits"

	"github.com/archai-go/archai/nav/grid"
)

// waypointSpares is the path queue's stock of spare waypoint buffers, so that
// a path longer than its agent's buffer does not allocate in steady state.
//
// Why: a path longer than its agent's buffer used to get a new buffer of its
// own, kept by the agent for good. Such paths are rare (at 100,000 guards,
// about one served path in 1,000 is longer than the bundles' 64 waypoints)
// but every agent meets its first one at some random frame, so in a large
// crowd buffers kept growing, one now and then, for as long as it ran: a
// warm-up that never ended (0.03 allocations per frame in the second half of
// a 120-frame run at 100,000 guards).
//
// Now buffers are exchanged, not grown: a path that does not fit takes a spare
// of its size class and leaves the agent's old buffer in the stock; a path that
// fits a smaller class than the agent's buffer takes a spare of that class, if
// there is one, and leaves the larger buffer. So the large buffers in use are
// those of the agents whose current path is long, a number that stays about
// the same while a crowd runs, not one that only grows. When a class has no
// spare, a batch of buffers is made in one allocation, at least as many as
// were made for the class before: the class's stock doubles each time, so the
// batches stop once it covers the most long paths held at once.
//
// Class k holds buffers of at least spareMin<<k cells (and fewer than
// spareMin<<(k+1)); a buffer of fewer than spareMin cells is not kept.
type waypointSpares struct {
	spare [spareClasses][][]grid.Cell // by class
	made  [spareClasses]int           // buffers made for the class so far
}

const (
	spareMin     = 16
	spareClasses = 24 // up to 16<<23 cells, more than grid.MaxCells
	// A class's first batch has spareFirstBatch buffers, or one per
	// spareAgentsPer agents, as far as they fit in spareBatchBytes (batch).
	spareFirstBatch = 8
	spareAgentsPer  = 1024
	spareBatchBytes = 1 << 20
)

// spareClass returns the class a buffer of capacity c is kept in, or -1 if
// it is too small to keep.
func spareClass(c int) int {
	if c < spareMin {
		return -1
	}
	return min(bits.Len(uint(c/spareMin))-1, spareClasses-1)
}

// needClass returns the smallest class whose every buffer holds n cells.
func needClass(n int) int {
	if n <= spareMin {
		return 0
	}
	return bits.Len(uint((n - 1) / spareMin))
}

// fit returns a buffer for a path of n cells in place of wp, and true, when it
// exchanged wp for a spare (the caller stores and holds the new buffer), or
// wp and false when wp stays. agents is the number of agents with a path (it
// sizes a first batch). It allocates only when a class it needs has no spare:
// a batch, in one allocation.
func (s *waypointSpares) fit(wp []grid.Cell, n, agents int) ([]grid.Cell, bool) {
	need, have := needClass(n), spareClass(cap(wp))
	if cap(wp) >= n {
		// a smaller class that holds the path, if one has a spare
		for k := need; k < have; k++ {
			if len(s.spare[k]) > 0 {
				return s.exchange(wp, have, k), true
			}
		}
		return wp, false
	}
	if need >= spareClasses {
		return make([]grid.Cell, 0, n), true // beyond the classes (more cells than a grid has)
	}
	if len(s.spare[need]) == 0 {
		s.batch(need, have, agents)
	}
	return s.exchange(wp, have, need), true
}

// exchange takes a spare of class k and leaves wp (of class have) in the stock.
func (s *waypointSpares) exchange(wp []grid.Cell, have, k int) []grid.Cell {
	last := len(s.spare[k]) - 1
	out := s.spare[k][last]
	s.spare[k][last] = nil
	s.spare[k] = s.spare[k][:last]
	if have >= 0 {
		s.spare[have] = append(s.spare[have], wp[:0])
	}
	return out
}

// batch makes spare buffers of class k in one allocation: as many as were
// made before (so the class's stock doubles), and at least spareFirstBatch or,
// for a crowd, one per spareAgentsPer agents, as far as they fit in
// spareBatchBytes (at least one). It also gives the lists
// of class k, of class have (where the buffer exchanged now goes) and of every
// class used before room for every buffer ever made: a list holds at most
// that many (an exchange puts one buffer in for one it takes out), so giving
// buffers back never grows a list.
func (s *waypointSpares) batch(k, have, agents int) {
	size := spareMin << k
	count := max(1, s.made[k], min(max(spareFirstBatch, agents/spareAgentsPer), spareBatchBytes/(8*size)))
	s.made[k] += count
	total := 0
	for _, m := range s.made {
		total += m
	}
	for c := range s.spare {
		if (c == k || c == have || cap(s.spare[c]) > 0) && cap(s.spare[c]) < total {
			s.spare[c] = append(make([][]grid.Cell, 0, total), s.spare[c]...)
		}
	}
	cells := make([]grid.Cell, count*size)
	for i := range count {
		s.spare[k] = append(s.spare[k], cells[i*size:i*size:(i+1)*size])
	}
}
