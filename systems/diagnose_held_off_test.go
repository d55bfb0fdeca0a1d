package systems_test

import (
	"io"
	"math"
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

// heldOffWorld is a newcomer's RTS case: five small units (Movers of radius 0.5)
// parked, without orders, in a cluster beside goal (32.5, 32.5) on an open 64²
// grid (the nearest 0.5 cells east of it), and a tank, a Mover of radius 1.5
// with the given SeparationRadius (0: the default, 3·Radius = 4.5 cells), sent
// to the goal from 20 cells west (offset moves the cluster east). It returns
// the world, the tank and a scheduler with the movement systems and a
// Diagnostics checking every second.
func heldOffWorld(t *testing.T, sepRadius, offset float64) (*arche.World, arche.Entity, *ecs.Scheduler, *systems.Diagnostics) {
	t.Helper()
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(64, 64))
	goal := r2.Vec{X: 32.5, Y: 32.5}
	small, err := systems.NewSpawner(w, systems.Mover{Motion: systems.Motion{Radius: 0.5}})
	require.NoError(t, err)
	for _, d := range []r2.Vec{{X: 0.5, Y: 0}, {X: 0.5, Y: 1.1}, {X: 0.5, Y: -1.1}, {X: 1.6, Y: 0.55}, {X: 1.6, Y: -0.55}} {
		small.Spawn(r2.Add(goal, r2.Vec{X: d.X + offset, Y: d.Y}), nil)
	}
	big, err := systems.NewSpawner(w, systems.Mover{Motion: systems.Motion{Radius: 1.5, SeparationRadius: sepRadius}})
	require.NoError(t, err)
	tank := big.Spawn(r2.Vec{X: 12.5, Y: 32.5}, func(a *systems.Spawned) { a.MoveTo(goal) })
	diag := &systems.Diagnostics{Every: 60, Out: io.Discard}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{Workers: 1}, &systems.PathQueue{},
		&systems.PathFollow{Workers: 1}, &systems.Steer{Workers: 1}, &systems.Movement{Workers: 1}, diag)
	require.NoError(t, s.InitializeChecked(w))
	t.Cleanup(func() { s.Finalize(w) })
	return w, tank, s, diag
}

// A newcomer's tank (a Mover of radius 1.5) sent to a point beside which small units
// are parked stopped short of it for good, and nothing said so: its default
// SeparationRadius (4.5 cells) kept it off units whose discs were 1.5 cells from its
// own. Diagnose counts it as held_off_goal, naming the distance to the goal, the
// nearest neighbour's gap, the SeparationRadius and the radius to set; with that
// SeparationRadius the tank reaches its goal within its radius and nothing is counted.
// While it walks there, and once it stands within its radius of the goal (the cluster
// 1.7 cells farther east: held 1.4 cells short), nothing is counted either.
func TestTankHeldOffItsGoalBySeparationIsReported(t *testing.T) {
	goal := r2.Vec{X: 32.5, Y: 32.5}
	w, tank, s, diag := heldOffWorld(t, 0, 0)
	pos, vel := generic.NewMap[components.Position](w), generic.NewMap[components.Velocity](w)
	s.Run(w, 3*60+1) // walking (4 cells/s, 20 cells to go)
	require.Zero(t, diag.Report.Counts[systems.CauseHeldOffGoal], "%s", diag.Report)
	s.Run(w, 27*60)
	dist := r2.Norm(r2.Sub(pos.Get(tank).Vec, goal))
	require.Greater(t, dist, 3.0, "the tank held off its goal by separation")
	require.Less(t, r2.Norm(vel.Get(tank).Vec), 1e-3, "and at rest")
	r := systems.Diagnose(w)
	require.Equal(t, 1, r.Counts[systems.CauseHeldOffGoal], "%s", r)
	require.Equal(t, tank, r.Examples[systems.CauseHeldOffGoal])
	assert.Equal(t, 1, r.Total(), "%s", r)
	assert.Equal(t, 1, diag.Report.Counts[systems.CauseHeldOffGoal], "the Diagnostics system too: %s", diag.Report)
	assert.Contains(t, r.String(), "held_off_goal 1 (e.g. entity 6, 3.10574 cells from its goal and at rest: "+
		"its SeparationRadius 4.5 reaches agents at rest whose discs are 1.49071 cells or more from its own (the nearest), "+
		"so separation holds it off; set SteeringWeights.SeparationRadius (Motion.SeparationRadius in its spawner's "+
		"Mover, Wanderer or FlowFollower bundle) to at most 2.25 "+
		"(its radius plus the neighbour's plus 0.25), or send it to a free spot)", "%s", r)

	// no allocation in the Diagnostics system's steady state with the finding
	assert.Zero(t, testing.AllocsPerRun(5, func() { diag.Check(w) }))

	// as the note advises: the tank comes within its radius of the goal
	wts := generic.NewMap[components.SteeringWeights](w)
	wts.Get(tank).SeparationRadius = 2.25
	s.Run(w, 30*60)
	dist = r2.Norm(r2.Sub(pos.Get(tank).Vec, goal))
	assert.LessOrEqual(t, dist, 1.5, "within its radius of the goal")
	r = systems.Diagnose(w)
	assert.Zero(t, r.Total(), "%s", r)
	assert.Zero(t, diag.Report.Total(), "%s", diag.Report)

	t.Run("a fix from the start", func(t *testing.T) {
		w, tank, s, _ := heldOffWorld(t, 2.25, 0)
		s.Run(w, 30*60)
		p := generic.NewMap[components.Position](w)
		assert.LessOrEqual(t, r2.Norm(r2.Sub(p.Get(tank).Vec, goal)), 1.5)
		r := systems.Diagnose(w)
		assert.Zero(t, r.Total(), "%s", r)
	})
	t.Run("held within its radius of the goal", func(t *testing.T) {
		w, tank, s, diag := heldOffWorld(t, 0, 1.7)
		maxCount := 0
		for range 30 {
			s.Run(w, 60)
			maxCount = max(maxCount, diag.Report.Counts[systems.CauseHeldOffGoal])
		}
		p := generic.NewMap[components.Position](w)
		d := r2.Norm(r2.Sub(p.Get(tank).Vec, goal))
		assert.Greater(t, d, 1.0, "held off, within its radius")
		assert.LessOrEqual(t, d, 1.5)
		assert.Zero(t, maxCount, "%s", diag.Report)
	})
}

// A crowd of 60 small Movers (the default radius 0.3, and radius 0.5) sent to one
// point come to rest packed about it, most of them short of it and found stuck: each
// touches a neighbour, so none is held off by separation, and held_off_goal is never
// counted, while they walk there nor at rest.
func TestACrowdSettledAboutAPointIsNotHeldOffGoal(t *testing.T) {
	for _, radius := range []float64{0, 0.5} {
		world := arche.NewWorld()
		w := &world
		arche.AddResource(w, grid.New(64, 64))
		goal := r2.Vec{X: 32.5, Y: 32.5}
		movers, err := systems.NewSpawner(w, systems.Mover{Motion: systems.Motion{Radius: radius}})
		require.NoError(t, err)
		const n = 60
		for i := range n {
			a := 2 * math.Pi * float64(i) / n
			movers.Spawn(r2.Vec{X: 32 + 10*math.Cos(a), Y: 32 + 10*math.Sin(a)}, func(s *systems.Spawned) { s.MoveTo(goal) })
		}
		diag := &systems.Diagnostics{Every: 30, Out: io.Discard}
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{Workers: 1}, &systems.PathQueue{},
			&systems.PathFollow{Workers: 1}, &systems.Steer{Workers: 1}, &systems.Movement{Workers: 1}, diag)
		require.NoError(t, s.InitializeChecked(w))
		for range 60 {
			s.Run(w, 60)
			require.Zero(t, diag.Report.Total(), "radius %v: %s", radius, diag.Report)
		}
		// at rest, and most of them short of the point and found stuck
		stuck := 0
		f := generic.NewFilter2[components.Velocity, components.Progress]()
		q := f.Query(w)
		for q.Next() {
			v, p := q.Get()
			require.Less(t, r2.Norm(v.Vec), 0.01, "radius %v: at rest", radius)
			if p.Stuck {
				stuck++
			}
		}
		assert.Greater(t, stuck, n/2, "radius %v: most found stuck short of the point", radius)
		s.Finalize(w)
	}
}

// Five Movers sent together to a goal off the grid walk towards it and rest at the
// map's edge in a cluster, where separation keeps one of them a little off the
// others. Diagnose counted that one as held_off_goal as well as goal_unusable,
// advising a SeparationRadius under the default (0.85 for 0.9): advice about a
// default for an agent whose goal can never be reached. Its goal is the finding,
// counted once (goal_unusable); held_off_goal is for a usable goal.
func TestAGroupSentOffTheGridIsNotHeldOffGoal(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	g := grid.New(16, 12)
	for y := range 8 {
		g.SetCost(grid.Cell{X: 8, Y: int32(y)}, grid.Blocked)
	}
	arche.AddResource(w, g)
	goal := r2.Vec{X: 40, Y: 2.5} // off the 16×12 grid
	movers, err := systems.NewSpawner(w, systems.Mover{})
	require.NoError(t, err)
	for _, p := range []r2.Vec{{X: 1.5, Y: 1.5}, {X: 2.5, Y: 2.5}, {X: 1.5, Y: 3.5}, {X: 3.5, Y: 1.5}, {X: 2.5, Y: 4.5}} {
		movers.Spawn(p, func(a *systems.Spawned) { a.MoveTo(goal) })
	}
	diag := &systems.Diagnostics{Every: 60, Out: io.Discard}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{Workers: 1}, &systems.PathQueue{},
		&systems.PathFollow{Workers: 1}, &systems.Steer{Workers: 1}, &systems.Movement{Workers: 1}, diag)
	require.NoError(t, s.InitializeChecked(w))
	defer s.Finalize(w)
	for range 30 {
		s.Run(w, 60)
		require.Zero(t, diag.Report.Counts[systems.CauseHeldOffGoal], "%s", diag.Report)
	}
	r := systems.Diagnose(w)
	assert.Equal(t, 5, r.Counts[systems.CauseGoalUnusable], "%s", r)
	assert.Equal(t, 5, r.Total(), "goal_unusable alone: %s", r)
}
