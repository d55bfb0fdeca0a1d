package systems_test

import (
	"github.com/archai-go/archai/ai/bt"
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

// TestPathQueueTicketsByEntityID: requests made in the same frame are
// numbered (Path.Queued, which orders service at equal priority) by the
// requesters' entity IDs, not by the order Arche stores them in.
func TestPathQueueTicketsByEntityID(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(30, 30))
	agents := generic.NewMap2[components.Path, components.Position](w)
	reversedIDs(w, 3)
	var es []arche.Entity
	for k := range 3 {
		es = append(es, agents.NewWith(&components.Path{Want: true, Goal: grid.Cell{X: int32(20 + k), Y: 20}},
			&components.Position{Vec: r2.Vec{X: 2.5, Y: 2.5 + float64(k)}}))
	}
	require.Less(t, es[2].ID(), es[1].ID())
	require.Less(t, es[1].ID(), es[0].ID())
	q := &systems.PathQueue{Workers: 2, Budget: 1}
	q.Initialize(w)
	q.Update(w)
	q.Finalize(w)
	queued := func(e arche.Entity) uint64 { p, _ := agents.Get(e); return p.Queued }
	assert.Less(t, queued(es[2]), queued(es[1]), "the lowest entity ID was stored last and queued first")
	assert.Less(t, queued(es[1]), queued(es[0]))
}

// TestThinkBudgetTakesTheLongestDueFirst: with a budget of 2 and 3 agents due,
// the two with the earliest Think.Next think (of equal Next, the lower entity
// ID), whatever the storage order, and the third thinks next frame.
func TestThinkBudgetTakesTheLongestDueFirst(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	tree, err := bt.Compile("idle", bt.Action("Idle", func(*bt.Context) bt.Status { return bt.Running }))
	require.NoError(t, err)
	agents := generic.NewMap4[components.Brain, components.Think, components.Position, components.Intent](w)
	reversedIDs(w, 3)
	nexts := []float64{0.005, 0.002, 0.005} // stored in this order, IDs decreasing
	var es []arche.Entity
	for _, next := range nexts {
		es = append(es, agents.NewWith(&components.Brain{Tree: tree, Memory: tree.NewMemory()},
			&components.Think{Interval: 1, Next: next}, &components.Position{}, &components.Intent{}))
	}
	d := &systems.Decision{Workers: 2, Budget: 2}
	s := ecs.NewScheduler(ecs.NewClockSystem(0.01), d)
	s.Initialize(w)
	t.Cleanup(func() { s.Finalize(w) })
	s.Update(w)
	think := func(e arche.Entity) *components.Think { _, th, _, _ := agents.Get(e); return th }
	require.Equal(t, 2, d.Thought)
	require.Equal(t, 1, d.Waiting)
	assert.Equal(t, 1.002, think(es[1]).Next, "the earliest Next thought")
	assert.Equal(t, 1.005, think(es[2]).Next, "of equal Next, the lower entity ID thought")
	assert.Equal(t, 0.005, think(es[0]).Next, "the third waits")
	s.Update(w)
	assert.Equal(t, 0.01, think(es[0]).Last, "and thinks next frame")
	assert.Equal(t, 1.005, think(es[0]).Next)
}
