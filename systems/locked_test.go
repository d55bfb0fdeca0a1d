package systems_test

import (
	"fmt"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// arche's panic on a structural change while a query is open
const lockedWorld = "attempt to modify a locked world"

// removeSelf removes the agent from the World directly, the misuse: it must use
// a.Commands.RemoveEntity. Only one agent in 7 does it, so that the others run on.
func removeSelf(a *systems.Agent) {
	if a.Entity.ID()%7 == 3 {
		a.World.RemoveEntity(a.Entity)
	}
}

// lockedCase is one decision system whose user code calls removeSelf: spawn adds n
// agents that run it (with their brain set), sys is the system.
type lockedCase struct {
	name  string
	spawn func(t *testing.T, w *arche.World, n int)
	sys   func(workers int) ecs.System
}

// A leaf, consideration, state hook or operator that changes the World's structure
// directly panics with Arche's locked-world message, for 1 and 2 workers, instead of
// corrupting the columns the workers read (it crashed later in bt.(*Tree).Tick). The
// panic reaches Update's caller on its goroutine, the world is left unlocked, and the
// queued way (Agent.Commands) works.
func TestDirectStructuralChangeFromUserCodePanicsWithArchesMessage(t *testing.T) {
	for _, c := range lockedCases(t) {
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/%d workers", c.name, workers), func(t *testing.T) {
				world := arche.NewWorld()
				w := &world
				c.spawn(t, w, 300)
				sys := c.sys(workers)
				s := ecs.NewScheduler(ecs.NewClockSystem(1.0/20), sys)
				s.Initialize(w)
				defer s.Finalize(w)
				func() {
					defer func() { assert.Equal(t, lockedWorld, recover()) }()
					s.Run(w, 3)
					t.Error("no panic")
				}()
				assert.False(t, w.IsLocked(), "the lock is released")
				assert.Equal(t, 300, countAgents(w), "nobody was removed")
			})
		}
	}
}

func countAgents(w *arche.World) int {
	q := w.Query(arche.All(arche.ComponentID[components.Think](w)))
	n := q.Count()
	q.Close()
	return n
}

func lockedCases(t *testing.T) []lockedCase {
	tree, err := bt.Compile("remover", bt.Action("Remove", func(ctx *bt.Context) bt.Status {
		removeSelf(systems.AgentOf(ctx))
		return bt.Success
	}))
	require.NoError(t, err)
	reasoner, err := utility.New("remover", utility.Policy{},
		utility.Action{Name: "remove", Act: func(agent any) { removeSelf(systems.UtilityAgent(agent)) }})
	require.NoError(t, err)
	fb := fsm.NewBuilder("remover")
	fb.State("Remove", fsm.Hooks{Update: func(c *fsm.Context) fsm.StateID {
		removeSelf(systems.StateAgent(c))
		return fsm.None
	}})
	machine, err := fb.Build()
	require.NoError(t, err)
	hb := htn.NewBuilder("remover")
	hroot := hb.Compound("Root")
	hb.Method(hroot, htn.Method{Name: "Remove", Tasks: []htn.TaskID{hb.Primitive("Remove", htn.Primitive{
		Run: func(c *htn.Context) htn.Status {
			removeSelf(systems.PlanAgent(c.Agent))
			return htn.Success
		}})}})
	hb.Root(hroot)
	hd, err := hb.Build()
	require.NoError(t, err)
	hreg := &htn.Registry{}
	hid, err := hreg.Add(hd)
	require.NoError(t, err)

	think := func(i int) components.Think { return components.Think{Interval: 0.1, Next: float64(i%2) / 20} }
	return []lockedCase{
		{"Decision", func(t *testing.T, w *arche.World, n int) {
			m := generic.NewMap4[components.Brain, components.Think, components.Position, components.Intent](w)
			for i := range n {
				b, th, _, _ := m.Get(m.New())
				*b, *th = components.Brain{Tree: tree, Memory: tree.NewMemory()}, think(i)
			}
		}, func(k int) ecs.System { return &systems.Decision{Workers: k} }},
		{"Utility", func(t *testing.T, w *arche.World, n int) {
			m := generic.NewMap4[components.UtilityBrain, components.Think, components.Position, components.Intent](w)
			for i := range n {
				b, th, _, _ := m.Get(m.New())
				*b, *th = components.UtilityBrain{Reasoner: reasoner, State: reasoner.NewState()}, think(i)
			}
		}, func(k int) ecs.System { return &systems.Utility{Workers: k} }},
		{"FSM", func(t *testing.T, w *arche.World, n int) {
			m := generic.NewMap4[components.StateMachine, components.Think, components.Position, components.Intent](w)
			for i := range n {
				b, th, _, _ := m.Get(m.New())
				*b, *th = components.StateMachine{Machine: machine}, think(i)
			}
		}, func(k int) ecs.System { return &systems.FSM{Workers: k} }},
		{"HTN", func(t *testing.T, w *arche.World, n int) {
			arche.AddResource(w, hreg)
			sp, err := systems.NewSpawner(w, systems.HTNThinker{Registry: hreg, Domain: hid})
			require.NoError(t, err)
			sp.SpawnBatch(n, nil)
		}, func(k int) ecs.System { return &systems.HTN{Workers: k} }},
	}
}
