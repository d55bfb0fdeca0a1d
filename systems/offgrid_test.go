package systems_test

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// offGridWorld is a 10×10 open grid, with a wall across column 2 from row 0
// to row 7 when walled, and the systems a Mover or a FlowFollower needs.
func offGridWorld(t *testing.T, walled, flow bool) (*arche.World, *grid.Grid, *systems.Spawner, *ecs.Scheduler) {
	t.Helper()
	world := arche.NewWorld()
	w := &world
	g := grid.New(10, 10)
	if walled {
		for y := int32(0); y < 8; y++ {
			g.SetCost(grid.Cell{X: 2, Y: y}, grid.Blocked)
		}
	}
	arche.AddResource(w, g)
	list := []ecs.System{ecs.NewClockSystem(1.0 / 30), &systems.Spatial{}, &systems.PathQueue{}}
	var sp *systems.Spawner
	var err error
	if flow {
		sp, err = systems.NewSpawner(w, systems.FlowFollower{Goal: grid.Cell{X: 5, Y: 5}})
		list = append(list, &systems.FlowField{})
	} else {
		sp, err = systems.NewSpawner(w, systems.Mover{})
	}
	require.NoError(t, err)
	list = append(list, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	return w, g, sp, ecs.NewScheduler(list...)
}

// TestAgentsOffTheGridComeOn (newbie23): an agent just off the grid, at its
// far corner (10, 10), at (−0.001, −0.001) (cell (−1, −1)), past an edge or
// far off it, walks onto the grid and to its goal: Movement lets it move
// freely off the grid and come on into open cells (diagonally at a corner
// too), Steer casts no feelers for it, PathQueue searches from the grid's
// cell nearest it and FlowField aims it there. Both a Mover and a
// FlowFollower; Diagnose reports nothing once they are on.
func TestAgentsOffTheGridComeOn(t *testing.T) {
	starts := []r2.Vec{{X: 10, Y: 10}, {X: -0.001, Y: -0.001}, {X: 10, Y: 5.5}, {X: -3, Y: 4}, {X: 4, Y: -20}, {X: -30, Y: -30}}
	goal := r2.Vec{X: 5.5, Y: 5.5}
	for _, flow := range []bool{false, true} {
		w, g, sp, s := offGridWorld(t, false, flow)
		var es []arche.Entity
		for _, p := range starts {
			es = append(es, sp.Spawn(p, func(a *systems.Spawned) {
				if !flow {
					a.MoveTo(goal)
				}
			}))
		}
		require.NoError(t, s.InitializeChecked(w))
		s.Run(w, 30*30)
		pos := generic.NewMap[components.Position](w)
		for i, e := range es {
			p := pos.Get(e).Vec
			require.InDelta(t, 0, r2.Norm(r2.Sub(p, goal)), 1.5, "flow %v: from %v, at %v after 30 s", flow, starts[i], p)
			require.True(t, g.Passable(g.CellAt(p)))
		}
		r := systems.Diagnose(w)
		require.Zero(t, r.Counts[systems.CauseOffGrid], "flow %v: %s", flow, r)
		require.Zero(t, r.Counts[systems.CausePathUnreachable], "flow %v: %s", flow, r)
		s.Finalize(w)
	}
}

// TestAgentOffTheGridComesOnOnlyIntoOpenCells: an agent off the grid beside a
// wall along the edge never steps into the wall's cells: it comes on past
// the wall's end, where the path from the grid's nearest cell leads, and is
// never inside a blocked cell on the way.
func TestAgentOffTheGridComesOnOnlyIntoOpenCells(t *testing.T) {
	for _, flow := range []bool{false, true} {
		w, g, sp, s := offGridWorld(t, true, flow)
		// off the top edge above the wall (column 2, rows 0..7), the goal on its other side
		goal := r2.Vec{X: 5.5, Y: 5.5}
		e := sp.Spawn(r2.Vec{X: 1.5, Y: -0.4}, func(a *systems.Spawned) {
			if !flow {
				a.MoveTo(goal)
			}
		})
		require.NoError(t, s.InitializeChecked(w))
		pos := generic.NewMap[components.Position](w)
		for range 30 * 30 {
			s.Update(w)
			p := pos.Get(e).Vec
			if c := g.CellAt(p); g.InBounds(c) {
				require.True(t, g.Passable(c), "flow %v: in the blocked cell %v at %v", flow, c, p)
			}
		}
		p := pos.Get(e).Vec
		require.InDelta(t, 0, r2.Norm(r2.Sub(p, goal)), 1.5, "flow %v: at %v after 30 s", flow, p)
		s.Finalize(w)
	}
}

// TestPathFromOffTheGrid: a request from a cell off the grid is searched from
// the grid's cell nearest it (or that cell's way out of a wall): the path
// starts with the agent's own cell, then that cell.
func TestPathFromOffTheGrid(t *testing.T) {
	w, _, sp, s := offGridWorld(t, true, false)
	e := sp.Spawn(r2.Vec{X: -4.5, Y: 9.5}, func(a *systems.Spawned) { a.MoveTo(r2.Vec{X: 8.5, Y: 1.5}) })
	require.NoError(t, s.InitializeChecked(w))
	defer s.Finalize(w)
	s.Run(w, 3)
	paths := generic.NewMap[components.Path](w)
	path := paths.Get(e)
	require.Equal(t, components.PathReady, path.State)
	require.GreaterOrEqual(t, len(path.Waypoints), 3)
	require.Equal(t, grid.Cell{X: -5, Y: 9}, path.Waypoints[0], "the agent's own cell")
	require.Equal(t, grid.Cell{X: 0, Y: 9}, path.Waypoints[1], "the grid's cell nearest it")
	require.Equal(t, grid.Cell{X: 8, Y: 1}, path.Waypoints[len(path.Waypoints)-1])
}
