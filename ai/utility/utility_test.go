package utility

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/archai-go/archai/ai/steer"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// facts is a test agent: fact i is read by the consideration with Input at(i).
type facts struct {
	v     [16]float64
	reads int
}

func at(i int) func(any) float64 {
	return Fact(func(f *facts) float64 { f.reads++; return f.v[i] })
}

// constant returns a consideration that scores x (identity curve).
func consider(i int) Consideration { return Consideration{Name: "f", Input: at(i)} }

func mustNew(t testing.TB, p Policy, actions ...Action) *Reasoner {
	t.Helper()
	r, err := New("test", p, actions...)
	require.NoError(t, err)
	return r
}

func TestCompensate(t *testing.T) {
	assert.Equal(t, 0.3, Compensate(0.3, 1), "one consideration: unchanged")
	assert.Equal(t, 0.625, Compensate(0.5, 2))
	assert.InDelta(t, 0.97875, Compensate(0.9, 8), 1e-15)
	assert.Equal(t, 0.0, Compensate(0, 8), "0 stays 0")
	assert.Equal(t, 1.0, Compensate(1, 8), "1 stays 1")
	assert.Equal(t, 0.4, Compensate(0.4, 0))
}

func TestCompensatedActionScores(t *testing.T) {
	for _, c := range []struct {
		n                  int
		each               float64
		compensated, plain float64
	}{
		{1, 0.5, 0.5, 0.5},
		{2, 0.5, 0.390625, 0.25},                         // 0.625²
		{8, 0.9, 0.8421204241446146, 0.4304672100000001}, // 0.97875⁸ against 0.9⁸
	} {
		ag := &facts{}
		var cons []Consideration
		for i := 0; i < c.n; i++ {
			ag.v[i] = c.each
			cons = append(cons, consider(i))
		}
		r := mustNew(t, Policy{},
			Action{Name: "compensated", Considerations: cons},
			Action{Name: "product", Combine: Product, Considerations: cons})
		s := r.NewState()
		r.Score(ag, &s)
		assert.InDelta(t, c.compensated, s.Scores[0], 1e-12, "n=%d compensated", c.n)
		assert.InDelta(t, c.plain, s.Scores[1], 1e-12, "n=%d product", c.n)
	}
}

func TestWeightAndConstantAction(t *testing.T) {
	ag := &facts{}
	ag.v[0] = 0.5
	r := mustNew(t, Policy{},
		Action{Name: "weighted", Weight: 3, Considerations: []Consideration{consider(0)}},
		Action{Name: "idle", Weight: 0.2},
		Action{Name: "zero weight counts as 1"})
	s := r.NewState()
	r.Score(ag, &s)
	assert.Equal(t, []float64{1.5, 0.2, 1}, s.Scores)
}

func TestVetoSkipsRemainingConsiderations(t *testing.T) {
	ag := &facts{}
	ag.v[0], ag.v[1], ag.v[2] = 0.8, 0, 0.9
	r := mustNew(t, Policy{},
		Action{Name: "a", Considerations: []Consideration{consider(0), consider(1), consider(2)}},
		Action{Name: "b", Weight: 0.1})
	s := r.NewState()
	assert.Equal(t, 1, r.Decide(ag, &s, nil))
	assert.Equal(t, 2, ag.reads, "the consideration after the veto is not read")
	assert.Equal(t, []float64{0.8, 0, NotEvaluated}, r.ConsiderationScores(&s, 0))
	assert.Equal(t, 0.0, s.Scores[0])
}

func TestWeightedSum(t *testing.T) {
	ag := &facts{}
	ag.v[0], ag.v[1] = 0.2, 0.6
	a := consider(0)
	b := consider(1)
	b.Weight = 3
	r := mustNew(t, Policy{},
		Action{Name: "sum", Combine: WeightedSum, Considerations: []Consideration{a, b}})
	s := r.NewState()
	r.Score(ag, &s)
	assert.InDelta(t, 0.5, s.Scores[0], 1e-15, "(1·0.2 + 3·0.6)/4")

	ag.v[0] = 0
	r.Score(ag, &s)
	assert.InDelta(t, 0.45, s.Scores[0], 1e-15, "a zero does not veto a sum")
	a.Veto = true
	r = mustNew(t, Policy{},
		Action{Name: "sum", Combine: WeightedSum, Considerations: []Consideration{a, b}})
	r.Score(ag, &s)
	assert.Equal(t, 0.0, s.Scores[0], "unless the consideration vetoes")
	assert.Equal(t, NotEvaluated, s.Considerations[1])
}

func TestConsiderationRangeAndCurve(t *testing.T) {
	ag := &facts{}
	ag.v[0] = 5 // cells to the nearest food
	c := Consideration{Input: at(0), Range: Range{Min: 10, Max: 0}, Curve: Quadratic()}
	assert.Equal(t, 0.25, c.Score(ag), "distance 5 of 10, inverted, squared")
	ag.v[0] = math.NaN()
	assert.Equal(t, 0.0, c.Score(ag))
	assert.Equal(t, 0.0, c.Score("not a *facts"), "a wrongly typed agent scores 0")
	assert.Equal(t, 0.0, c.Score((*facts)(nil)))
}

// twoActions returns a reasoner over actions scoring facts 0 and 1.
func twoActions(t *testing.T, p Policy) (*Reasoner, *facts) {
	r := mustNew(t, p,
		Action{Name: "a", Considerations: []Consideration{consider(0)}},
		Action{Name: "b", Considerations: []Consideration{consider(1)}})
	return r, &facts{}
}

func TestHysteresis(t *testing.T) {
	r, ag := twoActions(t, Policy{Hysteresis: 0.1})
	s := r.NewState()
	ag.v[0], ag.v[1] = 0.6, 0.5
	require.Equal(t, 0, r.Decide(ag, &s, nil))

	ag.v[0], ag.v[1] = 0.50, 0.54 // near tie: 0.50 × 1.1 = 0.55 > 0.54
	assert.Equal(t, 0, r.Decide(ag, &s, nil), "holds on a near tie")
	assert.Equal(t, []float64{0.50, 0.54}, s.Scores, "scores are stored without the bonus")
	assert.Equal(t, 0, s.Previous)

	ag.v[0], ag.v[1] = 0.50, 0.56 // clear win: 0.56 > 0.55
	assert.Equal(t, 1, r.Decide(ag, &s, nil), "switches on a clear win")
	assert.Equal(t, 0, s.Previous)
	assert.Equal(t, 1, s.Choice)

	ag.v[0], ag.v[1] = 0.60, 0.56 // now b holds: 0.56 × 1.1 = 0.616
	assert.Equal(t, 1, r.Decide(ag, &s, nil))

	ag.v[0], ag.v[1] = 0.01, 0 // a vetoed current action never holds
	assert.Equal(t, 0, r.Decide(ag, &s, nil))

	r0, _ := twoActions(t, Policy{})
	s0 := r0.NewState()
	ag.v[0], ag.v[1] = 0.6, 0.5
	r0.Decide(ag, &s0, nil)
	ag.v[0], ag.v[1] = 0.50, 0.54
	assert.Equal(t, 1, r0.Decide(ag, &s0, nil), "without hysteresis the near tie flips")
}

func TestArgmaxTiesAndNone(t *testing.T) {
	r, ag := twoActions(t, Policy{})
	s := r.NewState()
	ag.v[0], ag.v[1] = 0.5, 0.5
	assert.Equal(t, 0, r.Decide(ag, &s, nil), "tie: lowest index")
	s.Choice = 1
	assert.Equal(t, 1, r.Decide(ag, &s, nil), "tie: the current choice")
	ag.v[0], ag.v[1] = 0, 0
	assert.Equal(t, None, r.Decide(ag, &s, nil), "everything vetoed")
	assert.Equal(t, "None", r.ActionName(s.Choice))
	assert.Equal(t, "", r.ActionName(7))
}

// frequencies decides draws times from fresh choices and returns how often each action
// was picked.
func frequencies(r *Reasoner, ag *facts, seed uint64, draws int) []float64 {
	rng := steer.NewRand(seed)
	s := r.NewState()
	counts := make([]float64, r.Len())
	for range draws {
		s.Choice = None // no hysteresis between draws
		counts[r.Decide(ag, &s, &rng)]++
	}
	for i := range counts {
		counts[i] /= float64(draws)
	}
	return counts
}

// The tolerance of the frequency tests: with 100 000 draws the standard error of a
// frequency is at most √(0.25/100 000) ≈ 0.0016, so 0.01 is over six standard errors.
const freqDraws, freqTol = 100_000, 0.01

func TestSoftmaxFrequencies(t *testing.T) {
	r := mustNew(t, SoftmaxPolicy(0.25),
		Action{Name: "a", Considerations: []Consideration{consider(0)}},
		Action{Name: "b", Considerations: []Consideration{consider(1)}},
		Action{Name: "c", Considerations: []Consideration{consider(2)}},
		Action{Name: "vetoed", Considerations: []Consideration{consider(3)}})
	ag := &facts{}
	ag.v[0], ag.v[1], ag.v[2], ag.v[3] = 0.2, 0.5, 0.8, 0
	// e^(s/0.25) normalised over the three live actions.
	want := []float64{0.06517505598226614, 0.21638880630702365, 0.7184361377107102, 0}
	for _, seed := range []uint64{1, 42} {
		got := frequencies(r, ag, seed, freqDraws)
		assert.InDeltaSlice(t, want, got, freqTol, "seed %d", seed)
		assert.Equal(t, 0.0, got[3], "a vetoed action is never drawn")
	}
	assert.Equal(t, frequencies(r, ag, 7, 1000), frequencies(r, ag, 7, 1000), "replays from the seed")

	ag.v[0], ag.v[1], ag.v[2] = 0.5, 0.5, 0.5
	assert.InDeltaSlice(t, []float64{1. / 3, 1. / 3, 1. / 3, 0}, frequencies(r, ag, 3, freqDraws), freqTol)
}

func TestTopNFrequencies(t *testing.T) {
	r := mustNew(t, TopNPolicy(2),
		Action{Name: "a", Considerations: []Consideration{consider(0)}},
		Action{Name: "b", Considerations: []Consideration{consider(1)}},
		Action{Name: "c", Considerations: []Consideration{consider(2)}},
		Action{Name: "vetoed", Considerations: []Consideration{consider(3)}})
	ag := &facts{}
	ag.v[0], ag.v[1], ag.v[2], ag.v[3] = 0.2, 0.5, 0.3, 0
	// The two best, b and c, in proportion to their scores: 0.5/0.8 and 0.3/0.8.
	assert.InDeltaSlice(t, []float64{0, 0.625, 0.375, 0}, frequencies(r, ag, 9, freqDraws), freqTol)

	ag.v[0], ag.v[1], ag.v[2] = 0.5, 0.5, 0.5 // ties rank by index: a and b
	assert.InDeltaSlice(t, []float64{0.5, 0.5, 0, 0}, frequencies(r, ag, 9, freqDraws), freqTol)

	all := mustNew(t, TopNPolicy(0), Action{Name: "a", Considerations: []Consideration{consider(0)}},
		Action{Name: "b", Considerations: []Consideration{consider(1)}})
	ag.v[0], ag.v[1] = 0.1, 0.3
	assert.InDeltaSlice(t, []float64{0.25, 0.75}, frequencies(all, ag, 5, freqDraws), freqTol)
}

func TestRandomPoliciesWithoutSourceAreArgmax(t *testing.T) {
	for _, p := range []Policy{SoftmaxPolicy(1), TopNPolicy(3), SoftmaxPolicy(0)} {
		r, ag := twoActions(t, p)
		ag.v[0], ag.v[1] = 0.3, 0.4
		s := r.NewState()
		if p.Temperature == 0 {
			rng := steer.NewRand(1)
			assert.Equal(t, 1, r.Decide(ag, &s, &rng), "T=0 is argmax")
			continue
		}
		assert.Equal(t, 1, r.Decide(ag, &s, nil))
	}
}

// badSource returns out-of-range numbers.
type badSource struct{ x float64 }

func (b badSource) Float64() float64 { return b.x }

func TestBadSourceDoesNotPanic(t *testing.T) {
	r, ag := twoActions(t, SoftmaxPolicy(1))
	ag.v[0], ag.v[1] = 0.3, 0.4
	s := r.NewState()
	// a draw is forced into [0, 1): NaN and negatives draw 0, the first action; 1 and
	// above draw just under 1, the last
	for _, tc := range []struct {
		x    float64
		want int
	}{{math.NaN(), 0}, {-1, 0}, {1, 1}, {7, 1}, {math.Inf(1), 1}} {
		assert.Equal(t, tc.want, r.Decide(ag, &s, badSource{tc.x}), "source returns %v", tc.x)
	}
}

func TestStateSizing(t *testing.T) {
	r, ag := twoActions(t, Policy{})
	ag.v[1] = 0.5
	var s State // the zero State works
	assert.Equal(t, 1, r.Decide(ag, &s, nil))
	assert.Equal(t, None, s.Previous)
	assert.Len(t, s.Scores, 2)

	other := mustNew(t, Policy{}, Action{Name: "x"}, Action{Name: "y"}, Action{Name: "z"})
	os := other.NewState()
	os.Choice = 2
	assert.Equal(t, 1, r.Decide(ag, &os, nil), "a State from another reasoner is resized")
	assert.Equal(t, None, os.Previous)
	assert.Nil(t, r.ConsiderationScores(&os, 5))
	assert.Equal(t, uint64(1), os.Decisions)
}

func TestNewErrors(t *testing.T) {
	good := consider(0)
	cases := []struct {
		policy  Policy
		actions []Action
		want    error
	}{
		{Policy{}, nil, ErrNoActions},
		{Policy{}, []Action{{Name: "a", Considerations: []Consideration{{Name: "c"}}}}, ErrNilInput},
		{Policy{}, []Action{{Name: "a", Weight: math.NaN()}}, ErrBadWeight},
		{Policy{}, []Action{{Name: "a", Weight: -1}}, ErrBadWeight},
		{Policy{}, []Action{{Name: "a", Weight: math.Inf(1)}}, ErrBadWeight},
		{Policy{}, []Action{{Name: "a", Considerations: []Consideration{{Input: good.Input, Weight: -2}}}}, ErrBadWeight},
		{Policy{}, []Action{{Name: "a", Combine: 9}}, ErrBadCombine},
		{Policy{}, []Action{{Name: "a", Considerations: []Consideration{{Input: good.Input, Curve: Curve{Kind: 99}}}}}, ErrBadCurve},
		{Policy{Kind: 7}, []Action{{Name: "a"}}, ErrBadPolicy},
		{Policy{Hysteresis: math.NaN()}, []Action{{Name: "a"}}, ErrBadPolicy},
		{SoftmaxPolicy(-1), []Action{{Name: "a"}}, ErrBadPolicy},
		{TopNPolicy(-1), []Action{{Name: "a"}}, ErrBadPolicy},
	}
	for i, c := range cases {
		_, err := New("r", c.policy, c.actions...)
		assert.True(t, errors.Is(err, c.want), "case %d: %v", i, err)
	}
	_, err := New("villager", Policy{}, Action{Name: "eat"},
		Action{Name: "sleep", Considerations: []Consideration{good, {Name: "tired"}}})
	assert.EqualError(t, err, `utility: reasoner "villager": action 1 ("sleep"): consideration 1 ("tired"): consideration without Input`)
}

func TestNewCopiesActions(t *testing.T) {
	cons := []Consideration{consider(0)}
	actions := []Action{{Name: "a", Considerations: cons}}
	r := mustNew(t, Policy{}, actions...)
	actions[0].Name = "changed"
	cons[0].Curve = Linear(0, 0)
	ag := &facts{}
	ag.v[0] = 0.5
	s := r.NewState()
	r.Score(ag, &s)
	assert.Equal(t, "a", r.ActionName(0))
	assert.Equal(t, 0.5, s.Scores[0])
}

func TestAct(t *testing.T) {
	acted := ""
	r := mustNew(t, Policy{},
		Action{Name: "a", Considerations: []Consideration{consider(0)}, Act: func(any) { acted = "a" }},
		Action{Name: "b", Considerations: []Consideration{consider(1)}})
	ag := &facts{}
	ag.v[0] = 1
	s := r.NewState()
	r.Act(ag, &s) // no choice yet: nothing
	assert.Equal(t, "", acted)
	r.Decide(ag, &s, nil)
	r.Act(ag, &s)
	assert.Equal(t, "a", acted)
}

func TestDecideAllocatesNothing(t *testing.T) {
	for _, p := range []Policy{{Hysteresis: 0.2}, SoftmaxPolicy(0.3), TopNPolicy(2)} {
		r, agents := villagers(64)
		r.policy = p
		states := make([]State, len(agents))
		for i := range states {
			states[i] = r.NewState()
		}
		rng := steer.NewRand(1)
		i := 0
		allocs := testing.AllocsPerRun(1000, func() {
			k := i % len(agents)
			r.Decide(&agents[k], &states[k], &rng)
			i++
		})
		assert.Equal(t, 0.0, allocs, "%v", p.Kind)
	}
}

// TestTraceRecordsTheInputsUsed: with State.Trace set, Decide records each
// consideration's raw input (before its Range) in declaration order, NaN for one a
// veto skipped, and the reasoner that scored; the scores are those of an untraced
// decision.
func TestTraceRecordsTheInputsUsed(t *testing.T) {
	type agent struct{ hp, dist float64 }
	hp := Fact(func(a *agent) float64 { return a.hp })
	dist := Fact(func(a *agent) float64 { return a.dist })
	r, err := New("t", Policy{},
		Action{Name: "flee", Considerations: []Consideration{
			{Name: "hurt", Input: hp, Range: Range{Min: 100, Max: 0}, Curve: Linear(1, 0)},
			{Name: "foe near", Input: dist, Range: Range{Min: 20, Max: 0}, Curve: Linear(1, 0)},
		}},
		Action{Name: "fight", Considerations: []Consideration{
			{Name: "healthy", Input: hp, Range: Range{Min: 0, Max: 100}, Curve: Linear(1, 0)},
			{Name: "foe near", Input: dist, Range: Range{Min: 20, Max: 0}, Curve: Linear(1, 0)},
		}},
	)
	if err != nil {
		t.Fatal(err)
	}
	a := &agent{hp: 100, dist: 5} // flee's "hurt" scores 0: its "foe near" is vetoed
	plain := r.NewState()
	r.Decide(a, &plain, nil)
	var tr Trace
	traced := State{Trace: &tr} // the zero State: sized on the first decision, Trace kept
	r.Decide(a, &traced, nil)
	if traced.Trace != &tr || tr.Scorings != 1 || tr.Reasoner != r {
		t.Fatalf("Trace %p (want %p), Scorings %d (want 1), Reasoner %p (want %p)", traced.Trace, &tr, tr.Scorings, tr.Reasoner, r)
	}
	if fmt.Sprint(traced.Scores) != fmt.Sprint(plain.Scores) || fmt.Sprint(traced.Considerations) != fmt.Sprint(plain.Considerations) {
		t.Fatalf("traced scores %v %v, untraced %v %v", traced.Scores, traced.Considerations, plain.Scores, plain.Considerations)
	}
	if len(tr.Inputs) != 4 || tr.Inputs[0] != 100 || !math.IsNaN(tr.Inputs[1]) || tr.Inputs[2] != 100 || tr.Inputs[3] != 5 {
		t.Fatalf("inputs %v, want [100 NaN 100 5]", tr.Inputs)
	}
	a.hp = 40
	r.Decide(a, &traced, nil)
	if tr.Inputs[0] != 40 || tr.Inputs[1] != 5 || tr.Scorings != 2 {
		t.Fatalf("second decision: inputs %v, scorings %d", tr.Inputs, tr.Scorings)
	}
	if n := testing.AllocsPerRun(100, func() { r.Decide(a, &traced, nil) }); n != 0 {
		t.Fatalf("a traced decision allocates %v times", n)
	}
}

// TestStateCountsInputsClampedByTheZeroRange: an input outside [0, 1] under the
// zero Range (a raw fact whose Range was forgotten) is counted in State.Clamped;
// inputs inside it, within the rounding slack, under Range Unit, under another
// Range, or NaN are not.
func TestStateCountsInputsClampedByTheZeroRange(t *testing.T) {
	for _, c := range []struct {
		name  string
		v     float64
		rng   Range
		count uint64
	}{
		{"70 of 0–100, zero Range", 70, Range{}, 1},
		{"-0.5, zero Range", -0.5, Range{}, 1},
		{"+Inf, zero Range", math.Inf(1), Range{}, 1},
		{"0.7, zero Range", 0.7, Range{}, 0},
		{"1 + 1e-12 (rounding), zero Range", 1 + 1e-12, Range{}, 0},
		{"NaN, zero Range", math.NaN(), Range{}, 0},
		{"70, Range Unit: clamped knowingly", 70, Unit, 0},
		{"70, Range 0–100", 70, Range{Max: 100}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := c.v
			r, err := New("r", Policy{}, Action{Name: "a", Considerations: []Consideration{
				{Name: "x", Input: func(any) float64 { return v }, Range: c.rng}}})
			require.NoError(t, err)
			st := r.NewState()
			r.Decide(nil, &st, nil)
			r.Decide(nil, &st, nil)
			assert.Equal(t, 2*c.count, st.Clamped)
			assert.Zero(t, st.Unread)
		})
	}
}
