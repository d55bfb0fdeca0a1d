package systems

import (
	"testing"

	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
)

// TestCombatDowned checks Combat.Downed: the targets a frame's strikes bring
// from above 0 to 0 or below, once each, in the order struck (attacker
// entity IDs), and emptied by the next frame.
//
//   - target a (15 hp) is struck by attackers 0 and 1 (10 each): down at the
//     second strike, listed once;
//   - target b (10 hp) is struck once by attacker 2 (10): exactly 0, down;
//   - target c (25 hp) is struck once (10): not down;
//   - target d (0 hp, down already) is struck by attacker 3: no strike, not
//     listed again.
func TestCombatDowned(t *testing.T) {
	w := arche.NewWorld()
	inID := arche.ComponentID[components.Intent](&w)
	posID := arche.ComponentID[components.Position](&w)
	wpID := arche.ComponentID[components.Weapon](&w)
	hpID := arche.ComponentID[components.Health](&w)
	target := func(hp float64) arche.Entity {
		e := w.NewEntity(posID, hpID)
		*(*components.Health)(w.Get(e, hpID)) = components.Health{Current: hp, Max: 100}
		return e
	}
	// the targets are made after the attackers' first two, so the order of
	// Downed (by attacker) differs from the order of the targets' IDs
	attackers := make([]arche.Entity, 0, 5)
	attacker := func() arche.Entity {
		e := w.NewEntity(inID, posID, wpID)
		*(*components.Weapon)(w.Get(e, wpID)) = components.Weapon{Damage: 10, Range: 1}
		attackers = append(attackers, e)
		return e
	}
	a0, a1 := attacker(), attacker()
	b := target(10)
	a := target(15)
	c, d := target(25), target(0)
	a2, a3, a4 := attacker(), attacker(), attacker()
	aim := func(e, tg arche.Entity) { (*components.Intent)(w.Get(e, inID)).Attack = tg }
	aim(a2, b)
	aim(a0, a)
	aim(a1, a)
	aim(a3, d)
	aim(a4, c)

	s := &Combat{}
	s.Initialize(&w)
	s.Update(&w)
	require.Equal(t, 4, s.Strikes, "a twice, b and c once; d is down already")
	require.Equal(t, []arche.Entity{a, b}, s.Downed, "by attacker ID: a0 and a1 strike a before a2 strikes b")
	require.Equal(t, -5.0, (*components.Health)(w.Get(a, hpID)).Current)
	require.Equal(t, 15.0, (*components.Health)(w.Get(c, hpID)).Current)

	s.Update(&w)
	require.Zero(t, s.Strikes)
	require.Empty(t, s.Downed, "a frame without strikes downs nobody")
}
