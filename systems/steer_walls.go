package systems

import (
	"math"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/nav/grid"
	"gonum.org/v1/gonum/spatial/r2"
)

// wallBits is a bitmap of a grid's blocked cells, one bit a cell row by row,
// for Steer's wall feelers: 832² cells fit in 85 KiB, which stays in cache
// where the grid's costs (4 bytes a cell) do not. With it, a byte a cell
// (more) of how much farther than the cell's clearance the nearest blocked
// cell is in each of the four quadrants (2 bits each, up to 3): a byte, not
// the four distances, as a wider table missed the cache often enough to
// cost more than the feelers it settled (measured at 100,000 swarm agents).
// Both are rebuilt when the grid's version changes.
type wallBits struct {
	bits    []uint64
	more    []uint8 // per cell, 2 bits a quadrant: see square
	side    []uint8 // square's scratch
	clr     []uint8 // the grid's clearance, update's scratch
	w, h    int
	g       *grid.Grid
	version uint64
}

// update rebuilds the bitmap if g changed since the last call.
func (b *wallBits) update(g *grid.Grid) {
	if b.g == g && b.version == g.Version() && b.bits != nil {
		return
	}
	b.g, b.version, b.w, b.h = g, g.Version(), g.Width(), g.Height()
	n := b.w * b.h
	if cap(b.bits) < (n+63)/64 {
		b.bits = make([]uint64, (n+63)/64)
	}
	b.bits = b.bits[:(n+63)/64]
	clear(b.bits)
	for y := range b.h {
		for x := range b.w {
			if !g.Passable(grid.Cell{X: int32(x), Y: int32(y)}) {
				i := y*b.w + x
				b.bits[i>>6] |= 1 << (i & 63)
			}
		}
	}
	b.more = grow(b.more, n)
	b.side = grow(b.side, n)
	b.clr = grow(b.clr, n)
	for i := range b.clr {
		b.clr[i] = g.Clearance(grid.Cell{X: int32(i % b.w), Y: int32(i / b.w)})
	}
	clear(b.more)
	for q := range 4 {
		b.square(q)
		for i, s := range b.side {
			c := b.clr[i]
			if s < c { // never, as the clearance is the least side of the four
				clear(b.more) // but if so, no quadrant claims more
				return
			}
			b.more[i] |= min(s-c, 3) << (2 * q)
		}
	}
}

// square fills b.side with quadrant q's clear squares (q&1: towards −x,
// q&2: towards −y): for each cell, the side s of the largest square of clear
// cells with that cell as its corner reaching into the quadrant (0 for a
// blocked cell, at most 255; cells off the grid count as blocked), so the
// nearest blocked cell (dx, dy) with dx, dy of the quadrant's signs or 0 is
// s cells away (Chebyshev), never nearer: the classic recurrence, 1 + the
// least of the three neighbours' sides away from the corner. b.more keeps,
// in bits 2q and 2q+1, how much s exceeds the cell's clearance (at most 3).
func (b *wallBits) square(q int) {
	w, h := b.w, b.h
	for j := range h {
		y := h - 1 - j // the rows away from the corner first
		ny := y + 1    // the row before it in the walk
		if q&2 != 0 {
			y, ny = j, j-1
		}
		row := b.side[y*w : (y+1)*w]
		var prev []uint8 // nil off the grid
		if ny >= 0 && ny < h {
			prev = b.side[ny*w : (ny+1)*w]
		}
		for k := range w {
			x, nx := w-1-k, w-k // the cell, and the one before it in the walk
			if q&1 != 0 {
				x, nx = k, k-1
			}
			s := uint8(0)
			if i := y*w + x; b.bits[i>>6]&(1<<(i&63)) == 0 { // not blocked
				var a, c, d uint8 // the sides at (nx, y), (x, ny), (nx, ny); 0 off the grid
				if nx >= 0 && nx < w {
					a = row[nx]
					if prev != nil {
						d = prev[nx]
					}
				}
				if prev != nil {
					c = prev[x]
				}
				s = 1 + min(a, c, d, 254)
			}
			row[x] = s
		}
	}
}

// quadShift is the place in b.more (2q) of the quadrant q (as in square)
// holding every cell a ray walk in direction dir from a cell can enter: it
// steps towards −x only when dir.X < 0, and likewise for y.
func quadShift(dir r2.Vec) uint {
	q := uint(0)
	if dir.X < 0 {
		q |= 2
	}
	if dir.Y < 0 {
		q |= 4
	}
	return q
}

// blocked reports whether cell (x, y) is blocked or off the grid.
func (b *wallBits) blocked(x, y int32) bool {
	if x < 0 || y < 0 || int(x) >= b.w || int(y) >= b.h {
		return true
	}
	i := int(y)*b.w + int(x)
	return b.bits[i>>6]&(1<<(i&63)) != 0
}

// feelerSin and feelerCos are the sine and cosine of the side feelers'
// angle, π/4 (as math.Sincos gives them, so the feelers match
// steer.WallAvoidance's to the bit).
var feelerSin, feelerCos = math.Sincos(math.Pi / 4)

// avoid is steer.WallAvoidance(pos, vel, b.blocked, lookahead, minLength,
// π/4, maxForce), the same rule and arithmetic with the bitmap read directly
// (no call through a func value per cell). clear is the clearance of pos's
// cell (see Steer.nearWall), or less: a feeler of length l walks only the
// cells of its direction's quadrant (see square), and enters one k cells
// away (Chebyshev) only past k−1 of its length, so it is cast only when the
// distance to that quadrant's nearest blocked cell (at least clear plus
// b.more's excess for the quadrant) is less than l+1. When no feeler is
// cast the force is zero, with no more tests: most agents near a wall that
// head along it or away from it stop there.
func (b *wallBits) avoid(pos, vel r2.Vec, lookahead, minLength, maxForce, clear float64) r2.Vec {
	speed := math.Sqrt(vel.X*vel.X + vel.Y*vel.Y)
	if speed == 0 {
		return r2.Vec{}
	}
	heading := r2.Scale(1/speed, vel)
	length := max(lookahead*speed, minLength)
	more := uint8(0) // how much farther than clear a blocked cell is in each quadrant
	if c := b.g.CellAt(pos); b.g.InBounds(c) {
		more = b.more[int(c.Y)*b.w+int(c.X)]
	}
	// the feelers, ahead and π/4 to either side at half the length; each
	// reaches only the cells of its direction's quadrant
	side := length / 2
	d0 := r2.Vec{X: heading.X*1 - heading.Y*0, Y: heading.X*0 + heading.Y*1}
	d1 := r2.Vec{X: heading.X*feelerCos - heading.Y*feelerSin, Y: heading.X*feelerSin + heading.Y*feelerCos}
	d2 := r2.Vec{X: heading.X*feelerCos - heading.Y*-feelerSin, Y: heading.X*-feelerSin + heading.Y*feelerCos}
	r0 := clear+float64(more>>quadShift(d0)&3) < length+1
	r1 := clear+float64(more>>quadShift(d1)&3) < side+1
	r2_ := clear+float64(more>>quadShift(d2)&3) < side+1
	if !r0 && !r1 && !r2_ {
		return r2.Vec{} // no feeler reaches a blocked cell (Truncate of the zero sum)
	}
	var sum r2.Vec
	if r0 {
		sum = b.feel(sum, pos, d0, length, maxForce)
	}
	if r1 {
		sum = b.feel(sum, pos, d1, side, maxForce)
	}
	if r2_ {
		sum = b.feel(sum, pos, d2, side, maxForce)
	}
	return steer.Truncate(sum, maxForce)
}

// feel adds to sum the push of the feeler pos + t·dir, t ≤ l, if it meets a
// blocked cell.
func (b *wallBits) feel(sum, pos, dir r2.Vec, l, maxForce float64) r2.Vec {
	if b.clearAlong(pos, dir, l) {
		return sum // no blocked cell around the feeler
	}
	if t, normal, hit := b.castRay(pos, dir, l); hit {
		sum = r2.Add(sum, r2.Scale(maxForce*(l-t)/l, normal))
	}
	return sum
}

// clearAlong reports whether the feeler pos + t·dir, t ≤ length, surely
// meets no blocked cell: no cell of the box around it is blocked, and the
// box is inside the grid. The ray walk enters a cell across a face at most
// length along the ray: the face x = m lies within the feeler's x extent, and
// the cell entered is m (going right) or m−1 (going left), so the columns
// from ⌈min x⌉−1 to ⌊max x⌋ (widened by 10⁻⁹ against rounding in the walk)
// hold every cell it tests, and likewise the rows. A few bitmap words a row
// answer for most feelers near a wall that point away from it, without the
// walk.
func (b *wallBits) clearAlong(pos, dir r2.Vec, length float64) bool {
	const eps = 1e-9
	ex, ey := pos.X+length*dir.X, pos.Y+length*dir.Y
	if !(min(pos.X, ex) >= 0 && min(pos.Y, ey) >= 0 && max(pos.X, ex) < float64(b.w) && max(pos.Y, ey) < float64(b.h)) {
		return false // off the grid, or NaN: walk (and no int conversion of a huge value, which wraps)
	}
	x0, x1 := int(math.Ceil(min(pos.X, ex)-eps))-1, int(math.Floor(max(pos.X, ex)+eps))
	y0, y1 := int(math.Ceil(min(pos.Y, ey)-eps))-1, int(math.Floor(max(pos.Y, ey)+eps))
	if x0 < 0 || y0 < 0 || x1 >= b.w || y1 >= b.h || x1-x0 > 62 {
		return false // off the grid (blocked), or too wide for one mask: walk
	}
	for y := y0; y <= y1; y++ {
		i0, i1 := y*b.w+x0, y*b.w+x1 // bits i0 to i1 inclusive
		lo, hi := ^uint64(0)<<(i0&63), ^uint64(0)>>(63-i1&63)
		if w0, w1 := i0>>6, i1>>6; w0 == w1 {
			if b.bits[w0]&lo&hi != 0 {
				return false
			}
		} else if b.bits[w0]&lo != 0 || b.bits[w1]&hi != 0 {
			return false
		}
	}
	return true
}

// castRay is steer's feeler ray walk (Amanatides & Woo 1987) on the bitmap:
// the distance along pos + t·dir (dir a unit vector, t ≤ length) to the
// first blocked cell's face, and that face's outward normal.
func (b *wallBits) castRay(pos, dir r2.Vec, length float64) (float64, r2.Vec, bool) {
	fx, fy := math.Floor(pos.X), math.Floor(pos.Y)
	cx, cy := int32(fx), int32(fy)
	stepX, stepY := int32(1), int32(1)
	tMaxX, tMaxY := math.Inf(1), math.Inf(1)
	tDX, tDY := math.Inf(1), math.Inf(1)
	if dir.X > 0 {
		tDX = 1 / dir.X
		tMaxX = (fx + 1 - pos.X) * tDX
	} else if dir.X < 0 {
		stepX = -1
		tDX = -1 / dir.X
		tMaxX = (pos.X - fx) * tDX
	}
	if dir.Y > 0 {
		tDY = 1 / dir.Y
		tMaxY = (fy + 1 - pos.Y) * tDY
	} else if dir.Y < 0 {
		stepY = -1
		tDY = -1 / dir.Y
		tMaxY = (pos.Y - fy) * tDY
	}
	for {
		var t float64
		var normal r2.Vec
		if tMaxX < tMaxY {
			t = tMaxX
			cx += stepX
			tMaxX += tDX
			normal = r2.Vec{X: -float64(stepX)}
		} else {
			t = tMaxY
			cy += stepY
			tMaxY += tDY
			normal = r2.Vec{Y: -float64(stepY)}
		}
		if t > length || math.IsInf(t, 1) {
			return 0, r2.Vec{}, false
		}
		if b.blocked(cx, cy) {
			return t, normal, true
		}
	}
}
