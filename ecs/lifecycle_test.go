package ecs

import (
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
)

// A scheduler run without Initialize fails at its clock with a message saying so, not
// with a nil dereference.
func TestRunWithoutInitializePanicsClearly(t *testing.T) {
	world := arche.NewWorld()
	s := NewScheduler(NewClockSystem(1.0 / 60))
	assert.PanicsWithValue(t, "ecs: ClockSystem.Update called before Initialize: call Initialize(w) on every system (Scheduler.Initialize, or arche-model's model.Run) before the first Update",
		func() { s.Run(&world, 1) })
	s.Initialize(&world)
	assert.NotPanics(t, func() { s.Run(&world, 2) })
	assert.Equal(t, int64(1), ClockOf(&world).Frame)
}

// A ClockSystem updated after its Finalize (no Initialize since) panics naming itself, as
// every archai system does, rather than advancing the clock of a world the program has
// finished with; a Finalize before Initialize or a second Finalize does not panic, and
// Initialize again (a level restart) makes it run on from the world's clock.
func TestClockSystemUpdateAfterFinalizePanicsClearly(t *testing.T) {
	world := arche.NewWorld()
	c := NewClockSystem(0.5)
	assert.NotPanics(t, func() { c.Finalize(&world) }, "Finalize before Initialize")
	s := NewScheduler(c)
	s.Initialize(&world)
	s.Run(&world, 3)
	s.Finalize(&world)
	want := "ecs: ClockSystem.Update called after Finalize: call Initialize(w) again first (a level restart), or stop updating it"
	assert.PanicsWithValue(t, want, func() { c.Update(&world) })
	assert.Equal(t, int64(2), ClockOf(&world).Frame, "the panicking Update did not step the clock")
	assert.NotPanics(t, func() { c.Finalize(&world) }, "a second Finalize")
	assert.PanicsWithValue(t, want, func() { c.Update(&world) })
	s.Initialize(&world)
	s.Run(&world, 1)
	assert.Equal(t, int64(3), ClockOf(&world).Frame, "resumed after frame 2")
	assert.Equal(t, 1.5, ClockOf(&world).Time)
}
