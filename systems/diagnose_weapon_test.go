package systems_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// weaponWorld is a world with a Clock and a Combat system, and one armed agent per
// weapon.
func weaponWorld(t *testing.T, weapons ...components.Weapon) (*arche.World, []arche.Entity) {
	t.Helper()
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, &ecs.Clock{DT: 1.0 / 60})
	m := generic.NewMap4[components.Intent, components.Position, components.Weapon, components.Health](w)
	var es []arche.Entity
	for i := range weapons {
		es = append(es, m.NewWith(&components.Intent{}, &components.Position{Vec: r2.Vec{X: float64(i)}},
			&weapons[i], &components.Health{Current: 10, Max: 10}))
	}
	s := ecs.NewScheduler(&systems.Combat{})
	s.Initialize(w)
	t.Cleanup(func() { s.Finalize(w) })
	return w, es
}

// TestDiagnoseReportsAWeaponCooldownInMilliseconds (newcomer): Cooldown 500, meant as
// 500 ms, was accepted silently, and the agent struck once every 8 minutes 20 s.
// Diagnose now counts a Cooldown over MaxWeaponCooldown (60 s) as
// weapon_cooldown_too_long, with a note naming the unit and the value to write for
// milliseconds; 60 s itself and a usual cooldown are taken as meant.
func TestDiagnoseReportsAWeaponCooldownInMilliseconds(t *testing.T) {
	w, es := weaponWorld(t,
		components.Weapon{Damage: 10, Range: 1.5, Cooldown: 500},
		components.Weapon{Damage: 10, Range: 1.5, Cooldown: systems.MaxWeaponCooldown},
		components.Weapon{Damage: 10, Range: 1.5, Cooldown: 0.5},
		components.Weapon{Damage: 10, Range: 1.5})
	r := systems.Diagnose(w)
	require.Equal(t, 1, r.Counts[systems.CauseWeaponCooldownLong], r.String())
	assert.Equal(t, es[0], r.Examples[systems.CauseWeaponCooldownLong])
	assert.Equal(t, 1, r.Total(), r.String())
	assert.Equal(t, "weapon_cooldown_too_long", systems.CauseWeaponCooldownLong.String())
	s := r.String()
	assert.Contains(t, s, "weapon_cooldown_too_long 1")
	assert.Contains(t, s, "Weapon.Cooldown 500 s, over MaxWeaponCooldown (60 s)")
	assert.Contains(t, s, "seconds of simulation time")
	assert.Contains(t, s, "one strike every 500 s (8.3 min)")
	assert.Contains(t, s, "for one every 500 ms write 0.5")
}

// TestDiagnoseReportsAnUnusableWeapon: a NaN, infinite or negative Damage, Range or
// Cooldown was accepted silently (Combat read a NaN or negative Cooldown as none, a NaN
// Damage made the target's Health NaN, a negative one healed it). Diagnose counts each
// as weapon_invalid, naming the field; zero Damage and Cooldown are usable.
func TestDiagnoseReportsAnUnusableWeapon(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		name string
		wp   components.Weapon
		note string // "" when usable
	}{
		{"NaN damage", components.Weapon{Damage: nan, Range: 1}, "Weapon.Damage NaN: want a finite value ≥ 0 (health points per strike)"},
		{"negative damage", components.Weapon{Damage: -5, Range: 1}, "Weapon.Damage -5"},
		{"infinite damage", components.Weapon{Damage: inf, Range: 1}, "Weapon.Damage +Inf"},
		{"NaN range", components.Weapon{Damage: 1, Range: nan}, "Weapon.Range NaN"},
		{"negative range", components.Weapon{Damage: 1, Range: -1}, "Weapon.Range -1"},
		{"infinite range", components.Weapon{Damage: 1, Range: inf}, "Weapon.Range +Inf"},
		{"NaN cooldown", components.Weapon{Damage: 1, Range: 1, Cooldown: nan}, "Weapon.Cooldown NaN: want a finite value ≥ 0 (seconds of simulation time; 0: none)"},
		{"negative cooldown", components.Weapon{Damage: 1, Range: 1, Cooldown: -0.5}, "Weapon.Cooldown -0.5"},
		{"infinite cooldown", components.Weapon{Damage: 1, Range: 1, Cooldown: inf}, "Weapon.Cooldown +Inf"},
		{"zero damage, range and cooldown: usable", components.Weapon{}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, es := weaponWorld(t, c.wp)
			r := systems.Diagnose(w)
			if c.note == "" {
				assert.Zero(t, r.Total(), r.String())
				return
			}
			require.Equal(t, 1, r.Counts[systems.CauseWeaponInvalid], r.String())
			assert.Equal(t, es[0], r.Examples[systems.CauseWeaponInvalid])
			assert.Equal(t, 1, r.Total(), r.String())
			assert.Contains(t, r.String(), c.note)
		})
	}
}

// TestCombatantRefusesUnusableWeaponValues: the Combatant bundle refused these already
// at spawn (Validate): a NaN, infinite or negative Damage, Range or Cooldown.
func TestCombatantRefusesUnusableWeaponValues(t *testing.T) {
	for _, b := range []systems.Combatant{{Damage: math.NaN()}, {Range: -1}, {Cooldown: math.Inf(1)}, {Cooldown: -1}} {
		assert.Error(t, b.Validate(), "%+v", b)
	}
	assert.NoError(t, systems.Combatant{Cooldown: 500}.Validate(), "a long cooldown is Diagnose's to report")
}
