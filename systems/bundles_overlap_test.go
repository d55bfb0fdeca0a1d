package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// newbie19's finding 7: Combatant{Team: 1, MaxHealth: 50} with
// With(Health{500, 500}) and With(Faction{Team: 2}) spawned a team-2 agent of
// 500 health points, silently (the last bundle won). Two bundles that set one
// component are now a NewSpawner error naming the component and both bundles,
// in either order; bundles that only add a shared component (Position,
// Velocity, Intent) still combine, and With of a component no other bundle
// sets is still the way to add one.
func TestNewSpawnerRefusesBundlesThatSetOneComponent(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	machine := func() *fsm.Machine {
		b := fsm.NewBuilder("m")
		b.State("idle", fsm.Hooks{})
		m, err := b.Build()
		require.NoError(t, err)
		return m
	}()
	for _, c := range []struct {
		name    string
		bundles []systems.Bundle
		want    string
	}{
		{"newbie19's", []systems.Bundle{systems.Mover{}, systems.Combatant{Team: 1, MaxHealth: 50},
			systems.With(components.Health{Current: 500, Max: 500}), systems.With(components.Faction{Team: 2})},
			"bundles 1 (systems.Combatant) and 2 (systems.With(components.Health)) both set components.Health"},
		{"With first", []systems.Bundle{systems.With(components.Faction{Team: 2}), systems.Combatant{}},
			"bundles 0 (systems.With(components.Faction)) and 1 (systems.Combatant) both set components.Faction"},
		{"two With", []systems.Bundle{systems.With(components.LOD{}), systems.With(components.LOD{})},
			"bundles 0 (systems.With(components.LOD)) and 1 (systems.With(components.LOD)) both set components.LOD"},
		{"Position", []systems.Bundle{systems.Mover{}, systems.With(components.Position{})},
			"bundle 1 (systems.With(components.Position)) sets components.Position, which the spawner sets itself"},
		{"Rand", []systems.Bundle{systems.With(components.Rand{})},
			"bundle 0 (systems.With(components.Rand)) sets components.Rand, which the spawner sets itself"},
		{"two moving bundles", []systems.Bundle{systems.Mover{}, systems.FlowFollower{}},
			"bundles 0 (systems.Mover) and 1 (systems.FlowFollower) both set components.Kinematics"},
		{"Wanderer and Mover", []systems.Bundle{systems.Wanderer{}, systems.Mover{}},
			"bundles 0 (systems.Wanderer) and 1 (systems.Mover) both set components.Kinematics"},
		{"two thinkers", []systems.Bundle{systems.Thinker{Machine: machine}, systems.Thinker{Machine: machine}},
			"bundles 0 (systems.Thinker) and 1 (systems.Thinker) both set components.Think"},
		{"AvoidORCA and Avoider", []systems.Bundle{systems.Mover{Motion: systems.Motion{Avoid: systems.AvoidORCA}},
			systems.Avoider{TimeHorizon: 3}}, "bundles 0 (systems.Mover) and 1 (systems.Avoider) both set components.ORCA"},
	} {
		_, err := systems.NewSpawner(w, c.bundles...)
		require.Error(t, err, c.name)
		assert.Contains(t, err.Error(), c.want, c.name)
	}
	_, err := systems.NewSpawner(w, systems.Combatant{}, systems.With(components.Faction{}))
	assert.ErrorContains(t, err, "give the value through bundle 0's fields, or change it per agent in the spawn's set function")

	// what combines: shared components only added, With of what nobody sets,
	// an Avoider after the Mover (it adjusts the separation weight on purpose)
	sp, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Machine: machine}, systems.Combatant{Team: 1, MaxHealth: 50},
		systems.Avoider{}, systems.With(components.LOD{}), systems.With(ownMarker{}))
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{X: 1.5, Y: 1.5}, func(a *systems.Spawned) { a.Faction.Team = 2 }) // per agent: the set function
	m := generic.NewMap3[components.Faction, components.Health, ownMarker](w)
	f, h, own := m.Get(e)
	assert.Equal(t, components.Faction{Team: 2}, *f)
	assert.Equal(t, components.Health{Current: 50, Max: 50}, *h)
	assert.NotNil(t, own)
}
