package bt_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMemoryCloneIsDeepAndCheckMemoryFindsMisfits(t *testing.T) {
	idle := func(*bt.Context) bt.Status { return bt.Running }
	tree, err := bt.Compile("t", bt.Sequence(bt.Action("a", idle), bt.Action("b", idle)))
	require.NoError(t, err)
	m := tree.NewMemory()
	m.Nodes()[1].Timer = math.NaN()
	c := m.Clone()
	c.Nodes()[0].Status = bt.Running
	assert.Equal(t, bt.Idle, m.Status(0), "a clone shares no node")
	assert.True(t, math.IsNaN(c.Nodes()[1].Timer))
	assert.NoError(t, tree.CheckMemory(c), "a NaN timer fits")

	assert.ErrorIs(t, tree.CheckMemory(bt.MemoryOf(make([]bt.NodeMemory, 2))), bt.ErrMemoryMismatch)
	bad := bt.MemoryOf(make([]bt.NodeMemory, 3))
	bad.Nodes()[2].Status = bt.Skipped + 1
	err = tree.CheckMemory(bad)
	assert.ErrorIs(t, err, bt.ErrMemoryMismatch)
	assert.ErrorContains(t, err, `node 2 (b)`)
	assert.Equal(t, bt.Memory{}, bt.Memory{}.Clone())
}
