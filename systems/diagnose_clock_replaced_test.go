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

// ecs.NewClockSystem(1/30) is given 0 (Go divides the integer constants), and the
// ClockSystem steps 1/60 instead: the world ran at half the rate meant, and nothing
// said so. Diagnose now reports the replaced step (clock_dt_replaced, one finding,
// naming the value given); a good step, and a finalized clock, report nothing.
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
		s := ecs.NewScheduler(ecs.NewClockSystem(c.dt), &systems.Spatial{}, &systems.PathQueue{}, &systems.PathFollow{},
			&systems.Steer{}, &systems.Movement{})
		require.NoError(t, s.InitializeChecked(w))
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

// The report outlives a level restart: the ClockSystem wrote 1/60 into its DT at the
// first Initialize, and a second Initialize (after Finalize) found a usable step and
// said nothing. A step the program sets itself in between ends the report.
func TestDiagnoseReportsAReplacedClockStepAfterARestart(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	clock := ecs.NewClockSystem(1 / 30)
	for round, ownStep := range []bool{false, false, true} { // start, restart, restart with 1.0/30 set
		if ownStep {
			clock.DT = 1.0 / 30
		}
		s := ecs.NewScheduler(clock)
		require.NoError(t, s.InitializeChecked(w))
		s.Run(w, 1)
		given, replaced := ecs.ReplacedDT(w)
		if ownStep {
			assert.False(t, replaced, "round %d", round)
			assert.Equal(t, systems.ClockUsable, systems.Diagnose(w).ClockFault)
		} else {
			assert.True(t, replaced, "round %d", round)
			assert.Zero(t, given)
			assert.Equal(t, systems.ClockDTReplaced, systems.Diagnose(w).ClockFault, "round %d", round)
		}
		s.Finalize(w)
	}
}
