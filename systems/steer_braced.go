package systems

import (
	"math"

	"gonum.org/v1/gonum/spatial/r2"
)

// An agent whose disc rests against a wall is held there by it: Movement
// keeps the disc of every agent out of walls it did not start in
// (movement_wide.go), and takes from its velocity the part into the wall. A
// separation push into such a wall therefore moves nothing, but it still
// took its share of the agent's MaxForce budget (the sum is cut to
// MaxForce), so a crowd pressed against a wall kept almost nothing for the
// pull and the damping along it: 10 Movers packed in a corridor one cell
// wide swayed along it at up to 0.08 cells/s after a minute. So the wall
// bears that part: braced takes from the separation force the part of it
// that heads into a wall near the disc, before the force is weighed and
// summed: all of it when the disc touches the wall, none when the disc is
// braceBand or more off it, and in proportion between, so the force changes
// smoothly as the agent nears the wall (cut whole at touching only, the
// push came back as soon as the agent was pulled a hair off the wall, and
// it shook against it at 0.03 cells/s).

// braceBand is the gap (cells) between a disc and a wall below which the
// wall bears part of a separation push into it (all of it at touching).
const braceBand = 0.05

// braced returns f, the separation force of an agent of radius r at pos,
// less its part into each blocked cell (off the grid counting as blocked)
// within r + braceBand of pos: a side across from the agent's cell, or the
// corner of a cell on the diagonal whose two sides are open; the part is
// taken whole at a distance r or less and in proportion up to r + braceBand.
// An agent in a blocked cell, off the grid, of radius ≤ 0 or over 0.5 (a
// wide agent: settle.go), or whose cell has clearance above 1 (no blocked
// cell beside it) keeps f.
func (b *wallBits) braced(pos r2.Vec, r float64, f r2.Vec) r2.Vec {
	if !(r > 0 && r <= 0.5) || !(pos.X >= 0 && pos.Y >= 0 && pos.X < float64(b.w) && pos.Y < float64(b.h)) {
		return f
	}
	x, y := int32(pos.X), int32(pos.Y)
	if b.clr[int(y)*b.w+int(x)] != 1 {
		return f // in a wall (0), or every cell around open (above 1)
	}
	lim := r + braceBand
	fx, fy := pos.X-float64(x), pos.Y-float64(y)
	nearW, nearE, nearN, nearS := fx < lim, 1-fx < lim, fy < lim, 1-fy < lim
	wallW, wallE := nearW && b.blocked(x-1, y), nearE && b.blocked(x+1, y)
	wallN, wallS := nearN && b.blocked(x, y-1), nearS && b.blocked(x, y+1)
	switch {
	case wallW && f.X < 0:
		f.X -= float64(bracing(fx, r) * f.X)
	case wallE && f.X > 0:
		f.X -= float64(bracing(1-fx, r) * f.X)
	}
	switch {
	case wallN && f.Y < 0:
		f.Y -= float64(bracing(fy, r) * f.Y)
	case wallS && f.Y > 0:
		f.Y -= float64(bracing(1-fy, r) * f.Y)
	}
	// a corner: the diagonal cell blocked, both sides between open
	for _, c := range [4]struct {
		ox, oy int32
		near   bool
		side   bool
	}{
		{-1, -1, nearW && nearN, wallW || wallN},
		{1, -1, nearE && nearN, wallE || wallN},
		{-1, 1, nearW && nearS, wallW || wallS},
		{1, 1, nearE && nearS, wallE || wallS},
	} {
		if !c.near || c.side || !b.blocked(x+c.ox, y+c.oy) {
			continue
		}
		dx, dy := fx-float64(max(c.ox, 0)), fy-float64(max(c.oy, 0))
		d2 := sq2(dx, dy)
		if !(d2 < float64(lim*lim)) || d2 == 0 {
			continue
		}
		d := math.Sqrt(d2)
		nx, ny := dx/d, dy/d // out of the corner
		if dot := float64(f.X*nx) + float64(f.Y*ny); dot < 0 {
			k := float64(bracing(d, r) * dot)
			f = r2.Vec{X: f.X - float64(k*nx), Y: f.Y - float64(k*ny)}
		}
	}
	return f
}

// mayBrace reports whether pos lies on the grid in a cell of clearance 1
// (a blocked cell beside it): braced's own first test of the cell, inline,
// so that Steer calls braced only for such an agent; braced keeps f for
// every other (and for a kind of radius outside (0, 0.5], steerKind.brace).
func (b *wallBits) mayBrace(pos r2.Vec) bool {
	return pos.X >= 0 && pos.Y >= 0 && pos.X < float64(b.w) && pos.Y < float64(b.h) &&
		b.clr[int(int32(pos.Y))*b.w+int(int32(pos.X))] == 1
}

// bracing is the share of a push into a wall d cells from the centre of a
// disc of radius r that the wall bears: 1 at d ≤ r, falling linearly to 0 at
// r + braceBand.
func bracing(d, r float64) float64 {
	return min(1, max(0, (r+braceBand-d)/braceBand))
}
