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

// A newcomer's sentries declare "target_visible" as an int (0/1) in their own schema:
// Perception never writes it (only Perception.KeyError says so) and the guards never
// see the foe three cells away. Diagnose, and the Diagnostics system's line, count
// both sentries under perception_key_wrong_type and name the key and both types.
func TestDiagnosePerceptionKeyOfAnotherType(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(32, 32))
	s := blackboard.NewSchema()
	visible := blackboard.MustDeclare[int](s, systems.KeyTargetVisible) // Perception writes a bool
	seen := 0
	sees := bt.Condition("SeesFoe", func(c *bt.Context) bool {
		v, _ := blackboard.Get(c.Blackboard, visible)
		if v != 0 {
			seen++
		}
		return v != 0
	})
	idle := bt.Action("Idle", func(*bt.Context) bt.Status { return bt.Running })
	tree, err := bt.Compile("sentry", bt.ReactiveSelector(bt.ReactiveSequence(sees, idle), idle))
	require.NoError(t, err)
	a, err := systems.NewSpawner(w, systems.Mover{}, systems.Combatant{Team: 1}, systems.Thinker{Tree: tree, Schema: s})
	require.NoError(t, err)
	b, err := systems.NewSpawner(w, systems.Mover{}, systems.Combatant{Team: 2}, systems.Thinker{Tree: tree, Schema: s})
	require.NoError(t, err)
	first := a.Spawn(r2.Vec{X: 10.5, Y: 10.5}, nil)
	b.Spawn(r2.Vec{X: 13.5, Y: 10.5}, nil) // in sight
	per := &systems.Perception{}
	var out strings.Builder
	sc := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, per, &systems.Decision{},
		&systems.PathQueue{}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{}, &systems.Diagnostics{Out: &out})
	require.NoError(t, sc.InitializeChecked(w))
	defer sc.Finalize(w)
	sc.Run(w, 60)
	require.Zero(t, seen, "the int key is never written")
	require.ErrorIs(t, per.KeyError, blackboard.ErrTypeMismatch)

	r := systems.Diagnose(w)
	assert.Equal(t, 2, r.Counts[systems.CausePerceptionKeyWrongType], "%s", r)
	assert.Equal(t, first, r.Examples[systems.CausePerceptionKeyWrongType])
	assert.Equal(t, 2, r.Total(), "%s", r)
	assert.Contains(t, r.String(), `perception_key_wrong_type 2 (e.g. entity `)
	assert.Contains(t, r.String(), `key "target_visible" as int, not bool`)
	assert.Contains(t, r.String(), "systems.DeclarePerceptionKeys(schema)")
	assert.Contains(t, out.String(), "perception_key_wrong_type 2", "the Diagnostics system's line")

	// Declared right, the sentries see each other and nothing is reported.
	world2 := arche.NewWorld()
	w2 := &world2
	arche.AddResource(w2, grid.New(32, 32))
	s2 := blackboard.NewSchema()
	require.NoError(t, systems.DeclarePerceptionKeys(s2))
	sp, err := systems.NewSpawner(w2, systems.Mover{}, systems.Combatant{Team: 1}, systems.Thinker{Tree: tree, Schema: s2})
	require.NoError(t, err)
	sp.Spawn(r2.Vec{X: 10.5, Y: 10.5}, nil)
	sc2 := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.Perception{}, &systems.Decision{},
		&systems.PathQueue{}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	require.NoError(t, sc2.InitializeChecked(w2))
	defer sc2.Finalize(w2)
	sc2.Run(w2, 10)
	r2 := systems.Diagnose(w2)
	assert.Zero(t, r2.Total(), "%s", r2)
}
