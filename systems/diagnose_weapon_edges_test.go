package systems_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/systems"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDiagnoseWeaponThresholdEdges: exactly MaxWeaponCooldown, 0, -0 and
// subnormals are usable; the next float over 60 s is too long; a huge finite
// Cooldown is too long, and its note stays short (its reading in minutes was
// written with every digit: 1e300/60 in 'f' format, 300 characters).
func TestDiagnoseWeaponThresholdEdges(t *testing.T) {
	neg0 := math.Copysign(0, -1)
	sub := math.SmallestNonzeroFloat64
	w, _ := weaponWorld(t,
		components.Weapon{Damage: neg0, Range: neg0, Cooldown: neg0},
		components.Weapon{Damage: sub, Range: sub, Cooldown: sub},
		components.Weapon{Cooldown: systems.MaxWeaponCooldown},
		components.Weapon{},
		components.Weapon{Damage: math.MaxFloat64, Range: math.MaxFloat64})
	r := systems.Diagnose(w)
	require.Zero(t, r.Total(), r.String())

	w, _ = weaponWorld(t, components.Weapon{Cooldown: math.Nextafter(systems.MaxWeaponCooldown, math.Inf(1))})
	r = systems.Diagnose(w)
	require.Equal(t, 1, r.Counts[systems.CauseWeaponCooldownLong], r.String())

	w, _ = weaponWorld(t, components.Weapon{Cooldown: 1e300})
	r = systems.Diagnose(w)
	require.Equal(t, 1, r.Counts[systems.CauseWeaponCooldownLong], r.String())
	assert.Less(t, len(r.String()), 600, r.String())
	assert.Contains(t, r.String(), "(1.667e+298 min)")

	w, _ = weaponWorld(t, components.Weapon{Cooldown: math.Inf(-1)}, components.Weapon{Damage: math.Inf(-1)}, components.Weapon{Range: -sub})
	r = systems.Diagnose(w)
	require.Equal(t, 3, r.Counts[systems.CauseWeaponInvalid], r.String())
}
