package systems_test

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// Avoider turns the moving bundle's separation off by writing SteeringWeights after it;
// listed first, the moving bundle's weight would win (later bundles win) and the agents
// would separate and avoid with ORCA at once. NewSpawner refuses that order, naming both
// bundles and the fix; KeepSeparation, which asks for both, may come in any order.
type ownMarker struct{}

func TestAvoiderBeforeAMovingBundleIsRefused(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	for _, moving := range []systems.Bundle{systems.Mover{}, systems.Wanderer{}, systems.FlowFollower{}} {
		_, err := systems.NewSpawner(w, systems.Avoider{}, moving)
		require.Error(t, err, "%T", moving)
		assert.Contains(t, err.Error(), "bundle 0 (systems.Avoider) is listed before bundle 1")
		assert.Contains(t, err.Error(), "list Avoider after the moving bundle")
		_, err = systems.NewSpawner(w, systems.Combatant{}, systems.Avoider{}, systems.With(ownMarker{}), moving)
		assert.ErrorContains(t, err, "bundle 1 (systems.Avoider) is listed before bundle 3", "%T", moving)
	}

	sep := func(bundles ...systems.Bundle) (float64, bool) {
		sp, err := systems.NewSpawner(w, bundles...)
		require.NoError(t, err)
		e := sp.Spawn(r2.Vec{X: 1.5, Y: 1.5}, nil)
		m := generic.NewMap1[components.SteeringWeights](w)
		return m.Get(e).Separation, w.Has(e, arche.ComponentID[components.ORCA](w))
	}
	s, orca := sep(systems.Mover{}, systems.Avoider{})
	assert.Equal(t, 0.0, s, "after the Mover: separation off")
	assert.True(t, orca)
	s, orca = sep(systems.Avoider{KeepSeparation: true}, systems.Mover{})
	assert.Equal(t, systems.DefaultMover().Separation, s, "KeepSeparation before the Mover: both, as asked")
	assert.True(t, orca)
	s, orca = sep(systems.Mover{}, systems.Avoider{KeepSeparation: true})
	assert.Equal(t, systems.DefaultMover().Separation, s, "KeepSeparation after the Mover: both")
	assert.True(t, orca)
}
