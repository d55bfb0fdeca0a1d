package ecs

import (
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// counting is a system that counts its calls and the frames of the world's clock it
// saw at Update.
type counting struct {
	inits, updates, finals int
	seen                   []int64
}

func (c *counting) Initialize(*arche.World) { c.inits++ }
func (c *counting) Update(w *arche.World) {
	c.updates++
	if k := Resource[Clock](w); k != nil {
		c.seen = append(c.seen, k.Frame)
	}
}
func (c *counting) Finalize(*arche.World) { c.finals++ }

// A newcomer's colony added its debug view after InitializeChecked: Add took it
// without a word and the next Update panicked ("Viewer.Update called before
// Initialize"). A system added after Initialize is now initialized at once, on the
// scheduler's world, and runs from the next frame on, last; one added after Finalize
// waits for the next Initialize.
func TestSchedulerAddAfterInitializeInitializesTheSystem(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	first := &counting{}
	s := NewScheduler(first)
	s.Initialize(w)
	s.Update(w)

	c := NewClockSystem(0.5) // its Update panics when not initialized
	s.Add(c)
	require.NotNil(t, Resource[Clock](w), "initialized at once: the Clock is in the world")
	late := &counting{}
	s.Add(late)
	assert.Equal(t, 1, late.inits)
	require.NotPanics(t, func() { s.Run(w, 3) })
	assert.Equal(t, int64(2), ClockOf(w).Frame, "the clock added ran the 3 frames after its Add")
	assert.Equal(t, []int64{0, 1, 2}, late.seen, "it runs after the clock added before it")
	assert.Equal(t, 4, first.updates)
	assert.Equal(t, 1, first.inits, "the others are not initialized again")
	assert.Len(t, s.Times(), 3)

	s.Finalize(w)
	assert.Equal(t, 1, late.finals)
	after := &counting{}
	s.Add(after)
	assert.Zero(t, after.inits, "added after Finalize: initialized by the next Initialize")
	s.Initialize(w)
	assert.Equal(t, 1, after.inits)
	assert.Equal(t, 2, late.inits)
	s.Update(w)
	assert.Equal(t, 1, after.updates)
}

// AddChecked after Initialize returns a fault of setup of the system added as
// InitializeChecked does: the system is finalized and not added, the world's
// resources are as before the call, and the schedule runs on. Before Initialize it
// only adds (InitializeChecked checks the setup with the others').
func TestSchedulerAddCheckedReturnsASetupFault(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	s := NewScheduler(&counting{})
	require.NoError(t, s.AddChecked(&counting{}), "before Initialize")
	require.NoError(t, s.InitializeChecked(w))

	err := s.AddChecked(NewClockSystem(0)) // a step of 0: a *SetupError at Initialize
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrSettings)
	var se *SetupError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "ClockSystem", se.System)
	assert.Len(t, s.Times(), 2, "not added")
	assert.Nil(t, Resource[Clock](w), "the world's resources are as before")
	assert.NotPanics(t, func() { s.Update(w) })

	c := NewClockSystem(0.25)
	require.NoError(t, s.AddChecked(c))
	s.Update(w)
	assert.Equal(t, 0.25, ClockOf(w).DT)
	assert.Len(t, s.Times(), 3)
	assert.Panics(t, func() { _ = s.AddChecked(nil) })
}
