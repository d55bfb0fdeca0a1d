package systems

import (
	"math"

	"github.com/archai-go/archai/nav/grid"
	"gonum.org/v1/gonum/spatial/r2"
)

// The disc of an agent of radius 0 < r ≤ 0.5. Its centre moves by the
// centre's rule (resolve: no step into a blocked cell, no corner cut, a fast
// step in sub-steps of half a cell); then, if the disc at the end of the
// step overlaps a blocked cell (off the grid counting as blocked), it is
// moved out, within the centre's cell: off each blocked side (west, east,
// north, south) to wideMargin past touching it, then out of a blocked
// diagonal cell's corner (both sides between open) along the line from the
// corner, to wideMargin past touching it; the velocity loses its part into
// each wall it was moved off. Such a disc reaches no cell beyond the eight
// around its centre's, and the centre stays in its open cell, so the disc
// ends clear, whatever the force that drove it (a crowd's separation
// included). Before, only Steer's wall feelers kept it off, and a crowd
// pushed discs into walls: four agents sent to a goal in a wall rested with
// their centres on its face.
//
// An agent whose disc overlaps a wall by more than smallOverlapMax when its
// step starts (a door closed beside it, a wall built at its side, a spawn or
// a load against a wall) and one whose centre is in a blocked cell or off
// the grid move by the centre's rule alone, as before, until the disc is
// clear: a door flickering shut and open on a crowd in its doorway lets it
// through, where holding the disc would stop each agent at every closing.

// smallOverlapMax is how far (cells) a small agent's disc may overlap a
// wall at the start of a step and still be held by the disc rule: far
// below the margin a move out leaves (wideMargin), far above the rounding of
// a disc that touches a wall.
const smallOverlapMax = 1e-12

// discDepth returns how deep (cells) the disc of radius r (0 < r ≤ 0.5)
// centred at fx, fy within the cell (x, y) reaches into the blocked cells
// around it (off the grid counts as blocked): 0 if clear (touching is
// clear). Only the cells whose side or corner is nearer than r are read, so
// a disc within its cell costs no read of the bitmap.
func (b *wallBits) discDepth(x, y int32, fx, fy, r float64) float64 {
	ox, oy := int32(0), int32(0)
	if fx < r {
		ox = -1
	} else if 1-fx < r {
		ox = 1
	}
	if fy < r {
		oy = -1
	} else if 1-fy < r {
		oy = 1
	}
	if ox == 0 && oy == 0 {
		return 0 // the common case: within its cell
	}
	sx, sy := ox != 0 && b.blocked(x+ox, y), oy != 0 && b.blocked(x, y+oy)
	depth := 0.0
	if sx {
		depth = r - min(fx, 1-fx)
	}
	if sy {
		depth = max(depth, r-min(fy, 1-fy))
	}
	if sx || sy || ox == 0 || oy == 0 || !b.blocked(x+ox, y+oy) {
		return depth // a side holds the corner's cell off too
	}
	dx, dy := fx-float64(max(ox, 0)), fy-float64(max(oy, 0))
	if d2 := sq2(dx, dy); d2 < float64(r*r) {
		return r - math.Sqrt(d2)
	}
	return 0
}

// discClearIn reports whether the disc of radius r (0 < r ≤ 0.5) centred at
// fx, fy within the cell (x, y) overlaps no blocked cell around it.
func (b *wallBits) discClearIn(x, y int32, fx, fy, r float64) bool {
	return b.discDepth(x, y, fx, fy, r) == 0
}

// holdDisc is the disc's rule for an agent of radius r (0 < r ≤ 0.5) that
// stepped from p to q (its velocity now v) by the centre's rule: q and v, or
// q moved out of the walls its disc overlaps (see above).
func (s *Movement) holdDisc(p, q, v r2.Vec, r float64) (r2.Vec, r2.Vec) {
	b := &s.walls
	c := s.grid.CellAt(q)
	if b.roomy(c.X, c.Y) {
		return q, v // no wall about its cell (the common case)
	}
	if b.blocked(c.X, c.Y) {
		return q, v // its centre in a wall or off the grid: the centre's rule
	}
	fx, fy := q.X-float64(c.X), q.Y-float64(c.Y)
	if b.discClearIn(c.X, c.Y, fx, fy, r) {
		return q, v
	}
	if pc := s.grid.CellAt(p); b.blocked(pc.X, pc.Y) || b.discDepth(pc.X, pc.Y, p.X-float64(pc.X), p.Y-float64(pc.Y), r) > smallOverlapMax {
		return q, v // a wall came over its disc (or its centre): the centre's rule until clear
	}
	return s.pushOut(c, fx, fy, v, r)
}

// holdDiscInCell is holdDisc for a step from p to q within one cell (x, y)
// of the grid, whose bit in besideWall is set (Movement.Work's common case
// beside a wall): the same result, without finding the cells again.
func (s *Movement) holdDiscInCell(x, y int32, p, q, v r2.Vec, r float64) (r2.Vec, r2.Vec) {
	b := &s.walls
	if b.blocked(x, y) {
		return q, v // its centre in a wall: the centre's rule
	}
	fx, fy := q.X-float64(x), q.Y-float64(y)
	if b.discClearIn(x, y, fx, fy, r) {
		return q, v
	}
	if b.discDepth(x, y, p.X-float64(x), p.Y-float64(y), r) > smallOverlapMax {
		return q, v // a wall came over its disc: the centre's rule until clear
	}
	return s.pushOut(grid.Cell{X: x, Y: y}, fx, fy, v, r)
}

// pushOut moves the disc of radius r centred at fx, fy within the open cell
// c out of the blocked cells around it, and takes from v its part into
// each (see above); it returns the position and the velocity.
func (s *Movement) pushOut(c grid.Cell, fx, fy float64, v r2.Vec, r float64) (r2.Vec, r2.Vec) {
	b := &s.walls
	lo := min(r+wideMargin, 0.5) // the disc wideMargin off a side (touching both in a corridor of its width)
	if fx < r && b.blocked(c.X-1, c.Y) {
		fx, v.X = lo, max(v.X, 0)
	} else if 1-fx < r && b.blocked(c.X+1, c.Y) {
		fx, v.X = 1-lo, min(v.X, 0)
	}
	if fy < r && b.blocked(c.X, c.Y-1) {
		fy, v.Y = lo, max(v.Y, 0)
	} else if 1-fy < r && b.blocked(c.X, c.Y+1) {
		fy, v.Y = 1-lo, min(v.Y, 0)
	}
	// a corner: nearer it than r, the diagonal cell blocked and the two
	// cells beside it open (a blocked one held the disc off above)
	ox, oy := int32(-1), int32(-1)
	if fx > 0.5 {
		ox = 1
	}
	if fy > 0.5 {
		oy = 1
	}
	kx, ky := float64(max(ox, 0)), float64(max(oy, 0))
	dx, dy := fx-kx, fy-ky
	if d2 := sq2(dx, dy); d2 < float64(r*r) && b.blocked(c.X+ox, c.Y+oy) && !b.blocked(c.X+ox, c.Y) && !b.blocked(c.X, c.Y+oy) {
		if d2 == 0 {
			dx, dy, d2 = 0.5-kx, 0.5-ky, 0.5 // on the corner: out towards the cell's centre
		}
		d := math.Sqrt(d2)
		nx, ny := dx/d, dy/d // out of the corner
		fx, fy = kx+float64(lo*nx), ky+float64(lo*ny)
		if dot := float64(v.X*nx) + float64(v.Y*ny); dot < 0 {
			v = r2.Vec{X: v.X - float64(dot*nx), Y: v.Y - float64(dot*ny)}
		}
	}
	return r2.Vec{X: float64(c.X) + fx, Y: float64(c.Y) + fy}, v
}

// rebuildBeside sets b.besideWall from the bitmap, whole.
func (b *wallBits) rebuildBeside() {
	words := (b.w*b.h + 63) / 64
	if cap(b.besideWall) < words {
		b.besideWall = make([]uint64, words)
	}
	b.besideWall = b.besideWall[:words]
	clear(b.besideWall)
	for y := range int32(b.h) {
		for x := range int32(b.w) {
			b.setBeside(x, y)
		}
	}
}

// patchBeside sets again the near bits of the nine cells about the edited
// cell c.
func (b *wallBits) patchBeside(c grid.Cell) {
	for y := c.Y - 1; y <= c.Y+1; y++ {
		for x := c.X - 1; x <= c.X+1; x++ {
			if x >= 0 && y >= 0 && int(x) < b.w && int(y) < b.h {
				b.setBeside(x, y)
			}
		}
	}
}

// setBeside sets the near bit of the cell (x, y) of the grid.
func (b *wallBits) setBeside(x, y int32) {
	i := int(y)*b.w + int(x)
	b.besideWall[i>>6] &^= 1 << (i & 63)
	for dy := int32(-1); dy <= 1; dy++ {
		for dx := int32(-1); dx <= 1; dx++ {
			if b.blocked(x+dx, y+dy) {
				b.besideWall[i>>6] |= 1 << (i & 63)
				return
			}
		}
	}
}

// roomy reports whether the cell (x, y) is on the grid, open, and has no
// blocked cell among the eight around it: a disc of radius ≤ 0.5 centred
// in it overlaps no wall.
func (b *wallBits) roomy(x, y int32) bool {
	if uint32(x) >= uint32(b.w) || uint32(y) >= uint32(b.h) {
		return false
	}
	i := int(y)*b.w + int(x)
	return b.besideWall[i>>6]&(1<<(i&63)) == 0
}
