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
