package systems_test

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestADownedAttackerStrikesNothing: an attacker whose Health.Current is ≤ 0 when
// Combat's Update begins strikes nothing (its request is cleared and counted in
// AttackersDown); one without a Health strikes. Strikes of one frame are
// simultaneous: two agents that bring each other down in one frame both land,
// whichever has the lower ID. Before, the downed attacker struck (a newcomer's
// attacker at 0 health killed a living Combatant in 2 s).
func TestADownedAttackerStrikesNothing(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	fighters := generic.NewMap4[components.Intent, components.Position, components.Weapon, components.Health](w)
	armed := generic.NewMap3[components.Intent, components.Position, components.Weapon](w)
	targets := generic.NewMap2[components.Position, components.Health](w)
	weapon := &components.Weapon{Damage: 10, Range: 2}
	at := func(x float64) *components.Position { return &components.Position{Vec: r2.Vec{X: x}} }

	down := fighters.NewWith(&components.Intent{}, at(0), weapon, &components.Health{Current: 0, Max: 100})
	below := fighters.NewWith(&components.Intent{}, at(0), weapon, &components.Health{Current: -5, Max: 100})
	bare := armed.NewWith(&components.Intent{}, at(0), weapon) // no Health: never down
	victim := targets.NewWith(at(1), &components.Health{Current: 100, Max: 100})
	// a duel: each at 10 health, each brings the other down in one frame
	a := fighters.NewWith(&components.Intent{}, at(5), weapon, &components.Health{Current: 10, Max: 100})
	b := fighters.NewWith(&components.Intent{}, at(6), weapon, &components.Health{Current: 10, Max: 100})

	intents := generic.NewMap[components.Intent](w)
	aim := func(e, tg arche.Entity) { intents.Get(e).Attack = tg }
	aim(down, victim)
	aim(below, victim)
	aim(bare, victim)
	aim(a, b)
	aim(b, a)

	c := &systems.Combat{}
	c.Initialize(w)
	c.Update(w)
	hp := generic.NewMap[components.Health](w)
	assert.Equal(t, 90.0, hp.Get(victim).Current, "only the attacker without a Health struck")
	assert.Equal(t, 2, c.AttackersDown)
	assert.Equal(t, 3, c.Strikes, "bare, a and b")
	assert.Equal(t, 0.0, hp.Get(a).Current, "b, struck down by a in this frame, still struck")
	assert.Equal(t, 0.0, hp.Get(b).Current)
	assert.ElementsMatch(t, []arche.Entity{a, b}, c.Downed)
	for _, e := range []arche.Entity{down, below, bare, a, b} {
		assert.True(t, intents.Get(e).Attack.IsZero(), "every request is cleared")
	}

	aim(a, victim) // a is down now: no strike in the next frame
	c.Update(w)
	assert.Equal(t, 90.0, hp.Get(victim).Current)
	assert.Equal(t, 1, c.AttackersDown)
	assert.Zero(t, c.Strikes)
}
