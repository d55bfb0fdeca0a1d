package utility

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func always(any) float64 { return 1 }

// A WeightedSum whose weights add up to +Inf divided +Inf by +Inf: the action scored NaN
// and never won, though every consideration scored 1 (it lost to a 0.1 idle action). New
// refuses such weights now.
func TestWeightedSumWeightsThatOverflowAreRefused(t *testing.T) {
	_, err := New("ws", Policy{},
		Action{Name: "attack", Combine: WeightedSum, Considerations: []Consideration{
			{Name: "a", Input: always, Weight: 1e308}, {Name: "b", Input: always, Weight: 1e308}}},
		Action{Name: "idle", Weight: 0.1})
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrBadWeight))
	assert.Contains(t, err.Error(), `action 0 ("attack")`)

	// large but summable weights still work, and score what they should
	r, err := New("ws", Policy{},
		Action{Name: "attack", Combine: WeightedSum, Considerations: []Consideration{
			{Name: "a", Input: always, Weight: 8e307}, {Name: "b", Input: always, Weight: 8e307}}},
		Action{Name: "idle", Weight: 0.1})
	require.NoError(t, err)
	s := r.NewState()
	assert.Equal(t, 0, r.Decide(nil, &s, nil))
	assert.Equal(t, 1.0, s.Scores[0])
}

type fixed float64

func (f fixed) Float64() float64 { return float64(f) }

// Softmax and TopN sum the actions' values (Weight × combined score × the current
// choice's 1 + Hysteresis). Weights such as math.MaxFloat64 (a "top priority" tier)
// overflowed those sums: TopN over two MaxFloat64 actions and a 1e-300 one always picked
// the 1e-300 one; Softmax with Hysteresis 1 flipped to a 1e-300 action every other
// decision. New refuses weights whose values cannot be summed now.
func TestRandomPolicyWeightsThatOverflowAreRefused(t *testing.T) {
	for _, p := range []Policy{TopNPolicy(0), SoftmaxPolicy(0.1).WithHysteresis(1), TopNPolicy(2).WithHysteresis(1)} {
		_, err := New("big", p,
			Action{Name: "a", Weight: math.MaxFloat64},
			Action{Name: "b", Weight: math.MaxFloat64},
			Action{Name: "tiny", Weight: 1e-300})
		require.Error(t, err, "%v", p)
		assert.True(t, errors.Is(err, ErrBadWeight), "%v", p)
	}
	// Argmax sums nothing: any finite weights are fine
	r, err := New("big", Policy{Hysteresis: 1},
		Action{Name: "a", Weight: math.MaxFloat64},
		Action{Name: "tiny", Weight: 1e-300})
	require.NoError(t, err)
	s := r.NewState()
	for range 3 {
		assert.Equal(t, 0, r.Decide(nil, &s, nil))
	}
	// weights up to the limit still pick by their share: a and b, never tiny
	r, err = New("big", TopNPolicy(0),
		Action{Name: "a", Weight: math.MaxFloat64 / 4},
		Action{Name: "b", Weight: math.MaxFloat64 / 4},
		Action{Name: "tiny", Weight: 1e-300})
	require.NoError(t, err)
	s = r.NewState()
	var picks [3]int
	for k := range 10 {
		picks[r.Decide(nil, &s, fixed(float64(k)/10))]++
	}
	assert.Equal(t, [3]int{5, 5, 0}, picks)
}
