package ecs

import (
	"errors"
	"fmt"
	"math"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A newcomer's ecs.NewClockSystem(-1) passed InitializeChecked, and CheckSetup with a
// NaN step returned nil: the ClockSystem stepped 1/60 s instead, which only
// systems.Diagnose said. A step CheckDT rejects (0, negative, NaN, infinite) is now a
// fault of setup: Initialize panics with a *SetupError (ErrSettings, wrapping
// ErrDT) naming ClockSystem.DT and its value, which InitializeChecked and CheckSetup
// return; the DT is left as given, the world gets no Clock, and nothing reports a
// replaced step. A 0 step hints at Go's integer division (1/30).
func TestAClockStepCheckDTRejectsIsASetupError(t *testing.T) {
	for _, dt := range []float64{0, -1, math.NaN(), math.Inf(1), math.Inf(-1)} {
		check := func(err error) {
			t.Helper()
			require.Error(t, err, "dt %v", dt)
			assert.ErrorIs(t, err, ErrSettings)
			assert.ErrorIs(t, err, ErrDT)
			var se *SetupError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, "ClockSystem", se.System)
			assert.Contains(t, err.Error(), "ecs: ClockSystem.DT is "+fmt.Sprint(dt)+": ")
			if dt == 0 {
				assert.Contains(t, err.Error(), "write 1.0/30")
			} else {
				assert.NotContains(t, err.Error(), "integer division")
			}
		}
		world := arche.NewWorld()
		w := &world
		c := NewClockSystem(dt)
		check(NewScheduler(c).InitializeChecked(w))
		assert.Nil(t, Resource[Clock](w), "dt %v: no Clock left in the world", dt)
		assert.Equal(t, math.Float64bits(dt), math.Float64bits(c.DT), "the DT is left as given")
		_, replaced := ReplacedDT(w)
		assert.False(t, replaced)
		assert.Zero(t, LiveClockSystems(w))
		check(CheckSetup(w, NewClockSystem(dt)))

		func() {
			defer func() {
				r := recover()
				se, ok := r.(*SetupError)
				require.True(t, ok, "dt %v: Initialize panics with a *SetupError, got %v", dt, r)
				check(se)
			}()
			NewClockSystem(dt).Initialize(w)
		}()

		c.DT = 0.25 // fixed: the same value initializes
		require.NoError(t, NewScheduler(c).InitializeChecked(w))
		assert.Equal(t, 0.25, Resource[Clock](w).DT)
		c.Finalize(w)
	}
	require.NoError(t, CheckSetup(func() *arche.World { w := arche.NewWorld(); return &w }(), NewClockSystem(math.MaxFloat64)),
		"a large finite step is kept")
	assert.False(t, errors.Is(CheckDT(1.0/60), ErrDT))
}
