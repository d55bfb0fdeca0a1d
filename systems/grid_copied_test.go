package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
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

// A newcomer closed a door by copying another map over the grid resource in place
// (*g = *closed): the systems' caches (wall bitmaps, paths, sight) know a grid by its
// pointer and Version, and the copy's version read as a few edits of the grid they
// knew, so the door cells were never updated and the agents walked through the wall.
// Every grid now has versions of its own (grid.Version), so the copy is rebuilt
// from: nobody crosses the closed wall.
func TestAGridCopiedOverInPlaceIsSeen(t *testing.T) {
	wall := func(door bool) *grid.Grid {
		g := grid.New(48, 32)
		for y := range int32(32) {
			if !door || y < 14 || y > 17 {
				g.SetCost(grid.Cell{X: 24, Y: y}, grid.Blocked)
			}
		}
		g.SetCost(grid.Cell{X: 2, Y: 2}, 2) // a few more edits, so the open map's version runs ahead
		g.SetCost(grid.Cell{X: 2, Y: 3}, 2)
		return g
	}
	closed := wall(false) // made first: its versions are below the open one's
	g := wall(true)
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, g)
	goal := r2.Vec{X: 40.5, Y: 15.5}
	tree, err := bt.Compile("through", bt.Action("Go", func(c *bt.Context) bt.Status {
		in := systems.AgentOf(c).Intent
		in.Move, in.Goal = true, goal
		return bt.Running
	}))
	require.NoError(t, err)
	sp, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: tree})
	require.NoError(t, err)
	for i := range 8 {
		sp.Spawn(r2.Vec{X: 6.5 + float64(i%4), Y: 12.5 + float64(i/4)*4}, nil)
	}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.Decision{},
		&systems.PathQueue{}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	require.NoError(t, s.InitializeChecked(w))
	defer s.Finalize(w)
	s.Run(w, 120) // on their way to the door
	*g = *closed  // the door closes: the other map copied in place
	q := generic.NewFilter1[components.Position]()
	for range 900 {
		s.Run(w, 1)
		it := q.Query(w)
		for it.Next() {
			p := it.Get().Vec
			require.Less(t, p.X, 24.0, "an agent crossed the closed wall to (%.2f, %.2f)", p.X, p.Y)
		}
	}
	assert.False(t, g.Passable(grid.Cell{X: 24, Y: 15}))
}
