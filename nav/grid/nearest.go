package grid

import (
	"math"

	"gonum.org/v1/gonum/spatial/r2"
)

// NearestOpen returns the open cell nearest p (cells) in rings: of the nearest
// Chebyshev ring of cells around p's cell (ring 0 being that cell) holding an
// open cell, the one whose centre is nearest p, the first in row order among
// equals; false when no cell within rings is open, or p is not finite. (So it
// is not always the open cell whose centre is nearest p: from (5, 5), the
// ring-1 cell (6, 6) is taken before the ring-2 cell (3, 5), which is
// nearer.) A point off the grid is allowed, however far: the rings are
// counted from its own cell (clamped to ±2⁶¹) and searched where they cross
// the grid, so the work is at most the grid's cells whatever within is (a
// negative within searches nothing).
//
// Use it to turn a goal a player clicked inside a wall or off the map into one
// an agent can arrive at; the cell may lie across the wall from the agent
// ([Grid.Connected] tells), and the agent then walks round to it.
func (g *Grid) NearestOpen(p r2.Vec, within int) (Cell, bool) {
	if math.IsNaN(p.X) || math.IsNaN(p.Y) || math.IsInf(p.X, 0) || math.IsInf(p.Y, 0) || within < 0 || g.w == 0 || g.h == 0 {
		return Cell{}, false
	}
	// p's cell in int64, so that the rings (and within) count from it however
	// far off the grid it is; past ±2⁶¹ (where no ring could be walked to
	// anyway) it is clamped there
	cx, cy, w, h := floorToInt61(p.X), floorToInt61(p.Y), int64(g.w), int64(g.h)
	// the rings that cross the grid: from the grid's Chebyshev distance to its farthest corner's
	first := max(0, -cx, cx-(w-1), -cy, cy-(h-1))
	last := max(cx, w-1-cx, cy, h-1-cy)
	last = min(last, int64(within))
	best, found := Cell{}, false
	try := func(x, y int64) {
		if isBlocked(g.cost[int(y)*g.w+int(x)]) {
			return
		}
		n := Cell{X: int32(x), Y: int32(y)}
		if !found {
			best, found = n, true
			return
		}
		if s := nearerSign(p, n, best); s < 0 || s == 0 && (n.Y < best.Y || n.Y == best.Y && n.X < best.X) {
			best = n
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

// floorToInt61 returns floor(v) of a finite v as an int64, clamped to ±2⁶¹ (so that a ring's ends, p's ± its radius, stay in range).
func floorToInt61(v float64) int64 {
	const lim = 1 << 61
	return int64(max(-lim, min(math.Floor(v), lim)))
}

// nearerSign returns the sign of |p − centre(a)|² − |p − centre(b)|² for a
// finite p: < 0 when a's centre is the nearer. It works out the difference,
// 2·((bx−ax)·(px−mx) + (by−ay)·(py−my)) with m the midpoint of the two
// centres, rather than the two squares, whose difference rounds away once p is
// some 10⁸ cells off (it would pick the wrong row of a column) and which
// overflow past 10¹⁵⁴.
func nearerSign(p r2.Vec, a, b Cell) float64 {
	u := p.X - float64((float64(a.X)+float64(b.X)+1)/2) // rounded apart: no fused multiply-add (.ci/nofma)
	v := p.Y - float64((float64(a.Y)+float64(b.Y)+1)/2)
	if max(math.Abs(u), math.Abs(v)) > 0x1p900 { // scaled alike, so that the products below stay finite (exact: no underflow, the other being 0 or at least 2⁻⁵⁴)
		u, v = u*0x1p-100, v*0x1p-100
	}
	return float64(float64(b.X-a.X)*u) + float64(float64(b.Y-a.Y)*v)
}
