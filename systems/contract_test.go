package systems

import (
	"math"

	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// Regression (issue 9): an agent spawned after Spatial ran, in a crowd that
// shrank, reused the entity ID of an agent that had a larger hash ID in an
// earlier frame; Steer looked itself up with that stale ID and indexed past
// the end of Neighbours.Entities.
func TestSteerAgentSpawnedAfterSpatialInAShrunkCrowd(t *testing.T) {
	w, _ := newWorld(16, 16)
	m := generic.NewMap6[components.Position, components.Velocity, components.Kinematics, components.Steering,
		components.Intent, components.SteeringWeights](w)
	spawn := func(i int) arche.Entity {
		e := m.New()
		put(w, e, components.Desired{}) // the hand-over from PathFollow to Steer
		pos, _, kin, _, _, wt := m.Get(e)
		pos.Vec = r2.Vec{X: 4 + 0.3*float64(i%10), Y: 4 + 0.3*float64(i/10)}
		*kin = components.Kinematics{MaxSpeed: 2, MaxForce: 10, Radius: 0.3}
		*wt = components.SteeringWeights{Wall: 1, Separation: 1, SeparationRadius: 1, Alignment: 1, Cohesion: 1, NeighbourRadius: 2}
		return e
	}
	clock := ecs.NewClockSystem(1.0 / 60)
	sp, st := &Spatial{}, &Steer{Workers: 1}
	clock.Initialize(w)
	sp.Initialize(w)
	st.Initialize(w)
	frame := func() { clock.Update(w); sp.Update(w); st.Update(w) }

	crowd := make([]arche.Entity, 10)
	for i := range crowd {
		crowd[i] = spawn(i)
	}
	frame()
	for _, e := range crowd[1:] {
		w.RemoveEntity(e) // the crowd shrinks to one
	}
	frame()
	clock.Update(w)
	sp.Update(w)
	var late []arche.Entity
	for i := range 9 {
		late = append(late, spawn(i+1)) // reuse the removed agents' entity IDs
	}
	require.NotPanics(t, func() { st.Update(w) })
	nb := ecs.Resource[Neighbours](w)
	for _, e := range late {
		assert.Equal(t, int32(-1), nb.ID(e), "an agent spawned after Spatial is not in this frame's hash")
		_, _, _, force, _, _ := m.Get(e)
		assert.True(t, finiteVec(force.Force))
	}
	assert.Equal(t, int32(0), nb.ID(crowd[0]))
	frame()
	for _, e := range late {
		assert.GreaterOrEqual(t, nb.ID(e), int32(0), "in the hash from the next frame on")
	}
}

func TestInitializePanicsNameWhatIsMissing(t *testing.T) {
	type setup struct {
		grid, clock, spatial bool
	}
	all := setup{true, true, true}
	cases := []struct {
		name string
		sys  ecs.System
		have setup
		want string // a part of the message
	}{
		{"Spatial without a grid", &Spatial{}, setup{false, true, false}, "Spatial needs the map: the world has no *grid.Grid resource; add one with arche.AddResource(w, g) before Initialize"},
		{"Steer without Spatial", &Steer{}, setup{true, true, false}, "Steer needs the Neighbours resource: add the Spatial system before Steer"},
		{"Steer without a grid", &Steer{}, setup{false, true, false}, "Steer needs the map"},
		{"Steer without a clock", &Steer{}, setup{true, false, true}, "Steer needs the simulation clock: the world has no *ecs.Clock resource; add ecs.NewClockSystem(dt) as the first system"},
		{"PathFollow without Spatial", &PathFollow{}, setup{true, true, false}, "PathFollow needs the Neighbours resource: add the Spatial system before PathFollow"},
		{"PathFollow without a grid", &PathFollow{}, setup{false, true, false}, "PathFollow needs the map"},
		{"PathFollow without a clock", &PathFollow{}, setup{true, false, true}, "PathFollow needs the simulation clock"},
		{"Movement without a grid", &Movement{}, setup{false, true, false}, "Movement needs the map"},
		{"Movement without a clock", &Movement{}, setup{true, false, false}, "Movement needs the simulation clock"},
		{"PathQueue without a grid", &PathQueue{}, setup{false, true, false}, "PathQueue needs the map"},
		{"PathQueue with Moves 7", &PathQueue{Options: grid.Options{Moves: 7}}, all, "PathQueue cannot search with its Options: grid: bad search options: Moves 7"},
		{"FlowField without a grid", &FlowField{}, setup{false, true, false}, "FlowField needs the map"},
		{"Perception without Spatial", &Perception{}, setup{true, true, false}, "Perception needs the Neighbours resource: add the Spatial system before Perception"},
		{"Perception without a clock", &Perception{}, setup{true, false, true}, "Perception needs the simulation clock"},
		{"Decision with all", &Decision{}, all, ""},
		{"Decision without a clock", &Decision{}, setup{true, false, false}, "Decision needs the simulation clock"},
		{"Utility without a clock", &Utility{}, setup{true, false, false}, "Utility needs the simulation clock"},
		{"FSM without a clock", &FSM{}, setup{true, false, false}, "FSM needs the simulation clock"},
		{"LOD without a clock", &LOD{}, setup{true, false, false}, "LOD needs the simulation clock"},
		// what is optional stays optional
		{"Decision without a grid", &Decision{}, setup{false, true, false}, ""},
		{"Utility without a grid", &Utility{}, setup{false, true, false}, ""},
		{"FSM without a grid", &FSM{}, setup{false, true, false}, ""},
		{"Spatial without a clock", &Spatial{}, setup{true, false, false}, ""},
		{"PathQueue without a clock", &PathQueue{}, setup{true, false, false}, ""},
		{"FlowField without a clock", &FlowField{}, setup{true, false, false}, ""},
		{"Combat with nothing", &Combat{}, setup{}, ""},
		{"Diagnostics with nothing", &Diagnostics{}, setup{}, ""},
		{"Steer with all", &Steer{}, all, ""},
		{"PathFollow with all", &PathFollow{}, all, ""},
		{"Perception with all", &Perception{}, all, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			world := arche.NewWorld()
			w := &world
			if c.have.grid {
				arche.AddResource(w, grid.New(8, 8))
			}
			if c.have.clock {
				ecs.NewClockSystem(1.0 / 60).Initialize(w)
			}
			if c.have.spatial {
				(&Spatial{}).Initialize(w)
			}
			if c.want == "" {
				assert.NotPanics(t, func() { c.sys.Initialize(w) })
				c.sys.Finalize(w)
				return
			}
			defer func() {
				msg := panicText(recover())
				assert.Contains(t, msg, c.want)
				assert.Contains(t, msg, "systems: ")
			}()
			c.sys.Initialize(w)
			t.Error("no panic")
		})
	}
}

// A Spatial added after Steer has not made its resource yet when Steer
// initializes: the order cannot work, and Steer says so.
func TestSteerBeforeSpatialPanics(t *testing.T) {
	w, _ := newWorld(8, 8)
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Steer{}, &Spatial{})
	assert.PanicsWithError(t, "systems: Steer needs the Neighbours resource: add the Spatial system before Steer",
		func() { s.Initialize(w) })
}

// Bad data in one agent has a documented result (see Movement and Steer), is
// counted by Diagnose, and never reaches a neighbour's forces.
func TestBadAgentDataHasADocumentedResult(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	start := r2.Vec{X: 5.5, Y: 5.5}
	cases := []struct {
		name  string
		spoil func(pos, vel *r2.Vec, kin *components.Kinematics, in *components.Intent)
		cause Cause
		// still: the agent never moves and its velocity is zero; brakes: it
		// goes nowhere of its own (only separation pushes it); recovers: it
		// stands still in frame 1 with zero velocity, then moves on
		result string
	}{
		{"NaN position", func(p, _ *r2.Vec, _ *components.Kinematics, _ *components.Intent) { p.X = nan }, CausePosition, "still"},
		{"infinite position", func(p, _ *r2.Vec, _ *components.Kinematics, _ *components.Intent) { p.Y = inf }, CausePosition, "still"},
		{"NaN velocity", func(_, v *r2.Vec, _ *components.Kinematics, _ *components.Intent) { v.X = nan }, CauseVelocity, "recovers"},
		{"infinite velocity", func(_, v *r2.Vec, _ *components.Kinematics, _ *components.Intent) { v.Y = -inf }, CauseVelocity, "recovers"},
		{"MaxSpeed +Inf", func(_, v *r2.Vec, k *components.Kinematics, _ *components.Intent) { k.MaxSpeed, v.X = inf, 1 }, CauseKinematics, "still"},
		{"MaxSpeed 0", func(_, v *r2.Vec, k *components.Kinematics, _ *components.Intent) { k.MaxSpeed, v.X = 0, 1 }, CauseKinematics, "still"},
		{"MaxForce NaN", func(_, v *r2.Vec, k *components.Kinematics, _ *components.Intent) { k.MaxForce, v.X = nan, 1 }, CauseKinematics, "still"},
		{"MaxForce negative", func(_, v *r2.Vec, k *components.Kinematics, _ *components.Intent) { k.MaxForce, v.X = -1, 1 }, CauseKinematics, "still"},
		{"Radius NaN", func(_, v *r2.Vec, k *components.Kinematics, _ *components.Intent) { k.Radius, v.X = nan, 1 }, CauseKinematics, "still"},
		{"NaN goal", func(_, _ *r2.Vec, _ *components.Kinematics, in *components.Intent) { in.Goal.X = nan }, CauseGoal, "brakes"},
		{"infinite goal", func(_, _ *r2.Vec, _ *components.Kinematics, in *components.Intent) { in.Goal.Y = inf }, CauseGoal, "brakes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, g := newWorld(16, 16)
			g.SetCost(grid.Cell{X: 8, Y: 12}, grid.Blocked)
			m := generic.NewMap7[components.Position, components.Velocity, components.Kinematics, components.Steering,
				components.Intent, components.SteeringWeights, components.Path](w)
			spawn := func(p r2.Vec) arche.Entity {
				e := m.New()
				put(w, e, components.Desired{}) // the hand-over from PathFollow to Steer
				pos, _, kin, _, in, wt, _ := m.Get(e)
				pos.Vec = p
				*kin = components.Kinematics{MaxSpeed: 2, MaxForce: 10, Radius: 0.3}
				*in = components.Intent{Move: true, Goal: r2.Vec{X: 10.5, Y: 10.5}}
				*wt = components.SteeringWeights{Wall: 1, Separation: 1, SeparationRadius: 2, Alignment: 1, Cohesion: 1, NeighbourRadius: 3}
				return e
			}
			bad, good := spawn(start), spawn(r2.Vec{X: 6, Y: 5.5})
			pos, vel, kin, _, in, _, _ := m.Get(bad)
			c.spoil(&pos.Vec, &vel.Vec, kin, in)
			from := pos.Vec
			r := Diagnose(w)
			assert.Equal(t, 1, r.Counts[c.cause])
			assert.Equal(t, bad, r.Examples[c.cause])

			s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Spatial{}, &PathQueue{}, &PathFollow{Workers: 1}, &Steer{Workers: 1}, &Movement{Workers: 1})
			s.Initialize(w)
			defer s.Finalize(w)
			s.Update(w)
			pos, vel, _, st, _, _, path := m.Get(bad)
			assert.True(t, finiteVec(st.Force))
			if c.result != "brakes" {
				assert.Equal(t, r2.Vec{}, vel.Vec, "velocity zeroed in the first frame")
				assert.True(t, samePos(from, pos.Vec), "not moved in the first frame: %v", pos.Vec)
			}
			s.Run(w, 60)
			pos, vel, _, _, _, _, path = m.Get(bad)
			switch c.result {
			case "still":
				assert.True(t, samePos(from, pos.Vec), "stands still: %v", pos.Vec)
				assert.Equal(t, r2.Vec{}, vel.Vec)
			case "brakes":
				assert.True(t, finiteVec(pos.Vec))
				assert.Less(t, r2.Norm(r2.Sub(pos.Vec, from)), 1.0, "goes nowhere of its own")
			case "recovers":
				assert.True(t, finiteVec(pos.Vec))
				assert.Greater(t, r2.Norm(r2.Sub(pos.Vec, from)), 0.5, "moves again from rest")
			}
			if c.result != "recovers" {
				assert.False(t, path.Want)
				assert.Equal(t, components.PathNone, path.State, "asks for no path")
			}
			gp, gv, _, gs, _, _, _ := m.Get(good)
			assert.True(t, finiteVec(gp.Vec) && finiteVec(gv.Vec) && finiteVec(gs.Force), "the neighbour is not poisoned")
			assert.Greater(t, gp.X, 6.5, "the neighbour goes its way")
		})
	}
}

// samePos is equality that holds for NaN coordinates too.
func samePos(a, b r2.Vec) bool {
	eq := func(x, y float64) bool { return x == y || (math.IsNaN(x) && math.IsNaN(y)) }
	return eq(a.X, b.X) && eq(a.Y, b.Y)
}

// dt = 1e9 once hung Movement (its sub-steps grew with dt); a step is now cut
// to the grid's width + height.
func TestMovementWithAnAbsurdDTEnds(t *testing.T) {
	for _, dt := range []float64{1e9, 1e300, math.MaxFloat64} {
		w, g := newWorld(64, 64)
		for y := int32(10); y < 64; y++ {
			g.SetCost(grid.Cell{X: 40, Y: y}, grid.Blocked)
		}
		m := generic.NewMap4[components.Position, components.Velocity, components.Kinematics, components.Steering](w)
		e := m.New()
		pos, vel, kin, st := m.Get(e)
		pos.Vec, vel.Vec = r2.Vec{X: 5.5, Y: 30.5}, r2.Vec{X: 3, Y: 1}
		*kin = components.Kinematics{MaxSpeed: 3, MaxForce: 10, Radius: 0.3}
		st.Force = r2.Vec{X: 1}
		s := ecs.NewScheduler(ecs.NewClockSystem(dt), &Movement{Workers: 1})
		s.Initialize(w)
		s.Run(w, 3)
		s.Finalize(w)
		pos, vel, _, _ = m.Get(e)
		require.True(t, finiteVec(pos.Vec) && finiteVec(vel.Vec), "dt %g: %v %v", dt, pos.Vec, vel.Vec)
		assert.True(t, g.Passable(g.CellAt(pos.Vec)), "dt %g: ends in an open cell, at %v", dt, pos.Vec)
		assert.Less(t, pos.X, 40.0, "dt %g: not through the wall", dt)
	}
}

// A clock the user advances with a dt that is not finite and > 0 moves nobody.
func TestMovementWithABadDTMovesNobody(t *testing.T) {
	for _, dt := range []float64{math.NaN(), math.Inf(1), 0, -1} {
		w, _ := newWorld(16, 16)
		arche.AddResource(w, &ecs.Clock{DT: dt})
		m := generic.NewMap4[components.Position, components.Velocity, components.Kinematics, components.Steering](w)
		e := m.New()
		pos, vel, kin, _ := m.Get(e)
		pos.Vec, vel.Vec = r2.Vec{X: 5.5, Y: 5.5}, r2.Vec{X: 1}
		*kin = components.Kinematics{MaxSpeed: 3, MaxForce: 10, Radius: 0.3}
		mv := &Movement{Workers: 1}
		mv.Initialize(w)
		mv.Update(w)
		mv.Finalize(w)
		assert.Equal(t, r2.Vec{X: 5.5, Y: 5.5}, pos.Vec, "dt %v", dt)
	}
}

// Every system in one frame order, over agents holding every kind of bad
// value Diagnose counts: no panic, no hang, and the well set-up agent next to
// them keeps a finite state.
func TestBadDataPanicsNoSystem(t *testing.T) {
	w, g := newWorld(16, 16)
	g.SetCost(grid.Cell{X: 9, Y: 9}, grid.Blocked)
	nan, inf := math.NaN(), math.Inf(1)
	spoils := []func(e arche.Entity){
		func(e arche.Entity) { compOf[components.Position](w, e).Vec = r2.Vec{X: nan, Y: 3} },
		func(e arche.Entity) { compOf[components.Position](w, e).Vec = r2.Vec{X: inf, Y: -inf} },
		func(e arche.Entity) { compOf[components.Position](w, e).Vec = r2.Vec{X: -40, Y: 1e300} },
		func(e arche.Entity) { compOf[components.Position](w, e).Vec = r2.Vec{X: 9.5, Y: 9.5} },
		func(e arche.Entity) { compOf[components.Velocity](w, e).Vec = r2.Vec{X: nan, Y: inf} },
		func(e arche.Entity) { compOf[components.Intent](w, e).Goal = r2.Vec{X: nan, Y: inf} },
		func(e arche.Entity) { compOf[components.Intent](w, e).Goal = r2.Vec{X: -1e300, Y: 1e300} },
		func(e arche.Entity) {
			*compOf[components.Kinematics](w, e) = components.Kinematics{MaxSpeed: inf, MaxForce: nan, Radius: -inf}
		},
		func(e arche.Entity) {
			*compOf[components.Path](w, e) = components.Path{Want: true, Goal: grid.Cell{X: -5, Y: 99}}
		},
		func(e arche.Entity) { compOf[components.FlowFollower](w, e).Goal = grid.Cell{X: 9, Y: 9} },
		func(e arche.Entity) { compOf[components.FlowFollower](w, e).Goal = grid.Cell{X: 1 << 30, Y: -3} },
		func(e arche.Entity) { compOf[components.Wanderer](w, e).Jitter = nan },
		func(e arche.Entity) { compOf[components.Think](w, e).Interval = nan },
		func(e arche.Entity) { compOf[components.Perception](w, e).SightRange = inf },
		func(e arche.Entity) { compOf[components.SteeringWeights](w, e).SeparationRadius = inf },
		func(e arche.Entity) { compOf[components.Brain](w, e).Memory = bt.Memory{} }, // Brain{Tree: t}
		func(e arche.Entity) { put(w, e, components.Blackboard{Store: new(blackboard.Store)}) },
	}
	for _, spoil := range spoils {
		e := goodAgent(t, w)
		compOf[components.Intent](w, e).Move = false // some go by flow field, wander
		spoil(e)
		e = goodAgent(t, w)
		spoil(e)
	}
	good := goodAgent(t, w)
	diag := &Diagnostics{Every: 10}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &LOD{}, &Spatial{}, &Perception{Workers: 1}, &Decision{},
		&PathQueue{}, &Combat{}, &FlowField{Workers: 1}, &PathFollow{Workers: 1}, &Steer{Workers: 1}, &Movement{Workers: 1}, diag)
	s.Initialize(w)
	require.NotPanics(t, func() { s.Run(w, 90) })
	s.Finalize(w)
	p, v := compOf[components.Position](w, good), compOf[components.Velocity](w, good)
	assert.True(t, finiteVec(p.Vec) && finiteVec(v.Vec))
	assert.True(t, g.Passable(g.CellAt(p.Vec)))
	assert.Greater(t, diag.Report.Total(), len(spoils), "%s", diag.Report)
}

// A world resumed under a new schedule (ecs.ClockSystem continues its clock) is a valid
// setup: Spatial takes over the Neighbours resource and FlowField replaces its cache,
// where both used to panic in Arche's AddResource ("Resource ... was already added").
func TestResumedWorldInitializesAgain(t *testing.T) {
	w, _ := newWorld(16, 16)
	e := goodAgent(t, w)
	mk := func() *ecs.Scheduler {
		return ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &LOD{}, &Spatial{}, &Perception{Workers: 1}, &Decision{},
			&PathQueue{}, &Combat{}, &FlowField{Workers: 1}, &Steer{Workers: 1}, &Movement{Workers: 1}, &Diagnostics{})
	}
	s := mk()
	s.Initialize(w)
	s.Run(w, 10)
	s.Finalize(w)
	nb := ecs.Resource[Neighbours](w)

	s = mk()
	require.NotPanics(t, func() { s.Initialize(w) })
	s.Run(w, 10)
	s.Finalize(w)
	assert.Same(t, nb, ecs.Resource[Neighbours](w), "the same resource, taken over")
	assert.Equal(t, int32(0), nb.ID(e), "rebuilt by the new Spatial")
	assert.Equal(t, int64(19), ecs.Resource[ecs.Clock](w).Frame, "the clock continued")
}
