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

// An agent sent to a goal off the grid or in a blocked cell (Diagnose:
// goal_unusable) walks straight towards it as far as the line goes and rests
// there, its radius short of the wall or the map's edge. Before, it sought
// the goal into the wall for good, shaking at 0.1-0.3 cells/s (a newcomer's
// trial: goal (100, 40.5) on a 64² grid, a wall in between).
func TestAnAgentSentToAnUnusableGoalRestsShortOfIt(t *testing.T) {
	for _, c := range []struct {
		name string
		goal r2.Vec
		stop r2.Vec // where it rests
	}{
		{"off the grid, a wall between", r2.Vec{X: 100, Y: 20.5}, r2.Vec{X: 25 - 0.3, Y: 20.5}},
		{"off the grid, open", r2.Vec{X: 10.5, Y: -50}, r2.Vec{X: 10.5, Y: 0.3}},
		{"in a blocked cell", r2.Vec{X: 25.5, Y: 30.5}, r2.Vec{X: 25 - 0.3, Y: 30.5}},
	} {
		t.Run(c.name, func(t *testing.T) {
			world := arche.NewWorld()
			g := grid.New(64, 64)
			for y := int32(10); y < 40; y++ {
				g.SetCost(grid.Cell{X: 25, Y: y}, grid.Blocked)
			}
			arche.AddResource(&world, g)
			movers, err := systems.NewSpawner(&world, systems.Mover{})
			require.NoError(t, err)
			from := r2.Vec{X: 10.5, Y: c.goal.Y}
			if c.goal.Y < 0 {
				from = r2.Vec{X: 10.5, Y: 20.5}
			}
			e := movers.Spawn(from, func(s *systems.Spawned) { s.MoveTo(c.goal) })
			s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{}, &systems.PathFollow{},
				&systems.Steer{}, &systems.Movement{})
			require.NoError(t, s.InitializeChecked(&world))
			defer s.Finalize(&world)
			s.Run(&world, 30*60)
			pos, vel := generic.NewMap[components.Position](&world), generic.NewMap[components.Velocity](&world)
			assert.Less(t, r2.Norm(vel.Get(e).Vec), 1e-3, "at rest, at %v", pos.Get(e).Vec)
			assert.Less(t, r2.Norm(r2.Sub(pos.Get(e).Vec, c.stop)), 0.05, "short of the wall or edge: %v", pos.Get(e).Vec)
			assert.Equal(t, 1, systems.Diagnose(&world).Counts[systems.CauseGoalUnusable], "and reported")
		})
	}
}
