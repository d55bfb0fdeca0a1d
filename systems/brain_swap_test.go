package systems_test

import (
	"strings"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// Swapping Brain.Tree for a tree with as many nodes (the documented way: Tree and ID)
// halts the old tree (its running action gets its halt hook) and starts the new one
// from its root, counted in Decision.Swapped. Before, the new tree kept the old one.s
// memory (found by a reviewer): the
// new tree resumes mid-Sequence (its guard is never checked, its action is never
// entered) and the old tree's running action never gets its halt hook.
func TestABrainSwappedForATreeOfAsManyNodesHaltsTheOldOne(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(32, 32))
	var log []string
	patrol, err := bt.Compile("patrol", bt.Sequence(bt.AlwaysSuccess(),
		bt.Action("Patrol", func(*bt.Context) bt.Status { log = append(log, "Patrol"); return bt.Running }).
			OnHalt(func(*bt.Context) { log = append(log, "halt Patrol") })))
	require.NoError(t, err)
	attack, err := bt.Compile("attack", bt.Sequence(
		bt.Condition("HasAmmo", func(*bt.Context) bool { log = append(log, "HasAmmo?"); return false }),
		bt.Action("Shoot", func(*bt.Context) bt.Status { log = append(log, "Shoot"); return bt.Running }).
			OnStart(func(*bt.Context) { log = append(log, "start Shoot") })))
	require.NoError(t, err)
	require.Equal(t, patrol.Len(), attack.Len())
	sp, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: patrol, Interval: 1.0 / 60})
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{X: 3.5, Y: 3.5}, nil)
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Decision{})
	s.Initialize(w)
	s.Run(w, 3)
	log = log[:0]
	brains := generic.NewMap[components.Brain](w)
	b := brains.Get(e)
	b.Tree, b.ID = attack, attack.Name() // the documented way to swap: set Tree and ID
	s.Run(w, 2)
	s.Finalize(w)
	got := strings.Join(log, ",")
	if want := "halt Patrol,HasAmmo?,HasAmmo?"; got != want {
		t.Errorf("after the swap: %s\nwant %s (old action halted, new tree entered from its first child)", got, want)
	}
}
