package systems

import (
	"math"

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
			d2b := math.Float64bits(dx*dx + dy*dy)
			if i == r.self { // a conditional move, on the bits
				d2b = r2bits
			}
			d2 := math.Float64frombits(d2b)
			if d2 == 0 {
				zero = true
			}
			n := math.Sqrt(min(d2, r2max))
			w := (radius - n) / radius
			sx += w / n * dx
			sy += w / n * dy
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
			d2 := dx*dx + dy*dy
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
				sx += w * f.X
				sy += w * f.Y
				continue
			}
			sx += w / n * dx
			sy += w / n * dy
		}
	}
	return steer.Truncate(r2.Vec{X: maxForce * sx, Y: maxForce * sy}, maxForce)
}
