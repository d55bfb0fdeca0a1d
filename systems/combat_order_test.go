package systems

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
)

// TestCombatStrikesByEntityIDAcrossArchetypes checks that Combat applies a
// frame's strikes by attacker entity ID when its query visits the attackers
// in another order: 600 attackers made alternately in two archetypes (the
// query visits the first archetype's, then the second's), aimed in pairs at
// 300 targets of 10 hp, each pair an attacker of each archetype, the
// second-archetype one made first. A target's first strike (10) brings it to
// 0 and it takes no other, so the attacker of the smaller ID strikes: its
// Weapon's ReadyAt is set, the other's is not, and Downed lists the targets
// in the order of the strikers' IDs.
func TestCombatStrikesByEntityIDAcrossArchetypes(t *testing.T) {
	w := arche.NewWorld()
	inID := arche.ComponentID[components.Intent](&w)
	posID := arche.ComponentID[components.Position](&w)
	wpID := arche.ComponentID[components.Weapon](&w)
	hpID := arche.ComponentID[components.Health](&w)
	velID := arche.ComponentID[components.Velocity](&w) // the second archetype's extra component
	clock := ecs.NewClockSystem(1.0 / 60)
	clock.Initialize(&w)
	clock.Update(&w)
	const pairs = 300
	targets := make([]arche.Entity, pairs)
	for i := range targets {
		targets[i] = w.NewEntity(posID, hpID)
		*(*components.Health)(w.Get(targets[i], hpID)) = components.Health{Current: 10, Max: 10}
	}
	first, second := make([]arche.Entity, pairs), make([]arche.Entity, pairs)
	for i := range pairs {
		// pair i aims at target (7·i) mod pairs: the strikers' IDs do not
		// follow the targets'
		second[i] = w.NewEntity(inID, posID, wpID, velID)
		first[i] = w.NewEntity(inID, posID, wpID)
		for _, e := range []arche.Entity{second[i], first[i]} {
			*(*components.Weapon)(w.Get(e, wpID)) = components.Weapon{Damage: 10, Range: 1, Cooldown: 1}
			(*components.Intent)(w.Get(e, inID)).Attack = targets[(7*i)%pairs]
		}
	}
	require.Less(t, second[0].ID(), first[0].ID())

	ready := ecs.ClockOf(&w).Time + 1 // the striker's cooldown starts now
	s := &Combat{}
	s.Initialize(&w)
	s.Update(&w)
	require.Equal(t, pairs, s.Strikes, "one strike a target: the first brings it to 0")
	want := make([]arche.Entity, pairs)
	for i := range pairs {
		want[i] = targets[(7*i)%pairs]
		require.Equal(t, ready, (*components.Weapon)(w.Get(second[i], wpID)).ReadyAt, "pair %d: the smaller ID strikes", i)
		require.Zero(t, (*components.Weapon)(w.Get(first[i], wpID)).ReadyAt, "pair %d: the larger ID finds its target down", i)
		require.Zero(t, (*components.Health)(w.Get(targets[i], hpID)).Current)
	}
	require.Equal(t, want, s.Downed, "in the order of the strikers' entity IDs")
}
