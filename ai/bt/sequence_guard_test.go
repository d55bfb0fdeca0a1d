package bt_test

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The example of Sequence's doc comment: a Sequence does not check its guard again
// while the action after it runs, so ReactiveSelector(Sequence(SeesFoe, Chase), Patrol)
// keeps chasing a foe it no longer sees; ReactiveSequence(SeesFoe, Chase) patrols
// again on the first tick after the guard fails, and halts Chase.
func TestSequenceGuardIsNotCheckedWhileTheActionRuns(t *testing.T) {
	for _, c := range []struct {
		name  string
		guard func(children ...*bt.Node) *bt.Node
		want  string // the leaf that runs once the foe is lost
	}{
		{"Sequence", bt.Sequence, "chase"},
		{"ReactiveSequence", bt.ReactiveSequence, "patrol"},
	} {
		t.Run(c.name, func(t *testing.T) {
			sees := true
			var ran string
			halted := 0
			chase := bt.Action("Chase", func(*bt.Context) bt.Status { ran = "chase"; return bt.Running }).
				OnHalt(func(*bt.Context) { halted++ })
			tree, err := bt.Compile("guard", bt.ReactiveSelector(
				c.guard(bt.Condition("SeesFoe", func(*bt.Context) bool { return sees }), chase),
				bt.Action("Patrol", func(*bt.Context) bt.Status { ran = "patrol"; return bt.Running }),
			))
			require.NoError(t, err)
			m := tree.NewMemory()
			ctx := &bt.Context{}
			assert.Equal(t, bt.Running, tree.Tick(&m, ctx))
			assert.Equal(t, "chase", ran, "chases while it sees the foe")
			sees = false
			for range 3 {
				assert.Equal(t, bt.Running, tree.Tick(&m, ctx))
				assert.Equal(t, c.want, ran, "foe lost")
			}
			if c.want == "patrol" {
				assert.Equal(t, 1, halted, "Chase halted once")
			} else {
				assert.Equal(t, 0, halted, "Chase never halted")
			}
		})
	}
}
