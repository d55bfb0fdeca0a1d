package systems_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// duel runs one striker, thinking every interval seconds and asking to strike
// at every think, against a dummy of 1000 health points for 10 s at 60 frames
// per second; it returns the health the dummy lost and the Combat system.
func duel(t *testing.T, interval, cooldown float64) (float64, *systems.Combat) {
	t.Helper()
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(16, 16))
	dummies, err := systems.NewSpawner(w, systems.Mover{}, systems.Combatant{Team: 2, MaxHealth: 1000})
	require.NoError(t, err)
	dummy := dummies.Spawn(r2.Vec{X: 8.5, Y: 8.5}, nil)
	strike := utility.Action{Name: "Strike", Act: func(x any) { systems.UtilityAgent(x).Intent.Attack = dummy }}
	r, err := utility.New("striker", utility.Policy{}, strike)
	require.NoError(t, err)
	sp, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Reasoner: r, Interval: interval},
		systems.Combatant{Team: 1, Cooldown: cooldown})
	require.NoError(t, err)
	sp.Spawn(r2.Vec{X: 9.5, Y: 8.5}, nil)
	c := &systems.Combat{}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.Perception{}, &systems.Utility{}, c)
	s.Initialize(w)
	s.Run(w, 600) // 10 s
	hm := generic.NewMap1[components.Health](w)
	return 1000 - hm.Get(dummy).Current, c
}

// newbie19's finding 4: without a Cooldown the damage per second is Damage
// times the think rate (10 Hz: 100 strikes of 10 in 10 s; 2 Hz: 20); with a
// Cooldown of 0.5 s or 1 s it is Damage/Cooldown at both think rates: 20 (or
// 10) strikes in 10 s, the first at the striker's first think.
func TestWeaponCooldownMakesDamagePerSecondIndependentOfThinkRate(t *testing.T) {
	lost, _ := duel(t, 0.1, 0)
	assert.Equal(t, 1000.0, lost, "no cooldown, 10 Hz: a strike per think")
	lost, _ = duel(t, 0.5, 0)
	assert.Equal(t, 200.0, lost, "no cooldown, 2 Hz: a fifth")
	for _, cooldown := range []float64{0.5, 1} {
		want := 10 * 10 / cooldown
		for _, interval := range []float64{0.1, 0.25, 0.5} {
			lost, c := duel(t, interval, cooldown)
			assert.InDelta(t, want, lost, 10, "cooldown %v s, think interval %v s: Damage/Cooldown per second", cooldown, interval)
			assert.Zero(t, c.NoClock)
		}
	}
	// an interval that does not divide the cooldown rounds each wait up to its
	// next think: 0.3 s against 0.5 s strikes every 0.6 s (17 strikes in 10 s)
	lost, _ = duel(t, 0.3, 0.5)
	assert.InDelta(t, 170.0, lost, 10)
}

// Combat's rule on one weapon, frame by frame: a request before ReadyAt is
// dropped (Cooling) and leaves ReadyAt; one in the frame of ReadyAt strikes;
// a NaN ReadyAt is ready; a negative or NaN Cooldown is none; without a Clock
// the cooldown is not timed and NoClock counts the strikes.
func TestCombatCooldownRule(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	clock := &ecs.Clock{DT: 0.1}
	arche.AddResource(w, clock)
	mk := func(pos r2.Vec, wp components.Weapon) arche.Entity {
		m := generic.NewMap5[components.Intent, components.Position, components.Weapon, components.Health, components.Velocity](w)
		return m.NewWith(&components.Intent{}, &components.Position{Vec: pos}, &wp,
			&components.Health{Current: 100, Max: 100}, &components.Velocity{})
	}
	target := mk(r2.Vec{X: 5, Y: 5}, components.Weapon{})
	a := mk(r2.Vec{X: 6, Y: 5}, components.Weapon{Damage: 1, Range: 2, Cooldown: 0.5})
	c := &systems.Combat{}
	c.Initialize(w)
	in := generic.NewMap2[components.Intent, components.Weapon](w)
	hp := generic.NewMap1[components.Health](w)
	strike := func(time float64) (struck bool, readyAt float64) {
		clock.Time = time
		i, _ := in.Get(a)
		i.Attack = target
		before := hp.Get(target).Current
		c.Update(w)
		i, wp := in.Get(a)
		assert.True(t, i.Attack.IsZero(), "the request is cleared either way")
		return hp.Get(target).Current < before, wp.ReadyAt
	}
	struck, ready := strike(1)
	assert.True(t, struck)
	assert.Equal(t, 1.5, ready)
	struck, ready = strike(1.4)
	assert.False(t, struck, "before ReadyAt")
	assert.Equal(t, 1.5, ready, "a dropped request leaves ReadyAt")
	assert.Equal(t, 1, c.Cooling)
	struck, ready = strike(1.4999999999)
	assert.True(t, struck, "in the frame of ReadyAt (rounding)")
	assert.InDelta(t, 2.0, ready, 1e-9)

	_, wp := in.Get(a)
	wp.ReadyAt = math.NaN()
	struck, ready = strike(1.6)
	assert.True(t, struck, "a NaN ReadyAt is ready")
	assert.InDelta(t, 2.1, ready, 1e-9)
	for _, cd := range []float64{-1, math.NaN()} {
		_, wp = in.Get(a)
		wp.Cooldown, wp.ReadyAt = cd, 0
		for _, tm := range []float64{3, 3.1} {
			struck, ready = strike(tm)
			assert.True(t, struck, "Cooldown %v: none", cd)
			assert.Equal(t, 0.0, ready, "Cooldown %v: ReadyAt untouched", cd)
		}
	}

	w.Resources().Remove(arche.ResourceID[ecs.Clock](w))
	_, wp = in.Get(a)
	wp.Cooldown, wp.ReadyAt = 0.5, 0
	c2 := &systems.Combat{}
	c2.Initialize(w)
	c = c2
	for range 3 {
		struck, _ = strike(0)
		assert.True(t, struck, "no Clock: not timed")
	}
	assert.Equal(t, 3, c2.NoClock)
}
