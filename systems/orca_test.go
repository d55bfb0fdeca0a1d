package systems_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/ai/orca"
	"github.com/archai-go/archai/ai/steer"
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

// avoidScene is a world of Mover agents with ORCA (the Avoider bundle) under
// Spatial, PathQueue, Steer, ORCA and Movement at 60 frames per second.
type avoidScene struct {
	World   *arche.World
	Grid    *grid.Grid
	Sched   *ecs.Scheduler
	Spawner *systems.Spawner
	ORCA    *systems.ORCA
	agents  []arche.Entity
	goals   []r2.Vec
	pos     *generic.Map1[components.Position]
}

func newAvoidScene(t testing.TB, w, h, workers int, walls func(g *grid.Grid)) *avoidScene {
	t.Helper()
	g := grid.New(w, h)
	if walls != nil {
		walls(g)
	}
	world := arche.NewWorld()
	wd := &world
	arche.AddResource(wd, g)
	sp, err := systems.NewSpawner(wd, systems.Mover{}, systems.Avoider{})
	require.NoError(t, err)
	o := &systems.ORCA{Workers: workers}
	sc := &avoidScene{World: wd, Grid: g, Spawner: sp, ORCA: o,
		Sched: ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{CellSize: 2}, &systems.PathQueue{},
			&systems.PathFollow{Workers: workers}, &systems.Steer{Workers: workers}, o, &systems.Movement{Workers: workers})}
	m := generic.NewMap1[components.Position](wd)
	sc.pos = &m
	return sc
}

func (s *avoidScene) add(from, to r2.Vec) {
	s.agents = append(s.agents, s.Spawner.Spawn(from, func(a *systems.Spawned) { a.MoveTo(to) }))
	s.goals = append(s.goals, to)
}

// run runs frames until every agent is within 0.05 cells of its goal or limit
// seconds pass, calling check after each frame; it returns the time taken.
func (s *avoidScene) run(limit float64, check func()) float64 {
	s.Sched.Initialize(s.World)
	defer s.Sched.Finalize(s.World)
	for f := 1; float64(f)/60 <= limit; f++ {
		s.Sched.Update(s.World)
		if check != nil {
			check()
		}
		done := true
		for i, e := range s.agents {
			done = done && r2.Norm(r2.Sub(s.pos.Get(e).Vec, s.goals[i])) < 0.05
		}
		if done {
			return float64(f) / 60
		}
	}
	return limit
}

// openWorld returns a world with an open w×h grid resource.
func openWorld(w, h int) *arche.World {
	world := arche.NewWorld()
	arche.AddResource(&world, grid.New(w, h))
	return &world
}

// minGap returns the smallest distance between two agents' discs now.
func (s *avoidScene) minGap() float64 {
	gap := math.Inf(1)
	for i, a := range s.agents {
		for _, b := range s.agents[i+1:] {
			gap = min(gap, r2.Norm(r2.Sub(s.pos.Get(a).Vec, s.pos.Get(b).Vec))-2*systems.DefaultRadius)
		}
	}
	return gap
}

func TestORCAHeadOnAgentsPassWithoutOverlap(t *testing.T) {
	s := newAvoidScene(t, 30, 11, 0, nil)
	s.add(r2.Vec{X: 5, Y: 5.5}, r2.Vec{X: 25, Y: 5.5})
	s.add(r2.Vec{X: 25, Y: 5.5}, r2.Vec{X: 5, Y: 5.5})
	gap := math.Inf(1)
	took := s.run(12, func() { gap = min(gap, s.minGap()) })
	assert.GreaterOrEqual(t, gap, -1e-3, "the discs (radius 0.3) overlapped")
	// 20 cells at 4 cells/s is 5 s, plus starting, stopping and the dodge
	assert.Less(t, took, 7.0, "both reached their goals")
	t.Logf("head-on: %.2f s, smallest gap %.4f cells", took, gap)
}

func TestORCACircleSwapsWithoutOverlap(t *testing.T) {
	for _, c := range []struct {
		n           int
		ring, limit float64 // cells; seconds
	}{{16, 8, 8}, {64, 20, 16}} {
		s := newAvoidScene(t, 60, 60, 0, nil)
		centre := r2.Vec{X: 30, Y: 30}
		for i := range c.n {
			ang := 2 * math.Pi * float64(i) / float64(c.n)
			d := r2.Scale(c.ring, r2.Vec{X: math.Cos(ang), Y: math.Sin(ang)})
			s.add(r2.Add(centre, d), r2.Sub(centre, d))
		}
		gap := math.Inf(1)
		took := s.run(c.limit, func() { gap = min(gap, s.minGap()) })
		assert.GreaterOrEqual(t, gap, -1e-3, "%d agents overlapped", c.n)
		assert.Less(t, took, c.limit, "%d agents did not all arrive", c.n)
		t.Logf("%d agents: %.2f s (the straight walk: %.2f s), smallest gap %.4f cells", c.n, took, 2*c.ring/4, gap)
	}
}

// Agents sent past the end of a wall, both ways, keep their discs off it
// (and so never enter a blocked cell).
func TestORCAAgentsKeepOffWalls(t *testing.T) {
	s := newAvoidScene(t, 24, 24, 0, func(g *grid.Grid) {
		for y := int32(4); y < 20; y++ {
			g.SetCost(grid.Cell{X: 11, Y: y}, grid.Blocked)
			g.SetCost(grid.Cell{X: 12, Y: y}, grid.Blocked)
		}
	})
	for i := range 6 {
		y := 6.5 + 2*float64(i)
		s.add(r2.Vec{X: 9.5, Y: y}, r2.Vec{X: 15.5, Y: 25 - y})
		s.add(r2.Vec{X: 14.5, Y: y}, r2.Vec{X: 8.5, Y: 24 - y})
	}
	wallGap := math.Inf(1)
	took := s.run(20, func() {
		for _, e := range s.agents {
			p := s.pos.Get(e).Vec
			require.True(t, s.Grid.Passable(s.Grid.CellAt(p)), "agent %d in a blocked cell at %v", e.ID(), p)
			wallGap = min(wallGap, distToWall(s.Grid, p)-systems.DefaultRadius)
		}
	})
	assert.GreaterOrEqual(t, wallGap, -1e-3, "a disc overlapped a wall")
	assert.Less(t, took, 20.0, "all arrived round the wall")
	t.Logf("wall: %.2f s, smallest gap to a wall %.4f cells", took, wallGap)
}

// distToWall is the distance from p to the nearest blocked cell or the grid's edge.
func distToWall(g *grid.Grid, p r2.Vec) float64 {
	d := min(p.X, p.Y, float64(g.Width())-p.X, float64(g.Height())-p.Y)
	c := g.CellAt(p)
	for y := c.Y - 3; y <= c.Y+3; y++ {
		for x := c.X - 3; x <= c.X+3; x++ {
			if g.InBounds(grid.Cell{X: x, Y: y}) && !g.Passable(grid.Cell{X: x, Y: y}) {
				dx := max(float64(x)-p.X, 0, p.X-float64(x+1))
				dy := max(float64(y)-p.Y, 0, p.Y-float64(y+1))
				d = min(d, math.Hypot(dx, dy))
			}
		}
	}
	return d
}

// The force ORCA writes makes Movement reach exactly the ORCA velocity, within
// MaxForce: checked against the solver called directly.
func TestORCAForceYieldsTheORCAVelocity(t *testing.T) {
	w := openWorld(20, 20)
	sp, err := systems.NewSpawner(w, systems.Mover{}, systems.Avoider{})
	require.NoError(t, err)
	a := sp.Spawn(r2.Vec{X: 5, Y: 10}, func(s *systems.Spawned) {
		s.MoveTo(r2.Vec{X: 15, Y: 10})
		s.Velocity.Vec = r2.Vec{X: 3}
	})
	sp.Spawn(r2.Vec{X: 8, Y: 10.2}, func(s *systems.Spawned) { s.Velocity.Vec = r2.Vec{X: -3} })
	clock := ecs.NewClockSystem(1.0 / 60)
	o, mv := &systems.ORCA{Workers: 1}, &systems.Movement{Workers: 1}
	sched := ecs.NewScheduler(clock, &systems.Spatial{}, &systems.PathFollow{Workers: 1}, &systems.Steer{Workers: 1})
	sched.Initialize(w)
	o.Initialize(w)
	mv.Initialize(w)
	sched.Update(w)
	m := generic.NewMap4[components.Position, components.Velocity, components.Kinematics, components.Steering](w)
	pos, vel, kin, st := m.Get(a)
	dt := 1.0 / 60
	pref := steer.Truncate(r2.Add(vel.Vec, r2.Scale(dt, steer.Truncate(st.Force, kin.MaxForce))), kin.MaxSpeed)
	var solver orca.Solver
	want := solver.Velocity(&orca.Agent{Position: pos.Vec, Velocity: vel.Vec, Preferred: pref, Radius: kin.Radius,
		MaxSpeed: kin.MaxSpeed, MaxDelta: kin.MaxForce * dt, TimeHorizon: systems.DefaultTimeHorizon,
		ObstacleHorizon: systems.DefaultObstacleHorizon, Bias: systems.DefaultORCABias},
		[]orca.Neighbour{{Position: r2.Vec{X: 8, Y: 10.2}, Velocity: r2.Vec{X: -3}, Radius: systems.DefaultRadius}}, nil, dt)
	require.Greater(t, r2.Norm(r2.Sub(want, pref)), 0.01, "ORCA changes the velocity here")
	o.Update(w)
	_, _, _, st = m.Get(a)
	assert.LessOrEqual(t, r2.Norm(st.Force), kin.MaxForce*(1+1e-9), "within MaxForce")
	mv.Update(w)
	_, vel, _, _ = m.Get(a)
	assert.InDelta(t, want.X, vel.X, 1e-9)
	assert.InDelta(t, want.Y, vel.Y, 1e-9)
	o.Finalize(w)
	mv.Finalize(w)
	sched.Finalize(w)
}

// An agent alone keeps the force Steer gave it; one with unusable ORCA
// parameters too (Diagnose counts it).
func TestORCALeavesTheForceAloneWithNothingToAvoid(t *testing.T) {
	w := openWorld(40, 40)
	sp, err := systems.NewSpawner(w, systems.Mover{}, systems.Avoider{})
	require.NoError(t, err)
	alone := sp.Spawn(r2.Vec{X: 10, Y: 10}, func(s *systems.Spawned) { s.MoveTo(r2.Vec{X: 20, Y: 10}) })
	bad := sp.Spawn(r2.Vec{X: 30, Y: 30}, func(s *systems.Spawned) {
		s.MoveTo(r2.Vec{X: 20, Y: 30})
		systems.Component[components.ORCA](s).TimeHorizon = math.NaN()
	})
	sp.Spawn(r2.Vec{X: 29, Y: 30}, func(s *systems.Spawned) { s.MoveTo(r2.Vec{X: 35, Y: 30}) }) // in bad's way
	sched := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathFollow{Workers: 1}, &systems.Steer{Workers: 1})
	sched.Initialize(w)
	o := &systems.ORCA{}
	o.Initialize(w)
	sched.Update(w)
	st := generic.NewMap1[components.Steering](w)
	before := [2]r2.Vec{st.Get(alone).Force, st.Get(bad).Force}
	o.Update(w)
	assert.Equal(t, before, [2]r2.Vec{st.Get(alone).Force, st.Get(bad).Force})
	r := systems.Diagnose(w)
	assert.Equal(t, 1, r.Counts[systems.CauseORCAInvalid])
	assert.Equal(t, bad, r.Examples[systems.CauseORCAInvalid])
	o.Finalize(w)
	sched.Finalize(w)
}

func TestORCAInitializePanicsNameWhatIsMissing(t *testing.T) {
	for _, c := range []struct {
		grid, clock, spatial bool
		want                 string
	}{
		{false, true, false, "systems: ORCA needs the map: the world has no *grid.Grid resource"},
		{true, false, true, "systems: ORCA needs the simulation clock: the world has no *ecs.Clock resource; add ecs.NewClockSystem(dt) as the first system"},
		{true, true, false, "systems: ORCA needs the Neighbours resource: add the Spatial system before ORCA"},
	} {
		world := arche.NewWorld()
		w := &world
		if c.grid {
			arche.AddResource(w, grid.New(8, 8))
		}
		if c.clock {
			ecs.NewClockSystem(1.0 / 60).Initialize(w)
		}
		if c.spatial {
			(&systems.Spatial{}).Initialize(w)
		}
		func() {
			defer func() {
				msg := panicText(recover())
				assert.Contains(t, msg, c.want)
			}()
			(&systems.ORCA{}).Initialize(w)
			t.Error("no panic")
		}()
	}
}

// The same crowd, with 1, 2 or 3 workers, ends in the same state.
func TestORCADeterministicAcrossWorkers(t *testing.T) {
	run := func(workers int) uint64 {
		s := newAvoidScene(t, 40, 40, workers, func(g *grid.Grid) {
			for y := int32(10); y < 30; y++ {
				g.SetCost(grid.Cell{X: 20, Y: y}, grid.Blocked)
			}
		})
		r := steer.NewRand(5)
		for range 150 {
			from := r2.Vec{X: 2 + 36*r.Float64(), Y: 2 + 36*r.Float64()}
			to := r2.Vec{X: 2 + 36*r.Float64(), Y: 2 + 36*r.Float64()}
			if s.Grid.Passable(s.Grid.CellAt(from)) && s.Grid.Passable(s.Grid.CellAt(to)) {
				s.add(from, to)
			}
		}
		s.run(3, nil)
		return systems.StateHash(s.World)
	}
	one := run(1)
	assert.Equal(t, one, run(2))
	assert.Equal(t, one, run(3))
}

func TestORCASteadyStateAllocatesNothing(t *testing.T) {
	s := newAvoidScene(t, 40, 40, 2, func(g *grid.Grid) {
		for y := int32(10); y < 30; y++ {
			g.SetCost(grid.Cell{X: 20, Y: y}, grid.Blocked)
		}
	})
	r := steer.NewRand(9)
	for range 200 {
		s.add(r2.Vec{X: 2 + 16*r.Float64(), Y: 2 + 36*r.Float64()}, r2.Vec{X: 22 + 16*r.Float64(), Y: 2 + 36*r.Float64()})
	}
	s.Sched.Initialize(s.World)
	defer s.Sched.Finalize(s.World)
	s.Sched.Run(s.World, 120)
	assert.Zero(t, testing.AllocsPerRun(20, func() { s.ORCA.Update(s.World) }))
	assert.Zero(t, testing.AllocsPerRun(20, func() { s.Sched.Update(s.World) }), "whole frames")
}
