package hybrid

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/ai/utility"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fighter is the test agent of the utility selector.
type fighter struct {
	dist    float64 // cells to the target
	utility utility.State
	rng     steer.Rand
	log     []string
}

func (f *fighter) say(s string) { f.log = append(f.log, s) }

func fighterOf(c *bt.Context) *fighter { return c.Agent.(*fighter) }

// attackReasoner prefers melee near (dist < 3) and ranged far.
func attackReasoner(t testing.TB, p utility.Policy) *utility.Reasoner {
	dist := utility.Fact(func(f *fighter) float64 { return f.dist })
	r, err := utility.New("attack", p,
		utility.Action{Name: "melee", Considerations: []utility.Consideration{
			{Name: "near", Input: dist, Range: utility.Range{Min: 6, Max: 0}}}},
		utility.Action{Name: "ranged", Considerations: []utility.Consideration{
			{Name: "far", Input: dist, Range: utility.Range{Min: 0, Max: 6}}}},
	)
	require.NoError(t, err)
	return r
}

// running returns an action that runs forever, logging start, ticks and halt.
func running(name string) *bt.Node {
	return bt.Action(name, func(c *bt.Context) bt.Status {
		fighterOf(c).say(name)
		return bt.Running
	}).OnStart(func(c *bt.Context) { fighterOf(c).say("start " + name) }).
		OnHalt(func(c *bt.Context) { fighterOf(c).say("halt " + name) })
}

func selectorTree(t testing.TB, r *utility.Reasoner) *bt.Tree {
	state := func(c *bt.Context) (*utility.State, utility.Source) {
		f := fighterOf(c)
		return &f.utility, &f.rng
	}
	tree, err := bt.Compile("fighter", UtilitySelector("attack", r, state,
		bt.Sequence(running("swing")).Named("melee branch"),
		running("shoot")))
	require.NoError(t, err)
	return tree
}

func TestUtilitySelectorHaltsAbandonedSubtree(t *testing.T) {
	r := attackReasoner(t, utility.Policy{Hysteresis: 0.2})
	tree := selectorTree(t, r)
	f := &fighter{dist: 1, utility: r.NewState()}
	mem := tree.NewMemory()
	ctx := &bt.Context{Agent: f, DT: 0.1}

	tick := func(dist float64) bt.Status {
		f.dist, f.log = dist, nil
		return tree.Tick(&mem, ctx)
	}
	assert.Equal(t, bt.Running, tick(1))
	assert.Equal(t, []string{"start swing", "swing"}, f.log)
	assert.Equal(t, bt.Running, tick(1.5))
	assert.Equal(t, []string{"swing"}, f.log, "same winner: the branch resumes")

	// melee 0.45 × 1.2 = 0.54 against ranged 0.55: a clear enough win.
	assert.Equal(t, bt.Running, tick(3.3))
	assert.Equal(t, []string{"halt swing", "start shoot", "shoot"}, f.log,
		"the abandoned branch is halted once, before the winner starts")
	assert.Equal(t, bt.Idle, mem.Status(1), "the halted Sequence is reset")
	assert.Equal(t, bt.Idle, mem.Status(2), "the halted action is reset")
	assert.InDeltaSlice(t, []float64{0.45, 0.55}, f.utility.Scores, 1e-12, "every score is kept")

	// Near tie the other way: ranged holds with its bonus (0.5 × 1.2 > 0.52).
	assert.Equal(t, bt.Running, tick(2.9))
	assert.Equal(t, []string{"shoot"}, f.log, "hysteresis: no flip on a near tie")

}

func TestUtilitySelectorFailsWithoutWinner(t *testing.T) {
	r := attackReasoner(t, utility.Policy{})
	tree := selectorTree(t, r)
	f := &fighter{dist: 5, utility: r.NewState()}
	mem := tree.NewMemory()
	ctx := &bt.Context{Agent: f}
	tree.Tick(&mem, ctx)
	f.log = nil
	f.dist = 0 // ranged is vetoed (0); melee wins
	tree.Tick(&mem, ctx)
	assert.Equal(t, []string{"halt shoot", "start swing", "swing"}, f.log)

	// A reasoner with everything vetoed: the running branch is halted, Failure.
	veto := utility.Fact(func(f *fighter) float64 { return 0 })
	none, err := utility.New("none", utility.Policy{},
		utility.Action{Name: "a", Considerations: []utility.Consideration{{Input: veto}}})
	require.NoError(t, err)
	state := func(c *bt.Context) (*utility.State, utility.Source) { return &fighterOf(c).utility, nil }
	vt, err := bt.Compile("vetoed", UtilitySelector("none", none, state, running("a")))
	require.NoError(t, err)
	vm := vt.NewMemory()
	assert.Equal(t, bt.Failure, vt.Tick(&vm, ctx))
	assert.Equal(t, utility.None, f.utility.Choice)

	nilState := func(*bt.Context) (*utility.State, utility.Source) { return nil, nil }
	nt, err := bt.Compile("nil", UtilitySelector("nil", r, nilState, running("a"), running("b")))
	require.NoError(t, err)
	nm := nt.NewMemory()
	assert.Equal(t, bt.Failure, nt.Tick(&nm, ctx))
}

func TestUtilitySelectorAllocatesNothing(t *testing.T) {
	r := attackReasoner(t, utility.SoftmaxPolicy(0.1))
	state := func(c *bt.Context) (*utility.State, utility.Source) {
		f := fighterOf(c)
		return &f.utility, &f.rng
	}
	noop := func(c *bt.Context) bt.Status { return bt.Running }
	tree, err := bt.Compile("f", UtilitySelector("attack", r, state,
		bt.Action("swing", noop), bt.Action("shoot", noop)))
	require.NoError(t, err)
	agents := make([]fighter, 16)
	mems := make([]bt.Memory, 16)
	for i := range agents {
		agents[i] = fighter{dist: float64(i % 7), utility: r.NewState(), rng: steer.NewRand(uint64(i))}
		mems[i] = tree.NewMemory()
	}
	ctx := &bt.Context{DT: 0.1}
	i := 0
	allocs := testing.AllocsPerRun(1000, func() {
		k := i % 16
		ctx.Agent = &agents[k]
		agents[k].dist = float64(i % 6)
		tree.Tick(&mems[k], ctx)
		i++
	})
	assert.Equal(t, 0.0, allocs)
}

// guard is the test agent of the tree state.
type guard struct {
	enemy bool
	run   TreeRun
	log   []string
}

func TestTreeStateHaltsOnExit(t *testing.T) {
	gOf := func(c *bt.Context) *guard { return c.Agent.(*guard) }
	hits := 0
	tree, err := bt.Compile("combat", bt.Sequence(
		bt.Action("aim", func(c *bt.Context) bt.Status {
			gOf(c).log = append(gOf(c).log, "aim")
			if c.Node().Count++; c.Node().Count < 3 {
				return bt.Running
			}
			return bt.Success
		}).OnHalt(func(c *bt.Context) { gOf(c).log = append(gOf(c).log, "halt aim") }),
		bt.Action("fire", func(c *bt.Context) bt.Status {
			hits++
			gOf(c).log = append(gOf(c).log, "fire")
			return bt.Success
		}),
	))
	require.NoError(t, err)

	b := fsm.NewBuilder("guard")
	idle := b.State("Idle", fsm.Hooks{})
	var calm fsm.StateID
	combat := b.State("Combat", TreeState(tree,
		func(c *fsm.Context) *TreeRun { return &c.Agent.(*guard).run },
		func(c *fsm.Context, s bt.Status) fsm.StateID {
			c.Agent.(*guard).log = append(c.Agent.(*guard).log, "done "+s.String())
			return calm
		}))
	calm = b.State("Calm", fsm.Hooks{})
	b.When(idle, func(c *fsm.Context) bool { return c.Agent.(*guard).enemy }, combat)
	b.When(combat, func(c *fsm.Context) bool { return !c.Agent.(*guard).enemy }, idle)
	m, err := b.Build()
	require.NoError(t, err)

	g := &guard{}
	var mem fsm.Memory
	ctx := &fsm.Context{Agent: g, DT: 0.25}
	m.Update(&mem, ctx)
	assert.Same(t, tree, m.Activity(combat), "Combat's Activity: the tree, for debuggers")
	assert.Nil(t, m.Activity(idle))
	assert.Nil(t, g.run.Tree, "TreeRun.Tree before the first tick")
	g.enemy = true
	m.Update(&mem, ctx) // Idle → Combat, tree ticked in the same update
	m.Update(&mem, ctx)
	assert.Equal(t, combat, mem.Active)
	assert.Equal(t, []string{"aim", "aim"}, g.log)
	assert.Equal(t, bt.Running, g.run.Status)
	assert.Equal(t, 0.25, g.run.Context.DT)
	assert.Same(t, tree, g.run.Tree, "TreeRun.Tree: the tree ticked")

	g.log = nil
	g.enemy = false
	m.Update(&mem, ctx) // Combat → Idle: the running aim is halted
	assert.Equal(t, idle, mem.Active)
	assert.Equal(t, []string{"halt aim"}, g.log)
	assert.Equal(t, bt.Idle, g.run.Status)
	assert.Equal(t, bt.Idle, g.run.Memory.Status(1))

	g.log = nil
	g.enemy = true
	m.Update(&mem, ctx) // back in Combat: aim starts over from count 0
	m.Update(&mem, ctx)
	m.Update(&mem, ctx) // third aim succeeds, fire, the tree is done → Calm
	assert.Equal(t, []string{"aim", "aim", "aim", "fire", "done Success"}, g.log)
	assert.Equal(t, calm, mem.Active)
	assert.Equal(t, 1, hits)
}

// TestUtilitySelectorCountsFlipFlopsInSimulationTime: a UtilitySelector ticked
// every frame (1/60 s) whose winner turns back every 6 ticks (0.1 s) flip-flops:
// 5 changes back and forth within 0.5 s. The node decided without the clock and
// took each decision to last 0.1 s, so it counted those 5 changes over 3 s,
// more than utility.FlipWindow (2 s), and saw none; one ticked every 0.6 s,
// changing at every decision (5 changes in 2.4 s), counted them over 0.4 s and
// saw a flip-flop that is not one. Now it decides at ctx.Time.
func TestUtilitySelectorCountsFlipFlopsInSimulationTime(t *testing.T) {
	r := attackReasoner(t, utility.Policy{})
	run := func(dt float64, every int, ticks int) *fighter {
		tree := selectorTree(t, r)
		f := &fighter{dist: 1, utility: r.NewState()}
		mem := tree.NewMemory()
		ctx := &bt.Context{Agent: f, DT: dt}
		for i := range ticks {
			ctx.Time = float64(i+1) * dt
			if i%every == 0 && i > 0 {
				f.dist = 6 - f.dist // 1 ↔ 5: melee ↔ ranged
			}
			tree.Tick(&mem, ctx)
		}
		return f
	}
	fast := run(1.0/60, 6, 60)
	assert.Positive(t, fast.utility.FlipFlops, "a change every 0.1 s at 60 Hz")
	assert.True(t, fast.utility.FlipFlopping(1))
	slow := run(0.6, 1, 7)
	assert.Zero(t, slow.utility.FlipFlops, "a change every 0.6 s (5 changes in 2.4 s)")
}
