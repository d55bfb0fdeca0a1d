package systems_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// clock.DT = 1/30 set between frames is 0 (Go divides the integer constants), and the
// ClockSystem steps 1/60 instead: the world ran at half the rate meant, and nothing
// said so. Diagnose reports the replaced step (clock_dt_replaced, one finding,
// naming the value given); a good step, and a finalized clock, report nothing. (At
// Initialize such a step is a setup error: TestAClockStepRejectedAtInitializeIsASetupError.)
func TestDiagnoseReportsAReplacedClockStep(t *testing.T) {
	for _, c := range []struct {
		dt     float64
		faulty bool
	}{{1 / 30, true}, {math.NaN(), true}, {-1, true}, {math.Inf(1), true}, {1.0 / 30, false}} {
		world := arche.NewWorld()
		w := &world
		arche.AddResource(w, grid.New(16, 16))
		sp, err := systems.NewSpawner(w, systems.Mover{})
		require.NoError(t, err)
		sp.Spawn(r2.Vec{X: 2.5, Y: 2.5}, nil)
		clock := ecs.NewClockSystem(1.0 / 60)
		s := ecs.NewScheduler(clock, &systems.Spatial{}, &systems.PathQueue{}, &systems.PathFollow{},
			&systems.Steer{}, &systems.Movement{})
		require.NoError(t, s.InitializeChecked(w))
		clock.DT = c.dt
		s.Run(w, 2)
		r := systems.Diagnose(w)
		given, replaced := ecs.ReplacedDT(w)
		assert.Equal(t, c.faulty, replaced, "dt %v", c.dt)
		if !c.faulty {
			assert.Equal(t, systems.ClockUsable, r.ClockFault)
			assert.Zero(t, r.Total(), "%s", r)
			s.Finalize(w)
			continue
		}
		assert.Equal(t, math.Float64bits(c.dt), math.Float64bits(given))
		assert.Equal(t, systems.ClockDTReplaced, r.ClockFault, "dt %v", c.dt)
		assert.Equal(t, 1, r.Total(), "%s", r)
		assert.Contains(t, r.String(), "clock_dt_replaced")
		if c.dt == 0 { // 1/30: an integer division
			assert.Contains(t, r.String(), "write 1.0/30")
		} else {
			assert.NotContains(t, r.String(), "integer division", "no hint about integer division for dt %v", c.dt)
		}
		assert.InDelta(t, 1.0/60, ecs.Resource[ecs.Clock](w).DT, 0, "the step used")
		s.Finalize(w)
		_, replaced = ecs.ReplacedDT(w)
		assert.False(t, replaced, "no live ClockSystem after Finalize")
	}
}

// ecs.NewClockSystem(1/30) is given 0, and the ClockSystem used to step 1/60 instead
// in silence but for Diagnose, the report outliving a level restart. Initialize now
// refuses it: InitializeChecked returns a setup error naming the step and the integer
// division, leaves the world as it was (no Clock, nothing to report), and initializes
// once the program sets a step of its own.
func TestAClockStepRejectedAtInitializeIsASetupError(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	clock := ecs.NewClockSystem(1 / 30)
	s := ecs.NewScheduler(clock, &systems.Diagnostics{})
	for range 2 { // a retry without the fix fails the same way
		err := s.InitializeChecked(w)
		require.ErrorIs(t, err, ecs.ErrSettings)
		require.ErrorIs(t, err, ecs.ErrDT)
		assert.Contains(t, err.Error(), "ClockSystem.DT is 0")
		assert.Contains(t, err.Error(), "write 1.0/30")
		assert.Nil(t, ecs.Resource[ecs.Clock](w))
		_, replaced := ecs.ReplacedDT(w)
		assert.False(t, replaced)
		assert.Zero(t, clock.DT, "the step is left as given")
	}
	clock.DT = 1.0 / 30
	require.NoError(t, s.InitializeChecked(w))
	s.Run(w, 1)
	_, replaced := ecs.ReplacedDT(w)
	assert.False(t, replaced)
	assert.Equal(t, systems.ClockUsable, systems.Diagnose(w).ClockFault)
	s.Finalize(w)
}
