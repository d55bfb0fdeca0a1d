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

// crowdAtAPoint spawns n default Movers (with ORCA: Motion.Avoid =
// AvoidORCA, and the ORCA system) evenly on a circle of 10 cells about
// (32, 32) on a 64² grid, open or (walled) with a wall across x = 20…30 but
// for a corridor one cell wide along row 32, sends them all to goal and runs
// the movement systems with the given workers for frames steps of dt
// seconds. It returns the positions and speeds, in spawn order, and what
// Diagnose says of the world at the end.
func crowdAtAPoint(t testing.TB, n, workers, frames int, goal r2.Vec, walled bool, dt float64, orca ...bool) ([]r2.Vec, []float64, systems.Report) {
	t.Helper()
	world := arche.NewWorld()
	g := grid.New(64, 64)
	if walled {
		for y := range int32(64) {
			for x := int32(20); x <= 30 && y != 32; x++ {
				g.SetCost(grid.Cell{X: x, Y: y}, grid.Blocked)
			}
		}
	}
	arche.AddResource(&world, g)
	withORCA := len(orca) > 0 && orca[0]
	bundle := systems.Mover{}
	if withORCA {
		bundle.Motion.Avoid = systems.AvoidORCA
	}
	movers, err := systems.NewSpawner(&world, bundle)
	require.NoError(t, err)
	es := make([]arche.Entity, n)
	for i := range es {
		a := 2 * math.Pi * float64(i) / float64(n)
		es[i] = movers.Spawn(r2.Vec{X: 32 + 10*math.Cos(a), Y: 32 + 10*math.Sin(a)}, func(s *systems.Spawned) { s.MoveTo(goal) })
	}
	sys := []ecs.System{ecs.NewClockSystem(dt), &systems.Spatial{Workers: workers}, &systems.PathQueue{},
		&systems.PathFollow{Workers: workers}, &systems.Steer{Workers: workers}}
	if withORCA {
		sys = append(sys, &systems.ORCA{Workers: workers})
	}
	sys = append(sys, &systems.Movement{Workers: workers})
	s := ecs.NewScheduler(sys...)
	require.NoError(t, s.InitializeChecked(&world))
	s.Run(&world, frames)
	r := systems.Diagnose(&world)
	s.Finalize(&world)
	pos, vel := generic.NewMap[components.Position](&world), generic.NewMap[components.Velocity](&world)
	ps, vs := make([]r2.Vec, n), make([]float64, n)
	for i, e := range es {
		ps[i], vs[i] = pos.Get(e).Vec, r2.Norm(vel.Get(e).Vec)
	}
	return ps, vs, r
}

// Small agents sent to one point with separation on (the Mover bundle's
// default) come to rest packed about it (steer_crowd.go), in the open, at
// the mouth of a corridor one cell wide and inside it. Before, arrive's
// undamped pull against separation kept them jostling for good: in the open
// 2 Movers orbiting at 0.02 cells/s, 3 swaying at up to 0.9, 10 at 0.2 after
// a minute; at the corridor 0.04–0.5 cells/s.
func TestSmallMoversSharingAGoalComeToRest(t *testing.T) {
	cases := []struct {
		name   string
		n      int
		goal   r2.Vec
		walled bool
		secs   int
		reach  float64 // cells from the goal
	}{
		{"open/2", 2, r2.Vec{X: 32.5, Y: 32.5}, false, 40, 1},
		{"open/3", 3, r2.Vec{X: 32.5, Y: 32.5}, false, 40, 1},
		{"open/10", 10, r2.Vec{X: 32.5, Y: 32.5}, false, 40, 1.6},
		{"open/30", 30, r2.Vec{X: 32.5, Y: 32.5}, false, 40, 2.5},
		{"mouth/3", 3, r2.Vec{X: 31.3, Y: 32.5}, true, 40, 1},
		{"mouth/10", 10, r2.Vec{X: 31.3, Y: 32.5}, true, 60, 2},
		{"corridor/3", 3, r2.Vec{X: 25.5, Y: 32.5}, true, 40, 1},
		{"corridor/10", 10, r2.Vec{X: 25.5, Y: 32.5}, true, 60, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			early, _, _ := crowdAtAPoint(t, c.n, 1, (c.secs-5)*60, c.goal, c.walled, 1.0/60)
			ps, vs, r := crowdAtAPoint(t, c.n, 1, c.secs*60, c.goal, c.walled, 1.0/60)
			require.Zero(t, r.Total(), "%s", r)
			g := grid.New(64, 64)
			for i, p := range ps {
				require.LessOrEqual(t, vs[i], 1e-3, "agent %d still moving after %d s (cells/s)", i, c.secs)
				require.LessOrEqual(t, r2.Norm(r2.Sub(p, early[i])), 1e-2, "agent %d moved over the last 5 s", i)
				require.LessOrEqual(t, r2.Norm(r2.Sub(p, c.goal)), c.reach, "agent %d packed about the goal", i)
				require.True(t, g.InBounds(g.CellAt(p)) && (!c.walled || p.X < 20 || p.X >= 31 || int32(p.Y) == 32), "agent %d at %v in a wall", i, p)
				for j := range i {
					require.GreaterOrEqual(t, r2.Norm(r2.Sub(p, ps[j])), 0.25, "agents %d and %d heaped", j, i)
				}
			}
			two, _, _ := crowdAtAPoint(t, c.n, 2, c.secs*60, c.goal, c.walled, 1.0/60)
			require.Equal(t, ps, two, "1 and 2 workers")
		})
	}
}

// Steer integrates its forces once a step, so a clock step too long for the
// agents' separation makes a crowd jitter for good, and Diagnose says so
// (CauseStepTooLong, the limit systems.SeparationStepLimit: 0.085 s for the
// default Mover): 60 default Movers sent to one point come to rest at steps
// of 0.05 and 0.075 s, unreported, and at 0.1 s keep moving at about
// 1 cell/s after 120 s, reported.
func TestATooLongStepForSeparationIsReported(t *testing.T) {
	limit := systems.SeparationStepLimit(&components.Kinematics{MaxSpeed: 4, MaxForce: 20, Radius: 0.3},
		&components.SteeringWeights{Separation: 1, SeparationRadius: 0.9})
	require.InDelta(t, 0.0849, limit, 1e-4)
	goal := r2.Vec{X: 32.5, Y: 32.5}
	for _, dt := range []float64{0.05, 0.075} {
		_, vs, r := crowdAtAPoint(t, 60, 1, int(120/dt), goal, false, dt)
		require.Zero(t, r.Total(), "dt %v: %s", dt, r)
		for i, v := range vs {
			require.LessOrEqual(t, v, 1e-3, "dt %v: agent %d still moving after 120 s (cells/s)", dt, i)
		}
	}
	_, vs, r := crowdAtAPoint(t, 60, 1, 1200, goal, false, 0.1)
	require.Equal(t, 60, r.Counts[systems.CauseStepTooLong], "%s", r)
	require.Contains(t, r.String(), "clock step 0.1 s over its separation's limit of 0.0849 s (SeparationStepLimit): crowds jitter")
	fastest := 0.0
	for _, v := range vs {
		fastest = max(fastest, v)
	}
	require.Greater(t, fastest, 0.5, "the crowd jitters at 0.1 s (cells/s)")
}

// ORCA agents sent to one point come to rest about it (orca_crowd.go): a
// slow one whose disc touches that of another arriving at the same point,
// ahead of it, holds. Before, the crowd circled the point for good at up to
// top speed (2 at 1.2–1.6 cells/s, 10 at 2.4, 30 at 3.2–3.8), the right-hand
// Bias turning every agent's way to the point into an orbit. Agents arriving
// at points of their own never hold for each other: two swapping places at
// close range pass and arrive.
func TestORCAMoversSharingAGoalComeToRest(t *testing.T) {
	goal := r2.Vec{X: 32.5, Y: 32.5}
	for _, n := range []int{2, 3, 10, 30} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			ps, vs, r := crowdAtAPoint(t, n, 1, 40*60, goal, false, 1.0/60, true)
			require.Zero(t, r.Total(), "%s", r)
			for i, p := range ps {
				require.LessOrEqual(t, vs[i], 1e-6, "agent %d still moving after 40 s (cells/s)", i)
				require.LessOrEqual(t, r2.Norm(r2.Sub(p, goal)), 0.6*math.Sqrt(float64(n))+0.5, "agent %d about the goal", i)
				for j := range i {
					require.GreaterOrEqual(t, r2.Norm(r2.Sub(p, ps[j])), 0.6-1e-3, "agents %d and %d overlap", j, i)
				}
			}
			two, _, _ := crowdAtAPoint(t, n, 2, 40*60, goal, false, 1.0/60, true)
			require.Equal(t, ps, two, "1 and 2 workers")
		})
	}
	t.Run("swap", func(t *testing.T) {
		world := arche.NewWorld()
		arche.AddResource(&world, grid.New(16, 16))
		sp, err := systems.NewSpawner(&world, systems.Mover{Motion: systems.Motion{Avoid: systems.AvoidORCA}})
		require.NoError(t, err)
		a, b := r2.Vec{X: 7, Y: 8}, r2.Vec{X: 9, Y: 8}
		ea := sp.Spawn(a, func(s *systems.Spawned) { s.MoveTo(b) })
		eb := sp.Spawn(b, func(s *systems.Spawned) { s.MoveTo(a) })
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{},
			&systems.PathFollow{}, &systems.Steer{}, &systems.ORCA{}, &systems.Movement{})
		require.NoError(t, s.InitializeChecked(&world))
		s.Run(&world, 20*60)
		s.Finalize(&world)
		pos := generic.NewMap[components.Position](&world)
		require.InDelta(t, 0, r2.Norm(r2.Sub(pos.Get(ea).Vec, b)), 1e-2)
		require.InDelta(t, 0, r2.Norm(r2.Sub(pos.Get(eb).Vec, a)), 1e-2)
	})
}
