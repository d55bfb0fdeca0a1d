package systems_test

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// Agents spawned inside a wall 2 cells thick (the door closed before they came): a
// Mover (path follower, no flow field) and a FlowFollower must walk out as agents a door
// closes on do.
func TestAgentsSpawnedInAWallWalkOut(t *testing.T) {
	for _, kind := range []string{"flow", "mover"} {
		t.Run(kind, func(t *testing.T) {
			world := arche.NewWorld()
			w := &world
			g := grid.New(40, 20)
			for y := int32(0); y < 20; y++ {
				g.SetCost(grid.Cell{X: 20, Y: y}, grid.Blocked)
				g.SetCost(grid.Cell{X: 21, Y: y}, grid.Blocked)
			}
			arche.AddResource(w, g)
			goal := r2.Vec{X: 35.5, Y: 9.5}
			var bundle systems.Bundle = systems.FlowFollower{Goal: g.CellAt(goal)}
			if kind == "mover" {
				bundle = systems.Mover{}
			}
			sp, err := systems.NewSpawner(w, bundle)
			require.NoError(t, err)
			for _, p := range []r2.Vec{{X: 20.2, Y: 8.5}, {X: 21.5, Y: 9.5}, {X: 20.5, Y: 3.5}} {
				sp.Spawn(p, func(a *systems.Spawned) { a.MoveTo(goal) })
			}
			list := []ecs.System{ecs.NewClockSystem(1.0 / 60), &systems.Spatial{}}
			if kind == "flow" {
				list = append(list, &systems.FlowField{})
			} else {
				list = append(list, &systems.PathQueue{})
			}
			list = append(list, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
			s := ecs.NewScheduler(list...)
			s.Initialize(w)
			defer s.Finalize(w)
			s.Run(w, 600)
			q := generic.NewFilter1[components.Position]().Query(w)
			for q.Next() {
				p := q.Get().Vec
				assert.True(t, g.Passable(g.CellAt(p)), "%v still in the wall at %v", q.Entity(), p)
			}
		})
	}
}

// An agent in a wall heads in a straight line for the escape cell (a flow follower)
// or for its goal (a path follower, whose search from a blocked cell finds nothing),
// walking freely through the wall; but the first open cell it enters ends its
// freedom. Where that line crosses an isolated open cell (a one-cell pocket inside
// the wall, no path to the goal), the agent used to step into the pocket and stay
// there for good: open, so no escape was aimed at, and walled in, so Movement let it
// nowhere (it ended at (15.5, 9.7)). escapeCell (flow fields) and escapeToward (path
// followers) now pass over exits whose segment crosses such a dead end, so the agent
// walks round the pocket: on a whole-grid and on a sector field, as a path follower
// and as one under ORCA.
func TestEscapeThroughAPocketTrapsTheAgent(t *testing.T) {
	for _, kind := range []string{"flow", "sectors", "mover", "orca"} {
		t.Run(kind, func(t *testing.T) { escapeThroughAPocket(t, kind) })
	}
}

func escapeThroughAPocket(t *testing.T, kind string) {
	world := arche.NewWorld()
	w := &world
	g := grid.New(40, 20)
	for x := int32(10); x < 20; x++ { // a wall 10 thick, x 10..19
		for y := int32(0); y < 20; y++ {
			g.SetCost(grid.Cell{X: x, Y: y}, grid.Blocked)
		}
	}
	for y := int32(0); y < 20; y++ { // open cells at x 20.. and x 17 carved: the agent at (14,9)
		for x := int32(17); x < 20; x++ {
			g.SetCost(grid.Cell{X: x, Y: y}, 1)
		}
	}
	// the pocket, on the line from (14,9) to the nearest ring's best, (17,10) on the
	// whole-grid field, (17,12) on the sector field (whose values out of the built
	// sectors are estimates), and on the line to the goal for a path follower
	pocket := grid.Cell{X: 15, Y: 9}
	if kind == "sectors" {
		pocket = grid.Cell{X: 15, Y: 10}
	}
	g.SetCost(pocket, 1)
	arche.AddResource(w, g)
	goal := grid.Cell{X: 35, Y: 10}
	sp, err := systems.NewSpawner(w, escapeBundles(kind, goal)...)
	require.NoError(t, err)
	sp.Spawn(r2.Vec{X: 14.5, Y: 9.5}, func(a *systems.Spawned) {
		if kind == "mover" || kind == "orca" {
			a.MoveTo(g.Center(goal))
		}
	})
	s := ecs.NewScheduler(escapeSystems(kind)...)
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 600)
	q := generic.NewFilter1[components.Position]().Query(w)
	for q.Next() {
		p := q.Get().Vec
		assert.GreaterOrEqual(t, p.X, 17.0, "%v at %v (cell %v): trapped in the pocket", q.Entity(), p, g.CellAt(p))
		assert.Less(t, p.X, 36.0, "%v at %v: past the goal", q.Entity(), p)
		assert.True(t, g.Passable(g.CellAt(p)), "%v still in the wall at %v", q.Entity(), p)
	}
}
