package save

import (
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/script"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pinTrees are trees whose fingerprints files already hold: a small patrol, a guard
// with names (one not ASCII), pre- and post-conditions and every branch shape, and a
// deep one: a chain of Inverters over a comb of Sequences (each the first child of
// the one above, so its lines carry "│   " prefixes) ending in two leaves.
func pinTrees(t testing.TB) []*bt.Tree {
	idle := func(*bt.Context) bt.Status { return bt.Running }
	yes := func(*bt.Context) bool { return true }
	patrol, err := bt.Compile("patrol", bt.Sequence(bt.Action("a", idle), bt.Wait(2)))
	require.NoError(t, err)

	schema := blackboard.NewSchema()
	blackboard.MustDeclare[bool](schema, "skip")
	env := &script.Env{Schema: schema}
	guard, err := bt.Compile("guard", bt.ReactiveSelector(
		bt.ReactiveSequence(bt.Condition("hurt", yes), bt.Action("flee ✓", idle)),
		bt.Parallel(1, 1, bt.Inverter(bt.Condition("seen", yes)).SkipIf(script.MustCompile("skip", env)), bt.Wait(1)),
		bt.Repeat(3, bt.Selector(bt.Action("attack", idle).Post(script.MustCompile("skip", env)), bt.AlwaysFailure())),
		bt.AlwaysSuccess(),
	))
	require.NoError(t, err)

	n := bt.Sequence(bt.Action("end", idle), bt.AlwaysSuccess())
	for range 150 {
		n = bt.Sequence(n, bt.Condition("side", yes))
	}
	for range 150 {
		n = bt.Inverter(n)
	}
	deep, err := bt.Compile("deep", n)
	require.NoError(t, err)
	return []*bt.Tree{patrol, guard, deep}
}

// The fingerprints of trees saved files hold do not change (a file records them, and a
// load compares them with the registry's trees'): the values the FNV-1a of Dump gave.
func TestTreeFingerprintsArePinned(t *testing.T) {
	want := []string{"fnv1a64:0160ec4ec233dade", "fnv1a64:813259a51f60b544", "fnv1a64:a7bfb98eb53906b5"}
	for i, tree := range pinTrees(t) {
		assert.Equal(t, want[i], printOf(tree), tree.Name())
	}
}
