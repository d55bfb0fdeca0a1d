package systems_test

import (
	"io"
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

// A newcomer sent Movers of radii 0.3 to 1.2 together through a 2-cell gap in a wall.
// The two widest have no route their discs fit (PathUnreachable) and stand on the near
// side, counted as path_unreachable. The radius-1.2 one, at rest beside the other,
// was also counted as held_off_goal, advising a smaller SeparationRadius, which cannot
// bring it to a goal it has no route to. An agent whose path is unreachable is not
// held off by separation: held_off_goal is never counted here.
func TestAnAgentWithNoRouteIsNotHeldOffGoal(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	g := grid.New(32, 17)
	for y := range 17 {
		if y != 7 && y != 8 { // a gap of 2 cells
			g.SetCost(grid.Cell{X: 16, Y: int32(y)}, grid.Blocked)
		}
	}
	arche.AddResource(w, g)
	goal := r2.Vec{X: 28.5, Y: 8.5}
	for i, r := range []float64{0.3, 0.5, 0.6, 0.8, 1.1, 1.2} {
		sp, err := systems.NewSpawner(w, systems.Mover{Motion: systems.Motion{Radius: r}})
		require.NoError(t, err)
		sp.Spawn(r2.Vec{X: 3.5, Y: 2.5 + 2.4*float64(i)}, func(a *systems.Spawned) { a.MoveTo(goal) })
	}
	diag := &systems.Diagnostics{Every: 60, Out: io.Discard}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{Workers: 1}, &systems.PathQueue{},
		&systems.PathFollow{Workers: 1}, &systems.Steer{Workers: 1}, &systems.Movement{Workers: 1}, diag)
	require.NoError(t, s.InitializeChecked(w))
	defer s.Finalize(w)
	for range 30 {
		s.Run(w, 60)
		require.Zero(t, diag.Report.Counts[systems.CauseHeldOffGoal], "%s", diag.Report)
	}
	r := systems.Diagnose(w)
	assert.Zero(t, r.Counts[systems.CauseHeldOffGoal], "%s", r)
	assert.Equal(t, 2, r.Counts[systems.CausePathUnreachable], "the two widest: %s", r)
	// the widest is at rest, found stuck, with an agent at rest in its separation's reach
	// and none touching it: what held_off_goal looks for, but for its route
	q := generic.NewFilter4[components.Kinematics, components.Velocity, components.Progress, components.Path]().Query(w)
	found := false
	for q.Next() {
		k, v, p, path := q.Get()
		if k.Radius == 1.2 {
			found = true
			assert.Equal(t, components.PathUnreachable, path.State)
			assert.True(t, p.Stuck, "found stuck")
			assert.Less(t, r2.Norm(v.Vec), 0.05*k.MaxSpeed, "at rest")
		}
	}
	assert.True(t, found)
}
