package spatial

import "gonum.org/v1/gonum/spatial/r2"

// Layout is a built hash's bucket grid, for a hot loop that finds a query's
// buckets and their slots itself, with calls the compiler inlines: what
// [Hash.Rows] and [Hash.RowSpan] answer, without a call per query. Get it
// with [Hash.Layout] after each build; it is valid until the next one.
type Layout struct {
	// Start[b] is the first slot (in the slices of [Hash.Sorted]) of
	// bucket b, buckets row by row; Start[W·H] is the number of items.
	Start   []int32
	W, H    int     // the bucket grid's columns and rows
	InvCell float64 // 1 / [Hash.CellSize]

	lastX, lastY float64 // W−1 and H−1
}

// Layout returns the bucket layout of the built hash and true, or false
// when a bucket's first slot is not one read of a table: a sparse
// [Hash.BuildFrom] (which sorts by blocks of buckets), or a hash not built.
// The caller then uses [Hash.Rows] and [Hash.RowSpan].
func (h *Hash) Layout() (Layout, bool) {
	if !h.built || h.shift != 0 {
		return Layout{}, false
	}
	return Layout{Start: h.start, W: h.cols, H: h.rows, InvCell: h.invCell,
		lastX: float64(h.cols - 1), lastY: float64(h.rows - 1)}, true
}

// Rows is [Hash.Rows] for a center and radius the caller knows to be
// finite, radius ≥ 0: the columns x0 to x1 and rows y0 to y1 of the buckets
// a query reads, clamped to the grid.
func (l *Layout) Rows(center r2.Vec, radius float64) (x0, x1, y0, y1 int) {
	return layoutIndex((center.X-radius)*l.InvCell, l.lastX), layoutIndex((center.X+radius)*l.InvCell, l.lastX),
		layoutIndex((center.Y-radius)*l.InvCell, l.lastY), layoutIndex((center.Y+radius)*l.InvCell, l.lastY)
}

// RowSpan is [Hash.RowSpan]: the slots [lo, hi) of buckets x0 to x1 of
// row y, bounds from [Layout.Rows].
func (l *Layout) RowSpan(y, x0, x1 int) (lo, hi int) {
	row := y * l.W
	return int(l.Start[row+x0]), int(l.Start[row+x1+1])
}

// layoutIndex is clampIndex(v, last+1) for a finite v: the bucket index of
// v clamped to [0, last] (the clamp before the conversion, so a huge v does
// not wrap).
func layoutIndex(v, last float64) int {
	return int(min(max(v, 0), last))
}
