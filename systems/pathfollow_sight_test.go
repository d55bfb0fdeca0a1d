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

// PathFollow trusts its line-of-sight cache only while the agent and its goal
// stay in the cells it was tested from and to: a cache that says "clear" for
// a line a wall now crosses heads the agent straight at its goal while both
// cells match, and is tested again (blocked: follow the path) as soon as
// either differs or the cache is marked unknown.
func TestPathFollowSightCacheKeyedOnBothCells(t *testing.T) {
	at, goal := r2.Vec{X: 5.5, Y: 5.5}, r2.Vec{X: 15.5, Y: 5.5}
	from, to := grid.Cell{X: 5, Y: 5}, grid.Cell{X: 15, Y: 5}
	turn := grid.Cell{X: 5, Y: 19} // the path's first waypoint after the start: round the wall's end
	cases := []struct {
		name       string
		from, to   grid.Cell
		known      bool
		speed      float64
		wantDirect bool
	}{
		{"cache hit", from, to, true, 0.5, true},
		{"cache hit at full speed", from, to, true, 1, true},
		{"agent's cell differs", grid.Cell{X: 5, Y: 6}, to, true, 0.5, false},
		{"goal's cell differs", from, grid.Cell{X: 15, Y: 6}, true, 0.5, false},
		{"cache unknown", from, to, false, 0.5, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			world := arche.NewWorld()
			w := &world
			g := grid.New(20, 20)
			for y := range int32(19) {
				g.SetCost(grid.Cell{X: 10, Y: y}, grid.Blocked) // a wall between agent and goal, open at y = 19
			}
			arche.AddResource(w, g)
			sp, err := systems.NewSpawner(w, systems.Mover{Motion: systems.Motion{MaxSpeed: 2, Separation: -1, Wall: -1}})
			require.NoError(t, err)
			e := sp.Spawn(at, func(a *systems.Spawned) {
				*a.Intent = components.Intent{Move: true, Goal: goal, SpeedFactor: tc.speed}
				p := a.Path
				p.State, p.Goal, p.Next = components.PathReady, to, 1
				p.Waypoints = append(p.Waypoints[:0], from, turn, grid.Cell{X: 15, Y: 19}, to)
				p.SightFrom, p.SightTo, p.SightKnown, p.SightClear = tc.from, tc.to, tc.known, true
			})
			pf := &systems.PathFollow{Workers: 1}
			s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, pf)
			s.Initialize(w)
			defer s.Finalize(w)
			s.Update(w)
			m := generic.NewMap2[components.Desired, components.Path](w)
			d, p := m.Get(e)
			wantSpeed := tc.speed
			if tc.speed == 1 {
				wantSpeed = 0 // Desired's "full speed"
			}
			if tc.wantDirect {
				assert.Equal(t, components.Desired{Mode: components.DesiredArrive, SpeedFactor: wantSpeed, Point: goal}, *d)
				assert.True(t, p.SightClear, "the cached answer stands")
			} else {
				assert.Equal(t, components.Desired{Mode: components.DesiredSeek, SpeedFactor: wantSpeed, Point: g.Center(turn)}, *d)
				assert.False(t, p.SightClear, "tested again: the wall blocks the line")
			}
			assert.Equal(t, from, p.SightFrom)
			assert.Equal(t, to, p.SightTo)
			assert.True(t, p.SightKnown)
			assert.False(t, p.Want, "the path held still serves the goal")
		})
	}
}
