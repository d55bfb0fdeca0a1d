package systems_test

import (
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

// TestDiagnoseReportsCooldownsWithoutAClock (polish20): a Combat system in a world
// without a Clock cannot time a Weapon's Cooldown, and its weapons strike at every
// request. Diagnose reports the weapons with a Cooldown (two of three here: one has
// none, and one without an Intent is not Combat's) before any strike, as one finding
// naming the fix; the Diagnostics system too. With a Clock, or without a Combat
// system, nothing is reported.
func TestDiagnoseReportsCooldownsWithoutAClock(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	m := generic.NewMap4[components.Intent, components.Position, components.Weapon, components.Health](w)
	for i, cd := range []float64{0.5, 0, 2} {
		m.NewWith(&components.Intent{}, &components.Position{Vec: r2.Vec{X: float64(i)}},
			&components.Weapon{Damage: 1, Range: 2, Cooldown: cd}, &components.Health{Current: 10, Max: 10})
	}
	lone := generic.NewMap2[components.Weapon, components.Position](w)
	lone.NewWith(&components.Weapon{Cooldown: 1}, &components.Position{})

	c, d := &systems.Combat{}, &systems.Diagnostics{}
	s := ecs.NewScheduler(c, d)
	s.Initialize(w)
	s.Update(w)
	r := systems.Diagnose(w)
	assert.Equal(t, 2, r.CooldownsUntimed)
	assert.Equal(t, 1, r.Total(), r.String())
	assert.Contains(t, r.String(), "2 weapons with a Cooldown and no clock")
	assert.Contains(t, r.String(), "add a Clock")
	assert.Equal(t, 2, d.Report.CooldownsUntimed, "the Diagnostics system's check")
	assert.Zero(t, c.NoClock, "no strike yet: reported all the same")
	s.Finalize(w)

	arche.AddResource(w, &ecs.Clock{DT: 1.0 / 60})
	s = ecs.NewScheduler(c)
	s.Initialize(w)
	r = systems.Diagnose(w)
	assert.Zero(t, r.CooldownsUntimed, "with a Clock")
	assert.Zero(t, r.Total(), r.String())
	s.Finalize(w)

	w.Resources().Remove(arche.ResourceID[ecs.Clock](w))
	require.Zero(t, systems.Diagnose(w).CooldownsUntimed, "no live Combat system")
}
