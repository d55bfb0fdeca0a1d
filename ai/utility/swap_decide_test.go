package utility

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A State decided by one reasoner and then handed to another of the same shape (a
// program swapping UtilityBrain.Reasoner, two UtilitySelector nodes given one State)
// is "one from another Reasoner": its choice is reset, so the hysteresis bonus of the
// old reasoner's choice does not go to the new reasoner's action of that index.
func TestAStateOfAnotherReasonerOfTheSameShapeStartsAfresh(t *testing.T) {
	ag := &facts{}
	ag.v[0], ag.v[1] = 0.5, 0.48
	p := Policy{}.WithHysteresis(0.1)
	old := mustNew(t, p,
		Action{Name: "eat", Considerations: []Consideration{consider(1)}},
		Action{Name: "sleep", Considerations: []Consideration{consider(0)}})
	s := old.NewState()
	require.Equal(t, 1, old.Decide(ag, &s, nil), "the old reasoner picks sleep (0.5 > 0.48)")

	swapped := mustNew(t, p,
		Action{Name: "attack", Considerations: []Consideration{consider(0)}},
		Action{Name: "flee", Considerations: []Consideration{consider(1)}})
	got := swapped.Decide(ag, &s, nil)
	assert.Equal(t, 0, got, "attack 0.5 beats flee 0.48: flee never was this reasoner's choice, so it gets no bonus")
	assert.Equal(t, None, s.Previous, "no choice of the new reasoner before")
}

// A State sized for a reasoner that no reasoner has scored since it was made (as a
// save loads it: plain data) is that reasoner's: its choice keeps the bonus.
func TestAStateLoadedKeepsItsChoice(t *testing.T) {
	ag := &facts{}
	ag.v[0], ag.v[1] = 0.5, 0.48
	r := mustNew(t, Policy{}.WithHysteresis(0.1),
		Action{Name: "attack", Considerations: []Consideration{consider(0)}},
		Action{Name: "flee", Considerations: []Consideration{consider(1)}})
	loaded := State{Choice: 1, Previous: 1, Scores: []float64{0.5, 0.48}, Considerations: []float64{0.5, 0.48}, Decisions: 7}
	assert.Equal(t, 1, r.Decide(ag, &loaded, nil), "flee 0.48 × 1.1 holds against attack 0.5")
	assert.Equal(t, uint64(8), loaded.Decisions)
	// and a copy of it (a template agent's State copied) stays r's
	cp := loaded
	assert.Equal(t, 1, r.Decide(ag, &cp, nil))
}
