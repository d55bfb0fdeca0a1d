package save_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
)

// A swarm gathered among walls, saved while agents at rest are held by the
// arrival keep (beyond their sector's rim), loads into a world that goes on
// as the saved one: state hashes equal every frame for 1 s, then every half
// second to 10 s, whole-grid fields on 1 worker and sector fields on 2 (each on
// 1 and 2 with ARCHAI_LONG=1). The keep
// reads only FlowFollower.Arrived across frames, and the steps each goal
// keeps counting (not saved) decide as counting every step.
func TestSaveWhileTheArrivalKeepHolds(t *testing.T) {
	newGrid := func() *grid.Grid {
		g := grid.New(64, 64)
		for y := range 64 {
			if y < 30 || y > 33 {
				g.SetCost(grid.Cell{X: 32, Y: int32(y)}, grid.Blocked)
			}
		}
		return g
	}
	for _, sectors := range []int{0, 16} {
		for _, workers := range []int{1, 2} {
			if os.Getenv("ARCHAI_LONG") == "" && workers != 1+sectors/16 { // whole grid on 1 worker, sectors on 2
				continue
			}
			t.Run(fmt.Sprintf("sectors %d workers %d", sectors, workers), func(t *testing.T) {
				sched := func() (*systems.FlowField, *ecs.Scheduler) {
					flow := &systems.FlowField{Sectors: sectors, Workers: workers}
					return flow, ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, flow,
						&systems.PathFollow{Workers: workers}, &systems.Steer{Workers: workers}, &systems.Movement{Workers: workers})
				}
				world := arche.NewWorld()
				w := &world
				g := newGrid()
				arche.AddResource(w, g)
				sp, err := systems.NewSpawner(w, systems.FlowFollower{Goal: grid.Cell{X: 56, Y: 8}})
				require.NoError(t, err)
				k := 0
				sp.SpawnBatch(200, func(i int, a *systems.Spawned) {
					for {
						k++
						c := grid.Cell{X: int32(k * 7919 % 64), Y: int32(k * 104729 / 7 % 64)}
						if g.Passable(c) {
							a.Position.Vec = g.Center(c)
							return
						}
					}
				})
				flow, s := sched()
				s.Initialize(w)
				t.Cleanup(func() { s.Finalize(w) })
				s.Run(w, 60*60)
				arrived := 0
				q := generic.NewFilter1[components.FlowFollower]().Query(w)
				for q.Next() {
					if q.Get().Arrived {
						arrived++
					}
				}
				require.Greater(t, arrived, 150, "a crowd at rest when saved")
				data, err := save.Save(w, nil, flow)
				require.NoError(t, err)
				lworld := arche.NewWorld()
				lw := &lworld
				arche.AddResource(lw, newGrid())
				l, err := save.LoadInto(data, save.Registry{}, lw)
				require.NoError(t, err)
				lflow, ls := sched()
				ls.Initialize(lw)
				t.Cleanup(func() { ls.Finalize(lw) })
				require.NoError(t, l.Restore(lflow))
				require.Equal(t, systems.StateHash(w), systems.StateHash(lw), "at load")
				for f := range 10 * 60 {
					s.Update(w)
					ls.Update(lw)
					if f < 60 || f%30 == 29 { // every frame of the first second, then every half second
						require.Equal(t, systems.StateHash(w), systems.StateHash(lw), "frame %d after the load", f)
					}
				}
			})
		}
	}
}
