package save_test

import (
	"bytes"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A Weapon's Cooldown and ReadyAt (the time its next strike may land) are saved
// and loaded with the world; a Weapon without a cooldown is written as before
// the fields existed (both are json:",omitempty"), and its world's hash does
// not count them.
func TestWeaponCooldownRoundTrips(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(8, 8))
	plain, err := systems.NewSpawner(w, systems.Combatant{})
	require.NoError(t, err)
	plain.Spawn(r2.Vec{X: 1.5, Y: 1.5}, nil)
	data, err := save.Save(w, nil)
	require.NoError(t, err)
	assert.False(t, bytes.Contains(data, []byte("Cooldown")), "no cooldown: the file has no such field")
	assert.False(t, bytes.Contains(data, []byte("ReadyAt")))
	before := systems.StateHash(w)

	cooled, err := systems.NewSpawner(w, systems.Combatant{Cooldown: 0.75})
	require.NoError(t, err)
	e := cooled.Spawn(r2.Vec{X: 2.5, Y: 2.5}, nil)
	wm := generic.NewMap1[components.Weapon](w)
	wm.Get(e).ReadyAt = 12.25
	assert.NotEqual(t, before, systems.StateHash(w))
	data, err = save.Save(w, nil)
	require.NoError(t, err)
	l, err := save.Load(data, save.Registry{})
	require.NoError(t, err)
	lm := generic.NewMap1[components.Weapon](l.World)
	assert.Equal(t, components.Weapon{Damage: 10, Range: 1.5, Cooldown: 0.75, ReadyAt: 12.25}, *lm.Get(e))
	assert.Equal(t, systems.StateHash(w), systems.StateHash(l.World))

	// Cooldown and ReadyAt swapped: another state, another hash
	h := systems.StateHash(w)
	wp := wm.Get(e)
	wp.Cooldown, wp.ReadyAt = 0, 0.75
	h0 := systems.StateHash(w)
	wp.Cooldown, wp.ReadyAt = 0.75, 0
	assert.NotEqual(t, h0, systems.StateHash(w))
	assert.NotEqual(t, h, h0)
}
