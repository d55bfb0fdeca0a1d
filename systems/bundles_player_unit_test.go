package systems_test

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A unit a player orders, as the README gives it: a Mover beside a Target (both
// list Position and Velocity, only the Mover sets them) is accepted in either
// order; the unit has a Path to walk, a Faction and full Health, and no
// Perception or Weapon.
func TestSpawnerMoverBesideTarget(t *testing.T) {
	for _, bundles := range [][]systems.Bundle{
		{systems.Mover{}, systems.Target{Team: 1}},
		{systems.Target{Team: 1}, systems.Mover{}},
	} {
		world := arche.NewWorld()
		w := &world
		arche.AddResource(w, grid.New(8, 8))
		sp, err := systems.NewSpawner(w, bundles...)
		require.NoError(t, err)
		e := sp.Spawn(r2.Vec{X: 2.5, Y: 2.5}, nil)
		assert.True(t, w.Has(e, arche.ComponentID[components.Path](w)))
		assert.False(t, w.Has(e, arche.ComponentID[components.Perception](w)))
		assert.False(t, w.Has(e, arche.ComponentID[components.Weapon](w)))
		hp := (*components.Health)(w.Get(e, arche.ComponentID[components.Health](w)))
		assert.Equal(t, components.Health{Current: 100, Max: 100}, *hp)
		f := (*components.Faction)(w.Get(e, arche.ComponentID[components.Faction](w)))
		assert.Equal(t, uint8(1), f.Team)
		p := (*components.Position)(w.Get(e, arche.ComponentID[components.Position](w)))
		assert.Equal(t, r2.Vec{X: 2.5, Y: 2.5}, p.Vec)
	}
}

// A horde others strike: a FlowFollower beside a Target is accepted, with the
// follower's FlowFollower and the Target's Faction and Health.
func TestSpawnerFlowFollowerBesideTarget(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(8, 8))
	sp, err := systems.NewSpawner(w, systems.FlowFollower{Goal: grid.Cell{X: 6, Y: 6}}, systems.Target{Team: 2, MaxHealth: 50})
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{X: 2.5, Y: 2.5}, nil)
	ff := (*components.FlowFollower)(w.Get(e, arche.ComponentID[components.FlowFollower](w)))
	assert.Equal(t, grid.Cell{X: 6, Y: 6}, ff.Goal)
	hp := (*components.Health)(w.Get(e, arche.ComponentID[components.Health](w)))
	assert.Equal(t, components.Health{Current: 50, Max: 50}, *hp)
	f := (*components.Faction)(w.Get(e, arche.ComponentID[components.Faction](w)))
	assert.Equal(t, uint8(2), f.Team)
}
