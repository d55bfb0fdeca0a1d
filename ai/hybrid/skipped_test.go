package hybrid

import (
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/script"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A skipped root is reported to done as bt.Skipped, and the tree is entered afresh (its
// precondition checked again) on the next update.
func TestTreeStateSkippedRoot(t *testing.T) {
	s := blackboard.NewSchema()
	quiet := blackboard.MustDeclare[bool](s, "quiet")
	shots := 0
	tree, err := bt.Compile("fire", bt.Action("fire", func(*bt.Context) bt.Status {
		shots++
		return bt.Success
	}).SkipIf(script.MustCompile("quiet", &script.Env{Schema: s})))
	require.NoError(t, err)

	var run TreeRun
	var seen []bt.Status
	b := fsm.NewBuilder("guard")
	var calm fsm.StateID
	combat := b.State("Combat", TreeState(tree, func(*fsm.Context) *TreeRun { return &run },
		func(_ *fsm.Context, st bt.Status) fsm.StateID {
			seen = append(seen, st)
			if st == bt.Skipped {
				return fsm.None // nothing to do yet: stay
			}
			return calm
		}))
	calm = b.State("Calm", fsm.Hooks{})
	m, err := b.Build()
	require.NoError(t, err)

	st := s.NewStore()
	ctx := &fsm.Context{DT: 0.25, Blackboard: st}
	var mem fsm.Memory
	blackboard.Set(st, quiet, true)
	m.Update(&mem, ctx)
	m.Update(&mem, ctx)
	assert.Equal(t, combat, mem.Active, "Skipped: done chose to stay")
	assert.Equal(t, bt.Skipped, run.Status)
	assert.Zero(t, shots)
	blackboard.Set(st, quiet, false)
	m.Update(&mem, ctx)
	assert.Equal(t, calm, mem.Active)
	assert.Equal(t, 1, shots, "re-entered after Skipped: the precondition is checked again")
	assert.Equal(t, []bt.Status{bt.Skipped, bt.Skipped, bt.Success}, seen)
}
