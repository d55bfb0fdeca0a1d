package hybrid

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// builtAgain is an agent whose state runs a tree built twice (a hot reload): log
// records each build's ticks and halts.
type builtAgain struct {
	run TreeRun
	log []string
}

// buildDig compiles the tree "dig" (an Action Running for good, whose halt hook is
// logged) as build v, and returns the hooks of a TreeState running it.
func buildDig(t *testing.T, v string) (*bt.Tree, fsm.Hooks) {
	t.Helper()
	tree, err := bt.Compile("dig", bt.Sequence(bt.Action("Dig", func(c *bt.Context) bt.Status {
		a := c.Agent.(*builtAgain)
		a.log = append(a.log, v+" dig")
		c.Node().Count++
		return bt.Running
	}).OnHalt(func(c *bt.Context) {
		a := c.Agent.(*builtAgain)
		a.log = append(a.log, v+" halt dig")
	})))
	require.NoError(t, err)
	return tree, TreeState(tree, func(ctx *fsm.Context) *TreeRun { return &ctx.Agent.(*builtAgain).run }, nil)
}

// TestTreeStateHaltsAnEarlierBuild: a TreeRun whose Memory is still an earlier build
// of the state's tree (the machine swapped for one built again while the tree ran) is
// halted by that build, its Running nodes getting their halt hooks, before the new
// build starts over on it, as a Brain's Memory is when its Tree is replaced. It used
// to be reset with no halt: the earlier build's Running Action never heard of it.
func TestTreeStateHaltsAnEarlierBuild(t *testing.T) {
	v1, h1 := buildDig(t, "v1")
	v2, h2 := buildDig(t, "v2")
	a := &builtAgain{}
	ctx := &fsm.Context{Agent: a, DT: 0.1, Time: 1}
	h1.Update(ctx)
	h1.Update(ctx)
	require.Same(t, v1, a.run.Memory.Tree())
	require.Equal(t, uint16(2), a.run.Memory.Nodes()[1].Count)

	h2.Update(ctx) // the first update under the rebuilt machine
	assert.Equal(t, []string{"v1 dig", "v1 dig", "v1 halt dig", "v2 dig"}, a.log,
		"the earlier build halts its Running Dig once, then the new build starts over")
	assert.Same(t, v2, a.run.Memory.Tree())
	assert.Same(t, v2, a.run.Tree)
	assert.Equal(t, bt.Running, a.run.Status)
	assert.Equal(t, uint16(1), a.run.Memory.Nodes()[1].Count, "Dig counted from 0 again")
	assert.Nil(t, a.run.Context.Agent, "no agent view kept")
	assert.Equal(t, 0.1, a.run.Context.DT, "the tick's dt is the machine's")
}

// TestTreeStateExitHaltsAnEarlierBuild: a state left while its TreeRun's Memory is
// still an earlier build's (the rebuilt machine's first update takes a transition
// out of the state) halts that build's Running nodes with it. Exit used to return
// without a halt: the Running nodes stayed Running in the Memory while the agent was
// elsewhere, and the earlier build's Action never heard of it.
func TestTreeStateExitHaltsAnEarlierBuild(t *testing.T) {
	v1, h1 := buildDig(t, "v1")
	_, h2 := buildDig(t, "v2")
	a := &builtAgain{}
	ctx := &fsm.Context{Agent: a, DT: 0.1, Time: 1}
	h1.Update(ctx)

	h2.Exit(ctx)
	assert.Equal(t, []string{"v1 dig", "v1 halt dig"}, a.log)
	assert.Same(t, v1, a.run.Memory.Tree(), "halted, the Memory stays the earlier build's")
	assert.Same(t, v1, a.run.Tree, "the tree last halted with the TreeRun")
	assert.Equal(t, bt.Idle, a.run.Status)
	for i, n := range a.run.Memory.Nodes() {
		assert.Equal(t, bt.NodeMemory{}, n, "node %d Idle", i)
	}

	h2.Update(ctx) // the state entered again: nothing left to halt, the new build starts
	assert.Equal(t, []string{"v1 dig", "v1 halt dig", "v2 dig"}, a.log)
}
