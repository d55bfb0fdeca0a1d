package systems

import (
	"math"

	"github.com/archai-go/archai/nav/grid"
	"gonum.org/v1/gonum/spatial/r2"
)

// openCells answers, in O(1), whether a rectangle of grid cells holds no
// blocked cell: a summed-area table of blocked cells (Crow, "Summed-area
// tables for texture mapping", SIGGRAPH 1984), and, for the short lines
// perception tests, a bitmap of blocked cells read row by row (an eighth of
// the grid's bytes, so it stays in cache where the table's rows miss), both
// rebuilt when the grid's version changes. Perception uses it to know a line of sight clear without
// walking it.
type openCells struct {
	g       *grid.Grid
	version uint64
	w       int
	sum     []int32 // (w+1)×(h+1): blocked cells in [0, x)×[0, y) at y·(w+1)+x

	// bits has one bit per cell, set if blocked: row y's cell x is bit x%64
	// of bits[y·stride + x/64]. An eighth of a byte grid, so it stays in
	// cache: a short line's rectangle is read from it row by row.
	bits   []uint64
	stride int
	h      int

	// BitsOnly leaves the summed-area table out: rectangles too large for
	// the bitmap are then "not known" (clear returns false).
	bitsOnly bool
}

// update rebuilds the table if the grid changed since the last build (on
// the system's goroutine, before the workers read it).
func (o *openCells) update(g *grid.Grid) {
	if o.g == g && o.version == g.Version() && o.bits != nil {
		return
	}
	o.g, o.version, o.w, o.h = g, g.Version(), g.Width(), g.Height()
	w, h := g.Width(), g.Height()
	if !o.bitsOnly && len(o.sum) != (w+1)*(h+1) {
		o.sum = make([]int32, (w+1)*(h+1))
	}
	o.stride = (w + 63) / 64
	if len(o.bits) != o.stride*h {
		o.bits = make([]uint64, o.stride*h)
	}
	clear(o.bits)
	for y := range h {
		var row int32
		for x := range w {
			if !g.Passable(grid.Cell{X: int32(x), Y: int32(y)}) {
				row++
				o.bits[y*o.stride+x/64] |= 1 << (x % 64)
			}
			if !o.bitsOnly {
				o.sum[(y+1)*(w+1)+x+1] = o.sum[y*(w+1)+x+1] + row
			}
		}
	}
}

// bitsRows is the most rows of a rectangle clear reads from the bitmap;
// taller ones are read from the summed-area table.
const bitsRows = 24

// clear reports whether the line of sight from a to b is certainly clear:
// both end cells are in the grid, the rectangle of cells they span holds no
// blocked cell, and no coordinate lies on or within rounding of a grid line.
// Then [grid.Grid.LineOfSight] (a, b) is true: every cell its walk visits,
// including the side cells it checks at a corner, lies in that rectangle (a
// segment stays in the box of its end points; it checks cells outside the
// box only for end points on a grid line, or, within its corner tolerance,
// ending within 1e-9·|b−a| of one, both ruled out here). A false answer
// means "not known": walk the line.
func (o *openCells) clear(a, b r2.Vec) bool {
	dx, dy := math.Abs(b.X-a.X), math.Abs(b.Y-a.Y)
	mx, my := float64(4e-9*dx)+1e-12, float64(4e-9*dy)+1e-12
	// each coordinate's floor found once, for onLine's test and the cells
	// (Floor is monotonic: the floor of the smaller is the smaller floor)
	fax, fbx, fay, fby := math.Floor(a.X), math.Floor(b.X), math.Floor(a.Y), math.Floor(b.Y)
	if nearLine(a.X, fax, mx) || nearLine(b.X, fbx, mx) || nearLine(a.Y, fay, my) || nearLine(b.Y, fby, my) {
		return false
	}
	x0, x1 := min(fax, fbx), max(fax, fbx)
	y0, y1 := min(fay, fby), max(fay, fby)
	w, h := o.w, o.h
	if !(x0 >= 0 && y0 >= 0 && x1 < float64(w) && y1 < float64(h)) { // NaN fails too
		return false
	}
	return o.open(int(x0), int(x1)+1, int(y0), int(y1)+1)
}

// open reports whether cells [X0, X1)×[Y0, Y1) of the grid (non-empty, in
// range) are all open; with bitsOnly, false for a rectangle too large for
// the bitmap.
func (o *openCells) open(X0, X1, Y0, Y1 int) bool {
	if Y1-Y0 <= bitsRows && X1-X0 <= 64 {
		// cells X0..X1−1 span one word of each row, or two side by side
		// (unsigned: X0 ≥ 0, so /64 and %64 are shifts and masks)
		x0, x1 := uint(X0), uint(X1-1)
		wl, wh := int(x0/64), int(x1/64)
		ml := ^uint64(0) << (x0 % 64)
		mh := ^uint64(0) >> (63 - x1%64)
		bits, stride := o.bits, o.stride
		if wl == wh {
			m := ml & mh
			for i := Y0*stride + wl; i < Y1*stride; i += stride {
				if bits[i]&m != 0 {
					return false
				}
			}
			return true
		}
		for i := Y0*stride + wl; i < Y1*stride; i += stride {
			if bits[i]&ml != 0 || bits[i+1]&mh != 0 {
				return false
			}
		}
		return true
	}
	if o.bitsOnly {
		return false // not known
	}
	return o.openSum(X0, X1, Y0, Y1)
}

// openSum is open read from the summed-area table.
func (o *openCells) openSum(X0, X1, Y0, Y1 int) bool {
	w := o.w
	s := o.sum
	return s[Y1*(w+1)+X1]-s[Y0*(w+1)+X1]-s[Y1*(w+1)+X0]+s[Y0*(w+1)+X0] == 0
}

// onLine reports whether v is within m of an integer (a grid line).
func onLine(v, m float64) bool { return nearLine(v, math.Floor(v), m) }

// nearLine is onLine given fl, the floor of v.
func nearLine(v, fl, m float64) bool {
	f := v - fl
	return f <= m || 1-f <= m
}
