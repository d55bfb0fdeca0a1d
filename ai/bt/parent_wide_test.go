package bt_test

import (
	"testing"
	"time"

	"github.com/archai-go/archai/ai/bt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Tree.Parent is looked up, not searched: it scanned back from the node to the first
// whose subtree holds it, so the parents of every node of a Sequence of 65,534 leaves
// (what systems/debugview copies for the agent it shows, at every capture) took 3.1 s.
func TestParentOfEveryNodeOfAWideTreeIsQuick(t *testing.T) {
	kids := make([]*bt.Node, bt.MaxNodes-1)
	for i := range kids {
		kids[i] = bt.AlwaysSuccess()
	}
	tree, err := bt.Compile("wide", bt.Sequence(kids...))
	require.NoError(t, err)
	start := time.Now()
	for i := 1; i < tree.Len(); i++ {
		require.Equal(t, 0, tree.Parent(i))
		require.Equal(t, 1, tree.Depth(i))
	}
	assert.Less(t, time.Since(start), time.Second)
	assert.Equal(t, -1, tree.Parent(0))
	assert.Equal(t, 0, tree.Depth(0))

	deep, err := bt.Compile("deep", bt.Sequence(bt.Inverter(bt.Inverter(bt.Wait(1))), bt.Selector(bt.AlwaysSuccess(), bt.AlwaysFailure())))
	require.NoError(t, err)
	var parents, depths []int
	for i := range deep.Len() {
		parents, depths = append(parents, deep.Parent(i)), append(depths, deep.Depth(i))
	}
	assert.Equal(t, []int{-1, 0, 1, 2, 0, 4, 4}, parents)
	assert.Equal(t, []int{0, 1, 2, 3, 1, 2, 2}, depths)
}
