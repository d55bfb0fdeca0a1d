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

// The first program's couriers with ORCA (Motion.Avoid AvoidORCA): once at the
// goal their tree rests them (Intent.Move false: Desired None), and a resting
// group whose neighbours all stand idle keeps still. Before, the Bias turned
// each one's braking into a slow turn of the whole group about the goal, for
// good (4 couriers at 0.17 cells/s, 10 at up to 0.5; found on 2026-12-04).
func TestIdleORCAGroupComesToRest(t *testing.T) {
	for _, n := range []int{4, 10} {
		world := arche.NewWorld()
		g := grid.New(64, 64)
		for y := range 50 {
			g.SetCost(grid.Cell{X: 30, Y: int32(y)}, grid.Blocked)
		}
		arche.AddResource(&world, g)
		goal := r2.Vec{X: 60.5, Y: 10.5}
		arrived := bt.Condition("Arrived", func(c *bt.Context) bool {
			return r2.Norm(r2.Sub(systems.AgentOf(c).Position.Vec, goal)) < 1.5
		})
		rest := bt.Action("Rest", func(c *bt.Context) bt.Status {
			systems.AgentOf(c).Intent.Move = false
			return bt.Success
		})
		walk := bt.Action("WalkToGoal", func(c *bt.Context) bt.Status {
			in := systems.AgentOf(c).Intent
			in.Move, in.Goal = true, goal
			return bt.Running
		})
		tree, err := bt.Compile("courier", bt.ReactiveSelector(bt.Sequence(arrived, rest), walk))
		require.NoError(t, err)
		sp, err := systems.NewSpawner(&world, systems.Mover{Motion: systems.Motion{Avoid: systems.AvoidORCA}}, systems.Thinker{Tree: tree})
		require.NoError(t, err)
		sp.SpawnBatch(n, func(i int, a *systems.Spawned) {
			a.Position.Vec = r2.Vec{X: 2.5 + float64(i%5), Y: 2.5 + float64(i/5)}
		})
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.Decision{},
			&systems.PathQueue{}, &systems.PathFollow{}, &systems.Steer{}, &systems.ORCA{}, &systems.Movement{})
		require.NoError(t, s.InitializeChecked(&world))
		s.Run(&world, 60*60)
		f := generic.NewFilter2[components.Position, components.Velocity]()
		fastest, far := 0.0, 0.0
		for range 10 * 60 {
			s.Update(&world)
			q := f.Query(&world)
			for q.Next() {
				p, v := q.Get()
				fastest = max(fastest, r2.Norm(v.Vec))
				far = max(far, r2.Norm(r2.Sub(p.Vec, goal)))
			}
		}
		s.Finalize(&world)
		t.Logf("%d couriers: fastest %.3f cells/s from 60 to 70 s, farthest %.2f cells from the goal", n, fastest, far)
		assert.Less(t, fastest, 0.01, "%d couriers at rest", n)
	}
}
