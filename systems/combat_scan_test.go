package systems

import (
	"testing"

	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
)

// TestCombatFindsAttackersAcrossArchetypes checks that Combat's column scan
// finds every attack request (the query's first and last entity, both
// sides of an archetype boundary) and strikes the right targets: attacker i
// of three archetypes strikes target i, in range, for i+1 damage.
func TestCombatFindsAttackersAcrossArchetypes(t *testing.T) {
	w := arche.NewWorld()
	inID := arche.ComponentID[components.Intent](&w)
	posID := arche.ComponentID[components.Position](&w)
	wpID := arche.ComponentID[components.Weapon](&w)
	hpID := arche.ComponentID[components.Health](&w)
	velID := arche.ComponentID[components.Velocity](&w)
	kinID := arche.ComponentID[components.Kinematics](&w)
	const n = 30
	targets := make([]arche.Entity, n)
	for i := range targets {
		targets[i] = w.NewEntity(posID, hpID)
		(*components.Health)(w.Get(targets[i], hpID)).Current = 100
	}
	attack := map[int]bool{0: true, 9: true, 10: true, 19: true, 20: true, 21: true, 29: true}
	for i := 0; i < n; i++ {
		ids := []arche.ID{inID, posID, wpID}
		if i >= 10 {
			ids = append(ids, velID)
		}
		if i >= 20 {
			ids = append(ids, kinID)
		}
		e := w.NewEntity(ids...)
		*(*components.Weapon)(w.Get(e, wpID)) = components.Weapon{Damage: float64(i + 1), Range: 1}
		if attack[i] {
			(*components.Intent)(w.Get(e, inID)).Attack = targets[i]
		}
	}
	s := &Combat{}
	s.Initialize(&w)
	s.Update(&w)
	require.Equal(t, len(attack), s.Strikes)
	for i, tg := range targets {
		want := 100.0
		if attack[i] {
			want -= float64(i + 1)
		}
		require.Equal(t, want, (*components.Health)(w.Get(tg, hpID)).Current, "target %d", i)
	}
	require.False(t, w.IsLocked(), "every query closed")
	s.Update(&w)
	require.Zero(t, s.Strikes, "requests are cleared")
}
