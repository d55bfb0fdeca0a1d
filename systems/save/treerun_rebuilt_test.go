package save_test

import (
	"errors"
	"fmt"
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

// Shift is a program's own component: the TreeRun of the state that runs the tree
// "dig", and what the tree did.
type Shift struct {
	Run hybrid.TreeRun
	Dug int
}

// shiftMachine builds the tree "dig" (a Cooldown of 4 s over a Dig that runs 3
// ticks) and the machine "digger" running it in its state Work, left for Rest and
// back every 1.3 s, at a time of each agent's own (its entity ID): the build a
// program makes at start and again at a hot reload, on world w.
func shiftMachine(t *testing.T, w *arche.World) *fsm.Machine {
	t.Helper()
	sm := generic.NewMap1[Shift](w)
	tree, err := bt.Compile("dig", bt.Cooldown(4, bt.Action("Dig", func(c *bt.Context) bt.Status {
		a := systems.AgentOf(c)
		sm.Get(a.Entity).Dug++
		if c.Node().Count++; c.Node().Count < 3 {
			return bt.Running
		}
		return bt.Success
	})))
	require.NoError(t, err)
	resting := func(ctx *fsm.Context) bool {
		return int(ctx.Time/1.3+float64(systems.StateAgent(ctx).Entity.ID())*0.37)%2 == 1
	}
	b := fsm.NewBuilder("digger")
	work := b.State("Work", hybrid.TreeState(tree, func(ctx *fsm.Context) *hybrid.TreeRun {
		return &sm.Get(systems.StateAgent(ctx).Entity).Run
	}, nil))
	rest := b.State("Rest", fsm.Hooks{})
	b.When(work, resting, rest)
	b.When(rest, func(ctx *fsm.Context) bool { return !resting(ctx) }, work)
	m, err := b.Build()
	require.NoError(t, err)
	return m
}

// swapMachines gives every agent running old the machine m (a hot reload: the tree
// built again, then the machine over it), as the README tells.
func swapMachines(w *arche.World, old, m *fsm.Machine) {
	q := generic.NewFilter1[components.StateMachine]().Query(w)
	for q.Next() {
		if c := q.Get(); c.Machine == old {
			c.Machine = m
		}
	}
}

// diggers is a world of 8 agents running shiftMachine, and its scheduler.
func diggers(t *testing.T) (*arche.World, *fsm.Machine, *systems.FSM, *ecs.Scheduler) {
	t.Helper()
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(12, 4))
	m := shiftMachine(t, w)
	sp, err := systems.NewSpawner(w, systems.Thinker{Machine: m, Interval: 0.1}, systems.With(Shift{}))
	require.NoError(t, err)
	for i := range 8 {
		sp.Spawn(r2.Vec{X: 1.5 + float64(i), Y: 1.5}, nil)
	}
	f := &systems.FSM{}
	s := ecs.NewScheduler(ecs.NewClockSystem(0.1), f)
	s.Initialize(w)
	return w, m, f, s
}

// dugBy returns each agent's Dug and machine state, by entity.
func dugBy(w *arche.World) string {
	q := generic.NewFilter2[Shift, components.StateMachine]().Query(w)
	out := ""
	for q.Next() {
		sh, sm := q.Get()
		out += fmt.Sprintf("%d: dug %d in %s; ", q.Entity().ID(), sh.Dug, sm.Machine.Name(sm.Memory.Active))
	}
	return out
}

// TestSaveAfterATreeInAStateIsBuiltAgain: a world saved after a hot reload of a tree
// that runs in a machine's state (hybrid.TreeState, its TreeRun in the program's own
// component), some agents' TreeRun still the earlier build's (resting since, a
// Cooldown cooling down in it; or left the state at the first update under the new
// machine), loads and continues exactly as the unbroken run. It used to diverge: the
// unbroken run starts such a memory over at the agent's next update of the state (a
// Memory of another tree), while the loaded one, whose Memory no longer knew its build,
// took it for the new build's and resumed it (the Cooldown still cooling down: fewer
// digs; colony repro: first divergence at frame 618 of 700).
func TestSaveAfterATreeInAStateIsBuiltAgain(t *testing.T) {
	w, m, f, s := diggers(t)
	s.Run(w, 31)
	m2 := shiftMachine(t, w)
	swapMachines(w, m, m2)
	s.Run(w, 3)
	stale := 0
	q := generic.NewFilter1[Shift]().Query(w)
	for q.Next() {
		if tr := q.Get().Run.Memory.Tree(); tr != nil && tr.Name() == "dig" && m2.Activity(m2.State(1)) != tr {
			stale++
		}
	}
	require.Positive(t, stale, "agents whose TreeRun is still the earlier build's at the save")
	data, err := save.Save(w, nil, f)
	require.NoError(t, err)
	s.Run(w, 60) // every agent has been back in Work since
	wantDug, want := dugBy(w), systems.StateHash(w)
	s.Finalize(w)

	world2 := arche.NewWorld()
	b := &world2
	arche.AddResource(b, grid.New(12, 4))
	m3 := shiftMachine(t, b)
	l, err := save.LoadInto(data, save.Registry{Machines: []*fsm.Machine{m3}, Components: []reflect.Type{reflect.TypeFor[Shift]()}}, b)
	require.NoError(t, err)
	f2 := &systems.FSM{}
	s2 := ecs.NewScheduler(ecs.NewClockSystem(0.1), f2)
	s2.Initialize(b)
	require.NoError(t, l.Restore(f2))
	s2.Run(b, 60)
	require.Equal(t, wantDug, dugBy(b), "as many digs after the load as unbroken")
	require.Equal(t, want, systems.StateHash(b), "the loaded world continues as the unbroken one")
	s2.Finalize(b)
}

// TestSaveRefusesAnEarlierBuildStillRunning: a save between a hot reload and the
// agents' next update, while a TreeRun of the earlier build has a node Running (whose
// halt hook that update runs with the earlier build, which a load cannot give back), is
// refused with an error naming the entity, the field and the tree, wrapping ErrMemory;
// after one frame it is taken.
func TestSaveRefusesAnEarlierBuildStillRunning(t *testing.T) {
	w, m, f, s := diggers(t)
	s.Run(w, 31)
	running := func() bool {
		n := 0
		q := generic.NewFilter1[Shift]().Query(w)
		for q.Next() {
			if q.Get().Run.Memory.Len() > 0 && q.Get().Run.Memory.Status(0) == bt.Running {
				n++
			}
		}
		return n > 0
	}
	for i := 0; i < 20 && !running(); i++ {
		s.Run(w, 1)
	}
	require.True(t, running(), "an agent's Dig Running")
	swapMachines(w, m, shiftMachine(t, w))
	_, err := save.Save(w, nil, f)
	require.Error(t, err)
	require.True(t, errors.Is(err, save.ErrMemory), "%v", err)
	require.Regexp(t, `^save: entity \d+: save_test\.Shift\.Run: .*earlier build of tree "dig".*node 1 \(Dig\) Running.*save after that update`, err.Error())
	s.Run(w, 1)
	_, err = save.Save(w, nil, f)
	require.NoError(t, err)
	s.Finalize(w)
}

// Save looks for the trees a world runs without registering a component type the
// world does not know (Brain, UtilityBrain, StateMachine): a second save writes the
// same type list and the same bytes.
func TestSaveRegistersNoComponentType(t *testing.T) {
	type marker struct{ N int }
	w := arche.NewWorld()
	m := generic.NewMap1[marker](&w)
	m.NewWith(&marker{N: 7})
	first, err := save.Save(&w, nil)
	require.NoError(t, err)
	second, err := save.Save(&w, nil)
	require.NoError(t, err)
	require.Equal(t, string(first), string(second))
}
