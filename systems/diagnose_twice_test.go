package systems

import (
	"testing"

	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A system installed twice (two values of a type, or one value added twice) runs twice
// a frame: two Movements move agents twice as far. Diagnose names it; a schedule
// finalized and initialized again, or another after it, is not counted twice.
func TestDiagnoseReportsASystemInstalledTwice(t *testing.T) {
	w, _ := newWorld(10, 10)
	goodAgent(t, w)
	m := &Movement{}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Spatial{}, &Perception{}, &Decision{}, &Decision{}, &FlowField{}, &PathQueue{},
		&PathFollow{}, &Steer{}, m, &Movement{})
	s.Initialize(w)
	r := Diagnose(w)
	assert.Equal(t, []string{"decision", "movement"}, r.Twice, "in schedule order")
	assert.Equal(t, 2, r.Total(), "%s", r)
	assert.Equal(t, "diagnostics: 1 agent, none misconfigured (2 findings): systems installed twice: decision, movement", r.String())
	s.Finalize(w)

	s = ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Spatial{}, &Perception{}, &FlowField{}, &PathQueue{}, &PathFollow{}, &Steer{}, m, m)
	s.Initialize(w)
	r = Diagnose(w)
	assert.Equal(t, []string{"movement"}, r.Twice, "one value added twice")
	s.Finalize(w)

	s = ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Spatial{}, &Perception{}, &Decision{}, &FlowField{}, &PathQueue{}, &PathFollow{}, &Steer{}, m)
	for range 2 { // a schedule finalized and initialized again: once each
		s.Initialize(w)
		s.Run(w, 2)
		r = Diagnose(w)
		assert.Nil(t, r.Twice, "%s", r)
		assert.Zero(t, r.Total(), "%s", r)
		s.Finalize(w)
	}
}

// Two ecs.ClockSystems each advance the Clock a frame: a program that added its own
// clock beside a schedule that had one ran two frames per step, in silence. Diagnose
// names "clock" in Twice, first (the clocked systems need a clock before them); finalizing one of them (or a schedule) clears it.
func TestDiagnoseReportsTwoClockSystems(t *testing.T) {
	w, _ := newWorld(10, 10)
	goodAgent(t, w)
	own := ecs.NewClockSystem(1.0 / 30)
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Spatial{}, &Perception{}, &Decision{}, &FlowField{}, &PathQueue{}, &PathFollow{},
		&Steer{}, &Movement{}, &Movement{}, own)
	s.Initialize(w)
	s.Run(w, 3)
	c := ecs.ClockOf(w)
	assert.Equal(t, int64(5), c.Frame, "two frames a step")
	assert.Equal(t, 1.0/30, c.DT)
	assert.InDelta(t, 2.0/30+3.0/60, c.Time, 1e-12, "each clock's frame lasts its step")
	assert.Equal(t, 2, ecs.LiveClockSystems(w))
	r := Diagnose(w)
	assert.Equal(t, []string{"clock", "movement"}, r.Twice)
	assert.Equal(t, "diagnostics: 1 agent, none misconfigured (2 findings): systems installed twice: clock, movement", r.String())
	own.Finalize(w)
	own.Finalize(w) // a second Finalize does nothing
	assert.Equal(t, 1, ecs.LiveClockSystems(w))
	assert.Equal(t, []string{"movement"}, Diagnose(w).Twice)
	s.Finalize(w)
	assert.Equal(t, 0, ecs.LiveClockSystems(w))
	assert.Nil(t, Diagnose(w).Twice)
}

// The Diagnostics system reports a system installed twice without allocating.
func TestDiagnosticsSystemReportsTwiceWithoutAllocating(t *testing.T) {
	w, _ := newWorld(10, 10)
	goodAgent(t, w)
	d := &Diagnostics{Every: 1}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Spatial{}, &Spatial{}, &Perception{}, &FlowField{}, &Decision{}, &PathQueue{}, &PathFollow{}, &Steer{}, &Movement{}, d)
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 2)
	require.Equal(t, []string{"spatial"}, d.Report.Twice)
	assert.Zero(t, testing.AllocsPerRun(20, func() { d.Check(w) }))
	assert.Equal(t, []string{"spatial"}, d.Report.Twice)
}

// pretendInstalled records the systems of set as installed in w, as their Initialize
// would, without counting them live (none is installed twice by it).
func pretendInstalled(w *arche.World, set systemSet) {
	markInstalled(w, set)
	ecs.Resource[installed](w).live = [numSystems]int32{}
}
