package systems_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/goap"
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

// panicOnce counts the calls of user code per entity ID and panics with "boom" on the
// victim's third call, once.
type panicOnce struct {
	mu    sync.Mutex
	calls [64]int
	armed bool
}

const panicVictim = 20

func (p *panicOnce) call(id uint32) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.calls[id]++; p.armed && id == panicVictim && p.calls[id] == 3 {
		p.armed = false
		panic("boom")
	}
}

// runPanicking spawns 50 agents thinking every interval seconds (frames of 1/20 s) with spawn, runs sys for 5
// frames (the third panics, recovered here) then 10 more, and returns the entities of
// the victim's neighbour (ID victim-1) and of the victim.
func runPanicking(t *testing.T, interval float64, sys ecs.System, spawn func(w *arche.World, e arche.Entity), setup func(w *arche.World)) (*arche.World, arche.Entity, arche.Entity) {
	t.Helper()
	world := arche.NewWorld()
	w := &world
	if setup != nil {
		setup(w)
	}
	mp := generic.NewMap3[components.Think, components.Position, components.Intent](w)
	for range 50 {
		e := mp.New()
		th, _, _ := mp.Get(e)
		*th = components.Think{Interval: interval}
		spawn(w, e)
	}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/20), sys)
	s.Initialize(w)
	t.Cleanup(func() { s.Finalize(w) })
	func() {
		defer func() { assert.Equal(t, "boom", recover()) }()
		s.Run(w, 5)
	}()
	s.Run(w, 10)
	var before, at arche.Entity
	q := generic.NewFilter1[components.Think]().Query(w)
	for q.Next() {
		switch q.Entity().ID() {
		case panicVictim - 1:
			before = q.Entity()
		case panicVictim:
			at = q.Entity()
		}
	}
	require.False(t, before.IsZero() || at.IsZero())
	return w, before, at
}

// A behavior-tree leaf under a Timeout panics on one agent's third tick, the program
// recovering from Decision's Update and running on: the Timeout had already added the
// tick's DT to its timer, but Think.Last stayed, so the next tick added the same 0.05 s
// again (0.65 s on the victim's timer against its neighbour's 0.60 s, for 1 and 2
// workers). The agent counts as having thought: both agree.
func TestDecisionLeafPanicCountsNoSecondTwice(t *testing.T) {
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprintf("%d workers", workers), func(t *testing.T) {
			p := &panicOnce{armed: true}
			tree, err := bt.Compile("p", bt.Timeout(100, bt.Action("work", func(c *bt.Context) bt.Status {
				p.call(systems.AgentOf(c).Entity.ID())
				return bt.Running
			})))
			require.NoError(t, err)
			w, before, at := runPanicking(t, 0.05, &systems.Decision{Workers: workers}, func(w *arche.World, e arche.Entity) {
				m := generic.NewMap1[components.Brain](w)
				m.Assign(e, &components.Brain{Tree: tree, Memory: tree.NewMemory()})
			}, nil)
			brains := generic.NewMap[components.Brain](w)
			timer := func(e arche.Entity) float64 { return brains.Get(e).Memory.Nodes()[0].Timer }
			assert.InDelta(t, 0.60, timer(before), 1e-9)
			assert.InDelta(t, timer(before), timer(at), 1e-9, "the panicked tick's seconds counted once")
			assert.Equal(t, bt.Running, brains.Get(at).Memory.Status(1), "the leaf goes on running")
		})
	}
}

// The same for an HTN operator that sums its DT in its task memory and panics on the
// victim's third think (after adding): 0.65 s against 0.60 s without the fix.
func TestHTNOperatorPanicCountsNoSecondTwice(t *testing.T) {
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprintf("%d workers", workers), func(t *testing.T) {
			p := &panicOnce{armed: true}
			b := htn.NewBuilder("p")
			work := b.Primitive("Work", htn.Primitive{Run: func(c *htn.Context) htn.Status {
				c.Memory[0] += c.DT
				p.call(systems.PlanAgent(c.Agent).Entity.ID())
				return htn.Running
			}})
			root := b.Compound("Root")
			b.Method(root, htn.Method{Name: "Work", Tasks: []htn.TaskID{work}})
			b.Root(root)
			d, err := b.Build()
			require.NoError(t, err)
			reg := &htn.Registry{}
			_, err = reg.Add(d)
			require.NoError(t, err)
			w, before, at := runPanicking(t, 0.05, &systems.HTN{Workers: workers}, func(w *arche.World, e arche.Entity) {
				m := generic.NewMap1[components.HTNPlanner](w)
				m.Assign(e, &components.HTNPlanner{Name: "p"})
			}, func(w *arche.World) { arche.AddResource(w, reg) })
			ps := generic.NewMap[components.HTNPlanner](w)
			assert.InDelta(t, 0.60, ps.Get(before).Run.Memory[0], 1e-9)
			assert.InDelta(t, ps.Get(before).Run.Memory[0], ps.Get(at).Run.Memory[0], 1e-9)
		})
	}
}

// The same for a GOAP action.
func TestGOAPActionPanicCountsNoSecondTwice(t *testing.T) {
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprintf("%d workers", workers), func(t *testing.T) {
			p := &panicOnce{armed: true}
			b := goap.NewBuilder("p")
			done := b.Fact("done")
			b.Action(goap.Action{Name: "Work", Cost: 1, Effects: []goap.Effect{{Fact: done, Value: 1}},
				Run: func(c *goap.Context) goap.Status {
					c.Memory[0] += c.DT
					p.call(systems.PlanAgent(c.Agent).Entity.ID())
					return goap.Running
				}})
			b.Goal(goap.Goal{Name: "Done", Priority: 1, Want: []goap.Cond{{Fact: done, Op: goap.Eq, Value: 1}}})
			d, err := b.Build()
			require.NoError(t, err)
			reg := &goap.Registry{}
			_, err = reg.Add(d)
			require.NoError(t, err)
			w, before, at := runPanicking(t, 0.05, &systems.GOAP{Workers: workers}, func(w *arche.World, e arche.Entity) {
				m := generic.NewMap1[components.GOAPPlanner](w)
				m.Assign(e, &components.GOAPPlanner{Name: "p"})
			}, func(w *arche.World) { arche.AddResource(w, reg) })
			ps := generic.NewMap[components.GOAPPlanner](w)
			assert.InDelta(t, 0.60, ps.Get(before).Run.Memory[0], 1e-9)
			assert.InDelta(t, ps.Get(before).Run.Memory[0], ps.Get(at).Run.Memory[0], 1e-9)
		})
	}
}

// A utility action whose Act panics on the victim's third decision, agents deciding at
// 10 Hz (every other frame): the agent counts as having decided at that frame, so it
// keeps its neighbour's cadence (without the fix its Think.Next stayed behind, it
// decided again in the next frame and from then on one frame out of step: a different
// Think.Last and Next, and one decision more).
func TestUtilityActPanicCountsAsDecided(t *testing.T) {
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprintf("%d workers", workers), func(t *testing.T) {
			p := &panicOnce{armed: true}
			r, err := utility.New("p", utility.Policy{}, utility.Action{Name: "work",
				Considerations: []utility.Consideration{{Name: "one", Input: func(any) float64 { return 1 }, Curve: utility.Linear(1, 0)}},
				Act:            func(agent any) { p.call(systems.UtilityAgent(agent).Entity.ID()) }})
			require.NoError(t, err)
			w, before, at := runPanicking(t, 0.1, &systems.Utility{Workers: workers}, func(w *arche.World, e arche.Entity) {
				m := generic.NewMap1[components.UtilityBrain](w)
				m.Assign(e, &components.UtilityBrain{Reasoner: r})
			}, nil)
			ths := generic.NewMap[components.Think](w)
			assert.Equal(t, ths.Get(before).Last, ths.Get(at).Last)
			assert.Equal(t, ths.Get(before).Next, ths.Get(at).Next)
			assert.Equal(t, p.calls[panicVictim-1], p.calls[panicVictim])
		})
	}
}
