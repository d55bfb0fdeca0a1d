package hybrid

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ai/htn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type planAgent struct {
	ok    bool
	run   htn.Run
	state htn.State
	grun  goap.Run
	gst   goap.State
	log   []string
}

func patrolDomain(t *testing.T) *htn.Domain {
	b := htn.NewBuilder("patrol")
	leg := b.Fact("leg")
	walk := b.Primitive("Walk", htn.Primitive{Effects: []htn.Effect{htn.Add(leg, 1)},
		Run: func(c *htn.Context) htn.Status {
			a := c.Agent.(*planAgent)
			a.log = append(a.log, "walk")
			if c.Memory[0]++; c.Memory[0] < 3 { // three ticks a leg
				return htn.Running
			}
			return htn.Success
		},
		Halt: func(c *htn.Context) { c.Agent.(*planAgent).log = append(c.Agent.(*planAgent).log, "halt") }})
	root := b.Compound("Patrol")
	b.Method(root, htn.Method{Name: "Two legs", If: []htn.Condition{htn.Is(leg, htn.Lt, 2)}, Tasks: []htn.TaskID{walk, walk}})
	b.Root(root)
	d, err := b.Build()
	require.NoError(t, err)
	return d
}

func TestHTNActionRunsAndHaltsThePlan(t *testing.T) {
	d := patrolDomain(t)
	runOf := func(c *bt.Context) (*htn.Run, *htn.State) {
		a := c.Agent.(*planAgent)
		return &a.run, &a.state
	}
	tree, err := bt.Compile("t", bt.ReactiveSequence(
		bt.Condition("ok", func(c *bt.Context) bool { return c.Agent.(*planAgent).ok }),
		HTNAction("Plan", d, runOf)))
	require.NoError(t, err)
	a := &planAgent{ok: true}
	mem := tree.NewMemory()
	ctx := bt.Context{Agent: a}
	tick := func() bt.Status {
		st := tree.Tick(&mem, &ctx)
		ctx.Time += 0.1
		return st
	}
	assert.Equal(t, bt.Running, tick())
	assert.Equal(t, bt.Running, tick())
	assert.Equal(t, 0, a.run.Step)
	a.ok = false
	assert.Equal(t, bt.Failure, tick())
	assert.Equal(t, []string{"walk", "walk", "halt"}, a.log)
	assert.False(t, a.run.HasPlan(), "the plan is dropped")
	a.ok = true
	for range 4 {
		assert.Equal(t, bt.Running, tick())
	}
	assert.Equal(t, bt.Success, tick(), "the plan completes")
	assert.Equal(t, int32(2), a.state[0], "two legs walked after the restart")
	assert.Equal(t, bt.Failure, tick(), "leg 2: Patrol does not decompose")

	allocs := testing.AllocsPerRun(50, func() {
		a.state[0] = 0
		a.log = a.log[:0]
		tick()
	})
	assert.Zero(t, allocs)
}

func TestRegisteredPlanActions(t *testing.T) {
	d := patrolDomain(t)
	r := bt.NewRegistry(nil)
	require.NoError(t, RegisterHTN(r, "Patrol", d, func(c *bt.Context) (*htn.Run, *htn.State) {
		a := c.Agent.(*planAgent)
		return &a.run, &a.state
	}))
	gb := goap.NewBuilder("g")
	f := gb.Fact("done")
	gb.Action(goap.Action{Name: "Do", Cost: 1, Effects: []goap.Effect{{Fact: f, Value: 1}}})
	gb.Goal(goap.Goal{Name: "Done", Want: []goap.Cond{{Fact: f, Op: goap.Eq, Value: 1}}})
	gd, err := gb.Build()
	require.NoError(t, err)
	require.NoError(t, RegisterGOAP(r, "Work", gd, func(c *bt.Context) (*goap.Run, *goap.State) {
		a := c.Agent.(*planAgent)
		return &a.grun, &a.gst
	}))
	_, err = r.LoadXML("t.xml", []byte(`<root BTCPP_format="4" main_tree_to_execute="Main">
	  <BehaviorTree ID="Main"><Sequence><Work/><Patrol/></Sequence></BehaviorTree></root>`))
	require.NoError(t, err)
	tree, err := r.Tree("Main")
	require.NoError(t, err)
	a := &planAgent{}
	mem := tree.NewMemory()
	ctx := bt.Context{Agent: a}
	assert.Equal(t, bt.Running, tree.Tick(&mem, &ctx))
	assert.Equal(t, int16(1), a.gst[f], "Work planned and did its one step")
	assert.Equal(t, []string{"walk"}, a.log)

	// GOAPAt finds the domain of a GOAPAction, registered or built in Go, as HTNAt does
	// an HTNAction's (package systems/save fingerprints the domains a state's tree runs)
	gotD, gotRun, ok := GOAPAt(tree, 1)
	require.True(t, ok, "a registered GOAPAction loaded from a file")
	assert.Same(t, gd, gotD)
	gr, _ := gotRun(&bt.Context{Agent: a})
	assert.Same(t, &a.grun, gr, "the node's own run function")
	_, _, ok = GOAPAt(tree, 2)
	assert.False(t, ok, "an HTNAction is not a GOAPAction")
	_, _, ok = GOAPAt(tree, 0)
	assert.False(t, ok)
	built, err := bt.Compile("b", bt.Sequence(GOAPAction("Work", gd, func(c *bt.Context) (*goap.Run, *goap.State) { return nil, nil })))
	require.NoError(t, err)
	gotD, _, ok = GOAPAt(built, 1)
	require.True(t, ok, "a GOAPAction built in Go")
	assert.Same(t, gd, gotD)
}
