package utility

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStateCountsChoicesThatFlipFlop: two actions whose scores cross and cross
// again (A 0.50 against B 0.52, then 0.48, ...) make the zero Policy's choice go
// back and forth; State.Flips counts the changes back in a row, and from the
// FlipLimit-th on each is a flip-flop (State.FlipFlops, FlipActions). A hysteresis
// of 0.1 holds the choice: no change at all. A choice that goes back only after
// more than FlipWindow seconds (Decide counts 0.1 s a decision), or on to a third
// action, is no flip; FlipWindow seconds without a change end a run. (The window
// was FlipWindow = 10 decisions; it is 2 s of simulation time now.)
func TestStateCountsChoicesThatFlipFlop(t *testing.T) {
	var b float64
	acts := func() []Action {
		return []Action{
			{Name: "A", Considerations: []Consideration{{Name: "a", Input: func(any) float64 { return 0.5 }}}},
			{Name: "B", Considerations: []Consideration{{Name: "b", Input: func(any) float64 { return b }}}},
			{Name: "C", Considerations: []Consideration{{Name: "c", Input: func(any) float64 { return 0 }}}},
		}
	}
	decide := func(r *Reasoner, st *State, bs ...float64) {
		for _, v := range bs {
			b = v
			r.Decide(nil, st, nil)
		}
	}
	r, err := New("r", Policy{}, acts()...)
	require.NoError(t, err)
	st := r.NewState()
	decide(r, &st, 0.48, 0.52, 0.48, 0.52, 0.48) // A, B, A, B, A
	assert.Equal(t, uint32(3), st.Flips, "B→A, A→B, B→A: the first change (A→B) left nothing to go back to")
	assert.Zero(t, st.FlipFlops)
	decide(r, &st, 0.52) // B: the 4th flip in a row
	assert.Equal(t, uint32(4), st.Flips)
	assert.Equal(t, uint64(1), st.FlipFlops)
	assert.Equal(t, [2]int{0, 1}, st.FlipActions, "A left, B chosen")
	decide(r, &st, 0.48, 0.48) // A, and stays once
	assert.Equal(t, uint64(2), st.FlipFlops)
	assert.Equal(t, [2]int{1, 0}, st.FlipActions)

	for range 21 { // A holds 2.1 s: the run ends
		decide(r, &st, 0.48)
	}
	assert.Zero(t, st.Flips, "FlipWindow seconds without a change end the run")
	assert.Equal(t, uint64(2), st.FlipFlops, "flip-flops since the State was made stay counted")

	slow := r.NewState() // back and forth, each after 2.1 s: no flip
	for k := range 8 {
		v := 0.48
		if k%2 == 1 {
			v = 0.52
		}
		for range 21 {
			decide(r, &slow, v)
		}
	}
	assert.Zero(t, slow.Flips)
	assert.Zero(t, slow.FlipFlops)

	held, err := New("r", Policy{}.WithHysteresis(0.1), acts()...)
	require.NoError(t, err)
	hs := held.NewState()
	decide(held, &hs, 0.48, 0.52, 0.48, 0.52, 0.48, 0.52, 0.48, 0.52)
	assert.Equal(t, uint64(8), hs.Decisions)
	assert.Equal(t, 0, hs.Choice, "A holds against 0.52 < 0.5·1.1")
	assert.Zero(t, hs.Flips)
	assert.Zero(t, hs.FlipFlops)

	assert.Zero(t, testing.AllocsPerRun(100, func() { decide(r, &st, 0.48, 0.52) }))
}
