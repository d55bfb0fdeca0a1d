package spatial

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r2"
)

// Hash is a uniform spatial hash (a bucket grid) for radius queries over many
// points, rebuilt every frame:
//
//	h.Reset()
//	for each agent: h.Insert(id, pos)
//	h.Build()
//	... h.Query(center, radius, dst) ...
//
// Build sorts the inserted items by bucket into flat arrays (a counting sort),
// so a query reads contiguous memory. Once the arrays have grown to the
// number of items, a rebuild and a query (with a reused dst) allocate nothing.
//
// Positions are in world units (cells, for positions from nav/grid). The hash
// covers [0, width)×[0, height); positions outside are clamped into the
// border buckets, so they are still found, only less efficiently. An item at
// a NaN or infinite position is stored but never found by a query with a
// finite centre and radius, and a query at a NaN centre finds nothing.
//
// A Hash is not safe for concurrent writes; once built, concurrent Query
// calls are safe.
type Hash struct {
	cellSize float64
	invCell  float64
	cols     int
	rows     int

	// Items in insertion order, collected between Reset and Build.
	ids    []int32
	pos    []r2.Vec
	bucket []int32

	// Built state: the items of bucket b are sorted[start[b]:start[b+1]], in
	// insertion order. After a sparse BuildFrom (shift > 0), start[k] is
	// the first slot of block k (buckets k<<shift to (k+1)<<shift − 1) and
	// sortedKeys holds each slot's bucket, to find a bucket within its block.
	start      []int32
	sortedIDs  []int32
	sortedPos  []r2.Vec
	sortedKeys []int32
	shift      uint
	built      bool
	slots      []int32 // BuildFrom: the slot of item i in the sorted arrays
	slotted    bool    // slots is valid (built by BuildFrom)
	lazy       bool    // ids and pos are not written yet (BuildFrom): see materialize

	par parallelBuild // BuildFrom's state
}

// MaxBuckets is the most buckets a [Hash] may have (see [NewHash]).
const MaxBuckets = 1 << 26

// NewHash returns a hash with square buckets of side cellSize covering
// [0, width)×[0, height). A good cellSize is the most common query radius (a
// query then reads at most 3×3 buckets).
//
// Panics:
//   - when cellSize, width or height is not positive and finite;
//   - when the bucket count exceeds MaxBuckets, 2^26 (choose a larger cellSize).
func NewHash(cellSize float64, width, height float64) *Hash {
	for _, v := range [...]float64{cellSize, width, height} {
		if !(v > 0) || math.IsInf(v, 1) {
			panic(fmt.Sprintf("spatial: NewHash(%v, %v, %v): arguments must be positive and finite", cellSize, width, height))
		}
	}
	cols := math.Ceil(width / cellSize)
	rows := math.Ceil(height / cellSize)
	if cols*rows > MaxBuckets {
		panic(fmt.Sprintf("spatial: NewHash: %v×%v buckets is too many", cols, rows))
	}
	h := &Hash{
		cellSize: cellSize,
		invCell:  1 / cellSize,
		cols:     int(cols),
		rows:     int(rows),
	}
	h.start = make([]int32, h.cols*h.rows+1)
	return h
}

// Reset empties the hash to start a rebuild.
func (h *Hash) Reset() {
	h.ids = h.ids[:0]
	h.pos = h.pos[:0]
	h.bucket = h.bucket[:0]
	h.built, h.slotted, h.lazy = false, false, false
}

// materialize writes the items in insertion order (ids and pos), which
// [Hash.BuildFrom] leaves to the sorted arrays: item i is at slot slots[i].
func (h *Hash) materialize() {
	if !h.lazy {
		return
	}
	for i, j := range h.slots[:len(h.ids)] {
		h.ids[i], h.pos[i] = int32(i), h.sortedPos[j]
	}
	h.lazy = false
}

// Insert adds item id at position p. IDs are the caller's; they need not be
// unique or dense, though [Hash.Position] is cheapest when they are dense
// indices.
func (h *Hash) Insert(id int32, p r2.Vec) {
	h.materialize()
	h.ids = append(h.ids, id)
	h.pos = append(h.pos, p)
	h.built, h.slotted = false, false
}

// Len returns the number of items inserted since the last [Hash.Reset].
func (h *Hash) Len() int { return len(h.ids) }

// Build sorts the inserted items into buckets. It must be called after the
// last [Hash.Insert] and before [Hash.Query].
func (h *Hash) Build() {
	h.materialize()
	h.par.warm = false // h.bucket and h.start no longer a BuildFrom's
	h.slotted = false
	h.shift = 0
	n := len(h.ids)
	start := h.start
	for i := range start {
		start[i] = 0
	}
	// Count into start[b+1], prefix-sum, then place with start[b] as cursor.
	h.bucket = grow(h.bucket, n)
	for i, p := range h.pos {
		bx, by := h.cellOf(p)
		b := int32(by*h.cols + bx)
		h.bucket[i] = b
		start[b+1]++
	}
	for b := 1; b < len(start); b++ {
		start[b] += start[b-1]
	}
	h.sortedIDs = grow(h.sortedIDs, n)
	h.sortedPos = grow(h.sortedPos, n)
	for i, b := range h.bucket {
		j := start[b]
		start[b]++
		h.sortedIDs[j] = h.ids[i]
		h.sortedPos[j] = h.pos[i]
	}
	// The cursors now hold each bucket's end; shift back to starts.
	copy(start[1:], start[:len(start)-1])
	start[0] = 0
	h.built = true
}

// Query appends to dst the IDs of the items within radius of center
// (|p−center| ≤ radius) and returns the extended slice. The order is
// deterministic: buckets row by row, and insertion order within a bucket.
// A negative or NaN radius finds nothing.
//
// Panics:
//   - when called after [Hash.Insert] without [Hash.Build].
func (h *Hash) Query(center r2.Vec, radius float64, dst []int32) []int32 {
	x0, y0, x1, y1, r2max, ok := h.window(center, radius)
	if !ok {
		return dst
	}
	for by := y0; by <= y1; by++ {
		// Buckets x0..x1 of one row are contiguous in the sorted arrays.
		lo, hi := h.RowSpan(by, x0, x1)
		pos := h.sortedPos[lo:hi]
		for i, p := range pos {
			dx, dy := p.X-center.X, p.Y-center.Y
			if float64(dx*dx)+float64(dy*dy) <= r2max {
				dst = append(dst, h.sortedIDs[lo+i])
			}
		}
	}
	return dst
}

// QueryPositions is [Hash.Query] that also appends each found item's
// position (as inserted) to pos, read from the hash's own sorted copy, so a
// caller that needs positions does not look them up item by item.
func (h *Hash) QueryPositions(center r2.Vec, radius float64, ids []int32, pos []r2.Vec) ([]int32, []r2.Vec) {
	x0, y0, x1, y1, r2max, ok := h.window(center, radius)
	if !ok {
		return ids, pos
	}
	for by := y0; by <= y1; by++ {
		lo, hi := h.RowSpan(by, x0, x1)
		for i, p := range h.sortedPos[lo:hi] {
			dx, dy := p.X-center.X, p.Y-center.Y
			if float64(dx*dx)+float64(dy*dy) <= r2max {
				ids = append(ids, h.sortedIDs[lo+i])
				pos = append(pos, p)
			}
		}
	}
	return ids, pos
}

// QuerySlots is [Hash.Query] that appends each found item's slot in the
// slices of [Hash.Sorted] instead of its ID, in the same order: a caller that
// keeps per-item data in the hash's sorted order (a velocity, a radius) reads
// it at the slot, near its neighbours' data, instead of at the ID, at random.
//
// Panics:
//   - when called after [Hash.Insert] without [Hash.Build].
func (h *Hash) QuerySlots(center r2.Vec, radius float64, dst []int32) []int32 {
	x0, y0, x1, y1, r2max, ok := h.window(center, radius)
	if !ok {
		return dst
	}
	for by := y0; by <= y1; by++ {
		lo, hi := h.RowSpan(by, x0, x1)
		for i, p := range h.sortedPos[lo:hi] {
			dx, dy := p.X-center.X, p.Y-center.Y
			if float64(dx*dx)+float64(dy*dy) <= r2max {
				dst = append(dst, int32(lo+i))
			}
		}
	}
	return dst
}

// Position returns the position at which id was inserted since the last
// [Hash.Reset] (the first one, if inserted twice), and whether it was found.
// It scans the inserted items: O(n), for debugging and tests.
func (h *Hash) Position(id int32) (r2.Vec, bool) {
	h.materialize()
	for i, v := range h.ids {
		if v == id {
			return h.pos[i], true
		}
	}
	return r2.Vec{}, false
}

// Bucket returns the index of the bucket containing p, row by row in
// [0, Buckets()); positions outside the area fall in the border buckets.
// Callers use it to visit items in spatial order, which keeps the memory they
// touch (this hash, a grid) in cache.
func (h *Hash) Bucket(p r2.Vec) int {
	bx, by := h.cellOf(p)
	return by*h.cols + bx
}

// Buckets returns the number of buckets.
func (h *Hash) Buckets() int { return h.cols * h.rows }

// CellSize returns the side of a bucket.
func (h *Hash) CellSize() float64 { return h.cellSize }

// cellOf returns the bucket column and row containing p, clamped to the grid.
// NaN coordinates land in bucket 0.
// window returns the buckets x0..x1, y0..y1 a query of radius around center
// reads and the squared radius, or ok false when it finds nothing (an empty
// hash, a negative or NaN radius).
//
// Panics:
//   - when called after [Hash.Insert] without [Hash.Build].
func (h *Hash) window(center r2.Vec, radius float64) (x0, y0, x1, y1 int, r2max float64, ok bool) {
	if !h.built {
		if len(h.ids) == 0 {
			return 0, 0, 0, 0, 0, false
		}
		panic("spatial: Query before Build")
	}
	if !(radius >= 0) {
		return 0, 0, 0, 0, 0, false
	}
	x0, y0 = h.cellOf(r2.Vec{X: center.X - radius, Y: center.Y - radius})
	x1, y1 = h.cellOf(r2.Vec{X: center.X + radius, Y: center.Y + radius})
	return x0, y0, x1, y1, radius * radius, true
}

func (h *Hash) cellOf(p r2.Vec) (int, int) {
	return clampIndex(p.X*h.invCell, h.cols), clampIndex(p.Y*h.invCell, h.rows)
}

func clampIndex(v float64, n int) int {
	if !(v >= 0) { // negative or NaN
		return 0
	}
	if v >= float64(n) {
		return n - 1
	}
	return int(v)
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4)
	}
	return s[:n]
}
