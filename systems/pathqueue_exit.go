package systems

import (
	"errors"

	"github.com/archai-go/archai/nav/grid"
)

// A request from a blocked cell: a door closed on the agent, a bridge was
// lifted under it, it was spawned in a wall. Movement lets such an agent walk
// freely until it is in an open cell, so its goal is reachable when an open
// cell near it is: the queue searches from that cell (the exit, exitFrom) and
// answers a path whose first waypoint is the agent's blocked cell and whose
// second is the exit. Only with no exit within escapeRadius cells is the answer
// PathUnreachable. See PathQueue's doc ("Blocked start").

// exitFrom returns the cell a search for a request from start, a blocked cell
// of the grid, to goal with clearance clear starts from: of the nearest ring
// of cells around start (Chebyshev rings 1 to escapeRadius) that holds open
// cells from which the goal is reachable for that clearance
// ([grid.Grid.ConnectedWide], the test [grid.Search.Start] makes) and whose
// segment from start's centre first enters no open cell cut off from the goal
// (entersDeadEnd: a pocket in the wall, where a walk out would end for good),
// the one nearest goal (squared distance between cell centres; the first in
// row order among equals): escapeToward's rule, for the start cell's centre
// and any clearance. It reports false when no such cell exists (goal blocked,
// no exit within escapeRadius). The grid's lazy caches of clearance clear must
// be built when it runs beside other readers (startServe builds them).
func exitFrom(g *grid.Grid, start, goal grid.Cell, clear uint8) (grid.Cell, bool) {
	if !g.Passable(goal) {
		return grid.Cell{}, false
	}
	from := g.Center(start)
	noPath := func(m grid.Cell) bool { return !g.ConnectedWide(m, goal, clear) }
	for r := int32(1); r <= escapeRadius; r++ {
		best, bestD, found := grid.Cell{}, int64(0), false
		for y := start.Y - r; y <= start.Y+r; y++ {
			for x := start.X - r; x <= start.X+r; x++ {
				if max(absInt32(x-start.X), absInt32(y-start.Y)) != r {
					continue
				}
				n := grid.Cell{X: x, Y: y}
				if !g.InBounds(n) || !g.ConnectedWide(n, goal, clear) {
					continue
				}
				dx, dy := int64(n.X-goal.X), int64(n.Y-goal.Y)
				if d := dx*dx + dy*dy; (!found || d < bestD) && !entersDeadEnd(g, from, g.Center(n), noPath) {
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

// startSearch starts the search of the active job's key on v.search: from
// key.start, or, when that is a blocked cell of the grid, from its exit
// (exitFrom; none: from key.start, which Start answers with ErrBlocked). It
// remembers where the search starts (v.from) and the grid's version then.
func (v *pathServer) startSearch(key pathKey) error {
	v.from, v.fromVersion = key.start, v.grid.Version()
	if !v.grid.InBounds(key.start) {
		if in, ok := entryFrom(v.grid, key.start, key.goal, key.clear); ok {
			v.from = in
		}
	} else if !v.grid.Passable(key.start) {
		if out, ok := exitFrom(v.grid, key.start, key.goal, key.clear); ok {
			v.from = out
		}
	}
	if opt := v.search.Options(); v.options.JumpPoints && !opt.JumpPoints && v.aStarSince != v.grid.Version() {
		// fallen back to A* (below) on an older grid: jump point search again
		// if its passable cells share one cost now
		opt.JumpPoints = true
		v.search.SetOptions(opt)
	}
	err := v.search.Start(v.from, key.goal)
	if errors.Is(err, grid.ErrNotUniform) && v.search.Options().JumpPoints {
		// cells of several costs, which jump point search cannot search: A*
		// finds paths as short (AStarInstead)
		opt := v.search.Options()
		opt.JumpPoints = false
		v.search.SetOptions(opt)
		v.aStarInstead++
		v.aStarSince = v.grid.Version()
		err = v.search.Start(v.from, key.goal)
	}
	return err
}

// entryFrom returns the cell a search for a request from start, a cell off
// the grid, to goal with clearance clear starts from: the cell of the grid
// nearest start (each coordinate clamped to the grid) when the goal is
// reachable from it for that clearance, else that cell's exit (exitFrom's
// rule around it, blocked or not). It reports false when neither exists.
func entryFrom(g *grid.Grid, start, goal grid.Cell, clear uint8) (grid.Cell, bool) {
	if g.Width() == 0 || g.Height() == 0 {
		return grid.Cell{}, false
	}
	near := grid.Cell{X: min(max(start.X, 0), int32(g.Width()-1)), Y: min(max(start.Y, 0), int32(g.Height()-1))}
	if g.ConnectedWide(near, goal, clear) {
		return near, true
	}
	return exitFrom(g, near, goal, clear)
}

// fromExit prepends the request's blocked start cell to path, a path from the
// exit the search started from (startSearch), and returns it; a path from the
// start cell itself is returned as it is.
func (v *pathServer) fromExit(key pathKey, path []grid.Cell) []grid.Cell {
	if v.from == key.start || len(path) == 0 {
		return path
	}
	path = append(path, grid.Cell{})
	copy(path[1:], path)
	path[0] = key.start
	return path
}
