package utility

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newbie of 2026-12-06 (city simulation): a consideration whose curve is 0 at every
// input in [0, 1], Linear(1, -2) (B meant within [0, 1]), built without a word, and its
// action, vetoed by the zero score, was never chosen: nothing counted or reported it, as
// a NaN parameter was before New refused those. New refuses such a curve now.

// zeroOnUnit reports whether cv scores 0 at each of n+1 evenly spaced inputs in [0, 1].
func zeroOnUnit(cv Curve, n int) bool {
	for i := 0; i <= n; i++ {
		if cv.Eval(float64(i)/float64(n)) > 0 {
			return false
		}
	}
	return true
}

func TestNewRefusesACurveThatScoresZeroEverywhere(t *testing.T) {
	for _, cv := range []Curve{
		Linear(1, -2), // the newcomer's: B = -2 meant as something in [0, 1]
		Linear(-1, 0), // falling from 0: below 0 at every x > 0
		Linear(1e300, -1e300),
		{Kind: CurvePolynomial, M: 1, K: 0.5, C: 2},  // the root of a negative: NaN
		{Kind: CurvePolynomial, M: -1, K: 2, C: 0.3}, // −(x − 0.3)²: 0 at its peak, below elsewhere
		{Kind: CurveNormal, M: 1, K: 0.1, B: -1, C: 0.5},
		{Kind: CurveLogistic, M: 10, K: 1, B: -1, C: 0.5},
		{Kind: CurveExponential, M: -1, K: 3},
		{Kind: CurveSmoothstep, M: -1, K: 0.6, C: 0.2},
		{Kind: CurveLogit, M: 1, K: 1, C: 2},    // defined for x in (2, 3) only
		{Kind: CurveLogit, M: 1, K: 1, C: 0.99}, // defined on (0.99, 1], where it is below 0
	} {
		require.True(t, zeroOnUnit(cv, 10000), "%+v scores somewhere (a wrong case)", cv)
		_, err := newWith(Consideration{Curve: cv})
		require.ErrorIs(t, err, ErrCurveZero, "%+v", cv)
	}
	_, err := newWith(Consideration{Curve: Linear(1, -2)})
	assert.EqualError(t, err, `utility: reasoner "wolf": action 1 ("hunt"): consideration 1 ("hunger"): `+
		`curve scores 0 at every input in [0, 1]: a Linear curve with M 1, K 0, B -2, C 0 is 0 or below (or NaN) `+
		`wherever its input is, so it vetoes its action, which can never be chosen (B and C shift the curve, M scales or flips it)`)
}

// Curves that score above 0 somewhere, however little or narrowly, are accepted; so is a
// zero curve where a zero score vetoes nothing (a WeightedSum without Veto), and a Sine,
// which is not checked.
func TestNewAcceptsACurveThatScoresSomewhere(t *testing.T) {
	for _, cv := range []Curve{
		{Kind: CurvePolynomial, M: -1, K: 2, B: 1e-9, C: 0.3}, // only about its peak at C
		Normal(0.5, 1e-200), // a spike at the mean
		{Kind: CurveNormal, M: 2, K: 1e-3, B: -1, C: 0.7}, // above 0 within about 1e-3 of 0.7
		Smoothstep(1, 1),                         // a step at 1: 1 at x = 1 only
		{Kind: CurveLogit, M: -1, K: 1, C: 0.99}, // defined on (0.99, 1], falling from +Inf
		{Kind: CurveLogit, M: -2, K: 0, B: 0.5},  // B inside (0, 1), NaN (0·Inf) at 0 and 1
		Polynomial(-1),                           // 1 everywhere (clamped)
		Linear(0, 1e-300),
		{Kind: CurveSine, M: 1, K: 1, B: -2}, // 0 everywhere, but Sine is not checked
	} {
		_, err := newWith(Consideration{Curve: cv})
		assert.NoError(t, err, "%+v", cv)
	}
	in := func(any) float64 { return 0.5 }
	_, err := New("r", Policy{}, Action{Name: "a", Combine: WeightedSum,
		Considerations: []Consideration{{Name: "dead", Input: in, Curve: Linear(1, -2)}, {Name: "live", Input: in}}})
	assert.NoError(t, err, "a WeightedSum adds the 0: no veto")
	_, err = New("r", Policy{}, Action{Name: "a", Combine: WeightedSum,
		Considerations: []Consideration{{Name: "dead", Input: in, Curve: Linear(1, -2), Veto: true}, {Name: "live", Input: in}}})
	assert.ErrorIs(t, err, ErrCurveZero, "with Veto it vetoes")
}

// New never refuses a curve that scores above 0 at some input: for random curves of every
// checked kind, a refused one scores 0 at 20,001 evenly spaced inputs too (as all its
// candidates do).
func TestCurveZeroRefusesOnlyZeroCurves(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	pick := func() float64 {
		switch rng.IntN(4) {
		case 0:
			return float64(rng.IntN(5) - 2)
		case 1:
			return rng.Float64()*4 - 2
		case 2:
			return rng.Float64()
		}
		return math.Ldexp(rng.Float64()*2-1, rng.IntN(40)-20)
	}
	refused := 0
	for i := 0; i < 5000; i++ {
		cv := Curve{Kind: CurveKind(rng.IntN(int(numCurveKinds))), M: pick(), K: pick(), B: pick(), C: pick()}
		if cv.Kind == CurveSine {
			continue
		}
		err := cv.checkScores()
		if err == nil {
			continue
		}
		require.True(t, errors.Is(err, ErrCurveZero))
		refused++
		require.True(t, zeroOnUnit(cv, 20000), "refused %+v, which scores above 0 somewhere", cv)
	}
	assert.Greater(t, refused, 25, "the draw should refuse some curves")
}

func TestLoadJSONRefusesACurveThatScoresZeroEverywhere(t *testing.T) {
	reg := NewRegistry(nil)
	require.NoError(t, reg.RegisterInput("hunger", func(any) float64 { return 0.5 }))
	_, err := reg.LoadJSON("v.json", []byte(`{"name": "v", "actions": [
  {"name": "eat", "considerations": [{"name": "hungry", "input": "hunger", "curve": {"kind": "Linear", "m": 1, "b": -2}}]}]}`))
	require.ErrorIs(t, err, ErrCurveZero)
	require.ErrorIs(t, err, ErrSyntax)
	assert.Contains(t, err.Error(), `v.json:2:`)
	assert.Contains(t, err.Error(), `actions[0].considerations[0]`)
}
