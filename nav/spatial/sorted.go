package spatial

import "gonum.org/v1/gonum/spatial/r2"

// Sorted returns the built hash's items in bucket order: their IDs and
// positions (as inserted), bucket by bucket row by row, and within a bucket
// in insertion order (by ID after [Hash.BuildFrom]). A hot loop that visits
// agents in this order and reads its neighbours with [Hash.Rows] and
// [Hash.RowSpan] reads contiguous memory, with no call per neighbour.
//
// The slices belong to the hash and are valid until the next rebuild; the
// caller must not change them. Before a build they are empty.
func (h *Hash) Sorted() (ids []int32, pos []r2.Vec) {
	if !h.built {
		return nil, nil
	}
	return h.sortedIDs, h.sortedPos
}

// Slots returns, after [Hash.BuildFrom], the slot of each item in the
// slices of [Hash.Sorted]: item i is at Slots()[i]. It returns nil after
// [Hash.Build] (whose IDs are the caller's) or before any build.
func (h *Hash) Slots() []int32 {
	if !h.slotted {
		return nil
	}
	return h.slots
}

// Rows returns the buckets that a query of radius around center reads: the
// columns x0 to x1 and rows y0 to y1 (inclusive), clamped to the hash. It
// reports false for a NaN or negative radius, or a hash not built, when
// a query finds nothing. Items within radius lie in the slots
// [Hash.RowSpan](y, x0, x1) for y from y0 to y1; the caller tests their
// distance ([Hash.Query] does it for |p−center| ≤ radius).
func (h *Hash) Rows(center r2.Vec, radius float64) (x0, x1, y0, y1 int, ok bool) {
	if !h.built || !(radius >= 0) {
		return 0, -1, 0, -1, false
	}
	x0, y0 = h.cellOf(r2.Vec{X: center.X - radius, Y: center.Y - radius})
	x1, y1 = h.cellOf(r2.Vec{X: center.X + radius, Y: center.Y + radius})
	return x0, x1, y0, y1, true
}

// RowSpan returns the slots [lo, hi) of the items in buckets x0 to x1
// (inclusive) of bucket row y: the buckets of one row are contiguous in the
// slices of [Hash.Sorted]. The bounds must come from [Hash.Rows].
//
// After a build that sorted by blocks of buckets (a sparse [Hash.BuildFrom])
// each bound is a binary search among the items of one block (under one
// item on average, more where agents crowd); otherwise it is one read.
func (h *Hash) RowSpan(y, x0, x1 int) (lo, hi int) {
	row := y * h.cols
	return h.first(row + x0), h.first(row + x1 + 1)
}

// first returns the slot of the first item whose bucket is c or after
// (0 ≤ c ≤ Buckets()).
func (h *Hash) first(c int) int {
	if h.shift == 0 {
		return int(h.start[c])
	}
	k := c >> h.shift
	lo, hi := int(h.start[k]), int(h.start[k+1])
	key := int32(c)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if h.sortedKeys[m] < key {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// Count returns the number of items within radius of center (|p−center| ≤
// radius): len([Hash.Query]) without a list, so it allocates nothing.
func (h *Hash) Count(center r2.Vec, radius float64) int {
	x0, x1, y0, y1, ok := h.Rows(center, radius)
	if !ok {
		return 0
	}
	r2max := radius * radius
	n := 0
	for y := y0; y <= y1; y++ {
		lo, hi := h.RowSpan(y, x0, x1)
		for _, p := range h.sortedPos[lo:hi] {
			dx, dy := p.X-center.X, p.Y-center.Y
			if float64(dx*dx)+float64(dy*dy) <= r2max {
				n++
			}
		}
	}
	return n
}
