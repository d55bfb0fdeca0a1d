package save_test

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// An agent tagged components.OwnMotion keeps its tag through a save and a load
// (a loader knows the type without a registry entry), and the other agent stays
// untagged; Diagnose, which registers the tag's type in a world, leaves a world
// that still saves and loads.
func TestOwnMotionRoundTrips(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(8, 8))
	own, err := systems.NewSpawner(w, systems.Mover{}, systems.With(components.OwnMotion{}))
	require.NoError(t, err)
	plain, err := systems.NewSpawner(w, systems.Mover{})
	require.NoError(t, err)
	tagged := own.Spawn(r2.Vec{X: 1.5, Y: 1.5}, nil)
	other := plain.Spawn(r2.Vec{X: 2.5, Y: 2.5}, nil)
	systems.Diagnose(w)

	data, err := save.Save(w, nil)
	require.NoError(t, err)
	l, err := save.Load(data, save.Registry{})
	require.NoError(t, err)
	id := arche.ComponentID[components.OwnMotion](l.World)
	assert.True(t, l.World.Has(tagged, id))
	assert.False(t, l.World.Has(other, id))
	assert.Equal(t, systems.StateHash(w), systems.StateHash(l.World))
}
