package save_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// fixture is a small world of thinking, moving agents with blackboards, some in odd
// states (NaN, infinities, removed entities, a stale reference).
type fixture struct {
	w    *arche.World
	reg  save.Registry
	num  blackboard.Key[float64]
	tree *bt.Tree
}

func newFixture(t testing.TB) *fixture {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(16, 16))
	arche.AddResource(w, &ecs.Clock{Time: 1.5, DT: 1.0 / 60, Frame: 90, Started: true})
	reg := bt.NewRegistry(blackboard.NewSchema())
	num := blackboard.MustDeclare[float64](reg.Schema(), "num")
	name := blackboard.MustDeclare[string](reg.Schema(), "name")
	idle := func(*bt.Context) bt.Status { return bt.Running }
	tree, err := bt.Compile("patrol", bt.Sequence(bt.Action("a", idle), bt.Wait(2)))
	require.NoError(t, err)
	sp, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: tree, Registry: reg},
		systems.Combatant{Team: 1})
	require.NoError(t, err)
	var es []arche.Entity
	for i := range 12 {
		es = append(es, sp.Spawn(r2.Vec{X: float64(i) + 0.5, Y: 2.5}, nil))
	}
	w.RemoveEntity(es[3]) // a hole in the pool and a moved agent
	w.RemoveEntity(es[7])
	m := generic.NewMap5[components.Brain, components.Path, components.Blackboard, components.Health, components.Intent](w)
	b, p, bb, hp, in := m.Get(es[1])
	b.Memory.Nodes()[2].Timer = math.NaN()
	b.Memory.Nodes()[0].Status = bt.Running
	p.Waypoints = append(p.Waypoints, grid.Cell{X: 1, Y: 2}, grid.Cell{X: 2, Y: 2})
	p.State, p.Next = components.PathReady, 1
	systems.ArenaOf(w).Hold(w, es[1])
	blackboard.Set(bb.Store, num, math.Inf(-1))
	blackboard.Set(bb.Store, name, "first")
	hp.Current = math.NaN()
	in.Attack = es[3] // a stale reference to a removed agent
	_, _, _, hp, _ = m.Get(es[2])
	hp.Max = math.Inf(1)
	return &fixture{w: w, reg: save.Registry{Trees: []*bt.Tree{tree}, Schema: reg.Schema()}, num: num, tree: tree}
}

func TestSaveLoadSaveIsTheSameFileAndTheSameState(t *testing.T) {
	f := newFixture(t)
	data, err := save.Save(f.w, map[string]int{"seed": 7})
	require.NoError(t, err)
	l, err := save.Load(data, f.reg)
	require.NoError(t, err)
	assert.JSONEq(t, `{"seed":7}`, string(l.Meta))
	arche.AddResource(l.World, grid.New(16, 16)) // the program adds its grid again (the file records its fingerprint)
	require.NoError(t, l.Restore())
	again, err := save.Save(l.World, map[string]int{"seed": 7})
	require.NoError(t, err)
	assert.Equal(t, string(data), string(again), "a loaded world saves to the same bytes")
	assert.Equal(t, systems.StateHash(f.w), systems.StateHash(l.World))

	// values that plain JSON refuses came back, pointers resolved, IDs interned
	q := generic.NewFilter4[components.Brain, components.Health, components.Blackboard, components.Intent]().Query(l.World)
	nans, infs := 0, 0
	for q.Next() {
		b, hp, bb, in := q.Get()
		assert.Same(t, f.tree, b.Tree)
		assert.Equal(t, "patrol", b.ID)
		if math.IsNaN(hp.Current) {
			nans++
			assert.True(t, math.IsNaN(b.Memory.Nodes()[2].Timer))
			v, _ := blackboard.Get(bb.Store, f.num)
			assert.True(t, math.IsInf(v, -1))
			assert.False(t, l.World.Alive(in.Attack), "the stale reference stays stale")
			assert.Equal(t, uint32(4), in.Attack.ID())
		}
		if math.IsInf(hp.Max, 1) {
			infs++
		}
	}
	assert.Equal(t, 1, nans)
	assert.Equal(t, 1, infs)
	c := ecs.ClockOf(l.World)
	assert.Equal(t, ecs.Clock{Time: 1.5, DT: 1.0 / 60, Frame: 90, Started: true}, *c)
	// new entities reuse the removed IDs as they would have in the saved world
	assert.Equal(t, f.w.NewEntity(), l.World.NewEntity())
}

// The state hash sees what a save holds: a node timer, a waypoint, a blackboard value
// or write count, the clock; and not the order of storage.
func TestStateHashCoversWhatIsSaved(t *testing.T) {
	f := newFixture(t)
	h0 := systems.StateHash(f.w)
	m := generic.NewMap3[components.Brain, components.Path, components.Blackboard](f.w)
	e := arche.Entity{}
	q := generic.NewFilter1[components.Brain]().Query(f.w)
	for q.Next() {
		e = q.Entity() // the last
	}
	changes := map[string]func(undo bool){
		"node timer": func(undo bool) {
			b, _, _ := m.Get(e)
			b.Memory.Nodes()[1].Timer = map[bool]float64{false: 3, true: 0}[undo]
		},
		"waypoint": func(undo bool) {
			_, p, _ := m.Get(e)
			if undo {
				p.Waypoints = p.Waypoints[:0]
			} else {
				p.Waypoints = append(p.Waypoints, grid.Cell{X: 1})
			}
		},
		"clock": func(undo bool) { ecs.ClockOf(f.w).Frame = map[bool]int64{false: 91, true: 90}[undo] },
	}
	for name, change := range changes {
		change(false)
		assert.NotEqual(t, h0, systems.StateHash(f.w), name)
		change(true)
		assert.Equal(t, h0, systems.StateHash(f.w), name+" undone")
	}
	_, _, bb := m.Get(e)
	blackboard.Set(bb.Store, f.num, 1)
	h1 := systems.StateHash(f.w)
	assert.NotEqual(t, h0, h1, "blackboard value")
	blackboard.Unset(bb.Store, f.num)
	assert.NotEqual(t, h0, systems.StateHash(f.w), "unset, but written once: its write count differs")
}
