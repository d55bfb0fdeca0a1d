package bt

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Tree.Parent is looked up, not searched: it scanned back from the node to the first
// whose subtree holds it, so the parents of every node of a Sequence of 65,534 leaves
// (what systems/debugview copies for the agent it shows, at every capture) took 3.1 s.
//
// The test used to time that loop against a bound of 1 s: 0.34 s of it on a loaded
// machine with GOMAXPROCS=1. It now checks what makes the loop quick, the same in
// every run: Compile fills a table of the parents, one entry per node, and Parent
// answers from it (a table entry changed by hand is what Parent then says; a search
// would still find node 0).
func TestParentOfEveryNodeOfAWideTreeIsQuick(t *testing.T) {
	kids := make([]*Node, MaxNodes-1)
	for i := range kids {
		kids[i] = AlwaysSuccess()
	}
	tree, err := Compile("wide", Sequence(kids...))
	require.NoError(t, err)
	require.Len(t, tree.parent, tree.Len(), "one parent a node, filled by Compile")
	for i := 1; i < tree.Len(); i++ {
		require.Equal(t, 0, tree.Parent(i))
		require.Equal(t, 1, tree.Depth(i))
	}
	assert.Equal(t, -1, tree.Parent(0))
	assert.Equal(t, 0, tree.Depth(0))
	last := tree.Len() - 1
	tree.parent[last] = int32(last - 1) // (not a tree Compile makes: this one is dropped)
	assert.Equal(t, last-1, tree.Parent(last), "Parent reads the table")
	assert.Equal(t, 2, tree.Depth(last), "Depth follows the table")

	deep, err := Compile("deep", Sequence(Inverter(Inverter(Wait(1))), Selector(AlwaysSuccess(), AlwaysFailure())))
	require.NoError(t, err)
	var parents, depths []int
	for i := range deep.Len() {
		parents, depths = append(parents, deep.Parent(i)), append(depths, deep.Depth(i))
	}
	assert.Equal(t, []int{-1, 0, 1, 2, 0, 4, 4}, parents)
	assert.Equal(t, []int{0, 1, 2, 3, 1, 2, 2}, depths)
}
