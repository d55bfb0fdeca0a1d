package utility

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStateReasonerIsTheLastToScoreIt: a State tells which reasoner it holds the
// decision of (the debugger shows a hybrid.UtilitySelector's State by it before
// any Trace recorded a scoring): nil when made, the reasoner after its Decide,
// the other reasoner after a swap.
func TestStateReasonerIsTheLastToScoreIt(t *testing.T) {
	a, err := New("a", Policy{}, Action{Name: "x"}, Action{Name: "y", Weight: 0.5})
	require.NoError(t, err)
	b, err := New("b", Policy{}, Action{Name: "x"}, Action{Name: "y", Weight: 0.5})
	require.NoError(t, err)
	s := a.NewState()
	assert.Nil(t, s.Reasoner(), "made, never scored")
	var zero State
	assert.Nil(t, zero.Reasoner())
	a.Decide(nil, &s, nil)
	assert.Same(t, a, s.Reasoner())
	b.Decide(nil, &s, nil)
	assert.Same(t, b, s.Reasoner())
}
