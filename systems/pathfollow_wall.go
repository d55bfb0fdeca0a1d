package systems

import (
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	"gonum.org/v1/gonum/spatial/r2"
)

// An agent standing in a blocked cell walks out of the wall whatever its
// intent: one that heads somewhere (a move, a pursuit, a flow field) walks out
// on its way (goTo's walkOut, the flow field's escape cell, a path from a
// blocked start: see PathQueue), and one that heads nowhere (no intent, an
// arrived or stopped flow follower, a flight or an evasion) seeks the nearest
// open cell first (leaveWall), then does as its intent says.

// leaveWall returns d, the Desired of an agent at pos, or, when the agent
// stands in a blocked cell of the grid and d heads nowhere in particular
// (DesiredNone, DesiredStop, DesiredFlee, DesiredEvade, DesiredHold), a seek of the centre
// of the nearest open cell (nearestOpen; none within escapeRadius: d, and the
// agent stands in the wall, as Diagnose's CauseBlocked tells).
func (s *PathFollow) leaveWall(pos r2.Vec, d components.Desired) components.Desired {
	switch d.Mode {
	case components.DesiredNone, components.DesiredStop, components.DesiredFlee, components.DesiredEvade, components.DesiredHold:
	default:
		return d
	}
	c := s.grid.CellAt(pos)
	if s.grid.Passable(c) || !s.grid.InBounds(c) {
		return d
	}
	if out, ok := nearestOpen(s.grid, pos, c); ok {
		return components.Desired{Mode: components.DesiredSeek, SpeedFactor: d.SpeedFactor, Point: s.grid.Center(out)}
	}
	return d
}

// nearestOpen returns the open cell an agent at pos, in the blocked cell c,
// walks out to when it heads nowhere: of the nearest ring of cells around c
// (Chebyshev rings 1 to escapeRadius) holding open cells, the one whose centre
// is nearest pos (the first in row order among equals). The straight line
// from pos to it crosses no cell deeper in the wall than c (Movement's
// wallDepth): every cell it crosses is within that ring's distance of it.
func nearestOpen(g *grid.Grid, pos r2.Vec, c grid.Cell) (grid.Cell, bool) {
	for r := int32(1); r <= escapeRadius; r++ {
		best, bestD, found := grid.Cell{}, 0.0, false
		for y := c.Y - r; y <= c.Y+r; y++ {
			for x := c.X - r; x <= c.X+r; x++ {
				if max(absInt32(x-c.X), absInt32(y-c.Y)) != r {
					continue
				}
				n := grid.Cell{X: x, Y: y}
				if !g.InBounds(n) || !g.Passable(n) {
					continue
				}
				if d := dist2(pos, g.Center(n)); !found || d < bestD {
					best, bestD, found = n, d, true
				}
			}
		}
		if found {
			return best, true
		}
	}
	return grid.Cell{}, false
}
