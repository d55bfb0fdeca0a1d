package systems

import (
	"math"
	"unsafe"

	"github.com/archai-go/archai/ai/steer"
	"gonum.org/v1/gonum/spatial/r2"
)

// separation is steer.Separation(pos, the neighbours within radius, radius,
// maxForce, its entity ID) for the agent in slot of the hash, fused with the
// neighbour query: it reads the neighbours' positions from the hash's
// sorted array in the query's order (the same neighbours, order and sums as
// the query followed by steer.Separation), leaving the agent itself out.
//
// It hands the candidates, the runs of slots of two bucket rows at a time,
// to sepRuns, which gives each a push without a branch on its distance:
// a candidate out of range counts as at radius (√min(d², radius²)), whose
// push is (radius−radius)/radius = 0 times a finite vector, ±0, which leaves
// the sums as they were (x + ±0 is x, and +0 + −0 is +0); so does the
// agent's own slot, whose squared distance is replaced by radius². With
// AVX2, sepRuns does four candidates at a time, their runs' lengths
// masked, so a crowd's runs of a few candidates take no branch at all
// (steer_separation_amd64.s); the pair of rows, the second one empty when
// the query reads one, takes no branch on the number of rows either.
//
// That holds when the rounded √(radius²) is radius, for radius between
// 2⁻⁵⁰⁰ and 2⁵⁰⁰ (checked first), and when pos−q is finite: an overflow
// makes the sums NaN, and the agent then takes separationSlow's branchy
// loop, as does one with a neighbour at exactly pos (whose push direction
// depends on its index among the neighbours).
//
// pos must be finite (Steer.force checks). The buckets and their slots come
// from the frame's spatial.Layout (Steer.layout), read inline; after a
// sparse build, which has none, from the hash's Rows and RowSpan
// (separationSparse).
func (s *Steer) separation(pos r2.Vec, slot int, radius, maxForce float64) r2.Vec {
	if !s.dense {
		return s.separationSparse(pos, slot, radius, maxForce)
	}
	if !(radius >= 0x1p-500 && radius <= 0x1p500) { // √(radius²) may not be radius
		if !(radius > 0) { // NaN finds nothing
			return r2.Vec{}
		}
		return s.separationSlow(pos, slot, radius, maxForce)
	}
	l := &s.layout
	x0, x1, y0, y1 := l.Rows(pos, radius)
	sorted := s.sorted
	r2max := radius * radius
	var sx, sy float64
	for y := y0; y <= y1; y += 2 { // one pass for a query of one or two rows
		lo0, hi0 := l.RowSpan(y, x0, x1)
		y2 := min(y+1, y1)
		lo1, hi1 := l.RowSpan(y2, x0, x1)
		n1 := (hi1 - lo1) & -(y2 - y) // none when y is the last row
		var zero bool
		sx, sy, zero = sepRuns(sorted, pos, radius, r2max, sx, sy,
			sepRun{lo0, hi0 - lo0, slot - lo0}, sepRun{lo1, n1, slot - lo1})
		if zero {
			return s.separationSlow(pos, slot, radius, maxForce)
		}
	}
	if sx-sx != 0 || sy-sy != 0 { // a candidate so far away that pos−q overflows
		return s.separationSlow(pos, slot, radius, maxForce)
	}
	return steer.Truncate(r2.Vec{X: maxForce * sx, Y: maxForce * sy}, maxForce)
}

// separationSparse is separation with the buckets from the hash's Rows and
// RowSpan (a sparse build has no spatial.Layout).
func (s *Steer) separationSparse(pos r2.Vec, slot int, radius, maxForce float64) r2.Vec {
	h := s.nb.Hash
	x0, x1, y0, y1, ok := h.Rows(pos, radius)
	if !ok || radius <= 0 {
		return r2.Vec{}
	}
	if !(radius >= 0x1p-500 && radius <= 0x1p500) { // √(radius²) may not be radius
		return s.separationSlow(pos, slot, radius, maxForce)
	}
	_, sorted := h.Sorted()
	r2max := radius * radius
	var sx, sy float64
	for y := y0; y <= y1; y += 2 {
		lo0, hi0 := h.RowSpan(y, x0, x1)
		y2 := min(y+1, y1)
		lo1, hi1 := h.RowSpan(y2, x0, x1)
		n1 := (hi1 - lo1) & -(y2 - y)
		var zero bool
		sx, sy, zero = sepRuns(sorted, pos, radius, r2max, sx, sy,
			sepRun{lo0, hi0 - lo0, slot - lo0}, sepRun{lo1, n1, slot - lo1})
		if zero {
			return s.separationSlow(pos, slot, radius, maxForce)
		}
	}
	if sx-sx != 0 || sy-sy != 0 {
		return s.separationSlow(pos, slot, radius, maxForce)
	}
	return steer.Truncate(r2.Vec{X: maxForce * sx, Y: maxForce * sy}, maxForce)
}

// sepRun is a run of separation's candidates: the n slots from lo of the
// hash's sorted arrays, self the agent's own index in it (outside [0, n)
// when it is not there).
type sepRun struct {
	lo, n, self int
}

// sepSpan is the slots the assembly kernel reads for a run of n ≥ 0: n rounded up
// to a multiple of 4, at least 4.
func sepSpan(n int) int { return (max(n, 1) + 3) &^ 3 }

// sepRunsGo is sepRuns in Go, one candidate at a time: the kernel of the
// machines without AVX2 and the reference of the assembly one. Built with
// GOAMD64=v3 or above, the compiler fuses some of its products and sums
// into one rounding (FMA), as it does steer.Separation's, which the
// assembly kernel does not: such builds use this loop (see the build
// constraints of steer_separation_amd64.go), so separation gives
// steer.Separation's force to the bit with any GOAMD64.
func sepRunsGo(sorted []r2.Vec, pos r2.Vec, radius, r2max, sx, sy float64, a, b sepRun) (float64, float64, bool) {
	r2bits := math.Float64bits(r2max)
	zero := false
	for _, r := range [2]sepRun{a, b} {
		for i, q := range sorted[r.lo : r.lo+r.n] {
			dx, dy := pos.X-q.X, pos.Y-q.Y
			d2b := math.Float64bits(sq2(dx, dy))
			if i == r.self { // a conditional move, on the bits
				d2b = r2bits
			}
			d2 := math.Float64frombits(d2b)
			if d2 == 0 {
				zero = true
			}
			n := math.Sqrt(min(d2, r2max))
			w := (radius - n) / radius
			sx += float64(w / n * dx)
			sy += float64(w / n * dy)
		}
	}
	return sx, sy, zero
}

// separationSlow is separation counting the neighbours in range, for the
// fallback direction of those at exactly pos (steer.SeparationFallback of
// their index among the neighbours).
func (s *Steer) separationSlow(pos r2.Vec, slot int, radius, maxForce float64) r2.Vec {
	h := s.nb.Hash
	x0, x1, y0, y1, ok := h.Rows(pos, radius)
	if !ok || radius <= 0 {
		return r2.Vec{}
	}
	ids, sorted := h.Sorted()
	r2max := radius * radius
	var sx, sy float64
	i := 0 // the neighbour's index in the query's list
	for y := y0; y <= y1; y++ {
		lo, hi := h.RowSpan(y, x0, x1)
		for j := lo; j < hi; j++ {
			q := sorted[j]
			dx, dy := pos.X-q.X, pos.Y-q.Y
			d2 := sq2(dx, dy)
			if d2 > r2max || j == slot {
				continue
			}
			i++
			n := math.Sqrt(d2)
			if n >= radius {
				continue
			}
			w := (radius - n) / radius
			if n == 0 {
				salt := uint64(s.nb.Entities[ids[slot]].ID()) // rare: looked up here
				f := steer.SeparationFallback(salt, i-1)
				sx += float64(w * f.X)
				sy += float64(w * f.Y)
				continue
			}
			sx += float64(w / n * dx)
			sy += float64(w / n * dy)
		}
	}
	return steer.Truncate(r2.Vec{X: maxForce * sx, Y: maxForce * sy}, maxForce)
}

// sepJob is one agent's separation for sepFilter and separationBlock: its
// position, radius² and the two runs of candidates sepRuns would take (at
// the offsets steer_sepfilter_amd64.s reads: pos 0, r2max 16, runs 24 and
// 48), then what separationBlock keeps for after the filter, and (at 88,
// written by sepFilter) where its candidates in the list end.
type sepJob struct {
	pos      r2.Vec
	r2max    float64
	runs     [2]sepRun
	radius   float64
	maxForce float64
	end      int // the list's length after this job's candidates (sepFilter writes it)
	at       int // the agent's index in the block
}

// sepEnt is a candidate sepFilter keeps: pos − q for the agent of a job
// and a neighbour q (the job's candidates end at its sepJob.end).
type sepEnt struct {
	d r2.Vec
}

// sepFilterGo is sepFilter one candidate at a time: the reference of the
// assembly kernel, whose arithmetic it rounds as that does (float64(x): no
// product fused into a sum on any GOAMD64 or GOARCH).
func sepFilterGo(sorted []r2.Vec, jobs []sepJob, ents []sepEnt) int {
	m := 0
	for j := range jobs {
		jb := &jobs[j]
		for _, r := range jb.runs {
			for i, q := range sorted[r.lo : r.lo+r.n] {
				dx, dy := jb.pos.X-q.X, jb.pos.Y-q.Y
				d2 := float64(dx*dx) + float64(dy*dy)
				if i != r.self && !(d2 >= jb.r2max) {
					ents[m] = sepEnt{d: r2.Vec{X: dx, Y: dy}}
					m++
				}
			}
		}
		jb.end = m
	}
	return m
}

// separationBlock sets seps[k−lo] to the separation force of each agent k in
// slots [lo, end) with one (kd.sep and a finite position), as separation
// gives it to the bit, a block of agents at a time instead of one agent
// after another: the agents' candidates in range are listed first, then
// each one's push is added to its agent's sums. Most candidates are out of
// range (their push is ±0, which leaves a sum as it is: see separation) and
// most agents have none or one in range, so this leaves out most square
// roots and divisions; those left are independent of each other (one
// agent's pushes wait only on its own sum), where separation's chain of
// them (loads, √, two divisions, the sums) for one agent held up the
// next one's.
//
// The list comes from sepFilter (AVX2 on amd64, four candidates at a time,
// no branch on a distance): every candidate but the agent itself with
// !(d² ≥ r²), so those at distance 0 and NaN ones are listed too, and make
// the sums NaN or infinite: those agents take separationSlow, as in
// separation. A candidate so far away that pos − q overflows is left out
// (d² is +Inf): in separation its push is NaN, and separationSlow, which
// leaves it out, gives the in-range pushes' force, the one found here.
// Agents whose query reads more than two bucket rows, whose radius is
// outside [2⁻⁵⁰⁰, 2⁵⁰⁰], or whose blocks of four would read past the array
// take separation.
func (s *Steer) separationBlock(lo, end int, seps []r2.Vec, sc *steerScratch) {
	l := &s.layout
	sorted := s.sorted
	inv, lastX, lastY := l.InvCell, float64(l.W-1), float64(l.H-1)
	if len(sc.jobs) < blockSize {
		sc.jobs = make([]sepJob, blockSize)
		sc.ents = make([]sepEnt, sepEntsCap)
	}
	jobs := sc.jobs[:blockSize]
	nj, total := 0, 0
	hot := s.hot[lo:end] // indexed by i = k − lo, as seps: no bounds checks there
	seps = seps[:len(hot)]
	// the buckets' starts are read without bounds checks (layoutStart): a
	// layout of W·H buckets has W·H+1 starts, and the columns and rows read
	// are clamped to [0, W−1] and [0, H−1]; any other layout (none that
	// spatial.Hash.Layout gives) takes separation, whose loads are checked
	if l.W < 1 || l.H < 1 || len(l.Start) != l.W*l.H+1 {
		for i := range hot {
			if a := &hot[i]; a.out != 0 {
				if kd := &s.kinds[a.kind&(1<<kindBits-1)]; kd.sep && finiteVec(a.pos) {
					seps[i] = s.separation(a.pos, lo+i, kd.wt.SeparationRadius, kd.kin.MaxForce)
				}
			}
		}
		return
	}
	start, w := unsafe.Pointer(unsafe.SliceData(l.Start)), l.W
	for i := range hot {
		k, a := lo+i, &hot[i]
		if a.out == 0 {
			continue
		}
		kd := &s.kinds[a.kind&(1<<kindBits-1)]
		radius, maxF := kd.wt.SeparationRadius, kd.kin.MaxForce
		if !kd.sepBlk || !finiteVec(a.pos) { // combine's test (kd.sep): see there
			if kd.sep && finiteVec(a.pos) { // a radius outside [2⁻⁵⁰⁰, 2⁵⁰⁰]
				seps[i] = s.separation(a.pos, k, radius, maxF)
			}
			continue
		}
		x0, x1 := sepBounds((a.pos.X-radius)*inv, (a.pos.X+radius)*inv, lastX)
		y0, y1 := sepBounds((a.pos.Y-radius)*inv, (a.pos.Y+radius)*inv, lastY)
		// l.RowSpan(y0, x0, x1) and l.RowSpan(y1, x0, x1)
		row0, row1 := y0*w, y1*w
		lo0, hi0 := layoutStart(start, row0+x0), layoutStart(start, row0+x1+1)
		lo1, hi1 := layoutStart(start, row1+x0), layoutStart(start, row1+x1+1)
		n0, n1 := hi0-lo0, (hi1-lo1)&-(y1-y0) // none when one row
		// sepFilter reads a run of n ≥ 1 in blocks of four, at most n+3 slots
		// from its start, and nothing of an empty one; row y1's slots follow
		// row y0's (hi1 ≥ hi0), so hi1+3 bounds every read
		if y1-y0 > 1 || hi1+3 > len(sorted) || n0+n1 >= sepEntsCap {
			seps[i] = s.separation(a.pos, k, radius, maxF)
			continue
		}
		if n0+n1 == 1 && k == lo0+(lo1-lo0)*n1 {
			// the agent alone in the buckets it reads (about one in nine of
			// the 100,000-agent swarm): no push, and no job for sepFilter
			seps[i] = r2.Vec{}
			continue
		}
		if total+n0+n1 >= sepEntsCap { // the list could fill up: the jobs so far first
			s.sepFlush(jobs[:nj], seps, sc.ents, lo)
			nj, total = 0, 0
		}
		// field by field: a record built on the stack and copied would be
		// read with loads wider than its stores, which wait for them
		jb := &jobs[nj]
		jb.pos, jb.r2max = a.pos, radius*radius
		jb.runs[0] = sepRun{lo0, n0, k - lo0}
		jb.runs[1] = sepRun{lo1, n1, k - lo1}
		jb.radius, jb.maxForce, jb.at = radius, maxF, i
		seps[i] = r2.Vec{} // the force of no push: sepFlush sets it if there is one
		nj++
		total += n0 + n1
	}
	if nj > 0 {
		s.sepFlush(jobs[:nj], seps, sc.ents, lo)
	}
}

// layoutStart is int(Start[b]) of the spatial.Layout whose Start begins at
// start, for a bucket b the caller knows to be in [0, len(Start)): no
// bounds check.
func layoutStart(start unsafe.Pointer, b int) int {
	return int(*(*int32)(unsafe.Add(start, 4*b)))
}

// sepEntsCap is the room of a worker's list of candidates in range
// (steerScratch.ents), made once: separationBlock hands the filter at most
// sepEntsCap − 1 candidates at a time (the kernel writes each candidate at
// the list's end before it keeps it or not), so a crowd denser than any
// before does not grow it in the steady state. An agent with as many
// candidates takes separation.
const sepEntsCap = 2048

// sepFlush sets seps[jb.at] to the separation force of each job of jobs
// (agents of the block from slot lo) that has a candidate in range, whose
// candidates number under len(ents): the filter lists those in range in
// ents, job after job, and writes where each job's end (sepJob.end); each
// job's pushes are summed in order (in registers, from +0, as separation's
// sums), and the sums are scaled and truncated as separation does. A job with none keeps the
// zero separationBlock wrote, which is its force: separation's sums stay
// +0, and maxForce·(+0, +0) truncated to maxForce is (+0, +0) for any
// maxForce > 0 (steer.Truncate gives the zero vector for the others).
func (s *Steer) sepFlush(jobs []sepJob, seps []r2.Vec, ents []sepEnt, lo int) {
	ents = ents[:sepFilter(s.sorted, jobs, ents)]
	start := 0 // the job's first candidate in the list
	for j := range jobs {
		jb := &jobs[j]
		end := jb.end
		if end == start {
			continue // none in range: the zero separationBlock wrote
		}
		// the job's pushes, in order, summed from +0 in registers
		r := jb.radius
		var sx, sy float64
		for _, e := range ents[start:end] {
			dx, dy := e.d.X, e.d.Y
			// n = √min(d², r²) with d² < r² (or NaN, which stays NaN)
			n := math.Sqrt(float64(dx*dx) + float64(dy*dy))
			w := (r - n) / r
			sx += float64(w / n * dx)
			sy += float64(w / n * dy)
		}
		start = end
		maxF := jb.maxForce
		if sx-sx != 0 || sy-sy != 0 { // a neighbour at distance 0, a NaN, or an overflow
			seps[jb.at] = s.separationSlow(jb.pos, lo+jb.at, jb.radius, maxF)
			continue
		}
		f := r2.Vec{X: maxF * sx, Y: maxF * sy}
		// steer.Truncate(f, maxF), whose first test is inline here: most
		// forces are within maxF
		if maxF >= 0x1p-500 && maxF <= 0x1p500 && float64(f.X*f.X)+float64(f.Y*f.Y) <= maxF*maxF {
			seps[jb.at] = f
			continue
		}
		seps[jb.at] = steer.Truncate(f, maxF)
	}
}

// sepIndex is the bucket index of v clamped to [0, last], for a v that is
// not NaN: what spatial.Layout.Rows finds for each bound of a query (the
// bounds here are finite, or ±Inf where the product overflows), with
// branches that the agents of a crowd, inside the grid, predict, where the
// min and max of floats there take a dozen instructions each for their
// rules on NaN and −0 (TestSepIndexMatchesRows).
func sepIndex(v, last float64) int {
	if v < 0 {
		v = 0
	}
	if v > last {
		v = last
	}
	return int(v)
}

// sepBounds is sepIndex(lo, last), sepIndex(hi, last) for lo ≤ hi, neither
// NaN: a query's two bounds on one axis, both within [0, last] for most
// agents (one test each instead of two).
func sepBounds(lo, hi, last float64) (int, int) {
	if lo >= 0 && hi <= last { // 0 ≤ lo ≤ hi ≤ last
		return int(lo), int(hi)
	}
	return sepIndex(lo, last), sepIndex(hi, last)
}
