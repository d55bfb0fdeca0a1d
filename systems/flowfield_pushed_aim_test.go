package systems_test

import (
	"fmt"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A flow follower pushed sideways within the cell it sampled in, so that its
// Aim lies behind a wall's corner, samples again from where it is: it no
// longer presses into the wall. The crowd's push is the program's here: the
// agent, having entered the cell at a corridor's mouth from the west, is put
// back half a cell west against the wall's face, as a crowd streaming into
// the corridor pushed it (the newcomer's 1024² town map, sector mode: pinned
// 20–42 s while the route stayed open). In whole-grid mode since the session
// of 2026-12-06 09:17 (checked once in 16 frames, by query index).
func TestAFlowFollowerPushedBehindACornerAimsAgain(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ sectors, before int }{{0, 0}, {0, 7}, {16, 0}} {
		sectors := c.sectors
		t.Run(fmt.Sprintf("sectors %d, %d agents before it", sectors, c.before), func(t *testing.T) {
			world := arche.NewWorld()
			w := &world
			g := grid.New(64, 64)
			for y := int32(40); y < 64; y++ { // a corridor x 30..34 going south from y 40
				for x := int32(0); x < 64; x++ {
					if x < 30 || x >= 35 {
						g.SetCost(grid.Cell{X: x, Y: y}, grid.Blocked)
					}
				}
			}
			arche.AddResource(w, g)
			sp, err := systems.NewSpawner(w, systems.FlowFollower{Goal: grid.Cell{X: 32, Y: 60}})
			require.NoError(t, err)
			for k := range c.before { // earlier in the query, off to a goal of their own
				o := sp.Spawn(r2.Vec{X: 50.5 + float64(k), Y: 5.5}, nil)
				(*components.FlowFollower)(w.Get(o, arche.ComponentID[components.FlowFollower](w))).Goal = grid.Cell{X: 60, Y: 30}
			}
			e := sp.Spawn(r2.Vec{X: 29.9, Y: 30.5}, nil)
			s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.FlowField{Sectors: sectors},
				&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
			require.NoError(t, s.InitializeChecked(w))
			defer s.Finalize(w)
			pos := (*components.Position)(w.Get(e, arche.ComponentID[components.Position](w)))
			vel := (*components.Velocity)(w.Get(e, arche.ComponentID[components.Velocity](w)))
			ff := (*components.FlowFollower)(w.Get(e, arche.ComponentID[components.FlowFollower](w)))
			corner := grid.Cell{X: 29, Y: 39} // above the corridor's west wall's corner
			for i := 0; i < 600 && ff.Cell != corner; i++ {
				// walk south into the corner's cell, the crowd on its east
				pos.X, vel.X = 29.9, 0
				s.Run(w, 1)
			}
			require.Equal(t, corner, ff.Cell, "the agent reached the corner cell")
			// pushed back west within the cell, against the wall's face, for
			// 16 frames: whole-grid mode checks each agent once in 16 frames
			// (sector mode every frame)
			for i := 0; i < 16; i++ {
				pos.X, pos.Y, vel.Vec = 29.3, 39.7, r2.Vec{}
				s.Run(w, 1)
				pos.X, pos.Y, vel.Vec = 29.3, 39.7, r2.Vec{}
			}
			p := pos.Vec
			step := r2.Add(p, r2.Scale(0.5/r2.Norm(r2.Sub(ff.Aim, p)), r2.Sub(ff.Aim, p)))
			require.True(t, g.LineOfSight(p, step), "aim %v from %v leads into the wall", ff.Aim, p)
			// and it gets round the corner
			for i := 0; i < 120 && pos.Y < 41; i++ {
				s.Run(w, 1)
			}
			require.Greater(t, pos.Y, 41.0, "into the corridor within 2 s")
		})
	}
}
