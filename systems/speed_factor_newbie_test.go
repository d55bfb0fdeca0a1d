package systems_test

import (
	"math"
	"strconv"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A newcomer gave Intent.SpeedFactor 50 for half speed (a percentage): the agent walked
// at full speed and nothing said so; a NaN or negative factor did the same. Such a
// factor still means full speed (the documented result), and Diagnose now counts it as
// speed_factor_invalid, naming the factor; 0, fractions in (0, 1] and an agent that is
// not asked to move are not counted.
func TestASpeedFactorOutsideTheUnitIntervalIsReported(t *testing.T) {
	for _, c := range []struct {
		factor  float64
		counted bool
		speed   float64 // cells/s after 5 s of walking, MaxSpeed 4
	}{
		{0, false, 4}, {0.5, false, 2}, {1, false, 4},
		{50, true, 4}, {1.0001, true, 4}, {-0.5, true, 4}, {math.NaN(), true, 4}, {math.Inf(1), true, 4},
	} {
		world := arche.NewWorld()
		w := &world
		arche.AddResource(w, grid.New(200, 8))
		sp, err := systems.NewSpawner(w, systems.Mover{})
		require.NoError(t, err)
		walker := sp.Spawn(r2.Vec{X: 2.5, Y: 4.5}, func(a *systems.Spawned) {
			a.MoveTo(r2.Vec{X: 190.5, Y: 4.5})
			a.Intent.SpeedFactor = c.factor
		})
		sp.Spawn(r2.Vec{X: 2.5, Y: 1.5}, func(a *systems.Spawned) { a.Intent.SpeedFactor = 50 }) // stands: not counted
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{},
			&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
		require.NoError(t, s.InitializeChecked(w))
		s.Run(w, 300)
		r := systems.Diagnose(w)
		vel := generic.NewMap[components.Velocity](w)
		assert.InDelta(t, c.speed, r2.Norm(vel.Get(walker).Vec), 1e-6, "factor %v", c.factor)
		s.Finalize(w)
		if !c.counted {
			assert.Zero(t, r.Counts[systems.CauseSpeedFactor], "factor %v: %s", c.factor, r)
			continue
		}
		assert.Equal(t, 1, r.Counts[systems.CauseSpeedFactor], "factor %v: %s", c.factor, r)
		assert.Equal(t, walker, r.Examples[systems.CauseSpeedFactor])
		assert.Contains(t, r.String(), "speed_factor_invalid 1 (e.g. entity 1, Intent.SpeedFactor "+
			strconv.FormatFloat(c.factor, 'g', -1, 64)+" is not")
		assert.Contains(t, r.String(), "is not a fraction of MaxSpeed in (0, 1] (0: full speed): it moves at full speed")
	}
}
