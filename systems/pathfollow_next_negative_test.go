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
)

// A Path.Next below 0 written by hand (-1 meant as "no waypoint yet") is read as
// 0 and set to 0: the agent follows its path from the waypoint it has reached.
// Before, PathFollow indexed Waypoints with it and its worker panicked.
func TestPathFollowNegativeNextReadAsZero(t *testing.T) {
	from, turn, corner, to := grid.Cell{X: 5, Y: 5}, grid.Cell{X: 5, Y: 19}, grid.Cell{X: 15, Y: 19}, grid.Cell{X: 15, Y: 5}
	for _, next := range []int{-1, -100, math.MinInt} {
		world := arche.NewWorld()
		w := &world
		g := grid.New(20, 20)
		for y := range int32(19) {
			g.SetCost(grid.Cell{X: 10, Y: y}, grid.Blocked) // a wall between agent and goal, open at y = 19
		}
		arche.AddResource(w, g)
		sp, err := systems.NewSpawner(w, systems.Mover{Motion: systems.Motion{MaxSpeed: 2, Separation: -1, Wall: -1}})
		require.NoError(t, err)
		e := sp.Spawn(g.Center(from), func(a *systems.Spawned) {
			*a.Intent = components.Intent{Move: true, Goal: g.Center(to)}
			p := a.Path
			p.State, p.Goal, p.Next = components.PathReady, to, next
			p.Waypoints = append(p.Waypoints[:0], from, turn, corner, to)
		})
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathFollow{Workers: 1})
		s.Initialize(w)
		require.NotPanics(t, func() { s.Update(w) }, "Next %d", next)
		s.Finalize(w)
		m := generic.NewMap2[components.Desired, components.Path](w)
		d, p := m.Get(e)
		assert.Equal(t, 1, p.Next, "Next %d: read as 0, then past the start cell the agent stands in", next)
		assert.Equal(t, components.Desired{Mode: components.DesiredSeek, Point: g.Center(turn)}, *d, "Next %d", next)
		assert.False(t, p.Want, "Next %d: the path still serves the goal", next)
	}
}
