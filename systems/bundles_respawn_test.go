package systems_test

import (
	"runtime"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

func TestRespawnStartsAgainInPlaceAndAllocatesNothing(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(8, 8))
	reg := bt.NewRegistry(blackboard.NewSchema())
	n := blackboard.MustDeclare[int](reg.Schema(), "n")
	tree := mustTree(t)
	sp, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: tree, Registry: reg},
		systems.Combatant{Team: 1, MaxHealth: 10})
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{X: 1, Y: 1}, nil)
	other := sp.Spawn(r2.Vec{X: 5, Y: 5}, nil)

	m := generic.NewMap6[components.Brain, components.Path, components.Blackboard, components.Health,
		components.Velocity, components.Position](w)
	b, p, bb, hp, vel, _ := m.Get(e)
	b.Memory.Nodes()[0].Status = bt.Running
	p.Waypoints = append(p.Waypoints, grid.Cell{X: 1, Y: 1})
	p.State = components.PathReady
	blackboard.Set(bb.Store, n, 7)
	hp.Current = 0
	vel.Vec = r2.Vec{X: 3}
	mem, wp, store := &b.Memory.Nodes()[0], &p.Waypoints[0], bb.Store

	sp.Seed = 99
	var seed uint64
	require.NoError(t, sp.Respawn(e, r2.Vec{X: 2.5, Y: 3.5}, func(a *systems.Spawned) { seed = a.Seed }))
	assert.True(t, w.Alive(e), "the same entity")
	b, p, bb, hp, vel, pos := m.Get(e)
	assert.Equal(t, uint64(99), seed, "seeded from Seed, as a spawn")
	assert.Equal(t, r2.Vec{X: 2.5, Y: 3.5}, pos.Vec)
	assert.Equal(t, r2.Vec{}, vel.Vec, "zeroed")
	assert.Equal(t, components.Health{Current: 10, Max: 10}, *hp, "the bundle's value again")
	assert.Equal(t, components.PathNone, p.State)
	assert.Empty(t, p.Waypoints)
	assert.Same(t, wp, &p.Waypoints[:1][0], "its own waypoint buffer")
	assert.Same(t, mem, &b.Memory.Nodes()[0], "its own tree memory")
	assert.Equal(t, bt.Idle, b.Memory.Status(0), "cleared")
	assert.Same(t, store, bb.Store, "its own blackboard")
	_, set := blackboard.Get(bb.Store, n)
	assert.False(t, set, "reset")
	_, _, _, _, _, otherPos := m.Get(other)
	assert.Equal(t, r2.Vec{X: 5, Y: 5}, otherPos.Vec, "other agents untouched")

	allocs := testing.AllocsPerRun(50, func() {
		if err := sp.Respawn(e, r2.Vec{X: 3, Y: 3}, nil); err != nil {
			panic(err)
		}
	})
	assert.Zero(t, allocs)

	// errors, changing nothing
	plain := w.NewEntity()
	assert.ErrorContains(t, sp.Respawn(plain, r2.Vec{}, nil), "this spawner did not make it")
	w.RemoveEntity(other)
	assert.ErrorContains(t, sp.Respawn(other, r2.Vec{}, nil), "is dead")
}

// Agents replaced by Respawn while the collector runs keep their buffers intact. (The
// same churn through RemoveEntity and Spawn corrupts them now and then under Arche
// v0.15.3: see Spawner.Respawn.)
func TestRespawnChurnUnderGarbageCollectionKeepsBuffersIntact(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(64, 64))
	sp, err := systems.NewSpawner(w, systems.Mover{})
	require.NoError(t, err)
	paths := generic.NewMap[components.Path](w)
	const agents = 4000
	ids := make([]arche.Entity, agents)
	fill := func(e arche.Entity, tag int32) {
		p := paths.Get(e)
		p.Waypoints = p.Waypoints[:0]
		for range 40 { // grows past the default capacity: new arrays as well as reused ones
			p.Waypoints = append(p.Waypoints, grid.Cell{X: tag, Y: tag})
		}
	}
	for i := range ids {
		ids[i] = sp.Spawn(r2.Vec{X: 1, Y: 1}, nil)
		fill(ids[i], int32(i))
	}
	tags := make([]int32, agents)
	for i := range tags {
		tags[i] = int32(i)
	}
	done := make(chan struct{})
	go func() { // keep the collector busy
		for {
			select {
			case <-done:
				return
			default:
				runtime.GC()
			}
		}
	}()
	defer close(done)
	var garbage [][]byte
	r := uint64(7)
	next := int32(agents)
	for round := range 60 {
		for range 100 {
			r = r*6364136223846793005 + 1442695040888963407
			i := int(r>>33) % agents
			require.NoError(t, sp.Respawn(ids[i], r2.Vec{X: 2, Y: 2}, nil))
			fill(ids[i], next)
			tags[i] = next
			next++
			garbage = append(garbage, make([]byte, 1024))
			if len(garbage) > 500 {
				garbage = garbage[:0]
			}
		}
		for i, e := range ids {
			for _, c := range paths.Get(e).Waypoints {
				if c.X != tags[i] {
					t.Fatalf("round %d: agent %d's waypoints hold %d, want %d", round, i, c.X, tags[i])
				}
			}
		}
	}
}

// A utility Thinker with a blackboard schema is respawned in place as a tree Thinker
// is: its state comes back fresh in its own buffers, its store reset, and Respawn
// allocates nothing (it made a new State and a new Store each time).
func TestRespawnUtilityThinkerReusesStateAndStore(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(8, 8))
	sc := blackboard.NewSchema()
	n := blackboard.MustDeclare[int](sc, "n")
	r, err := utility.New("r", utility.Policy{}, utility.Action{Name: "a"}, utility.Action{Name: "b"})
	require.NoError(t, err)
	sp, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Reasoner: r, Schema: sc})
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{X: 1, Y: 1}, nil)
	m := generic.NewMap2[components.UtilityBrain, components.Blackboard](w)
	u, bb := m.Get(e)
	u.State.Choice, u.State.Previous, u.State.Decisions, u.State.Scores[1] = 1, 0, 5, 0.5
	blackboard.Set(bb.Store, n, 7)
	scores, store := &u.State.Scores[0], bb.Store

	require.NoError(t, sp.Respawn(e, r2.Vec{X: 2, Y: 2}, nil))
	u, bb = m.Get(e)
	assert.Equal(t, r.NewState(), u.State, "fresh")
	assert.Same(t, scores, &u.State.Scores[0], "its own state buffers")
	assert.Same(t, store, bb.Store, "its own blackboard")
	_, set := blackboard.Get(bb.Store, n)
	assert.False(t, set, "reset")

	allocs := testing.AllocsPerRun(50, func() {
		if err := sp.Respawn(e, r2.Vec{X: 3, Y: 3}, nil); err != nil {
			panic(err)
		}
	})
	assert.Zero(t, allocs)
}
