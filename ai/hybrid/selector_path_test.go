package hybrid

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/utility"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bt.Compile's error path named a UtilitySelector Choose("Pick"), a type the user never
// wrote; it names it by its type, as Dump and the debugger do.
func TestCompileErrorNamesUtilitySelectorByType(t *testing.T) {
	r, err := utility.New("r", utility.Policy{}, utility.Action{Name: "a"})
	require.NoError(t, err)
	state := func(*bt.Context) (*utility.State, utility.Source) { return &utility.State{}, nil }

	_, err = bt.Compile("t", bt.Sequence(UtilitySelector("Pick", nil, state, bt.Wait(1))))
	require.ErrorIs(t, err, bt.ErrNilFunc)
	assert.EqualError(t, err, `bt: tree "t": root/Sequence[0]/UtilitySelector("Pick"): leaf function is nil`)

	_, err = bt.Compile("t", UtilitySelector("Pick", r, state, bt.Sequence(bt.Wait(-1))))
	require.ErrorIs(t, err, bt.ErrInvalidDuration)
	assert.Contains(t, err.Error(), `root/UtilitySelector("Pick")[0]/Sequence[0]/Wait:`)
	assert.NotContains(t, err.Error(), "Choose")
}
