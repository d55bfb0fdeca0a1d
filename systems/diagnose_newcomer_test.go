package systems

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A clock step given in milliseconds (16.6667 for 60 frames a second) is taken as
// seconds by every system: agents jump across the map each frame and no agent is
// misconfigured. Diagnose reports the step; steps up to MaxDT are not reported.
func TestDiagnoseReportsAClockStepInMilliseconds(t *testing.T) {
	w, _ := newWorld(10, 10)
	goodAgent(t, w)
	s := ecs.NewScheduler(ecs.NewClockSystem(16.6667), &Spatial{}, &Perception{}, &FlowField{}, &Decision{}, &PathQueue{}, &PathFollow{}, &Steer{}, &Movement{})
	s.Initialize(w)
	r := Diagnose(w) // after Initialize, before any frame: the step is already the clock's
	assert.Equal(t, 16.6667, r.ClockDT)
	assert.Equal(t, 1, r.Total())
	assert.Zero(t, r.Misconfigured)
	assert.Equal(t, "diagnostics: 1 agent, none misconfigured (1 finding): clock step 16.6667 s a frame (dt is in seconds: 1.0/60 for 60 frames a second)", r.String())
	s.Run(w, 2)
	assert.Equal(t, 16.6667, Diagnose(w).ClockDT, "after frames too")
	s.Finalize(w)

	for _, dt := range []float64{1.0 / 60, 0.5, MaxDT} { // meant steps: not reported
		w, _ := newWorld(10, 10)
		goodAgent(t, w)
		s := ecs.NewScheduler(ecs.NewClockSystem(dt), &Spatial{}, &Perception{}, &FlowField{}, &Decision{}, &PathQueue{}, &PathFollow{}, &Steer{}, &Movement{})
		s.Initialize(w)
		r := Diagnose(w)
		assert.Zero(t, r.ClockDT, "dt %v", dt)
		if dt < SeparationStepLimit(&components.Kinematics{MaxSpeed: 2, MaxForce: 10, Radius: 0.3}, &components.SteeringWeights{Separation: 1, SeparationRadius: 1}) {
			assert.Zero(t, r.Total(), "dt %v: %s", dt, r)
		} else { // the agent's separation is too stiff for the step (0.126 s): its one finding
			assert.Equal(t, 1, r.Counts[CauseStepTooLong], "dt %v: %s", dt, r)
			assert.Equal(t, 1, r.Total(), "dt %v: %s", dt, r)
		}
		s.Finalize(w)
	}

	// with a system installed twice: both listed, two findings
	w, _ = newWorld(10, 10)
	goodAgent(t, w)
	s = ecs.NewScheduler(ecs.NewClockSystem(33), &Spatial{}, &Perception{}, &FlowField{}, &Decision{}, &PathQueue{}, &PathFollow{}, &Steer{}, &Movement{}, &Movement{})
	s.Initialize(w)
	r = Diagnose(w)
	assert.Equal(t, 2, r.Total())
	assert.Equal(t, "diagnostics: 1 agent, none misconfigured (2 findings): systems installed twice: movement, clock step 33 s a frame (dt is in seconds: 1.0/60 for 60 frames a second)", r.String())
	s.Finalize(w)
}

// The Diagnostics system reports the step without allocating, and clears it once
// the clock's step is set right.
func TestDiagnosticsSystemReportsClockStep(t *testing.T) {
	w, _ := newWorld(10, 10)
	goodAgent(t, w)
	clock := ecs.NewClockSystem(16)
	d := &Diagnostics{Every: 1}
	s := ecs.NewScheduler(clock, &Spatial{}, &Perception{}, &FlowField{}, &Decision{}, &PathQueue{}, &PathFollow{}, &Steer{}, &Movement{}, d)
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 2)
	require.Equal(t, 16.0, d.Report.ClockDT)
	assert.Zero(t, testing.AllocsPerRun(20, func() { d.Check(w) }))
	assert.Equal(t, 16.0, d.Report.ClockDT)
	clock.DT = 1.0 / 60
	s.Run(w, 1)
	assert.Zero(t, d.Report.ClockDT, "%s", d.Report)
	assert.Zero(t, d.Report.Total(), "%s", d.Report)
}

// A player the program moves itself, made with a Position and no Velocity, is not in
// the spatial hash, so guards told to pursue it brake and stand. Before
// CauseTargetUnusable, Diagnose said "no misconfiguration"; with a Velocity the same
// guards reach it.
func TestDiagnoseReportsAPursuitTargetWithoutVelocity(t *testing.T) {
	for _, withVelocity := range []bool{false, true} {
		w, _ := newWorld(32, 32)
		ids := []arche.ID{arche.ComponentID[components.Position](w)}
		if withVelocity {
			ids = append(ids, arche.ComponentID[components.Velocity](w))
		}
		player := w.NewEntity(ids...)
		target := r2.Vec{X: 20.5, Y: 20.5}
		compOf[components.Position](w, player).Vec = target
		sp, err := NewSpawner(w, Mover{})
		require.NoError(t, err)
		var guards []arche.Entity
		for i := range 2 {
			guards = append(guards, sp.Spawn(r2.Vec{X: 3.5 + float64(i), Y: 3.5}, func(a *Spawned) {
				a.Intent.Mode, a.Intent.Target = components.IntentPursue, player
			}))
		}
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Spatial{}, &PathQueue{}, &PathFollow{}, &Steer{}, &Movement{})
		s.Initialize(w)
		r := Diagnose(w)
		s.Run(w, 600)
		s.Finalize(w)
		for _, g := range guards {
			d := r2.Norm(r2.Sub(compOf[components.Position](w, g).Vec, target))
			if withVelocity {
				assert.Less(t, d, 1.0, "a hashed target is reached")
			} else {
				assert.Greater(t, d, 20.0, "an unhashed target: the guard stands")
			}
		}
		if withVelocity {
			assert.Zero(t, r.Total(), "%s", r)
			continue
		}
		assert.Equal(t, 2, r.Counts[CauseTargetUnusable], "%s", r)
		assert.Equal(t, guards[0], r.Examples[CauseTargetUnusable])
		assert.Equal(t, "diagnostics: 3 agents, 2 of them misconfigured (2 findings): target_unusable 2 (e.g. entity 2)", r.String())
	}
}
