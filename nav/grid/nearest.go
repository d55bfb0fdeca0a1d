package grid

import (
	"math"

	"gonum.org/v1/gonum/spatial/r2"
)

// NearestOpen returns the open cell nearest p (cells): of the nearest
// Chebyshev ring of cells around p's cell (ring 0 being that cell) holding an
// open cell, the one whose centre is nearest p, the first in row order among
// equals; false when no cell within rings is open, or p is not finite. A
// point off the grid is allowed: the rings are searched where they cross the
// grid, so the work is at most the grid's cells whatever within is (a
// negative within searches nothing).
//
// Use it to turn a goal a player clicked inside a wall or off the map into one
// an agent can arrive at; the cell may lie across the wall from the agent
// ([Grid.Connected] tells), and the agent then walks round to it.
func (g *Grid) NearestOpen(p r2.Vec, within int) (Cell, bool) {
	if math.IsNaN(p.X) || math.IsNaN(p.Y) || math.IsInf(p.X, 0) || math.IsInf(p.Y, 0) || within < 0 || g.w == 0 || g.h == 0 {
		return Cell{}, false
	}
	c := g.CellAt(p)
	cx, cy, w, h := int64(c.X), int64(c.Y), int64(g.w), int64(g.h)
	// the rings that cross the grid: from the grid's Chebyshev distance to its farthest corner's
	first := max(0, -cx, cx-(w-1), -cy, cy-(h-1))
	last := max(cx, w-1-cx, cy, h-1-cy)
	last = min(last, int64(within))
	best, bestD, found := Cell{}, 0.0, false
	try := func(x, y int64) {
		if isBlocked(g.cost[int(y)*g.w+int(x)]) {
			return
		}
		dx, dy := p.X-(float64(x)+0.5), p.Y-(float64(y)+0.5)
		d := float64(dx*dx) + float64(dy*dy)
		n := Cell{X: int32(x), Y: int32(y)}
		if !found || d < bestD || d == bestD && (n.Y < best.Y || n.Y == best.Y && n.X < best.X) {
			best, bestD, found = n, d, true
		}
	}
	for r := first; r <= last && !found; r++ {
		x0, x1 := max(cx-r, 0), min(cx+r, w-1)
		for _, y := range [2]int64{cy - r, cy + r} { // the ring's top and bottom rows
			if y >= 0 && y < h {
				for x := x0; x <= x1; x++ {
					try(x, y)
				}
			}
			if r == 0 {
				break
			}
		}
		y0, y1 := max(cy-r+1, 0), min(cy+r-1, h-1)
		for _, x := range [2]int64{cx - r, cx + r} { // its sides, corners left out
			if r > 0 && x >= 0 && x < w {
				for y := y0; y <= y1; y++ {
					try(x, y)
				}
			}
		}
	}
	return best, found
}
