package save_test

import (
	"fmt"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestSaveWhileFollowersHoldAtAClosedDoor (door23): a save made while flow
// followers hold their Aim before a door that closed a few frames earlier
// (FlowFollower.Held, FlowField.Hold), or right after it closed (the edit
// after the last Update), loads into a world that goes on with the saved
// run's state hashes: they stand in the same frame, and walk on in the same
// frame when the door opens again. Whole-grid fields and sector fields.
func TestSaveWhileFollowersHoldAtAClosedDoor(t *testing.T) {
	door := func(g *grid.Grid, open bool) {
		c := float32(grid.Blocked)
		if open {
			c = 1
		}
		for y := int32(8); y <= 11; y++ {
			g.SetCost(grid.Cell{X: 20, Y: y}, c)
			g.SetCost(grid.Cell{X: 21, Y: y}, c)
		}
	}
	newGrid := func() *grid.Grid {
		g := grid.New(40, 20)
		for y := int32(0); y < 20; y++ {
			if y < 8 || y > 11 {
				g.SetCost(grid.Cell{X: 20, Y: y}, grid.Blocked)
				g.SetCost(grid.Cell{X: 21, Y: y}, grid.Blocked)
			}
		}
		return g
	}
	for _, sectors := range []int{0, 8} {
		for _, after := range []int{0, 6} { // Updates between the door closing and the save
			t.Run(fmt.Sprintf("sectors %d, saved %d frames after", sectors, after), func(t *testing.T) {
				sched := func() (*systems.FlowField, *ecs.Scheduler) {
					flow := &systems.FlowField{Sectors: sectors, Workers: 1}
					return flow, ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, flow,
						&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
				}
				world := arche.NewWorld()
				w := &world
				g := newGrid()
				arche.AddResource(w, g)
				sp, err := systems.NewSpawner(w, systems.FlowFollower{Goal: grid.Cell{X: 35, Y: 9}})
				require.NoError(t, err)
				for i := range 12 {
					sp.Spawn(r2.Vec{X: 4.5 + float64(i), Y: 4.5 + float64(i%10)}, nil)
				}
				flow, s := sched()
				s.Initialize(w)
				t.Cleanup(func() { s.Finalize(w) })
				s.Run(w, 40)
				door(g, false)
				s.Run(w, after)
				if after > 0 {
					held := 0
					q := generic.NewFilter1[components.FlowFollower]().Query(w)
					for q.Next() {
						if q.Get().Held {
							held++
						}
					}
					require.Positive(t, held, "followers hold when saved")
				}
				data, err := save.Save(w, nil, flow)
				if sectors > 0 && after == 0 {
					require.Error(t, err) // sector mode: save after the Update that sees the edit
					return
				}
				require.NoError(t, err)

				lworld := arche.NewWorld()
				lw := &lworld
				lg := newGrid()
				door(lg, false) // the saved run's edit, made again before LoadInto
				arche.AddResource(lw, lg)
				l, err := save.LoadInto(data, save.Registry{}, lw)
				require.NoError(t, err)
				lflow, ls := sched()
				ls.Initialize(lw)
				t.Cleanup(func() { ls.Finalize(lw) })
				require.NoError(t, l.Restore(lflow))
				require.Equal(t, systems.StateHash(w), systems.StateHash(lw), "at load")
				for k := range 60 {
					if k == 40 {
						door(g, true)
						door(lg, true)
					}
					s.Update(w)
					ls.Update(lw)
					require.Equal(t, systems.StateHash(w), systems.StateHash(lw), "frame %d after the load", k)
				}
			})
		}
	}
}
