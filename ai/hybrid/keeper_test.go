package hybrid_test

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/hybrid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// keeper is an agent view that records what TreeState hands it.
type keeper struct {
	run    hybrid.TreeRun
	calls  int
	states map[any]int
	nodes  []bt.NodeMemory // the node memory last kept
}

func (k *keeper) KeepTreeRun(state any, r *hybrid.TreeRun) {
	k.calls++
	k.states[state]++
	k.nodes = r.Memory.Nodes()
}

// TestTreeStateKeepsNewMemory: TreeState hands the TreeRun to a Keeper agent on its
// first update and when it allocates a new Memory, not on later updates; the kept nodes
// are the run's; Context.Agent is cleared after each update; warm updates allocate
// nothing.
func TestTreeStateKeepsNewMemory(t *testing.T) {
	tree, err := bt.Compile("walk", bt.Sequence(
		bt.Condition("ok", func(*bt.Context) bool { return true }),
		bt.Action("walk", func(*bt.Context) bt.Status { return bt.Running })))
	require.NoError(t, err)
	b := fsm.NewBuilder("m")
	b.State("Walk", hybrid.TreeState(tree, func(c *fsm.Context) *hybrid.TreeRun { return &c.Agent.(*keeper).run }, nil))
	m, err := b.Build()
	require.NoError(t, err)

	k := &keeper{states: map[any]int{}}
	var mem fsm.Memory
	ctx := &fsm.Context{Agent: k, DT: 0.1}
	m.Update(&mem, ctx)
	require.Equal(t, 1, k.calls, "first update: the new Memory is kept")
	assert.Len(t, k.states, 1)
	assert.Equal(t, tree.Len(), len(k.nodes))
	assert.Same(t, &k.run.Memory.Nodes()[0], &k.nodes[0], "the run's own node memory is kept")
	assert.Nil(t, k.run.Context.Agent, "the agent view is not left in the component")
	for range 5 {
		m.Update(&mem, ctx)
	}
	assert.Equal(t, 1, k.calls, "later updates keep nothing")

	k.run.Memory = bt.Memory{} // a Memory that does not fit: allocated again, kept again
	m.Update(&mem, ctx)
	assert.Equal(t, 2, k.calls)
	assert.Same(t, &k.run.Memory.Nodes()[0], &k.nodes[0])
	for _, n := range k.states {
		assert.Equal(t, 2, n, "one state key for the state")
	}

	k.run.Context = bt.Context{} // a loaded run (Context not saved): kept on its first update
	m.Update(&mem, ctx)
	assert.Equal(t, 3, k.calls)

	allocs := testing.AllocsPerRun(200, func() { m.Update(&mem, ctx) })
	assert.Equal(t, 0.0, allocs)
	assert.Equal(t, 3, k.calls)
}
