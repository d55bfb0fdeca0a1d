package save_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/hybrid"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// Crew is a program's own component: the TreeRun of the state running the tree
// "crew" and the utility.State of its UtilitySelector, as the colony sim keeps them.
type Crew struct {
	Run         hybrid.TreeRun
	Jobs        utility.State
	Pile        float64
	Dug, Hauled int
}

// crewMachine builds the reasoner "jobs" (dig while the pile is small, haul while it
// is big, hysteresis 0.5, haul weighted by weight), the tree "crew" (a
// UtilitySelector over Dig and Haul) and the machine "crew" running it in Work, left
// for Rest and back every 1.3 s at a time of each agent's own: the build a program
// makes at start and again when it reloads the reasoner.
func crewMachine(t *testing.T, w *arche.World, weight float64) *fsm.Machine {
	t.Helper()
	cm := generic.NewMap1[Crew](w)
	pile := func(a any) float64 { return cm.Get(a.(*systems.Agent).Entity).Pile }
	r, err := utility.New("jobs", utility.Policy{Hysteresis: 0.5},
		utility.Action{Name: "dig", Considerations: []utility.Consideration{{Name: "small", Input: pile, Range: utility.Range{Min: 10, Max: 0}}}},
		utility.Action{Name: "haul", Weight: weight, Considerations: []utility.Consideration{{Name: "big", Input: pile, Range: utility.Range{Min: 0, Max: 10}}}})
	require.NoError(t, err)
	work := func(name string, f func(c *Crew)) *bt.Node {
		return bt.Action(name, func(c *bt.Context) bt.Status {
			f(cm.Get(systems.AgentOf(c).Entity))
			return bt.Running
		})
	}
	tree, err := bt.Compile("crew", hybrid.UtilitySelector("Pick", r, func(c *bt.Context) (*utility.State, utility.Source) {
		return &cm.Get(systems.AgentOf(c).Entity).Jobs, nil
	}, work("Dig", func(c *Crew) { c.Pile++; c.Dug++ }), work("Haul", func(c *Crew) { c.Pile--; c.Hauled++ })))
	require.NoError(t, err)
	resting := func(ctx *fsm.Context) bool {
		return int(ctx.Time/1.3+float64(systems.StateAgent(ctx).Entity.ID())*0.37)%2 == 1
	}
	b := fsm.NewBuilder("crew")
	ws := b.State("Work", hybrid.TreeState(tree, func(ctx *fsm.Context) *hybrid.TreeRun {
		return &cm.Get(systems.StateAgent(ctx).Entity).Run
	}, nil))
	rest := b.State("Rest", fsm.Hooks{})
	b.When(ws, resting, rest)
	b.When(rest, func(ctx *fsm.Context) bool { return !resting(ctx) }, ws)
	m, err := b.Build()
	require.NoError(t, err)
	return m
}

func crewWorld(t *testing.T) (*arche.World, *fsm.Machine, *systems.FSM, *ecs.Scheduler) {
	t.Helper()
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(12, 4))
	m := crewMachine(t, w, 1)
	sp, err := systems.NewSpawner(w, systems.Thinker{Machine: m, Interval: 0.1}, systems.With(Crew{}))
	require.NoError(t, err)
	for i := range 8 {
		sp.Spawn(r2.Vec{X: 1.5 + float64(i), Y: 1.5}, func(s *systems.Spawned) { systems.Component[Crew](s).Pile = float64(i) })
	}
	f := &systems.FSM{}
	s := ecs.NewScheduler(ecs.NewClockSystem(0.1), f)
	s.Initialize(w)
	return w, m, f, s
}

func crewWork(w *arche.World) string {
	q := generic.NewFilter1[Crew]().Query(w)
	out := ""
	for q.Next() {
		c := q.Get()
		out += fmt.Sprintf("%d: dug %d hauled %d; ", q.Entity().ID(), c.Dug, c.Hauled)
	}
	return out
}

// TestSaveAfterAReasonerInAStateIsBuiltAgain: after a hot reload of the reasoner of
// a UtilitySelector in a tree run by a machine's state (the reasoner, tree and
// machine built again, the machines swapped), a save while some agents' utility.State,
// kept in the program's own component, was last decided by the earlier reasoner (they
// rested since) loads and continues exactly as the unbroken run. It used to diverge
// (the colony sim's case: first divergence at frame 618 of 700): the unbroken run's
// next decision starts such a State afresh (another reasoner's), while the loaded
// State, no longer knowing its reasoner, kept its choice and the hysteresis with it.
func TestSaveAfterAReasonerInAStateIsBuiltAgain(t *testing.T) {
	w, m, f, s := crewWorld(t)
	s.Run(w, 31)
	m2 := crewMachine(t, w, 0.9)
	swapMachines(w, m, m2)
	s.Run(w, 3)
	stale := 0
	q := generic.NewFilter1[Crew]().Query(w)
	for q.Next() {
		if r := q.Get().Jobs.Reasoner(); r != nil && r.Name() == "jobs" && r != selectorReasoner(m2.Activity(m2.State(1)).(*bt.Tree), 0) {
			stale++
		}
	}
	require.Positive(t, stale, "agents whose utility.State is still the earlier reasoner's at the save")
	data, err := save.Save(w, nil, f)
	require.NoError(t, err)
	s.Run(w, 60)
	wantWork, want := crewWork(w), systems.StateHash(w)
	s.Finalize(w)

	world2 := arche.NewWorld()
	b := &world2
	arche.AddResource(b, grid.New(12, 4))
	m3 := crewMachine(t, b, 0.9)
	l, err := save.LoadInto(data, save.Registry{Machines: []*fsm.Machine{m3}, Components: []reflect.Type{reflect.TypeFor[Crew]()}}, b)
	require.NoError(t, err)
	f2 := &systems.FSM{}
	s2 := ecs.NewScheduler(ecs.NewClockSystem(0.1), f2)
	s2.Initialize(b)
	require.NoError(t, l.Restore(f2))
	s2.Run(b, 60)
	require.Equal(t, wantWork, crewWork(b), "the same digs and hauls after the load as unbroken")
	require.Equal(t, want, systems.StateHash(b), "the loaded world continues as the unbroken one")
	s2.Finalize(b)
}

// selectorReasoner returns the reasoner of the hybrid.UtilitySelector at node i of t,
// or nil.
func selectorReasoner(t *bt.Tree, i int) *utility.Reasoner {
	r, _, _ := hybrid.SelectorAt(t, i)
	return r
}
