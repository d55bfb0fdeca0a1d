package hybrid

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/utility"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A UtilitySelector given a nil reasoner (utility.New's error ignored) compiled, and
// every tick failed with nothing to say why; one given a nil state function compiled
// and panicked at its first tick. Both are refused by bt.Compile now, with
// ErrNilFunc naming the node, as a bt.Choose without a function is.
func TestUtilitySelectorWithoutReasonerOrStateIsRefused(t *testing.T) {
	r, err := utility.New("r", utility.Policy{}, utility.Action{Name: "a"})
	require.NoError(t, err)
	state := func(*bt.Context) (*utility.State, utility.Source) { return &utility.State{}, nil }
	leaf := func() *bt.Node { return bt.Action("a", func(*bt.Context) bt.Status { return bt.Success }) }

	var none *utility.Reasoner
	_, err = bt.Compile("t", UtilitySelector("Pick", none, state, leaf()))
	require.ErrorIs(t, err, bt.ErrNilFunc)
	assert.ErrorContains(t, err, "Pick")
	_, err = bt.Compile("t", UtilitySelector("Pick", r, nil, leaf()))
	require.ErrorIs(t, err, bt.ErrNilFunc)

	tree, err := bt.Compile("t", UtilitySelector("Pick", r, state, leaf()))
	require.NoError(t, err)
	mem := tree.NewMemory()
	assert.Equal(t, bt.Success, tree.Tick(&mem, &bt.Context{}))
}
