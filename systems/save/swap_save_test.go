package save_test

import (
	"strings"
	"testing"

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

// thinkingAgent is a 16² world with one agent thinking every frame with tree, run for
// 3 frames by a clock and the Decision system.
func thinkingAgent(t *testing.T, tree *bt.Tree) (*arche.World, arche.Entity, *systems.Decision, *ecs.Scheduler) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(16, 16))
	sp, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: tree, Interval: 1.0 / 60})
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{X: 3.5, Y: 3.5}, nil)
	d := &systems.Decision{}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), d)
	s.Initialize(w)
	s.Run(w, 3)
	return w, e, d, s
}

// A save between a Brain's tree swap made by the program and the agent's next think
// (its memory is still the old tree's, which the Decision system halts at that think)
// is taken: the memory is saved as the old tree's (Brain.MemoryOf), the load gives it
// back to that tree, and the loaded agent's next think halts it and starts the new one,
// as the unbroken run does. It once wrote the old memory under the new tree's ID (a
// reviewer), then was refused until the next think. A swap made by a leaf is done at once (the old tree halted right after the
// tick), so a save after that frame is taken.
func TestASaveWaitsForATreeSwapToBeDone(t *testing.T) {
	for _, byLeaf := range []bool{false, true} {
		var log []string
		var attack *bt.Tree
		swap := false
		patrol, err := bt.Compile("patrol", bt.Sequence(bt.AlwaysSuccess(),
			bt.Action("Patrol", func(ctx *bt.Context) bt.Status {
				log = append(log, "Patrol")
				if swap {
					b := systems.Get[components.Brain](systems.AgentOf(ctx))
					b.Tree, b.ID = attack, attack.Name()
				}
				return bt.Running
			}).OnHalt(func(*bt.Context) { log = append(log, "halt Patrol") })))
		require.NoError(t, err)
		attack, err = bt.Compile("attack", bt.Sequence(
			bt.Condition("HasAmmo", func(*bt.Context) bool { log = append(log, "HasAmmo?"); return false }),
			bt.AlwaysSuccess(),
			bt.Action("Shoot", func(*bt.Context) bt.Status { log = append(log, "Shoot"); return bt.Running })))
		require.NoError(t, err)
		w, e, d, s := thinkingAgent(t, patrol)
		if byLeaf {
			swap = true
			s.Run(w, 1)
			swap = false
			assert.Equal(t, uint64(1), d.Swapped)
		} else {
			bm := generic.NewMap[components.Brain](w)
			b := bm.Get(e)
			b.Tree, b.ID = attack, attack.Name() // the documented swap, saved before the think that does it
		}
		data, err := save.Save(w, nil, d)
		require.NoError(t, err, "by a leaf %v", byLeaf)

		log = log[:0]
		s.Run(w, 3)
		unbroken := strings.Join(log, ",")
		l, err := save.Load(data, save.Registry{Trees: []*bt.Tree{patrol, attack}})
		require.NoError(t, err)
		arche.AddResource(l.World, grid.New(16, 16))
		d2 := &systems.Decision{}
		s2 := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), d2)
		s2.Initialize(l.World)
		require.NoError(t, l.Restore(d2))
		log = log[:0]
		s2.Run(l.World, 3)
		assert.Equal(t, unbroken, strings.Join(log, ","), "by a leaf %v", byLeaf)
		if byLeaf {
			assert.Equal(t, "HasAmmo?,HasAmmo?,HasAmmo?", unbroken)
		} else { // the loaded agent's first think halts patrol, as the unbroken one's
			assert.Equal(t, "halt Patrol,HasAmmo?,HasAmmo?,HasAmmo?", unbroken)
			assert.Equal(t, uint64(1), d.Swapped)
			assert.Equal(t, uint64(1), d2.Swapped)
		}
		assert.Equal(t, systems.StateHash(w), systems.StateHash(l.World))
	}
}

// Taking an agent's tree away (Brain.Tree nil): from a leaf, the old tree is halted
// (its running action's halt hook runs) and the memory cleared at once, and the world
// saves and loads; by the program between frames, Save refuses the agent, whose memory
// still holds the old tree's nodes. Before, the halt hook never ran and Save wrote a
// file Load refused ("node memory of 3 nodes but no tree ID"; a reviewer).
func TestTakingATreeAwayHaltsItOrIsRefusedAtSave(t *testing.T) {
	for _, byLeaf := range []bool{true, false} {
		var log []string
		off := false
		patrol, err := bt.Compile("patrol", bt.Sequence(bt.AlwaysSuccess(),
			bt.Action("Patrol", func(ctx *bt.Context) bt.Status {
				if off {
					b := systems.Get[components.Brain](systems.AgentOf(ctx))
					b.Tree, b.ID = nil, ""
				}
				return bt.Running
			}).OnHalt(func(*bt.Context) { log = append(log, "halt Patrol") })))
		require.NoError(t, err)
		w, e, d, s := thinkingAgent(t, patrol)
		if byLeaf {
			off = true
			s.Run(w, 2)
			assert.Equal(t, []string{"halt Patrol"}, log)
			assert.Equal(t, uint64(1), d.Swapped)
			data, err := save.Save(w, nil, d)
			require.NoError(t, err)
			_, err = save.Load(data, save.Registry{Trees: []*bt.Tree{patrol}})
			require.NoError(t, err)
			continue
		}
		bm := generic.NewMap[components.Brain](w)
		b := bm.Get(e)
		b.Tree, b.ID = nil, ""
		_, err = save.Save(w, nil, d)
		require.ErrorIs(t, err, save.ErrMemory)
		assert.Contains(t, err.Error(), `its Tree is nil but its Memory holds tree "patrol"'s 3 nodes`)
	}
}

// A world saved with a tree swap pending (Brain.MemoryOf) loads only with the old tree
// in the registry too: without it, Load names the field and the tree.
func TestASaveWithASwapPendingNeedsTheOldTree(t *testing.T) {
	patrol, err := bt.Compile("patrol", bt.Action("Patrol", func(*bt.Context) bt.Status { return bt.Running }))
	require.NoError(t, err)
	attack, err := bt.Compile("attack", bt.Action("Shoot", func(*bt.Context) bt.Status { return bt.Running }))
	require.NoError(t, err)
	w, e, d, _ := thinkingAgent(t, patrol)
	bm := generic.NewMap[components.Brain](w)
	b := bm.Get(e)
	b.Tree, b.ID = attack, attack.Name()
	data, err := save.Save(w, nil, d)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"MemoryOf":"patrol"`)
	assert.Equal(t, "", b.MemoryOf, "the running world's Brain is left as it was")
	_, err = save.Load(data, save.Registry{Trees: []*bt.Tree{attack}})
	require.ErrorIs(t, err, save.ErrUnknownID)
	assert.Contains(t, err.Error(), `.MemoryOf: tree "patrol"`)
	l, err := save.Load(data, save.Registry{Trees: []*bt.Tree{patrol, attack}})
	require.NoError(t, err)
	q := generic.NewFilter1[components.Brain]().Query(l.World)
	require.True(t, q.Next())
	got := q.Get()
	assert.Equal(t, "", got.MemoryOf, "cleared at load")
	assert.Same(t, patrol, got.Memory.Tree())
	assert.Same(t, attack, got.Tree)
	q.Close()
}
