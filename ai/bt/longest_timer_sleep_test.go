package bt

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// LongestTimer counts a Sleep as its doc says: a Go-built Sleep(5000) meant 5 s and
// sleeps 83 minutes, and a Sleep in a SubTree counts for the tree using it.
func TestLongestTimerCountsSleep(t *testing.T) {
	tree, err := Compile("s", Sequence(Wait(2), Sleep(5000)))
	require.NoError(t, err)
	i, secs, ok := tree.LongestTimer()
	require.True(t, ok)
	assert.Equal(t, "Sleep", tree.NodeName(i))
	assert.Equal(t, 5000.0, secs)

	r := NewRegistry(nil)
	_, err = r.LoadXML("t.xml", []byte(`<root BTCPP_format="4" main_tree_to_execute="Main">
<BehaviorTree ID="Main"><Sequence><Wait seconds="1"/><SubTree ID="Nap"/></Sequence></BehaviorTree>
<BehaviorTree ID="Nap"><Sleep msec="900000"/></BehaviorTree></root>`))
	require.NoError(t, err)
	tree, err = r.Tree("Main")
	require.NoError(t, err)
	i, secs, ok = tree.LongestTimer()
	require.True(t, ok)
	assert.Equal(t, "Sleep", tree.NodeName(i))
	assert.Equal(t, 900.0, secs)
}
