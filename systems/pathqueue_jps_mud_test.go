package systems_test

import (
	"math/rand/v2"
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

// A PathQueue asked for jump point search on a grid that gets cells of
// several costs (mud far from any route) searches by A* instead, counted in
// AStarInstead, and its agent walks round the wall to its goal. Before,
// every request came back PathUnreachable (the search's ErrNotUniform) and
// the agent pressed against the wall for good, Diagnose blaming the walls.
// Once the mud is gone, jump point search serves again.
func TestJumpPointQueueOnAGridOfSeveralCosts(t *testing.T) {
	world := arche.NewWorld()
	g := grid.New(40, 40)
	for y := int32(0); y < 30; y++ {
		g.SetCost(grid.Cell{X: 20, Y: y}, grid.Blocked)
	}
	arche.AddResource(&world, g)
	movers, err := systems.NewSpawner(&world, systems.Mover{})
	require.NoError(t, err)
	goal := r2.Vec{X: 35.5, Y: 5.5}
	e := movers.Spawn(r2.Vec{X: 5.5, Y: 5.5}, func(s *systems.Spawned) { s.MoveTo(goal) })
	pq := &systems.PathQueue{Options: grid.Options{JumpPoints: true}}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, pq, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	require.NoError(t, s.InitializeChecked(&world))
	defer s.Finalize(&world)
	g.SetCost(grid.Cell{X: 2, Y: 38}, 3) // mud
	s.Run(&world, 1200)
	pos, path := generic.NewMap[components.Position](&world), generic.NewMap[components.Path](&world)
	assert.Less(t, r2.Norm(r2.Sub(pos.Get(e).Vec, goal)), 0.5, "at the goal after 20 s")
	assert.NotEqual(t, components.PathUnreachable, path.Get(e).State)
	assert.Equal(t, int64(1), pq.TotalAStarInstead, "one search, by A*")
	r := systems.Diagnose(&world)
	assert.Equal(t, 0, r.Total(), r.String())

	g.SetCost(grid.Cell{X: 2, Y: 38}, 1) // the mud dries: uniform again
	back := r2.Vec{X: 5.5, Y: 5.5}
	in := generic.NewMap[components.Intent](&world)
	in.Get(e).Goal = back
	s.Run(&world, 1200)
	assert.Less(t, r2.Norm(r2.Sub(pos.Get(e).Vec, back)), 0.5, "back after 20 s more")
	assert.Equal(t, int64(1), pq.TotalAStarInstead, "the way back by jump point search")
	assert.Greater(t, pq.TotalSearches, int64(1))
}

// The same with the mud set while a jump point search is in progress (a
// budget of 20 expansions a frame on a random 128² map): the search is
// started again by A* (before, the restart inside the search failed and the
// agent got PathUnreachable at once, for 200 frames, Diagnose blaming the
// walls; found by a reviewer).
func TestJumpPointQueueGetsSeveralCostsMidSearch(t *testing.T) {
	world := arche.NewWorld()
	g := grid.New(128, 128)
	r := rand.New(rand.NewPCG(5, 5))
	for range 128 * 128 / 4 {
		c := grid.Cell{X: int32(r.IntN(128)), Y: int32(r.IntN(128))}
		if (c.X > 8 || c.Y > 8) && (c.X < 115 || c.Y > 12) {
			g.SetCost(c, grid.Blocked)
		}
	}
	arche.AddResource(&world, g)
	movers, err := systems.NewSpawner(&world, systems.Mover{})
	require.NoError(t, err)
	goal := r2.Vec{X: 120.5, Y: 5.5}
	require.True(t, g.Connected(grid.Cell{X: 5, Y: 5}, grid.Cell{X: 120, Y: 5}))
	e := movers.Spawn(r2.Vec{X: 5.5, Y: 5.5}, func(s *systems.Spawned) { s.MoveTo(goal) })
	pq := &systems.PathQueue{Options: grid.Options{JumpPoints: true}, Budget: 20}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, pq, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	require.NoError(t, s.InitializeChecked(&world))
	defer s.Finalize(&world)
	for k := 0; ; k++ {
		s.Update(&world)
		if st := pq.State(); st.Active != nil && st.Expanded > 0 {
			break
		}
		require.Less(t, k, 100, "a search in progress")
	}
	g.SetCost(grid.Cell{X: 2, Y: 126}, 3) // mud far away, mid-search
	path := generic.NewMap[components.Path](&world)
	for f := range 60 * 60 {
		s.Update(&world)
		require.NotEqual(t, components.PathUnreachable, path.Get(e).State, "frame %d", f)
	}
	pos := generic.NewMap[components.Position](&world)
	assert.Less(t, r2.Norm(r2.Sub(pos.Get(e).Vec, goal)), 0.5, "at the goal after 60 s")
	assert.Equal(t, int64(1), pq.TotalAStarInstead)
	r2d := systems.Diagnose(&world)
	assert.Equal(t, 0, r2d.Total(), r2d.String())
}
