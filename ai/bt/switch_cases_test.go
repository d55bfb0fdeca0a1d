package bt

import (
	"math"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A Switch built in Go with a case that can never be picked (equal to an earlier one,
// or a float NaN) fails Compile naming the case, as the file loaders refuse one; it
// compiled, and the case's child never ran.
func TestSwitchRefusesUnreachableCases(t *testing.T) {
	s := blackboard.NewSchema()
	mode := In[string]{key: blackboard.MustDeclare[string](s, "mode")}
	speed := In[float64]{key: blackboard.MustDeclare[float64](s, "speed")}
	ok := func() *Node { return AlwaysSuccess() }
	_, err := Compile("dup", Switch(mode, []string{"walk", "run", "walk"}, ok(), ok(), ok(), ok()))
	require.ErrorIs(t, err, ErrUnreachableCase)
	assert.Contains(t, err.Error(), "case 2 (0-based)")
	_, err = Compile("nan", Switch(speed, []float64{1, math.NaN()}, ok(), ok(), ok()))
	require.ErrorIs(t, err, ErrUnreachableCase)
	assert.Contains(t, err.Error(), "case 1 (0-based)")
	_, err = Compile("fine", Switch(mode, []string{"walk", "run"}, ok(), ok(), ok()))
	require.NoError(t, err)
}
