package bt_test

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Nested finite Repeat and Retry counts multiply: a tree whose loops could run a child
// more than MaxTickCycles times in one tick is refused, from Go or from a file. Before,
// Repeat(65535, Repeat(65535, AlwaysSuccess)) compiled and its first tick took 20 s
// (three levels: days).
func TestNestedLoopsThatWouldHangATickAreRefused(t *testing.T) {
	_, err := bt.Compile("t", bt.Repeat(65535, bt.Retry(65535, bt.AlwaysFailure())))
	require.ErrorIs(t, err, bt.ErrInvalidCount)
	assert.Contains(t, err.Error(), "more than 1048576")
	_, err = bt.Compile("t", bt.Repeat(16, bt.Sequence(bt.Repeat(65536/16-1, bt.AlwaysSuccess()), bt.Repeat(bt.Forever, bt.AlwaysSuccess()))))
	require.NoError(t, err, "within the bound; Forever runs one cycle a tick")
	_, err = bt.Compile("t", bt.Sequence(bt.Repeat(65535, bt.AlwaysSuccess()), bt.Repeat(65535, bt.AlwaysSuccess())))
	require.NoError(t, err, "side by side the counts add, not multiply")
	// a child that cannot complete in the tick it starts runs once a tick (a reviewer
	// found these refused by a bound on the product of the counts alone)
	_, err = bt.Compile("t", bt.Repeat(1100, bt.Repeat(1000, bt.Wait(1))))
	require.NoError(t, err, "a Wait: one cycle a tick")
	_, err = bt.Compile("t", bt.Repeat(bt.MaxCount, bt.Sequence(bt.Wait(1), bt.Repeat(20, bt.AlwaysSuccess()))))
	require.NoError(t, err, "a Wait first in the sequence")
	// siblings add: 64 branches of 65535 cycles, 16 times, is 67 million ticks in one
	// tick (0.34 s measured), refused though each path multiplies to under the bound
	many := make([]*bt.Node, 64)
	for i := range many {
		many[i] = bt.Repeat(65535, bt.AlwaysSuccess())
	}
	_, err = bt.Compile("t", bt.Repeat(16, bt.Sequence(many...)))
	require.ErrorIs(t, err, bt.ErrInvalidCount, "siblings add up")

	reg := bt.NewRegistry(nil)
	_, err = reg.LoadXML("nested.xml", []byte(`<root BTCPP_format="4" main_tree_to_execute="t">
		<BehaviorTree ID="t"><Repeat num_cycles="65535"><SubTree ID="inner"/></Repeat></BehaviorTree>
		<BehaviorTree ID="inner"><Repeat num_cycles="65535"><Repeat num_cycles="65535"><AlwaysSuccess/></Repeat></Repeat></BehaviorTree>
	</root>`))
	require.NoError(t, err)
	_, err = reg.Tree("t")
	require.ErrorIs(t, err, bt.ErrInvalidCount, "counts multiply through a SubTree too")
}
