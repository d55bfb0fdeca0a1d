package systems_test

import (
	"math"
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

// An agent sent to a goal just beside a wall, the map's edge or a wall's corner
// rests with its disc clear of it (its radius off the side, or from the corner),
// as near the goal as that allows. Before, it rested on the goal, a quarter of its
// disc (radius 0.3, goal 0.05 from the edge) inside the wall (a newcomer). A goal
// in the open rests on the goal.
func TestAnAgentRestsClearOfAWallBesideItsGoal(t *testing.T) {
	const r = 0.3
	for _, c := range []struct {
		goal, rest r2.Vec
	}{
		{r2.Vec{X: 31.95, Y: 10.5}, r2.Vec{X: 32 - r, Y: 10.5}},                                                            // the map's east edge
		{r2.Vec{X: 0.05, Y: 30.5}, r2.Vec{X: r, Y: 30.5}},                                                                  // the west edge
		{r2.Vec{X: 15.9, Y: 5.5}, r2.Vec{X: 16 - r, Y: 5.5}},                                                               // the wall at x = 16
		{r2.Vec{X: 0, Y: 0}, r2.Vec{X: r, Y: r}},                                                                           // the map's corner
		{r2.Vec{X: 17.02, Y: 20.03}, r2.Vec{X: 17 + r*0.02/math.Hypot(0.02, 0.03), Y: 20 + r*0.03/math.Hypot(0.02, 0.03)}}, // the wall's end: a corner
		{r2.Vec{X: 8.5, Y: 8.5}, r2.Vec{X: 8.5, Y: 8.5}},                                                                   // in the open
	} {
		world := arche.NewWorld()
		w := &world
		g := grid.New(32, 32)
		for y := int32(0); y < 20; y++ {
			g.SetCost(grid.Cell{X: 16, Y: y}, grid.Blocked)
		}
		arche.AddResource(w, g)
		sp, err := systems.NewSpawner(w, systems.Mover{Motion: systems.Motion{Radius: r}})
		require.NoError(t, err)
		e := sp.Spawn(r2.Vec{X: 8.5, Y: 12.5}, func(s *systems.Spawned) { s.MoveTo(c.goal) })
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
		require.NoError(t, s.InitializeChecked(w))
		s.Run(w, 60*30)
		pos := generic.NewMap[components.Position](w)
		p := pos.Get(e).Vec
		assert.InDelta(t, c.rest.X, p.X, 0.01, "goal %v: at %v", c.goal, p)
		assert.InDelta(t, c.rest.Y, p.Y, 0.01, "goal %v: at %v", c.goal, p)
		prog := generic.NewMap[components.Progress](w)
		assert.Zero(t, prog.Get(e).Count, "goal %v: never found stuck", c.goal)
		vel := generic.NewMap[components.Velocity](w)
		assert.Less(t, r2.Norm(vel.Get(e).Vec), 1e-3, "goal %v: at rest", c.goal)
	}
}

// Eight agents sent to one goal at a wall's corner come to rest: those the crowd holds
// about a cell from the goal do not switch every frame between aiming at the goal and
// at its rest point (they moved in every frame 60 s after arriving; a reviewer). An
// agent pursuing a fixed point beside a wall rests its radius off it too.
func TestACrowdAtAGoalBesideAWallComesToRest(t *testing.T) {
	g := grid.New(32, 32)
	for y := int32(0); y < 20; y++ {
		g.SetCost(grid.Cell{X: 16, Y: y}, grid.Blocked)
	}
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, g)
	sp, err := systems.NewSpawner(w, systems.Mover{Motion: systems.Motion{Radius: 0.3}})
	require.NoError(t, err)
	goal := r2.Vec{X: 17.02, Y: 20.03}
	var es []arche.Entity
	for i := range 8 {
		es = append(es, sp.Spawn(r2.Vec{X: 4.5 + float64(i%4), Y: 4.5 + float64(i/4)}, func(s *systems.Spawned) { s.MoveTo(goal) }))
	}
	pursuer := sp.Spawn(r2.Vec{X: 8.5, Y: 12.5}, func(s *systems.Spawned) {
		s.Intent.Mode, s.Intent.Point = components.IntentPursue, r2.Vec{X: 15.95, Y: 5.5}
	})
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	require.NoError(t, s.InitializeChecked(w))
	vel := generic.NewMap[components.Velocity](w)
	pos := generic.NewMap[components.Position](w)
	s.Run(w, 60*60)
	moving := make([]int, len(es))
	for range 600 {
		s.Update(w)
		for i, e := range es {
			if r2.Norm(vel.Get(e).Vec) > 1e-3 {
				moving[i]++
			}
		}
	}
	for i, n := range moving {
		assert.LessOrEqual(t, n, 60, "agent %d, %.3f cells from the goal, moving in %d of the last 600 frames", i, r2.Norm(r2.Sub(pos.Get(es[i]).Vec, goal)), n)
	}
	assert.InDelta(t, 15.7, pos.Get(pursuer).Vec.X, 0.01, "the pursuer of a point 0.05 from the wall")
}
