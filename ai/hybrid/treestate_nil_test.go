package hybrid

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A TreeState given a nil tree (bt.Compile's error ignored) built, and every update
// did nothing, with nothing to say why; one given a nil run function built and
// panicked at its first update. fsm.Builder.Build refuses both now, naming the state,
// with an error wrapping fsm.ErrHooks and ErrNilTree or ErrNilRun.
func TestTreeStateWithoutTreeOrRunIsRefused(t *testing.T) {
	tree, err := bt.Compile("t", bt.Action("a", func(*bt.Context) bt.Status { return bt.Success }))
	require.NoError(t, err)
	var r TreeRun
	run := func(*fsm.Context) *TreeRun { return &r }

	var none *bt.Tree
	for _, tc := range []struct {
		hooks fsm.Hooks
		want  error
	}{
		{TreeState(none, run, nil), ErrNilTree},
		{TreeState(tree, nil, nil), ErrNilRun},
	} {
		b := fsm.NewBuilder("m")
		b.State("Idle", fsm.Hooks{})
		b.State("Work", tc.hooks)
		_, err := b.Build()
		require.ErrorIs(t, err, fsm.ErrHooks)
		require.ErrorIs(t, err, tc.want)
		assert.ErrorContains(t, err, `state "Work"`)
	}

	b := fsm.NewBuilder("m")
	b.State("Work", TreeState(tree, run, nil))
	m, err := b.Build()
	require.NoError(t, err)
	var mem fsm.Memory
	m.Update(&mem, &fsm.Context{})
	assert.Equal(t, bt.Success, r.Status)
}
