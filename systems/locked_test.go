package systems_test

import (
	"errors"
	"fmt"
	"strings"
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
// directly panics, for 1 and 2 workers, instead of corrupting the columns the workers
// read (it crashed later in bt.(*Tree).Tick). The panic reaches Update's caller on its
// goroutine, names the system and the fix (Agent.Commands) before Arche's locked-world
// message, the world is left unlocked, and the queued way (Agent.Commands) works.
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
					defer func() { assertLockedPanic(t, c.name, lockedWorld, recover()) }()
					s.Run(w, 3)
					t.Error("no panic")
				}()
				assert.False(t, w.IsLocked(), "the lock is released")
				assert.Equal(t, 300, countAgents(w), "nobody was removed")
			})
		}
	}
}

// assertLockedPanic checks that r, recovered from system's Update, is the message
// that names the system and Agent.Commands and ends with Arche's message arche.
func assertLockedPanic(t *testing.T, system, arche string, r any) {
	t.Helper()
	msg, ok := r.(string)
	require.True(t, ok, "a string panic, got %T %v", r, r)
	assert.True(t, strings.HasPrefix(msg, "systems: "+system+": "), "names the system: %q", msg)
	assert.Contains(t, msg, "queue the change on Agent.Commands", "names the fix")
	assert.True(t, strings.HasSuffix(msg, ": "+arche), "ends with Arche's message: %q", msg)
}

type neverRegistered struct{ X int }

// Registering a component type from a leaf (Arche's other locked-world panic) is named
// the same way; any other panic of user code reaches Update's caller unchanged.
func TestUserCodePanicsOtherThanLockedWorldPassUnchanged(t *testing.T) {
	boom := errors.New("boom")
	for _, workers := range []int{1, 2} {
		for _, c := range []struct {
			name string
			leaf func(a *systems.Agent)
			want func(t *testing.T, r any)
		}{
			{"register", func(a *systems.Agent) { arche.ComponentID[neverRegistered](a.World) }, func(t *testing.T, r any) {
				assertLockedPanic(t, "Decision", "attempt to register a new component in a locked world", r)
			}},
			{"error", func(a *systems.Agent) { panic(boom) }, func(t *testing.T, r any) { assert.Same(t, boom, r) }},
			{"string", func(a *systems.Agent) { panic("my own bug") }, func(t *testing.T, r any) { assert.Equal(t, "my own bug", r) }},
		} {
			t.Run(fmt.Sprintf("%s/%d workers", c.name, workers), func(t *testing.T) {
				tree, err := bt.Compile("panicker", bt.Action("Panic", func(ctx *bt.Context) bt.Status {
					c.leaf(systems.AgentOf(ctx))
					return bt.Success
				}))
				require.NoError(t, err)
				world := arche.NewWorld()
				w := &world
				m := generic.NewMap4[components.Brain, components.Think, components.Position, components.Intent](w)
				for range 50 {
					b, th, _, _ := m.Get(m.New())
					*b, *th = components.Brain{Tree: tree, Memory: tree.NewMemory()}, components.Think{Interval: 0.1}
				}
				s := ecs.NewScheduler(ecs.NewClockSystem(1.0/20), &systems.Decision{Workers: workers})
				s.Initialize(w)
				defer s.Finalize(w)
				func() {
					defer func() { c.want(t, recover()) }()
					s.Run(w, 1)
					t.Error("no panic")
				}()
				assert.False(t, w.IsLocked(), "the lock is released")
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
