package systems_test

import (
	"fmt"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestFlowGoalMovingFasterThanTheBudgetBuilds pins FlowField's documented
// limit: on a 128² map (16,384 cells) a whole-grid field built 1,000 cells a
// frame takes about 17 frames; a goal that moves a cell every 10 frames never
// gets one, and its followers, with no field yet, stand still, counted in
// FlowField.Waiting every frame. With Budget 0,
// or with sector fields, the same followers walk towards it.
func TestFlowGoalMovingFasterThanTheBudgetBuilds(t *testing.T) {
	for _, tc := range []struct {
		budget, sectors int
		moves           bool
	}{{1000, 0, false}, {0, 0, true}, {1000, 16, true}} {
		t.Run(fmt.Sprintf("budget=%d/sectors=%d", tc.budget, tc.sectors), func(t *testing.T) {
			world := arche.NewWorld()
			w := &world
			arche.AddResource(w, grid.New(128, 128))
			goal := grid.Cell{X: 110, Y: 64}
			sp, err := systems.NewSpawner(w, systems.FlowFollower{Goal: goal})
			require.NoError(t, err)
			for i := 0; i < 10; i++ {
				sp.Spawn(r2.Vec{X: 10.5, Y: 60.5 + float64(i)}, nil)
			}
			ffs := &systems.FlowField{Budget: tc.budget, Sectors: tc.sectors}
			s := ecs.NewScheduler(ecs.NewClockSystem(1.0/30), &systems.Spatial{},
				ffs, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
			s.Initialize(w)
			defer s.Finalize(w)
			f := generic.NewFilter2[components.Position, components.FlowFollower]()
			for fr := 1; fr <= 300; fr++ {
				if fr%10 == 0 {
					goal.Y++
					q := f.Query(w)
					for q.Next() {
						_, ff := q.Get()
						ff.Goal = goal
					}
				}
				s.Update(w)
				switch {
				case tc.moves:
					// (in a frame where the goal moved, the new field is built
					// at the frame's end: its followers wait that one frame)
					if fr%10 != 0 && fr > 1 {
						require.Zero(t, ffs.Waiting, "frame %d: every follower has its goal's field", fr)
					}
				case fr >= 10:
					// reported, not silent: every follower waits for a field that never completes
					require.Equal(t, 10, ffs.Waiting, "frame %d", fr)
				}
			}
			q := f.Query(w)
			for q.Next() {
				p, ff := q.Get()
				if tc.moves {
					require.Greater(t, p.X, 30.0, "10 s towards a goal 100 cells away")
				} else {
					require.False(t, ff.Has, "no field ever completed")
					require.Less(t, p.X, 11.5, "no field: standing")
				}
			}
		})
	}
}
