package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A newcomer's maze (2,000 movers with random goals on random512-25-0.map,
// the default PathQueue) left 1,707 requests waiting 2 s or more, and the
// finding's fix named a FlowField or a larger Budget only, though jump point
// search served three times as many of them a frame. The finding names
// PathQueue.Options.JumpPoints when the queue searches by A* with Moves8 on a
// grid whose passable cells all cost the same, and only then: not with
// JumpPoints on, not with Moves4, not on a grid of several costs.
func TestPathWaitFindingNamesJumpPointsWhereTheyServe(t *testing.T) {
	for _, tc := range []struct {
		name    string
		opt     grid.Options
		costly  bool
		suggest bool
	}{
		{"A*, uniform, Moves8", grid.Options{}, false, true},
		{"JumpPoints on", grid.Options{JumpPoints: true}, false, false},
		{"Moves4", grid.Options{Moves: grid.Moves4}, false, false},
		{"a cell of cost 3", grid.Options{}, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			world := arche.NewWorld()
			w := &world
			g := grid.New(64, 64)
			for y := range int32(60) {
				g.SetCost(grid.Cell{X: 32, Y: y}, grid.Blocked)
			}
			if tc.costly {
				g.SetCost(grid.Cell{X: 0, Y: 63}, 3)
			}
			arche.AddResource(w, g)
			sp, err := systems.NewSpawner(w, systems.Mover{})
			require.NoError(t, err)
			sp.SpawnBatch(200, func(i int, a *systems.Spawned) {
				a.Position.Vec = r2.Vec{X: 2.5 + float64(i%20), Y: 2.5 + float64(i/20)}
				a.MoveTo(r2.Vec{X: 60.5, Y: 2.5 + float64(i%40)})
			})
			q := &systems.PathQueue{Budget: 1, Options: tc.opt} // 2 units a request at least: 400 frames
			s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, q, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
			require.NoError(t, s.InitializeChecked(w))
			defer s.Finalize(w)
			s.Run(w, 180)
			r := systems.Diagnose(w)
			require.Positive(t, r.PathsWaitingLong, "%s", r)
			require.Equal(t, tc.suggest, r.PathWaitJumpPoints)
			if tc.suggest {
				require.Contains(t, r.String(), "a FlowField, set PathQueue.Options.JumpPoints (the grid's cells all cost the same")
			} else {
				require.NotContains(t, r.String(), "JumpPoints")
			}
		})
	}
}
