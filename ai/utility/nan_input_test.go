package utility

import (
	"math"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A newcomer's input, food per head, read 0/0 = NaN while the store was empty: the
// action scored 0 for good, and nothing counted it (State.Unread counts only the NaN
// of an input that cannot read the agent). A State counts the NaN inputs of each
// scoring in NaNInputs, and NaNInput is the first's index, which Locate names; the
// NaNs of the setup faults counted elsewhere (Unread, NoBlackboard), a KeyInput of a
// key not set (a designer's veto) and ±Inf inputs (which clamp under a Range, and count
// in Clamped under the zero Range) are not counted; a consideration a veto skipped is
// not read.
func TestStateCountsNaNInputs(t *testing.T) {
	s := blackboard.NewSchema()
	stock := blackboard.MustDeclare[float64](s, "stock")
	wrong := Fact(func(p *position) float64 { return p.x })
	r, err := New("colonist", Policy{},
		Action{Name: "idle", Weight: 0.1},
		Action{Name: "eat", Weight: 2, Considerations: []Consideration{
			{Name: "hungry", Input: at(0), Curve: Linear(1, 0)},
			{Name: "food per head", Input: at(1), Range: Range{Min: 0, Max: 10}, Curve: Linear(1, 0)},
			{Name: "skipped", Input: at(2)}, // after the veto: never read
		}},
		Action{Name: "haul", Combine: WeightedSum, Considerations: []Consideration{
			{Name: "load", Input: at(3)},                               // NaN, no Veto: adds 0 to the mean
			{Name: "far", Input: at(4), Range: Range{Min: 0, Max: 20}}, // +Inf: clamps to 1
			{Name: "raw", Input: at(5)},                                // -Inf: counted in Clamped
			{Name: "stock", Input: KeyInput(stock)},                    // not set: a designer's veto
			{Name: "wrong", Input: wrong},                              // Unread
		}},
	)
	require.NoError(t, err)
	agent := &boardAgent{st: s.NewStore()}
	f := &facts{v: [16]float64{0.8, math.NaN(), 0.7, math.NaN(), math.Inf(1), math.Inf(-1)}}
	st := r.NewState()
	r.Decide(f, &st, nil)
	assert.Equal(t, uint32(2), st.NaNInputs, "food per head and load")
	assert.Equal(t, 1, st.NaNInput, "food per head: the first")
	a, c, ok := r.Locate(st.NaNInput)
	require.True(t, ok)
	assert.Equal(t, "eat", r.ActionName(a))
	assert.Equal(t, "food per head", r.actions[a].Considerations[c].Name)
	assert.Equal(t, 0.0, st.Scores[1], "the NaN vetoes eat")
	assert.Equal(t, NotEvaluated, r.ConsiderationScores(&st, 1)[2])
	assert.Equal(t, 0.0, r.ConsiderationScores(&st, 2)[0], "NaN scores 0 in a WeightedSum")
	assert.Equal(t, 1.0, r.ConsiderationScores(&st, 2)[1], "+Inf under a Range clamps to 1")
	assert.Equal(t, uint64(1), st.Clamped, "-Inf under the zero Range")
	assert.Equal(t, uint64(2), st.Unread, "the wrong Fact, and the KeyInput given no BlackboardAgent")

	// Per scoring: the next, with food per head a number, counts only load.
	f.v[1] = 5
	r.Decide(f, &st, nil)
	assert.Equal(t, uint32(1), st.NaNInputs)
	a, c, _ = r.Locate(st.NaNInput)
	assert.Equal(t, "haul", r.ActionName(a))
	assert.Equal(t, "load", r.actions[a].Considerations[c].Name)
	assert.Greater(t, st.Scores[1], 0.0)
	f.v[3] = 0.5
	r.Score(f, &st)
	assert.Zero(t, st.NaNInputs)

	// A KeyInput of a key not set reads NaN (a designer's veto), not counted.
	keyOnly, err := New("k", Policy{}, Action{Name: "a", Considerations: []Consideration{{Name: "stock", Input: KeyInput(stock)}}})
	require.NoError(t, err)
	ks := keyOnly.NewState()
	keyOnly.Decide(agent, &ks, nil)
	assert.Zero(t, ks.NaNInputs)
	assert.True(t, math.IsNaN(KeyInput(stock)(agent)), "a key not set reads NaN")
	assert.Zero(t, ks.Unread+ks.NoBlackboard)

	// Counting allocates nothing, traced or not.
	f.v[1], f.v[3] = math.NaN(), math.NaN()
	assert.Zero(t, testing.AllocsPerRun(50, func() { r.Decide(f, &st, nil) }))
	st.Trace = &Trace{}
	r.Decide(f, &st, nil)
	assert.Equal(t, uint32(2), st.NaNInputs, "traced")
	assert.Equal(t, 1, st.NaNInput)
	assert.Zero(t, testing.AllocsPerRun(50, func() { r.Decide(f, &st, nil) }))
}

// Locate names the action and consideration of each index of State.Considerations,
// actions without considerations passed over.
func TestLocate(t *testing.T) {
	r := mustNew(t, Policy{},
		Action{Name: "none"},
		Action{Name: "two", Considerations: []Consideration{consider(0), consider(1)}},
		Action{Name: "none either"},
		Action{Name: "one", Considerations: []Consideration{consider(2)}},
		Action{Name: "last"})
	for k, want := range [][2]int{{1, 0}, {1, 1}, {3, 0}} {
		a, c, ok := r.Locate(k)
		require.True(t, ok, "%d", k)
		assert.Equal(t, want, [2]int{a, c}, "%d", k)
	}
	for _, k := range []int{-1, 3, math.MaxInt} {
		a, c, ok := r.Locate(k)
		assert.False(t, ok)
		assert.Equal(t, [2]int{None, -1}, [2]int{a, c})
	}
}
