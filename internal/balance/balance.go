// Package balance splits a pass of work over a pool's workers in shares
// that follow each worker's measured speed, for passes whose result does not
// depend on where the split falls (a counting sort's ranges of buckets, a
// copy's ranges of items).
//
// Why: the development machine's two CPUs are virtual, and for minutes at a
// time one runs 15–80% slower than the other (whichever the host's other
// guests crowd; measured with the same loop pinned to each CPU). A pass cut
// in equal halves then lasts as long as the slower half, and the faster
// worker waits. Shares moves part of the slower worker's range to the faster
// from one frame to the next: the worker that runs part k is the same frame
// after frame (ecs.Workers's calling goroutine runs chunk 0, a helper chunk
// 1), and so is the speed of its CPU, for many frames.
package balance

// Shares is each part's share of a pass split into parts, adapted from the
// time each part took the last time (Adapt). The zero value is not usable:
// call Reset first.
type Shares struct {
	w     []float64 // per part, its share (the shares sum to 1)
	took  []int64   // per part, the nanoseconds its last run took; 0 if not measured since Adapt
	fixed []bool    // bound's scratch: per part, its share is at a bound
}

// gain is the fraction of the way to the shares that would have evened the
// last pass's times that one Adapt goes: small enough that one preempted
// part (its time far too long) moves the split a little, for one pass.
const gain = 0.25

// maxRatio is the most one part's speed is taken to exceed another's: the
// CPUs measured differ by up to 1.8×; a part that took longer still was
// preempted (a shared machine), and one such pass should not move the split
// far, nor for long.
const maxRatio = 2

// lowest and highest bound a part's share, times parts: no worker gets less
// than half an equal share, nor more than one and a half.
const (
	lowest  = 0.5
	highest = 1.5
)

// Reset sets parts equal shares, forgetting the times measured.
func (s *Shares) Reset(parts int) {
	parts = max(parts, 1)
	if cap(s.w) < parts {
		s.w, s.took, s.fixed = make([]float64, parts), make([]int64, parts), make([]bool, parts)
	}
	s.w, s.took, s.fixed = s.w[:parts], s.took[:parts], s.fixed[:parts]
	for k := range s.w {
		s.w[k] = 1 / float64(parts)
	}
	clear(s.took)
}

// Parts returns the number of parts.
func (s *Shares) Parts() int { return len(s.w) }

// Took records that part k's run took ns nanoseconds (> 0). A part's run
// calls it from its own goroutine; parts touch distinct elements.
func (s *Shares) Took(k int, ns int64) { s.took[k] = max(ns, 1) }

// Adapt moves the shares towards those that would have made every part of
// the last pass take the same time, if every part's time was recorded since
// the last Adapt (else it leaves them), and forgets the times. A part's
// speed is taken as its share over its time: a part with a fixed cost
// besides its share's (a scan of every item) is still evened out, over a
// few passes.
func (s *Shares) Adapt() {
	fastest := 0.0
	for k, t := range s.took {
		if t <= 0 {
			clear(s.took)
			return
		}
		fastest = max(fastest, s.w[k]/float64(t))
	}
	// speeds (share per ns) of at least 1/maxRatio the fastest's: a part
	// whose goroutine lost its CPU for a while moves the split no farther
	// than a CPU half as fast would
	var sum float64
	for k, t := range s.took {
		sum += max(s.w[k]/float64(t), fastest/maxRatio)
	}
	for k, t := range s.took {
		want := max(s.w[k]/float64(t), fastest/maxRatio) / sum
		s.w[k] += float64(gain * (want - s.w[k])) // the shares still sum to 1 (product rounded: no fused multiply-add)
	}
	s.bound()
	clear(s.took)
}

// bound moves every share into [lowest, highest]/parts, keeping their sum
// 1: a share out of bounds is set to the bound, and the others are scaled
// to make up the sum, until none is out (at most once per part).
func (s *Shares) bound() {
	parts := float64(len(s.w))
	lo, hi := lowest/parts, highest/parts
	clear(s.fixed)
	for range s.w {
		fixed, free := 0.0, 0.0
		for k, w := range s.w {
			if s.fixed[k] {
				fixed += w
			} else {
				free += w
			}
		}
		if free <= 0 {
			return
		}
		scale := (1 - fixed) / free
		out := false
		for k := range s.w {
			if s.fixed[k] {
				continue
			}
			s.w[k] *= scale
			if s.w[k] < lo || s.w[k] > hi {
				s.w[k] = min(max(s.w[k], lo), hi)
				s.fixed[k], out = true, true
			}
		}
		if !out {
			return
		}
	}
}

// Bounds writes into b (grown to parts+1 entries) the bounds of the parts'
// ranges of [0, n), each of about its share of n, in order: part k is
// [b[k], b[k+1]), b[0] = 0 and b[parts] = n. It returns b.
func (s *Shares) Bounds(n int, b []int) []int {
	if cap(b) < len(s.w)+1 {
		b = make([]int, len(s.w)+1)
	}
	b = b[:len(s.w)+1]
	var cum float64
	b[0] = 0
	for k := 1; k < len(s.w); k++ {
		cum += s.w[k-1]
		b[k] = min(max(int(float64(cum*float64(n))+0.5), b[k-1]), n) // product rounded: no fused multiply-add
	}
	b[len(s.w)] = n
	return b
}

// Cut returns the fraction of the whole at which part k starts (0 for part
// 0): the sum of the shares of the parts before it.
func (s *Shares) Cut(k int) float64 {
	var cum float64
	for _, w := range s.w[:k] {
		cum += w
	}
	return cum
}
