package systems

import (
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	assert.Equal(t, "diagnostics: 1 agents, 0 of them misconfigured (1 finding): clock step 16.6667 s a frame (dt is in seconds: 1.0/60 for 60 frames a second)", r.String())
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
		assert.Zero(t, r.Total(), "dt %v: %s", dt, r)
		s.Finalize(w)
	}

	// with a system installed twice: both listed, two findings
	w, _ = newWorld(10, 10)
	goodAgent(t, w)
	s = ecs.NewScheduler(ecs.NewClockSystem(33), &Spatial{}, &Perception{}, &FlowField{}, &Decision{}, &PathQueue{}, &PathFollow{}, &Steer{}, &Movement{}, &Movement{})
	s.Initialize(w)
	r = Diagnose(w)
	assert.Equal(t, 2, r.Total())
	assert.Equal(t, "diagnostics: 1 agents, 0 of them misconfigured (2 findings): systems installed twice: movement, clock step 33 s a frame (dt is in seconds: 1.0/60 for 60 frames a second)", r.String())
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
