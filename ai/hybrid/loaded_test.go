package hybrid

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/stretchr/testify/require"
)

// A TreeRun loaded from a file has a zero Context and a Memory of the
// file's; one of the tree's length that CheckMemory refuses (a Sequence
// running a child past its last, a tampered or another tree's save) is
// replaced by a fresh Memory, as TreeRun's doc says, before the first tick:
// ticked as it was, the Sequence succeeded at once without ticking a child.
// A Memory that fits is kept (the Wait goes on where it was).
func TestTreeStateReplacesALoadedMemoryThatDoesNotFit(t *testing.T) {
	sweeps := 0
	tree, err := bt.Compile("chores", bt.Sequence(bt.Wait(0.3), bt.Action("Sweep", func(*bt.Context) bt.Status {
		sweeps++
		return bt.Success
	})))
	require.NoError(t, err)
	var r TreeRun
	h := TreeState(tree, func(*fsm.Context) *TreeRun { return &r }, nil)
	ctx := &fsm.Context{DT: 0.1}

	r.Memory = tree.NewMemory()
	r.Memory.Nodes()[0].Status, r.Memory.Nodes()[0].Child = bt.Running, 2 // past the last child
	require.Error(t, tree.CheckMemory(r.Memory))
	h.Update(ctx)
	require.Equal(t, bt.Running, r.Status, "the tree starts afresh: its Wait runs")
	require.Equal(t, 0, sweeps)

	// a Memory that fits, loaded part way through the Wait, goes on
	h.Update(ctx)
	saved := r.Memory.Clone()
	r = TreeRun{Memory: saved} // as loaded: the Context is not saved
	h.Update(ctx)
	require.Equal(t, bt.Running, r.Status)
	h.Update(ctx)
	require.Equal(t, bt.Success, r.Status, "the loaded Wait finished on time")
	require.Equal(t, 1, sweeps)
}
