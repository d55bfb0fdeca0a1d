package systems_test

import (
	"strings"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// unstoredWorld spawns two sentries of teams 1 and 2 in sight of each other, with tree
// and a Thinker of schema s (nil: none), and runs frames of the newcomer's schedule with
// a Decision of workers. It returns the world, the first sentry and the Diagnostics'
// lines.
func unstoredWorld(t *testing.T, tree *bt.Tree, s *blackboard.Schema, workers, frames int) (*arche.World, arche.Entity, string) {
	t.Helper()
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(32, 32))
	a, err := systems.NewSpawner(w, systems.Mover{}, systems.Combatant{Team: 1}, systems.Thinker{Tree: tree, Schema: s})
	require.NoError(t, err)
	b, err := systems.NewSpawner(w, systems.Mover{}, systems.Combatant{Team: 2}, systems.Thinker{Tree: tree, Schema: s})
	require.NoError(t, err)
	first := a.Spawn(r2.Vec{X: 10.5, Y: 10.5}, nil)
	b.Spawn(r2.Vec{X: 13.5, Y: 10.5}, nil) // 3 cells away, in sight
	var out strings.Builder
	sc := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.Perception{}, &systems.Decision{Workers: workers},
		&systems.PathQueue{}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{}, &systems.Diagnostics{Out: &out})
	require.NoError(t, sc.InitializeChecked(w))
	t.Cleanup(func() { sc.Finalize(w) })
	sc.Run(w, frames)
	return w, first, out.String()
}

// A newcomer's sentries run a tree compiled in Go whose condition reads the perception
// key target_visible of schema s, but the Thinker is given no Schema: the agents get no
// store, the key reads as missing, the sentries never see each other, and Diagnose said
// "no misconfiguration". It now counts both under blackboard_missing, naming the key
// and the fix; given the Schema, the same tree sees its foe and nothing is reported.
func TestDiagnoseAGoTreeReadingKeysWithNoStore(t *testing.T) {
	s := blackboard.NewSchema()
	require.NoError(t, systems.DeclarePerceptionKeys(s))
	visible := blackboard.MustDeclare[bool](s, systems.KeyTargetVisible)
	seen := 0
	sees := bt.Condition("SeesFoe", func(c *bt.Context) bool {
		v, _ := blackboard.Get(c.Blackboard, visible)
		if v {
			seen++
		}
		return v
	})
	idle := bt.Action("Idle", func(*bt.Context) bt.Status { return bt.Running })
	tree, err := bt.Compile("sentry", bt.ReactiveSelector(bt.ReactiveSequence(sees, idle), idle))
	require.NoError(t, err)

	for _, workers := range []int{1, 2} {
		seen = 0
		w, first, out := unstoredWorld(t, tree, nil, workers, 120)
		require.Zero(t, seen, "no store: the key reads as missing")
		r := systems.Diagnose(w)
		assert.Equal(t, 2, r.Counts[systems.CauseBlackboardMissing], "workers %d: %s", workers, r)
		assert.Equal(t, 2, r.Total(), "%s", r)
		assert.Equal(t, first, r.Examples[systems.CauseBlackboardMissing])
		assert.Contains(t, r.String(), `blackboard_missing 2 (e.g. entity `)
		assert.Contains(t, r.String(), `its tree read key "target_visible" but the agent has no blackboard store`)
		assert.Contains(t, r.String(), "systems.Thinker{Tree: t, Schema: s}")
		assert.Contains(t, out, "blackboard_missing 2", "the Diagnostics system's line")
	}

	// The Schema given: the sentries see each other, nothing reported.
	seen = 0
	w, _, out := unstoredWorld(t, tree, s, 1, 120)
	assert.NotZero(t, seen, "with a store, Perception's fact reaches the tree")
	r := systems.Diagnose(w)
	assert.Zero(t, r.Total(), "%s", r)
	assert.NotContains(t, out, "blackboard_missing")
}

// A tree built in Go that reads no key (the bench's guards read
// systems.AgentOf(ctx).Perception directly) needs no store: not reported.
func TestDiagnoseAGoTreeReadingNoKeyNeedsNoStore(t *testing.T) {
	seen := 0
	sees := bt.Condition("SeesFoe", func(c *bt.Context) bool {
		p := systems.AgentOf(c).Perception
		if p != nil && p.Visible {
			seen++
			return true
		}
		return false
	})
	idle := bt.Action("Idle", func(*bt.Context) bt.Status { return bt.Running })
	tree, err := bt.Compile("guard", bt.ReactiveSelector(bt.ReactiveSequence(sees, idle), idle))
	require.NoError(t, err)
	w, _, out := unstoredWorld(t, tree, nil, 1, 120)
	assert.NotZero(t, seen, "the guard reads its Perception")
	r := systems.Diagnose(w)
	assert.Zero(t, r.Total(), "%s", r)
	assert.NotContains(t, out, "blackboard_missing")
}

// A write on the stand-in store an agent without one is handed fails and is not kept,
// as on a nil store; the tick allocates nothing once warm.
func TestNoStoreTickKeepsNothingAndAllocatesNothing(t *testing.T) {
	s := blackboard.NewSchema()
	hp := blackboard.MustDeclare[int](s, "hp")
	var wrote, read []bool
	var schemas []*blackboard.Schema
	leaf := bt.Action("Write", func(c *bt.Context) bt.Status {
		wrote = append(wrote, blackboard.Set(c.Blackboard, hp, 7))
		_, ok := blackboard.Get(c.Blackboard, hp)
		read = append(read, ok)
		schemas = append(schemas, c.Blackboard.Schema())
		return bt.Running
	})
	tree, err := bt.Compile("writer", leaf)
	require.NoError(t, err)
	w, _, _ := unstoredWorld(t, tree, nil, 1, 30)
	require.NotEmpty(t, wrote)
	for i := range wrote {
		assert.False(t, wrote[i], "Set fails, as on a nil store")
		assert.False(t, read[i], "nothing kept")
		assert.Nil(t, schemas[i])
	}
	r := systems.Diagnose(w)
	assert.Contains(t, r.String(), `its tree read key "hp"`)

	// A warm frame of agents reading keys with no store allocates nothing.
	quiet := bt.Condition("Reads", func(c *bt.Context) bool { _, ok := blackboard.Get(c.Blackboard, hp); return ok })
	tree2, err := bt.Compile("reader", bt.Selector(quiet, bt.Action("Idle", func(*bt.Context) bt.Status { return bt.Running })))
	require.NoError(t, err)
	world := arche.NewWorld()
	w2 := &world
	arche.AddResource(w2, grid.New(32, 32))
	sp, err := systems.NewSpawner(w2, systems.Mover{}, systems.Thinker{Tree: tree2})
	require.NoError(t, err)
	for i := range 20 {
		sp.Spawn(r2.Vec{X: 2.5 + float64(i), Y: 2.5}, nil)
	}
	clock := ecs.NewClockSystem(1.0 / 60)
	dec := &systems.Decision{}
	sc := ecs.NewScheduler(clock, dec)
	require.NoError(t, sc.InitializeChecked(w2))
	defer sc.Finalize(w2)
	sc.Run(w2, 30)
	allocs := testing.AllocsPerRun(60, func() { sc.Run(w2, 1) })
	assert.Zero(t, allocs)
	assert.Equal(t, 20, systems.Diagnose(w2).Counts[systems.CauseBlackboardMissing])
}
