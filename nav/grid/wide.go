package grid

import (
	"math"

	"gonum.org/v1/gonum/spatial/r2"
)

// LineOfSightWide is [Grid.LineOfSight] for a wide agent: every cell the
// segment from a to b visits (the same cells, corner and grid-line cases
// included) must have a [Grid.Clearance] of at least clearance. Each point
// of such a segment is at least clearance − 1 cells from every blocked
// cell, so a disc of radius r moving along it stays off the walls when
// clearance ≥ r + 1. A clearance of 0 or 1 is LineOfSight. It allocates
// nothing once the clearance field is built.
func (g *Grid) LineOfSightWide(a, b r2.Vec, clearance uint8) bool {
	if clearance <= 1 {
		return g.LineOfSight(a, b)
	}
	ok := func(c Cell) bool { return g.Clearance(c) >= clearance }
	ca, cb := g.CellAt(a), g.CellAt(b)
	if !ok(ca) || !ok(cb) {
		return false
	}
	dx, dy := b.X-a.X, b.Y-a.Y
	if dy == 0 && a.Y == math.Floor(a.Y) {
		for x := min(ca.X, cb.X); x <= max(ca.X, cb.X); x++ {
			if !ok(Cell{x, ca.Y - 1}) {
				return false
			}
		}
	}
	if dx == 0 && a.X == math.Floor(a.X) {
		for y := min(ca.Y, cb.Y); y <= max(ca.Y, cb.Y); y++ {
			if !ok(Cell{ca.X - 1, y}) {
				return false
			}
		}
	}
	if ca == cb {
		return true
	}
	x, y := ca.X, ca.Y
	var stepX, stepY int32
	tMaxX, tMaxY := math.Inf(1), math.Inf(1)
	if dx > 0 {
		stepX, tMaxX = 1, (float64(x+1)-a.X)/dx
	} else if dx < 0 {
		stepX, tMaxX = -1, (float64(x)-a.X)/dx
	}
	if dy > 0 {
		stepY, tMaxY = 1, (float64(y+1)-a.Y)/dy
	} else if dy < 0 {
		stepY, tMaxY = -1, (float64(y)-a.Y)/dy
	}
	for n := absInt32(cb.X-ca.X) + absInt32(cb.Y-ca.Y) + 2; n > 0; n-- {
		if tMaxX > 1 && tMaxY > 1 {
			break
		}
		switch {
		case tMaxX < tMaxY-losEpsilon:
			x += stepX
			tMaxX = crossing(x, stepX, a.X, dx)
		case tMaxY < tMaxX-losEpsilon:
			y += stepY
			tMaxY = crossing(y, stepY, a.Y, dy)
		default: // through a corner: both side cells too
			if !ok(Cell{x + stepX, y}) || !ok(Cell{x, y + stepY}) {
				return false
			}
			x += stepX
			y += stepY
			tMaxX = crossing(x, stepX, a.X, dx)
			tMaxY = crossing(y, stepY, a.Y, dy)
		}
		if !ok(Cell{x, y}) {
			return false
		}
		if x == cb.X && y == cb.Y {
			break
		}
	}
	return true
}

// SmoothWide is [Smooth] for a path searched with [Options.Clearance] c > 1:
// a shortcut is taken only when [Grid.LineOfSightWide] with clearance c + 1
// sees it, so the smoothed path keeps a disc of radius up to c − 0.5 (the
// radius c was chosen for, see [ClearanceFor]) off the walls, as the grid
// path did. c ≤ 1 is Smooth. The first and last cells are kept even when
// their clearance is smaller (the start is exempt from the clearance).
func SmoothWide(g *Grid, path, dst []Cell, c uint8) []Cell {
	if c <= 1 {
		return Smooth(g, path, dst)
	}
	k := c + 1
	if c == 255 {
		k = 255
	}
	dst = dst[:0]
	n := len(path)
	if n < 3 {
		return append(dst, path...)
	}
	first, last := path[0], path[n-1]
	anchor := first
	ac := g.Center(anchor)
	dst = append(dst, anchor)
	for i := 2; i < n; i++ {
		if anchor != first && g.LineOfSightWide(ac, g.Center(path[i]), k) {
			continue
		}
		anchor = path[i-1] // read before the write below can overwrite it
		ac = g.Center(anchor)
		dst = append(dst, anchor)
	}
	return append(dst, last)
}
