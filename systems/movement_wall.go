package systems

import (
	"github.com/archai-go/archai/nav/grid"
	"gonum.org/v1/gonum/spatial/r2"
)

// An agent standing in a blocked cell (a door closed on it, a bridge closed
// under it) walks freely through blocked cells until it is out, but never
// deeper into the wall: a step from a blocked cell into a blocked cell
// farther from open ground (wallDepth) is refused, as a step into a wall is
// for an agent outside, so separation or a crowd pressing cannot push an agent
// off a closed bridge into the river beside it, which never opens.

// wallDepthMax is the farthest wallDepth looks for open ground: a cell with
// none within it is this deep plus one, like every other such cell (so an
// agent deep in a solid region moves freely there).
const wallDepthMax = 2 * escapeRadius

// wallDepth returns how far the blocked cell c lies from open ground: the
// Chebyshev distance to the nearest open cell of the grid (1 for a cell beside
// one), or wallDepthMax+1 when none is within wallDepthMax. Off-grid cells
// count as blocked.
func (b *wallBits) wallDepth(c grid.Cell) int32 {
	for r := int32(1); r <= wallDepthMax; r++ {
		for i := -r; i <= r; i++ {
			if !b.blocked(c.X+i, c.Y-r) || !b.blocked(c.X+i, c.Y+r) ||
				!b.blocked(c.X-r, c.Y+i) || !b.blocked(c.X+r, c.Y+i) {
				return r
			}
		}
	}
	return wallDepthMax + 1
}

// notDeeper reports whether an agent in the blocked cell from may step into
// cell to: to is on the grid, and open or no farther from open ground.
func (s *Movement) notDeeper(from, to grid.Cell) bool {
	b := &s.walls
	if !s.grid.InBounds(to) {
		return false
	}
	return to == from || !b.blocked(to.X, to.Y) || b.wallDepth(to) <= b.wallDepth(from)
}

// inWall resolves a step from p (in the blocked cell from, on the grid) to
// next (in cell to): taken if it goes no deeper into the wall (notDeeper),
// else slid along the deeper cells (only the x or only the y part of the
// step, the velocity along the other axis zeroed) or, if neither part may be
// taken, stopped where it is.
func (s *Movement) inWall(p, next, v r2.Vec, from, to grid.Cell) (r2.Vec, r2.Vec) {
	if s.notDeeper(from, to) {
		return next, v
	}
	if s.notDeeper(from, grid.Cell{X: to.X, Y: from.Y}) {
		return r2.Vec{X: next.X, Y: p.Y}, r2.Vec{X: v.X}
	}
	if s.notDeeper(from, grid.Cell{X: from.X, Y: to.Y}) {
		return r2.Vec{X: p.X, Y: next.Y}, r2.Vec{Y: v.Y}
	}
	return p, r2.Vec{}
}

// offGrid resolves a step from p, off the grid (in cell from), to next (in
// cell to): an agent off the grid moves freely there and comes onto the grid
// only into open cells, by the rule of a step on the grid (no corner cut
// past a blocked cell) with cells off the grid counting as open, so it can
// step onto the grid diagonally at a corner; else it slides along the
// blocked cells (only the x or only the y part of the step, the velocity
// along the other axis zeroed) or, if neither part is free, stops where it
// is. Once on the grid, the grid's edge holds it like a wall.
func (s *Movement) offGrid(p, next, v r2.Vec, from, to grid.Cell) (r2.Vec, r2.Vec) {
	b, g := &s.walls, s.grid
	open := func(c grid.Cell) bool { return !g.InBounds(c) || !b.blocked(c.X, c.Y) }
	xSide, ySide := grid.Cell{X: to.X, Y: from.Y}, grid.Cell{X: from.X, Y: to.Y}
	if open(to) && (to.X == from.X || to.Y == from.Y || open(xSide) && open(ySide)) {
		return next, v
	}
	if open(xSide) {
		return r2.Vec{X: next.X, Y: p.Y}, r2.Vec{X: v.X}
	}
	if open(ySide) {
		return r2.Vec{X: p.X, Y: next.Y}, r2.Vec{Y: v.Y}
	}
	return p, r2.Vec{}
}
