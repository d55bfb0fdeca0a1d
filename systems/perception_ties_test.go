package systems_test

import (
	"testing"

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

// reversedIDs returns n entity IDs' worth of recycled slots so that the next
// n entities created get decreasing IDs: created in storage order, the
// later-stored one has the lower ID.
func reversedIDs(w *arche.World, n int) {
	blank := make([]arche.Entity, n)
	for i := range blank {
		blank[i] = w.NewEntity()
	}
	for _, e := range blank { // the last removed is handed out first
		w.RemoveEntity(e)
	}
}

// TestPerceptionTieGoesToTheLowestEntityID puts two foes at the same
// distance, stored in the order opposite to their entity IDs: perception
// picks the lower ID whichever is stored first (after a load, storage order
// differs from the original run's), for 1 and 2 workers.
func TestPerceptionTieGoesToTheLowestEntityID(t *testing.T) {
	for _, workers := range []int{1, 2} {
		world := arche.NewWorld()
		w := &world
		arche.AddResource(w, grid.New(20, 20))
		agents := generic.NewMap5[components.Position, components.Velocity, components.Faction, components.Perception, components.Think](w)
		self := agents.NewWith(&components.Position{Vec: r2.Vec{X: 10.5, Y: 10.5}}, &components.Velocity{},
			&components.Faction{Team: 0}, &components.Perception{SightRange: 8}, &components.Think{Interval: 0.1})
		reversedIDs(w, 2)
		first := agents.NewWith(&components.Position{Vec: r2.Vec{X: 12.5, Y: 10.5}}, &components.Velocity{},
			&components.Faction{Team: 1}, &components.Perception{}, &components.Think{Frozen: true})
		second := agents.NewWith(&components.Position{Vec: r2.Vec{X: 8.5, Y: 10.5}}, &components.Velocity{},
			&components.Faction{Team: 1}, &components.Perception{}, &components.Think{Frozen: true})
		require.Less(t, second.ID(), first.ID(), "stored second, lower ID")

		per := &systems.Perception{Workers: workers}
		s := ecs.NewScheduler(ecs.NewClockSystem(0.1), &systems.Spatial{Workers: workers}, per)
		s.Initialize(w)
		s.Update(w)
		s.Finalize(w)
		pm := generic.NewMap[components.Perception](w)
		p := pm.Get(self)
		require.True(t, p.Visible)
		assert.Equal(t, second, p.Target, "workers %d: of foes 2 cells away, the lower entity ID", workers)
		assert.Equal(t, 2.0, p.Distance)
		assert.Equal(t, 1, per.Checked, "the frozen foes do not perceive")
	}
}

// TestCombatStrikesInEntityOrder has two attackers strike one target with 15
// health points: the one with the lower entity ID (stored second) strikes
// first, for 10, and the other's 25 then finishes it; the other way round the
// first strike would finish it and the second miss. Storage order does not
// decide.
func TestCombatStrikesInEntityOrder(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	targets := generic.NewMap2[components.Health, components.Position](w)
	target := targets.NewWith(&components.Health{Current: 15, Max: 15}, &components.Position{})
	attackers := generic.NewMap3[components.Intent, components.Position, components.Weapon](w)
	reversedIDs(w, 2)
	heavy := attackers.NewWith(&components.Intent{Attack: target}, &components.Position{Vec: r2.Vec{X: 1}},
		&components.Weapon{Damage: 25, Range: 1.5})
	light := attackers.NewWith(&components.Intent{Attack: target}, &components.Position{Vec: r2.Vec{X: 1}},
		&components.Weapon{Damage: 10, Range: 1.5})
	require.Less(t, light.ID(), heavy.ID())
	c := &systems.Combat{Workers: 2}
	c.Initialize(w)
	c.Update(w)
	c.Finalize(w)
	assert.Equal(t, 2, c.Strikes, "10 then 25: both strike")
	hp, _ := targets.Get(target)
	assert.Equal(t, -20.0, hp.Current)
	for _, e := range []arche.Entity{heavy, light} {
		in, _, _ := attackers.Get(e)
		assert.True(t, in.Attack.IsZero(), "requests are cleared")
	}
}
