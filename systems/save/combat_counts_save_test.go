package save_test

import (
	"errors"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// combatFrames runs n frames of c over w in which attacker a asks to strike t.
func combatFrames(w *arche.World, c *systems.Combat, a, t arche.Entity, n int) {
	in := generic.NewMap1[components.Intent](w)
	for range n {
		in.Get(a).Attack = t
		c.Update(w)
	}
}

// TestCombatCountsSurviveSaveAndLoad (newcomer): Combat.TotalStrikes and NoClock
// count since Initialize, and a program reads them for a whole run's figures (cmd/bench
// reports the strikes). A world saved mid-run and loaded into a fresh Combat used to
// give 0 for both, with nothing reported: the loaded run's totals then lacked every strike
// before the save. Now Combat is a stateful system (CombatState): Save refuses a world
// running one without its state, and the loaded Combat goes on from the saved counts, equal
// to the unbroken run's after more frames too.
func TestCombatCountsSurviveSaveAndLoad(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	m := generic.NewMap4[components.Intent, components.Position, components.Weapon, components.Health](w)
	// a Cooldown in a world without a Clock: untimed, every request strikes (NoClock)
	a := m.NewWith(&components.Intent{}, &components.Position{Vec: r2.Vec{X: 1, Y: 1}},
		&components.Weapon{Damage: 1, Range: 2, Cooldown: 0.5}, &components.Health{Current: 100, Max: 100})
	b := m.NewWith(&components.Intent{}, &components.Position{Vec: r2.Vec{X: 2, Y: 1}},
		&components.Weapon{Damage: 1, Range: 2}, &components.Health{Current: 1000, Max: 1000})
	c := &systems.Combat{}
	c.Initialize(w)
	combatFrames(w, c, a, b, 7)
	require.Equal(t, int64(7), c.TotalStrikes)
	require.Equal(t, 7, c.NoClock)
	assert.Contains(t, systems.StatefulSystems(w), "combat")

	_, err := save.Save(w, nil)
	require.Error(t, err, "a world running Combat saved without its state")
	assert.True(t, errors.Is(err, save.ErrStateLeftOut), err)
	assert.Contains(t, err.Error(), "combat")

	data, err := save.Save(w, nil, c)
	require.NoError(t, err)
	l, err := save.Load(data, save.Registry{})
	require.NoError(t, err)
	c2 := &systems.Combat{}
	c2.Initialize(l.World)
	require.NoError(t, l.Restore(c2))
	assert.Equal(t, c.TotalStrikes, c2.TotalStrikes, "TotalStrikes after the load")
	assert.Equal(t, c.NoClock, c2.NoClock, "NoClock after the load")

	combatFrames(w, c, a, b, 3)
	combatFrames(l.World, c2, a, b, 3)
	assert.Equal(t, int64(10), c.TotalStrikes)
	assert.Equal(t, c.TotalStrikes, c2.TotalStrikes, "the loaded run counts on as the unbroken one")
	assert.Equal(t, c.NoClock, c2.NoClock)
	assert.Equal(t, systems.StateHash(w), systems.StateHash(l.World))
}

// TestCombatStateRefusesBadCounts: a negative count in a file is out of its domain,
// and a Combat not yet initialized on the loaded world is told so.
func TestCombatStateRefusesBadCounts(t *testing.T) {
	c := &systems.Combat{}
	err := c.LoadState([]byte(`{"total_strikes":3}`))
	assert.ErrorIs(t, err, systems.ErrNotInitialized)
	world := arche.NewWorld()
	arche.AddResource(&world, &ecs.Clock{DT: 0.1})
	c.Initialize(&world)
	c.TotalStrikes = 5
	err = c.LoadState([]byte(`{"total_strikes":-1}`))
	assert.ErrorIs(t, err, systems.ErrOutOfDomain)
	assert.Equal(t, int64(5), c.TotalStrikes, "left as it was")
	require.NoError(t, c.LoadState([]byte(`{}`)), "a state of no strikes")
	assert.Zero(t, c.TotalStrikes)
}
