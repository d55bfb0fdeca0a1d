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

// TestDiagnoseFlowUnreachableSectorsRightAfterADoorReopens: 20 flow followers
// cut off by a closed door are counted; the door opens again and Diagnose runs
// before the next frame. Whole-grid fields are stale then and not read; sector
// fields were read all the same (their Integration from the old portal graph,
// +Inf) and all 20 were counted as cut off from a goal they have a way to.
// Now a stale SectorField is not read either, and none is counted from then on.
func TestDiagnoseFlowUnreachableSectorsRightAfterADoorReopens(t *testing.T) {
	for _, sectors := range []int{0, 5} {
		t.Run(fmt.Sprintf("sectors=%d", sectors), func(t *testing.T) {
			w, g, door, s := doorSwarm(t, sectors)
			s.Run(w, 10)
			g.SetCost(door, grid.Blocked)
			s.Run(w, 100)
			r := systems.Diagnose(w)
			require.Equal(t, 20, r.Counts[systems.CauseFlowUnreachable], "%s", r)
			g.SetCost(door, 1)
			r = systems.Diagnose(w)
			require.Zero(t, r.Counts[systems.CauseFlowUnreachable], "door open, no frame yet: %s", r)
			for i := 0; i < 5; i++ {
				s.Run(w, 1)
				r = systems.Diagnose(w)
				require.Zero(t, r.Counts[systems.CauseFlowUnreachable], "frame %d after: %s", i+1, r)
			}
		})
	}
}

// TestDiagnoseFlowUnreachableNoneWhileAWayIsOpen: a swarm whose goal moves
// every 2 s, on a grid edited every frame (a second door flickering, a far
// cell's cost), with and without Hold and sectors, always has a way: Diagnose,
// before and after every frame, counts no follower as flow_unreachable.
func TestDiagnoseFlowUnreachableNoneWhileAWayIsOpen(t *testing.T) {
	t.Parallel()
	for _, sectors := range []int{0, 5} {
		for _, hold := range []int{0, -1} {
			t.Run(fmt.Sprintf("sectors=%d hold=%d", sectors, hold), func(t *testing.T) {
				t.Parallel() // each run its own world
				world := arche.NewWorld()
				w := &world
				g := grid.New(30, 20)
				// a wall with two doors: one toggles, the other stays open
				for y := int32(0); y < 20; y++ {
					if y != 5 && y != 15 {
						g.SetCost(grid.Cell{X: 15, Y: y}, grid.Blocked)
					}
				}
				arche.AddResource(w, g)
				goal := grid.Cell{X: 25, Y: 7}
				sp, err := systems.NewSpawner(w, systems.FlowFollower{Goal: goal})
				require.NoError(t, err)
				var ents []arche.Entity
				for i := range 20 {
					ents = append(ents, sp.Spawn(r2.Vec{X: 2.5 + float64(i%4), Y: 2.5 + float64(i/4)*2}, nil))
				}
				s := ecs.NewScheduler(ecs.NewClockSystem(1.0/30), &systems.Spatial{}, &systems.FlowField{Sectors: sectors, Hold: hold},
					&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
				s.Initialize(w)
				defer s.Finalize(w)
				ffm := generic.NewMap[components.FlowFollower](w)
				for f := 0; f < 900; f++ {
					// edit every frame: toggle door at y=5 and a far cell
					if f%2 == 0 {
						g.SetCost(grid.Cell{X: 15, Y: 5}, grid.Blocked)
					} else {
						g.SetCost(grid.Cell{X: 15, Y: 5}, 1)
					}
					g.SetCost(grid.Cell{X: 0, Y: 19}, float32(1+f%3))
					if f%60 == 0 { // goal moves
						goal = grid.Cell{X: 20 + int32(f/60%8), Y: 3 + int32(f/60%10)}
						for _, e := range ents {
							ffm.Get(e).Goal = goal
						}
					}
					r := systems.Diagnose(w)
					require.Zero(t, r.Counts[systems.CauseFlowUnreachable], "frame %d before: %s", f, r)
					s.Run(w, 1)
					r = systems.Diagnose(w)
					require.Zero(t, r.Counts[systems.CauseFlowUnreachable], "frame %d: %s", f, r)
				}
			})
		}
	}
}
