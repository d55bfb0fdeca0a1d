package utility

import (
	"math"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type position struct{ x float64 }

// A consideration that cannot read its agent (a Fact of another type, a KeyInput given
// an agent without a blackboard) vetoes as documented, and the State counts it in
// Unread; a fact that reads, or a key merely not set, is not counted.
func TestStateCountsInputsThatCannotReadTheAgent(t *testing.T) {
	s := blackboard.NewSchema()
	threat := blackboard.MustDeclare[float64](s, "threat")
	wrong := Fact(func(p *position) float64 { return p.x }) // wired to another type
	r, err := New("r", Policy{},
		Action{Name: "flee", Considerations: []Consideration{
			{Name: "near", Input: wrong, Curve: Linear(1, 0)},
			{Name: "hp", Input: at(0), Curve: Linear(1, 0)}, // vetoed: never read
		}},
		Action{Name: "fight", Considerations: []Consideration{
			{Name: "threat", Input: KeyInput(threat), Curve: Linear(1, 0)},
		}},
		Action{Name: "idle", Weight: 0.1, Considerations: []Consideration{
			{Name: "hp", Input: at(0), Curve: Linear(1, 0)},
		}, Combine: WeightedSum})
	require.NoError(t, err)
	agent := &facts{v: [16]float64{0.5}}
	st := r.NewState()
	for range 3 {
		assert.Equal(t, 2, r.Decide(agent, &st, nil))
	}
	assert.Equal(t, uint64(6), st.Unread, "per decision: the wrong Fact and the KeyInput of an agent without a blackboard")
	assert.Equal(t, 0.0, st.Scores[0], "the unread fact vetoes")
	assert.Equal(t, NotEvaluated, r.ConsiderationScores(&st, 0)[1])

	board := &boardAgent{st: s.NewStore()} // a BlackboardAgent whose key is not set
	st2 := r.NewState()
	r.Decide(board, &st2, nil)
	assert.Equal(t, uint64(2), st2.Unread, "the two Facts of other types; the key not set is a designer's veto, not counted")

	ok, err := New("ok", Policy{}, Action{Name: "a", Considerations: []Consideration{{Name: "x", Input: at(0)}}})
	require.NoError(t, err)
	right := ok.NewState()
	ok.Decide(agent, &right, nil)
	assert.Zero(t, right.Unread)
	assert.True(t, math.IsNaN(wrong(agent)), "an unread input is a NaN like any other")
	assert.Zero(t, testing.AllocsPerRun(50, func() { r.Decide(agent, &st, nil) }))
}
