package systems_test

import (
	"fmt"
	"math"
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

// flowWalkers initializes, for the test's length, the systems that move flow
// followers in w at 30 frames a second.
func flowWalkers(t *testing.T, w *arche.World, sectors int) *ecs.Scheduler {
	t.Helper()
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/30), &systems.Spatial{}, &systems.FlowField{Sectors: sectors},
		&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	s.Initialize(w)
	t.Cleanup(func() { s.Finalize(w) })
	return s
}

// doorSwarm is a 30×15 grid walled at x = 15 but for a door at (15, 7), and 20
// flow followers west of the wall with the goal cell (25, 7), moved by
// flowWalkers(sectors). It returns the world, the grid, the door and the
// scheduler.
func doorSwarm(t *testing.T, sectors int) (*arche.World, *grid.Grid, grid.Cell, *ecs.Scheduler) {
	t.Helper()
	world := arche.NewWorld()
	w := &world
	g := grid.New(30, 15)
	door := grid.Cell{X: 15, Y: 7}
	for y := int32(0); y < 15; y++ {
		if y != door.Y {
			g.SetCost(grid.Cell{X: 15, Y: y}, grid.Blocked)
		}
	}
	arche.AddResource(w, g)
	sp, err := systems.NewSpawner(w, systems.FlowFollower{Goal: grid.Cell{X: 25, Y: 7}})
	require.NoError(t, err)
	for i := range 20 {
		sp.Spawn(r2.Vec{X: 2.5 + float64(i%4), Y: 2.5 + float64(i/4)*2}, nil)
	}
	return w, g, door, flowWalkers(t, w, sectors)
}

// TestDiagnoseCountsFlowFollowersCutOffByADoor: a swarm of 20 flow followers whose
// only route to their goal is a door; the door closes at run time (a grid edit).
// Path followers so cut off are reported (path_unreachable); flow followers stood
// behind the door with nothing reported. They are now counted as
// flow_unreachable, all 20, once they stand (Hold frames after the edit), with
// their cell and goal in the note; they stand still out of the walls (no
// jitter); the door opened again, the finding goes and they walk through.
func TestDiagnoseCountsFlowFollowersCutOffByADoor(t *testing.T) {
	for _, sectors := range []int{0, 5} {
		t.Run(fmt.Sprintf("sectors=%d", sectors), func(t *testing.T) {
			w, g, door, s := doorSwarm(t, sectors)
			s.Run(w, 10)
			r := systems.Diagnose(w)
			require.Zero(t, r.Counts[systems.CauseFlowUnreachable], "%s", r)

			g.SetCost(door, grid.Blocked) // the door closes
			s.Run(w, systems.DefaultFlowHold/2)
			r = systems.Diagnose(w)
			require.Zero(t, r.Counts[systems.CauseFlowUnreachable], "within Hold frames they walk on (Held): %s", r)
			s.Run(w, 60)
			r = systems.Diagnose(w)
			require.Equal(t, 20, r.Counts[systems.CauseFlowUnreachable], "%s", r)
			require.Equal(t, 20, r.Misconfigured, "%s", r)
			require.Contains(t, r.String(), "flow_unreachable 20 (e.g. entity ")
			require.Contains(t, r.String(), ") has no route to its flow goal cell (25, 7): walls cut it off")

			// what they do: stand, out of the walls, without jitter
			pos := generic.NewMap[components.Position](w)
			vel := generic.NewMap[components.Velocity](w)
			f := generic.NewFilter1[components.FlowFollower]()
			var ents []arche.Entity
			q := f.Query(w)
			for q.Next() {
				ents = append(ents, q.Entity())
			}
			s.Run(w, 60) // separation settles
			before := make([]r2.Vec, len(ents))
			for i, e := range ents {
				before[i] = pos.Get(e).Vec
			}
			for range 60 {
				s.Run(w, 1)
				for i, e := range ents {
					p := pos.Get(e).Vec
					require.True(t, g.Passable(g.CellAt(p)), "in a wall at %v", p)
					require.Less(t, p.X, 15.0)
					d := r2.Sub(p, before[i])
					require.Less(t, math.Sqrt(float64(d.X*d.X)+float64(d.Y*d.Y)), 0.05, "standing still")
					v := vel.Get(e).Vec
					require.Less(t, math.Sqrt(float64(v.X*v.X)+float64(v.Y*v.Y)), 0.05, "no jitter")
				}
			}

			g.SetCost(door, 1) // open again
			s.Run(w, 2)
			r = systems.Diagnose(w)
			require.Zero(t, r.Counts[systems.CauseFlowUnreachable], "the door opened: %s", r)
			s.Run(w, 30*20)
			n := 0
			for _, e := range ents {
				if pos.Get(e).X > 16 {
					n++
				}
			}
			require.Equal(t, 20, n, "through the door again")
		})
	}
}

// TestDiagnoseCountsAFlowFollowerSpawnedInAPocket: a swarm heading for cell (0, 0),
// a goal as any other (not the zero FlowFollower's unset goal), reaches it and
// is not counted; the one follower spawned in a walled-off pocket is, with its
// cell. A follower whose Intent moves it along a path is not.
func TestDiagnoseCountsAFlowFollowerSpawnedInAPocket(t *testing.T) {
	for _, sectors := range []int{0, 5} {
		t.Run(fmt.Sprintf("sectors=%d", sectors), func(t *testing.T) {
			world := arche.NewWorld()
			w := &world
			g := grid.New(20, 20)
			for i := int32(12); i <= 16; i++ { // a pocket: cells 13..15 walled round
				g.SetCost(grid.Cell{X: i, Y: 12}, grid.Blocked)
				g.SetCost(grid.Cell{X: i, Y: 16}, grid.Blocked)
				g.SetCost(grid.Cell{X: 12, Y: i}, grid.Blocked)
				g.SetCost(grid.Cell{X: 16, Y: i}, grid.Blocked)
			}
			arche.AddResource(w, g)
			sp, err := systems.NewSpawner(w, systems.FlowFollower{Goal: grid.Cell{}})
			require.NoError(t, err)
			for i := range 6 {
				sp.Spawn(r2.Vec{X: 4.5 + float64(i), Y: 6.5}, nil)
			}
			pocket := sp.Spawn(r2.Vec{X: 14.5, Y: 14.5}, nil)
			s := flowWalkers(t, w, sectors)
			s.Run(w, 30*10)
			r := systems.Diagnose(w)
			require.Equal(t, 1, r.Counts[systems.CauseFlowUnreachable], "%s", r)
			require.Equal(t, pocket, r.Examples[systems.CauseFlowUnreachable])
			require.Contains(t, r.String(), "flow_unreachable 1 (e.g. entity "+fmt.Sprint(pocket.ID())+
				", its cell (14, 14) has no route to its flow goal cell (0, 0)")
			ffs := generic.NewMap[components.FlowFollower](w)
			arrived := 0
			q := generic.NewFilter1[components.FlowFollower]().Query(w)
			for q.Next() {
				if q.Get().Arrived {
					arrived++
				}
			}
			require.Equal(t, 6, arrived, "the swarm reached (0, 0)")
			require.False(t, ffs.Get(pocket).Steer)
		})
	}
}
