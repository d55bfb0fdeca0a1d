package systems_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A field of view written in degrees (90 for a quarter turn) is a NewSpawner error that
// says radians and gives the angle in radians; Perception would read 90 as "all around"
// and the guard would see behind its back with nothing reported.
func TestCombatantFieldOfViewInDegreesIsRefused(t *testing.T) {
	world := arche.NewWorld()
	for _, fov := range []float64{90, 360, 2*math.Pi + 1e-6} {
		_, err := systems.NewSpawner(&world, systems.Combatant{Team: 1, FieldOfView: fov})
		require.Error(t, err, "FieldOfView %v", fov)
		assert.Contains(t, err.Error(), "radians, at most 2π")
	}
	_, err := systems.NewSpawner(&world, systems.Combatant{Team: 1, FieldOfView: 90})
	assert.Contains(t, err.Error(), "90° is 1.571 rad")
	_, err = systems.NewSpawner(&world, systems.Combatant{Team: 1, FieldOfView: -1})
	assert.ErrorContains(t, err, "FieldOfView = -1: want a finite value ≥ 0")

	for _, fov := range []float64{0, math.Pi / 2, 2 * math.Pi} {
		sp, err := systems.NewSpawner(&world, systems.Combatant{Team: 1, FieldOfView: fov})
		require.NoError(t, err, "FieldOfView %v", fov)
		e := sp.Spawn(r2.Vec{X: 1, Y: 1}, nil)
		m := generic.NewMap1[components.Perception](&world)
		assert.Equal(t, fov, m.Get(e).FieldOfView)
	}
}
