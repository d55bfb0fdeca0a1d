package systems

import (
	"github.com/archai-go/archai/internal/detmath"
	"math"

	"github.com/archai-go/archai/ai/steer"
	"gonum.org/v1/gonum/spatial/r2"
)

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
var feelerSin, feelerCos = detmath.Sincos(math.Pi / 4)

// avoid is steer.WallAvoidance(pos, vel, b.blocked, lookahead,
// 2·radius + 0.25, π/4, maxForce) for an agent of the given radius (with
// feelers no longer than feelerReach for one arriving at *arrive; arrive is
// nil for any other heading), the same rule and arithmetic with the bitmap read directly
// (no call through a func value per cell). clear is the clearance of pos's
// cell and more its byte of b.more, 0 off the grid (see Steer.nearWall), or
// less: a feeler of length l walks only the
// cells of its direction's quadrant (see square), and enters one k cells
// away (Chebyshev) only past k−1 of its length, so it is cast only when the
// distance to that quadrant's nearest blocked cell (at least clear plus
// b.more's excess for the quadrant) is less than l+1. When no feeler is
// cast the force is zero, with no more tests: most agents near a wall that
// head along it or away from it stop there.
func (b *wallBits) avoid(pos, vel r2.Vec, lookahead, radius, maxForce, clear float64, more uint8, arrive *r2.Vec) r2.Vec {
	speed := math.Sqrt(float64(vel.X*vel.X) + float64(vel.Y*vel.Y)) // no multiply-adds here, as in steer.WallAvoidance
	if speed == 0 {
		return r2.Vec{}
	}
	heading := r2.Scale(1/speed, vel)
	length := max(lookahead*speed, 2*radius+0.25)
	if arrive != nil {
		length = b.feelerReach(pos, *arrive, radius, length)
	}
	// the feelers, ahead and π/4 to either side at half the length; each
	// reaches only the cells of its direction's quadrant
	side := float64(length / 2) // (x/2 compiles to x·0.5, which a sum would take)
	d0 := r2.Vec{X: float64(heading.X*1) - float64(heading.Y*0), Y: float64(heading.X*0) + float64(heading.Y*1)}
	d1 := r2.Vec{X: float64(heading.X*feelerCos) - float64(heading.Y*feelerSin), Y: float64(heading.X*feelerSin) + float64(heading.Y*feelerCos)}
	d2 := r2.Vec{X: float64(heading.X*feelerCos) - float64(heading.Y*-feelerSin), Y: float64(heading.X*-feelerSin) + float64(heading.Y*feelerCos)}
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

// feelerReach returns the length of the feelers, at most length, of an agent
// at pos, of the given radius, arriving at point: an arriving agent stops on
// its point (steer.Arrive does not overshoot), so a wall farther than the
// point plus its radius cannot be met, nor one farther than the point plus
// the point's own distance to the nearest blocked cell, if less (a point
// nearer a wall than the radius: the agent stands there, its centre in the
// open, as Movement lets it). Feelers reaching farther would push an agent
// off a goal beside a wall or on the grid's edge for ever, arrive pulling it
// back: it never rested. The distance is compared squared first: the square
// root and the wall's distance are worked out only near the point.
func (b *wallBits) feelerReach(pos, point r2.Vec, radius, length float64) float64 {
	dx, dy := point.X-pos.X, point.Y-pos.Y
	if k := length - radius; !(k > 0) || float64(dx*dx)+float64(dy*dy) >= k*k {
		return length // the point plus the radius is beyond the feelers (or NaN)
	}
	return min(length, math.Sqrt(float64(dx*dx)+float64(dy*dy))+min(radius, b.gap(point, radius)))
}

// gap returns the distance from p to the nearest blocked cell among the 3×3
// cells around p's own (the outside of the grid counts as blocked, as for the
// feelers) when it is less than limit; otherwise, or when no such cell is
// blocked, +Inf; 0 off the grid (or for a NaN). A point at least limit from
// its own cell's sides (a cell's centre, for limit ≤ 0.5) is answered
// without reading a cell.
func (b *wallBits) gap(p r2.Vec, limit float64) float64 {
	if !(p.X >= 0 && p.Y >= 0 && p.X < float64(b.w) && p.Y < float64(b.h)) {
		return 0
	}
	cx, cy := int32(p.X), int32(p.Y)
	fx, fy := p.X-float64(cx), p.Y-float64(cy)
	if fx >= limit && 1-fx >= limit && fy >= limit && 1-fy >= limit || b.clr[int(cy)*b.w+int(cx)] > 1 {
		return math.Inf(1) // no other cell that near, or no blocked cell around
	}
	best := math.Inf(1)
	for y := cy - 1; y <= cy+1; y++ {
		for x := cx - 1; x <= cx+1; x++ {
			if !b.blocked(x, y) {
				continue
			}
			// the nearest point of the cell's square [x, x+1]×[y, y+1]
			ex := p.X - min(max(p.X, float64(x)), float64(x+1))
			ey := p.Y - min(max(p.Y, float64(y)), float64(y+1))
			best = min(best, math.Sqrt(float64(ex*ex)+float64(ey*ey)))
		}
	}
	return best
}

// feel adds to sum the push of the feeler pos + t·dir, t ≤ l, if it meets a
// blocked cell.
func (b *wallBits) feel(sum, pos, dir r2.Vec, l, maxForce float64) r2.Vec {
	if b.clearAlong(pos, dir, l) {
		return sum // no blocked cell around the feeler
	}
	if t, normal, hit := b.castRay(pos, dir, l); hit {
		push := r2.Scale(maxForce*(l-t)/l, normal)
		sum = r2.Add(sum, r2.Vec{X: float64(push.X), Y: float64(push.Y)})
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
	ex, ey := pos.X+float64(length*dir.X), pos.Y+float64(length*dir.Y)
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
