package spatial

import (
	"math"

	"gonum.org/v1/gonum/spatial/r2"
)

// Nearest returns the item nearest to center within radius (|p−center| ≤
// radius, the test of [Hash.Query]) that accept takes, its distance, and
// true; or -1, +Inf and false when accept takes none. Of items at the same
// distance it returns the first in [Hash.Query]'s order, so it gives exactly
// what scanning Query's answer in order for the first nearest accepted item
// gives.
//
// It visits the buckets in rings of growing Chebyshev distance around
// center's bucket, skips every bucket whose nearest point is farther than
// radius or than the best item found so far, and stops at the first ring
// that cannot hold a nearer item; accept is called only for items that would
// beat the best so far, so an expensive test (line of sight) runs for few of
// the items in range. dist is |p−center|, computed as √(dx²+dy²).
//
// accept must not modify the hash. A negative or NaN radius, or a NaN centre,
// finds nothing.
//
// Panics:
//   - when called after [Hash.Insert] without [Hash.Build].
func (h *Hash) Nearest(center r2.Vec, radius float64, accept func(id int32, p r2.Vec, dist float64) bool) (int32, float64, bool) {
	if !h.built {
		if len(h.ids) == 0 {
			return -1, math.Inf(1), false
		}
		panic("spatial: Query before Build")
	}
	if !(radius >= 0) || math.IsNaN(center.X) || math.IsNaN(center.Y) {
		return -1, math.Inf(1), false
	}
	x0, y0 := h.cellOf(r2.Vec{X: center.X - radius, Y: center.Y - radius})
	x1, y1 := h.cellOf(r2.Vec{X: center.X + radius, Y: center.Y + radius})
	cx, cy := h.cellOf(center)
	r2max := radius * radius
	// bounds on distances are lowered by slack, far more than the rounding
	// of the bucket arithmetic, so a bucket is never skipped wrongly
	slack := float64(1e-9 * (math.Abs(center.X) + math.Abs(center.Y) + radius + h.cellSize))
	best, bestSlot, bestD := int32(-1), int32(math.MaxInt32), math.Inf(1)
	// visit scans the buckets bx0..bx1 of row by (contiguous in the sorted
	// arrays), leaving out buckets that cannot hold a nearer item.
	visit := func(by, bx0, bx1 int) {
		bx0, bx1 = max(bx0, x0), min(bx1, x1)
		if by < y0 || by > y1 || bx0 > bx1 {
			return
		}
		gy := max(h.gap(center.Y, by, h.rows)-slack, 0)
		for bx := bx0; bx <= bx1; bx++ {
			gx := max(h.gap(center.X, bx, h.cols)-slack, 0)
			if g2 := float64(gx*gx) + float64(gy*gy); g2 > r2max || g2 > bestD*bestD {
				continue
			}
			b := by*h.cols + bx
			lo, hi := int32(h.first(b)), int32(h.first(b+1))
			for k, p := range h.sortedPos[lo:hi] {
				dx, dy := p.X-center.X, p.Y-center.Y
				d2 := float64(dx*dx) + float64(dy*dy)
				if !(d2 <= r2max) {
					continue
				}
				d := math.Sqrt(d2)
				slot := lo + int32(k)
				if d > bestD || (d == bestD && slot > bestSlot) {
					continue
				}
				if id := h.sortedIDs[slot]; accept(id, p, d) {
					best, bestSlot, bestD = id, slot, d
				}
			}
		}
	}
	rings := max(cx-x0, x1-cx, cy-y0, y1-cy)
	for r := 0; r <= rings; r++ {
		if r >= 2 {
			// every bucket of ring r is at least (r−1) bucket sides away
			if lb := float64(float64(r-1)*h.cellSize) - slack; lb > radius || lb > bestD {
				break
			}
		}
		if r == 0 {
			visit(cy, cx, cx)
			continue
		}
		visit(cy-r, cx-r, cx+r)
		for by := cy - r + 1; by <= cy+r-1; by++ {
			visit(by, cx-r, cx-r)
			visit(by, cx+r, cx+r)
		}
		visit(cy+r, cx-r, cx+r)
	}
	return best, bestD, best >= 0
}

// gap returns the distance along one axis from coordinate v to bucket b of n
// (0 when v is inside it). The border buckets reach to infinity outward,
// since positions outside the area are clamped into them.
func (h *Hash) gap(v float64, b, n int) float64 {
	lo, hi := float64(float64(b)*h.cellSize), float64(float64(b+1)*h.cellSize)
	switch {
	case v < lo && b > 0:
		return lo - v
	case v > hi && b < n-1:
		return v - hi
	}
	return 0
}
