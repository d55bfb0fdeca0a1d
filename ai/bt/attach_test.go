package bt

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Tree.Attached returns each node's Node.Attach value at its pre-order index, nil for
// the nodes without one (also after the last attached node), and nil everywhere in a
// tree without any; ticking never reads it.
func TestAttachedValuesFollowTheirNodes(t *testing.T) {
	ok := func(*Context) Status { return Success }
	tree, err := Compile("t", Sequence(Action("A", ok).Attach("a"), Selector(Action("B", ok), Action("C", ok).Attach(3)), Action("D", ok)))
	require.NoError(t, err)
	want := []any{nil, "a", nil, nil, 3, nil}
	require.Equal(t, len(want), tree.Len())
	for i, w := range want {
		assert.Equal(t, w, tree.Attached(i), "node %d %s", i, tree.NodeName(i))
	}
	m := tree.NewMemory()
	assert.Equal(t, Success, tree.Tick(&m, &Context{}))

	plain, err := Compile("p", Sequence(Action("A", ok), Action("B", ok).Attach(nil)))
	require.NoError(t, err)
	for i := range plain.Len() {
		assert.Nil(t, plain.Attached(i))
	}
	assert.Panics(t, func() { plain.Attached(plain.Len()) })
}
