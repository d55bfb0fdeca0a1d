package bt_test

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A Memory belongs to one tree: another tree with as many nodes panics on it
// (before, it ticked on, resuming the other tree's running child), though it halts the
// memory's own tree (after a swap, a program halting "the agent's tree"), a Memory over
// saved nodes belongs to the first tree that ticks it, and ResetMemory gives it to
// another tree on the same storage.
func TestAMemoryBelongsToOneTree(t *testing.T) {
	a, err := bt.Compile("a", bt.Sequence(bt.AlwaysSuccess(), bt.Action("run", func(*bt.Context) bt.Status { return bt.Running })))
	require.NoError(t, err)
	b, err := bt.Compile("b", bt.Sequence(bt.AlwaysFailure(), bt.AlwaysSuccess()))
	require.NoError(t, err)
	require.Equal(t, a.Len(), b.Len())
	ctx := &bt.Context{DT: 0.1}
	m := a.NewMemory()
	assert.Same(t, a, m.Tree())
	assert.Equal(t, bt.Running, a.Tick(&m, ctx))
	assert.PanicsWithValue(t, "bt: Memory was not made by this Tree's NewMemory (another tree's, or of another length)", func() { b.Tick(&m, ctx) })
	b.Halt(&m, ctx) // halts a, whose running action m holds (a Brain's Tree replaced since its last think)
	assert.Equal(t, bt.Idle, m.Status(2))
	assert.Same(t, a, m.Tree())
	assert.Equal(t, bt.Running, a.Tick(&m, ctx))
	assert.Error(t, b.Dump(discard{}, &m))

	c := m.Clone()
	saved := bt.MemoryOf(c.Nodes())
	assert.Nil(t, saved.Tree())
	assert.Equal(t, bt.Running, a.Tick(&saved, ctx), "a saved memory resumes its tree")
	assert.Same(t, a, saved.Tree())

	a.Halt(&m, ctx)
	nodes := m.Nodes()
	assert.True(t, b.ResetMemory(&m), "as many nodes: the same storage")
	assert.Same(t, &nodes[0], &m.Nodes()[0])
	assert.Same(t, b, m.Tree())
	assert.Equal(t, bt.Failure, b.Tick(&m, ctx))
	assert.Equal(t, 0.0, testing.AllocsPerRun(100, func() { a.ResetMemory(&m); b.ResetMemory(&m) }))
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
