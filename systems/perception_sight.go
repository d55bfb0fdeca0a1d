package systems

import (
	"math"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"gonum.org/v1/gonum/spatial/r2"
)

// openCells answers, in O(1), whether a rectangle of grid cells holds no
// blocked cell: a summed-area table of blocked cells (Crow, "Summed-area
// tables for texture mapping", SIGGRAPH 1984), and, for the short lines
// perception tests, a bitmap of blocked cells read row by row (an eighth of
// the grid's bytes, so it stays in cache where the table's rows miss).
// Perception uses it to know a line of sight clear without walking it, ORCA
// to know walls out of an agent's reach (the two share one, see
// sharedWalls).
//
// Both follow the grid's edits (see patch): an edit flips its cell's bit,
// and the table, which a single edit would change over a quarter of the map
// on average, is kept as built and corrected by the list of cells whose
// blockedness changed since (pend, at most openPendMax); a new grid, a
// forgotten edit log or more changes rebuild both whole.
type openCells struct {
	g       *grid.Grid
	version uint64
	w       int
	// sum is (w+1)×(h+1): the blocked cells in [0, x)×[0, y) at y·(w+1)+x,
	// as built, modulo 2¹⁶. A rectangle of fewer than 2¹⁶ cells holds fewer
	// blocked cells, so its count, taken modulo 2¹⁶ too, is exact; larger
	// ones are read from the bitmap (see blockedIn). Two bytes a cell rather
	// than four: 32 MB on a 4096² map.
	sum []uint16

	// pend are the cells whose blockedness differs from sum's: +1 blocked
	// since, −1 open since; nPos and nNeg count each kind.
	pend       []openPend
	nPos, nNeg int32
	edits      []grid.Cell // patch's scratch

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

// openPend is a cell whose blockedness changed since the summed-area table
// was built: d is +1 when it became blocked, −1 when it opened.
type openPend struct{ x, y, d int32 }

// openPendMax is the most cells the summed-area table is corrected by
// before it is rebuilt: each costs a test in every query of the table.
// openPatchMax is the most edits since the last update patched.
const (
	openPendMax  = 64
	openPatchMax = 4096
)

// update brings the tables up to date with g (on the system's goroutine,
// before the workers read them): a patch when it can, else a rebuild.
func (o *openCells) update(g *grid.Grid) {
	if o.g == g && o.version == g.Version() && o.bits != nil {
		return
	}
	if o.g == g && o.bits != nil && o.w == g.Width() && o.h == g.Height() && o.patch(g) {
		o.version = g.Version()
		return
	}
	o.rebuild(g)
}

// rebuild builds the bitmap and the summed-area table of g whole.
func (o *openCells) rebuild(g *grid.Grid) {
	o.g, o.version, o.w, o.h = g, g.Version(), g.Width(), g.Height()
	o.pend, o.nPos, o.nNeg = o.pend[:0], 0, 0
	w, h := g.Width(), g.Height()
	if !o.bitsOnly && len(o.sum) != (w+1)*(h+1) {
		o.sum = make([]uint16, (w+1)*(h+1))
	}
	o.stride = (w + 63) / 64
	if len(o.bits) != o.stride*h {
		o.bits = make([]uint64, o.stride*h)
	}
	clear(o.bits)
	for y := range h {
		var row uint16 // modulo 2¹⁶, as sum
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

// rowBits writes the bits of row y (0 ≤ y < h) from column x0 (≥ 0) on into
// dst: bit i of dst[k] is cell (x0 + 64k + i, y), set if blocked; bits past
// the grid's last column are 0. An orca.BlockedBits.
func (o *openCells) rowBits(y, x0 int32, dst []uint64) {
	row := o.bits[int(y)*o.stride : (int(y)+1)*o.stride]
	w, sh := int(x0)/64, uint(x0)%64
	for k := range dst {
		var v uint64
		if w+k < len(row) {
			v = row[w+k] >> sh
		}
		if sh != 0 && w+k+1 < len(row) {
			v |= row[w+k+1] << (64 - sh)
		}
		dst[k] = v
	}
}

// patch applies g's edits since o.version: each cell whose blockedness
// changed flips its bit and enters pend (or leaves it, back as the table
// has it). It reports false, for a rebuild, when the grid forgot the edits
// or there are more than openPatchMax of them, or more than openPendMax
// cells would be pending.
func (o *openCells) patch(g *grid.Grid) bool {
	var ok bool
	o.edits, ok = g.EditsSince(o.version, o.edits[:0])
	if !ok || len(o.edits) > openPatchMax {
		return false
	}
	for _, c := range o.edits { // a cell edited twice is seen twice: the second finds its bit right
		i := int(c.Y)*o.stride + int(c.X)/64
		bit := uint64(1) << (uint(c.X) % 64)
		blocked := !g.Passable(c)
		if (o.bits[i]&bit != 0) == blocked {
			continue
		}
		o.bits[i] ^= bit
		if o.bitsOnly {
			continue
		}
		d := int32(-1)
		if blocked {
			d = 1
		}
		if !o.addPend(c, d) {
			return false
		}
	}
	return true
}

// addPend records that c's blockedness changed by d against the table, and
// reports false when that makes more than openPendMax cells pending.
func (o *openCells) addPend(c grid.Cell, d int32) bool {
	for k, p := range o.pend {
		if p.x == c.X && p.y == c.Y { // back to the table's state
			if p.d > 0 {
				o.nPos--
			} else {
				o.nNeg--
			}
			o.pend[k] = o.pend[len(o.pend)-1]
			o.pend = o.pend[:len(o.pend)-1]
			return true
		}
	}
	if len(o.pend) == openPendMax {
		return false
	}
	o.pend = append(o.pend, openPend{x: c.X, y: c.Y, d: d})
	if d > 0 {
		o.nPos++
	} else {
		o.nNeg++
	}
	return true
}

// blockedIn reports whether [X0, X1)×[Y0, Y1) (in range) holds a blocked
// cell: the summed-area table's count corrected by pend, which it reads
// only when the count alone does not settle the answer (each pending cell
// changes the count by one).
//
// A rectangle of 2¹⁶ cells or more (the table's counts wrap there) is read
// from the bitmap instead, which is current.
func (o *openCells) blockedIn(X0, X1, Y0, Y1 int) bool {
	if (X1-X0)*(Y1-Y0) >= 1<<16 {
		return o.bitsBlocked(X0, X1, Y0, Y1)
	}
	W := o.w + 1
	s := o.sum
	n := int32(s[Y1*W+X1] - s[Y0*W+X1] - s[Y1*W+X0] + s[Y0*W+X0]) // modulo 2¹⁶: exact below 2¹⁶ cells
	if n > o.nNeg {
		return true
	}
	if n == 0 && o.nPos == 0 {
		return false
	}
	x0, x1, y0, y1 := int32(X0), int32(X1), int32(Y0), int32(Y1)
	for _, p := range o.pend {
		if p.x >= x0 && p.x < x1 && p.y >= y0 && p.y < y1 {
			n += p.d
		}
	}
	return n > 0
}

// bitsBlocked reports whether [X0, X1)×[Y0, Y1) (in range, non-empty) holds
// a blocked cell, read from the bitmap row by row.
func (o *openCells) bitsBlocked(X0, X1, Y0, Y1 int) bool {
	wl, wh := X0/64, (X1-1)/64
	ml := ^uint64(0) << (uint(X0) % 64)
	mh := ^uint64(0) >> (63 - uint(X1-1)%64)
	for y := Y0; y < Y1; y++ {
		row := o.bits[y*o.stride : (y+1)*o.stride]
		if wl == wh {
			if row[wl]&ml&mh != 0 {
				return true
			}
			continue
		}
		if row[wl]&ml != 0 || row[wh]&mh != 0 {
			return true
		}
		for _, b := range row[wl+1 : wh] {
			if b != 0 {
				return true
			}
		}
	}
	return false
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

// ringOpen reports whether cell (x, y) and its eight neighbours are all on
// the grid and open, from the bitmap: three words read, one a row. It
// reports false, whatever the cells, when the three columns straddle two
// words of a row (x%64 is 0 or 63); the caller then asks cell by cell.
func (o *openCells) ringOpen(x, y int32) bool {
	if x < 1 || y < 1 || int(x) >= o.w-1 || int(y) >= o.h-1 || uint(x-1)%64 > 61 {
		return false
	}
	i, s := int(y-1)*o.stride+int(x-1)/64, o.stride
	return (o.bits[i]|o.bits[i+s]|o.bits[i+2*s])>>(uint(x-1)%64)&7 == 0
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
	return !o.blockedIn(X0, X1, Y0, Y1)
}

// wallTable is the world resource holding the one openCells that
// Perception and ORCA share: both need the blocked cells of the world's
// grid by rectangle, so one table is built and patched, not two.
type wallTable struct{ openCells }

// sharedWalls returns the world's shared openCells, adding it as a resource
// on first use. It is updated by whichever system runs first in a frame
// (update is a no-op once current), on the systems' goroutine.
func sharedWalls(w *arche.World) *openCells {
	r := ecs.Resource[wallTable](w)
	if r == nil {
		r = &wallTable{}
		arche.AddResource(w, r)
	}
	return &r.openCells
}

// onLine reports whether v is within m of an integer (a grid line).
func onLine(v, m float64) bool { return nearLine(v, math.Floor(v), m) }

// nearLine is onLine given fl, the floor of v.
func nearLine(v, fl, m float64) bool {
	f := v - fl
	return f <= m || 1-f <= m
}
