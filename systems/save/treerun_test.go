package save_test

import (
	"reflect"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/hybrid"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// Chores is a program's own component holding the tree memory of a state
// machine state that runs a behavior tree, as hybrid.TreeRun's doc tells.
type Chores struct {
	Run hybrid.TreeRun
}

// choresWorld is a world of four agents whose machine's first state ticks
// a tree (a Wait of 1.5 s then a count) through hybrid.TreeState, with the
// TreeRun in the program's Chores component.
func choresWorld(t *testing.T, w *arche.World) (*fsm.Machine, *systems.FSM, *ecs.Scheduler) {
	t.Helper()
	cm := generic.NewMap1[Chores](w)
	tree, err := bt.Compile("chores", bt.Sequence(bt.Wait(1.5), bt.Action("Sweep", func(c *bt.Context) bt.Status {
		systems.AgentOf(c).Intent.Goal.X++
		return bt.Success
	})))
	require.NoError(t, err)
	b := fsm.NewBuilder("keeper")
	b.State("Chores", hybrid.TreeState(tree, func(ctx *fsm.Context) *hybrid.TreeRun {
		return &cm.Get(systems.StateAgent(ctx).Entity).Run
	}, nil))
	m, err := b.Build()
	require.NoError(t, err)
	f := &systems.FSM{}
	return m, f, ecs.NewScheduler(ecs.NewClockSystem(0.1), f)
}

// TestSaveAStateThatRunsATree: hybrid.TreeRun, "plain data for a
// component", saves and loads in a component of the program's own; the
// loaded world continues as the unbroken one (a Wait half done when saved).
// Save used to refuse it: "Chores.Run.Context.Agent: a interface ... cannot
// be saved", the hybrid of a state machine with a tree in a state could not
// be saved at all.
func TestSaveAStateThatRunsATree(t *testing.T) {
	spawn := func(w *arche.World, m *fsm.Machine) {
		sp, err := systems.NewSpawner(w, systems.Thinker{Machine: m, Interval: 0.1}, systems.With(Chores{}))
		require.NoError(t, err)
		for i := 0; i < 4; i++ {
			sp.Spawn(r2.Vec{X: 1.5 + float64(i), Y: 1.5}, nil)
		}
	}
	world := arche.NewWorld()
	a := &world
	arche.AddResource(a, grid.New(8, 8))
	m, f, s := choresWorld(t, a)
	spawn(a, m)
	s.Initialize(a)
	s.Run(a, 45) // each agent's Wait is part way through (13 of its 16 ticks)
	data, err := save.Save(a, nil, f)
	require.NoError(t, err)
	s.Run(a, 40)
	want := systems.StateHash(a)
	s.Finalize(a)

	// the loading program builds its machine on the new world (its hooks use
	// that world's map of Chores), then loads into it
	world2 := arche.NewWorld()
	b := &world2
	arche.AddResource(b, grid.New(8, 8))
	m2, f2, s2 := choresWorld(t, b)
	l, err := save.LoadInto(data, save.Registry{Machines: []*fsm.Machine{m2}, Components: []reflect.Type{reflect.TypeFor[Chores]()}}, b)
	require.NoError(t, err)
	s2.Initialize(l.World)
	require.NoError(t, l.Restore(f2))
	s2.Run(l.World, 40)
	gx := func(w *arche.World) (xs []float64) {
		q := generic.NewFilter1[components.Intent]().Query(w)
		for q.Next() {
			xs = append(xs, q.Get().Goal.X)
		}
		return xs
	}
	require.Equal(t, gx(a), gx(l.World), "as many sweeps after the load as unbroken (a Wait restarted at the load sweeps one fewer)")
	require.Equal(t, want, systems.StateHash(l.World), "the loaded world continues as the unbroken one")
	s2.Finalize(l.World)
}
