package systems_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/ai/bt"
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

// couriersAtRest runs the README's first program with n couriers spawned at
// random west of its wall (ORCA avoidance if orca) for secs seconds with the
// given workers, and returns their positions and speeds and the number
// within 1 cell of the goal.
func couriersAtRest(t *testing.T, n int, orca bool, secs float64, workers int) ([]r2.Vec, []float64, int) {
	t.Helper()
	world := arche.NewWorld()
	g := grid.New(64, 64)
	for y := 0; y < 50; y++ {
		g.SetCost(grid.Cell{X: 30, Y: int32(y)}, grid.Blocked)
	}
	arche.AddResource(&world, g)
	goal := r2.Vec{X: 60.5, Y: 10.5}
	arrived := bt.Condition("Arrived", func(c *bt.Context) bool {
		return r2.Norm(r2.Sub(systems.AgentOf(c).Position.Vec, goal)) < 1
	})
	rest := bt.Action("Rest", func(c *bt.Context) bt.Status {
		systems.AgentOf(c).Intent.Move = false
		return bt.Success
	})
	walk := bt.Action("WalkToGoal", func(c *bt.Context) bt.Status {
		in := systems.AgentOf(c).Intent
		in.Move, in.Goal = true, goal
		return bt.Running
	})
	tree, err := bt.Compile("courier", bt.ReactiveSelector(bt.Sequence(arrived, rest), walk))
	require.NoError(t, err)
	mover := systems.Mover{}
	if orca {
		mover.Motion.Avoid = systems.AvoidORCA
	}
	couriers, err := systems.NewSpawner(&world, mover, systems.Thinker{Tree: tree})
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(1, 2))
	es := make([]arche.Entity, n)
	for i := range es {
		es[i] = couriers.Spawn(r2.Vec{X: 2.5 + float64(r.IntN(20)), Y: 2.5 + float64(r.IntN(40))}, nil)
	}
	sys := []ecs.System{ecs.NewClockSystem(1.0 / 60), &systems.Spatial{Workers: workers}, &systems.Decision{Workers: workers},
		&systems.PathQueue{}, &systems.PathFollow{Workers: workers}, &systems.Steer{Workers: workers}}
	if orca {
		sys = append(sys, &systems.ORCA{Workers: workers})
	}
	s := ecs.NewScheduler(append(sys, &systems.Movement{Workers: workers})...)
	require.NoError(t, s.InitializeChecked(&world))
	defer s.Finalize(&world)
	s.Run(&world, int(secs*60))
	pos, vel := generic.NewMap[components.Position](&world), generic.NewMap[components.Velocity](&world)
	ps, vs, at := make([]r2.Vec, n), make([]float64, n), 0
	for i, e := range es {
		ps[i], vs[i] = pos.Get(e).Vec, r2.Norm(vel.Get(e).Vec)
		if r2.Norm(r2.Sub(ps[i], goal)) < 1 {
			at++
		}
	}
	return ps, vs, at
}

// The README's first program with more couriers: the tree rests a courier
// once within 1 cell of the goal (Intent.Move = false), while the others
// still arrive there. Every courier comes to rest and stays: before, with
// separation, the arriving ones pushed resting ones out of the 1 cell,
// which walked them back in (of 10, 2 shuffled in and out at 0.3–0.5
// cells/s for good; of 30, 15), and 4 ORCA couriers at rest spun round the
// goal at 0.17 cells/s for good (the brake read as a way to go, turned by
// the Bias).
func TestCouriersRestingAtASharedPointStayStill(t *testing.T) {
	for _, c := range []struct {
		n      int
		orca   bool
		secs   float64
		allAt  bool // all within 1 cell of the goal
		listed string
	}{
		{10, false, 60, true, "separation"},
		{30, false, 120, false, "separation"},
		{4, true, 60, true, "ORCA"},
		{10, true, 90, true, "ORCA"},
	} {
		t.Run(fmt.Sprintf("%s/%d", c.listed, c.n), func(t *testing.T) {
			before, _, _ := couriersAtRest(t, c.n, c.orca, c.secs, 1)
			after, speeds, at := couriersAtRest(t, c.n, c.orca, c.secs+20, 1)
			for i := range after {
				assert.LessOrEqual(t, speeds[i], 1e-3, "courier %d moves at %g cells/s after %g s", i, speeds[i], c.secs+20)
				assert.LessOrEqual(t, r2.Norm(r2.Sub(after[i], before[i])), 1e-2, "courier %d moved from %v to %v in 20 s", i, before[i], after[i])
			}
			if c.allAt {
				assert.Equal(t, c.n, at, "couriers within 1 cell of the goal")
			} else {
				assert.GreaterOrEqual(t, at, c.n/2, "couriers within 1 cell of the goal")
			}
			two, _, _ := couriersAtRest(t, c.n, c.orca, c.secs+20, 2)
			assert.Equal(t, after, two, "1 and 2 workers")
		})
	}
}

// restAndPress spawns a default Mover resting at (10.5, 4.5) with its last
// goal at rested (Intent.Goal, no move intent; the zero point: never given
// one) and another sent to goal from (14.5, 4.5), and returns how far the
// resting one moved in 10 s.
func restAndPress(t *testing.T, rested, goal r2.Vec) float64 {
	t.Helper()
	world := arche.NewWorld()
	arche.AddResource(&world, grid.New(32, 9))
	movers, err := systems.NewSpawner(&world, systems.Mover{})
	require.NoError(t, err)
	from := r2.Vec{X: 10.5, Y: 4.5}
	still := movers.Spawn(from, func(s *systems.Spawned) { s.Intent.Goal = rested })
	movers.Spawn(r2.Vec{X: 14.5, Y: 4.5}, func(s *systems.Spawned) { s.MoveTo(goal) })
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{}, &systems.PathFollow{},
		&systems.Steer{}, &systems.Movement{})
	require.NoError(t, s.InitializeChecked(&world))
	defer s.Finalize(&world)
	s.Run(&world, 600)
	pos := generic.NewMap[components.Position](&world)
	return r2.Norm(r2.Sub(pos.Get(still).Vec, from))
}

// An agent resting at its last goal is not pushed away from it by another
// arriving at the same point (before: pushed 0.3 cells west, out of the
// place it rested in), but still gives way to an agent arriving elsewhere,
// and so does one never given a goal: it blocks nobody's way.
func TestARestingAgentHoldsItsPlaceInItsCrowd(t *testing.T) {
	goal := r2.Vec{X: 10.9, Y: 4.5}
	assert.Less(t, restAndPress(t, goal, goal), 0.02, "pressed by an agent arriving at its own last goal")
	assert.Greater(t, restAndPress(t, goal, r2.Vec{X: 10.9, Y: 4.55}), 0.1, "pressed by an agent arriving elsewhere")
	assert.Greater(t, restAndPress(t, r2.Vec{}, goal), 0.1, "never given a goal")
}

// PathFollow keeps a resting agent's last goal (Intent.Goal with no move
// intent) in its Desired.Point, which Steer reads to know its crowd.
func TestARestingAgentsDesiredKeepsItsLastGoal(t *testing.T) {
	world := arche.NewWorld()
	arche.AddResource(&world, grid.New(16, 16))
	movers, err := systems.NewSpawner(&world, systems.Mover{})
	require.NoError(t, err)
	goal := r2.Vec{X: 12.5, Y: 3.5}
	e := movers.Spawn(r2.Vec{X: 2.5, Y: 2.5}, func(s *systems.Spawned) { s.Intent.Goal = goal })
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{}, &systems.PathFollow{},
		&systems.Steer{}, &systems.Movement{})
	require.NoError(t, s.InitializeChecked(&world))
	defer s.Finalize(&world)
	s.Update(&world)
	desired := generic.NewMap[components.Desired](&world)
	assert.Equal(t, components.Desired{Mode: components.DesiredNone, Point: goal}, *desired.Get(e))
}
