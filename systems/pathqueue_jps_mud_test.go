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
	assert.Equal(t, 1, pq.TotalAStarInstead, "one search, by A*")
	r := systems.Diagnose(&world)
	assert.Equal(t, 0, r.Total(), r.String())

	g.SetCost(grid.Cell{X: 2, Y: 38}, 1) // the mud dries: uniform again
	back := r2.Vec{X: 5.5, Y: 5.5}
	in := generic.NewMap[components.Intent](&world)
	in.Get(e).Goal = back
	s.Run(&world, 1200)
	assert.Less(t, r2.Norm(r2.Sub(pos.Get(e).Vec, back)), 0.5, "back after 20 s more")
	assert.Equal(t, 1, pq.TotalAStarInstead, "the way back by jump point search")
	assert.Greater(t, pq.TotalSearches, 1)
}
