package utility

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newbie18, finding 4: New accepted a NaN (or infinite) curve parameter or Range bound;
// the consideration then scored 0 for every input, so its action never won, with no
// error, count or finding, although New refused a NaN weight. It refuses them now,
// for every curve kind, naming the action, the consideration and the parameter.

// newWith builds a reasoner whose second action's second consideration is c.
func newWith(c Consideration) (*Reasoner, error) {
	in := func(any) float64 { return 0.5 }
	c.Name, c.Input = "hunger", in
	return New("wolf", Policy{},
		Action{Name: "rest"},
		Action{Name: "hunt", Considerations: []Consideration{{Name: "prey", Input: in}, c}})
}

func TestNewRefusesNonFiniteCurveParameters(t *testing.T) {
	bad := []float64{math.NaN(), math.Inf(1), math.Inf(-1)}
	for kind := CurveKind(0); kind < numCurveKinds; kind++ {
		for p, name := range []string{"M", "K", "B", "C"} {
			for _, v := range bad {
				cv := Curve{Kind: kind, M: 1, K: 1}
				switch p {
				case 0:
					cv.M = v
				case 1:
					cv.K = v
				case 2:
					cv.B = v
				case 3:
					cv.C = v
				}
				_, err := newWith(Consideration{Curve: cv})
				require.ErrorIs(t, err, ErrBadParam, "%v %s=%v", kind, name, v)
				want := `utility: reasoner "wolf": action 1 ("hunt"): consideration 1 ("hunger"): ` +
					`curve and range parameters must be finite: Curve.` + name + ` of a ` + kind.String() +
					` curve is ` + fmtFloat(v)
				assert.Equal(t, want, err.Error())
			}
		}
	}
}

func fmtFloat(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "+Inf"
	}
	return "-Inf"
}

func TestNewRefusesNonFiniteRangeBounds(t *testing.T) {
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		_, err := newWith(Consideration{Range: Range{Min: v, Max: 1}})
		require.ErrorIs(t, err, ErrBadParam)
		assert.ErrorContains(t, err, `consideration 1 ("hunger"): curve and range parameters must be finite: Range.Min is `+fmtFloat(v))
		_, err = newWith(Consideration{Range: Range{Min: 0, Max: v}})
		require.ErrorIs(t, err, ErrBadParam)
		assert.ErrorContains(t, err, "Range.Max is "+fmtFloat(v))
	}
}

// The cases newbie18 tried, each of which used to build and score 0 forever.
func TestNewRefusesNaNCurves(t *testing.T) {
	nan := math.NaN()
	for _, c := range []Consideration{
		{Curve: Linear(nan, 0)},
		{Curve: Logistic(nan, 0.5)},
		{Curve: Logistic(10, nan)},
		{Curve: Curve{Kind: CurvePolynomial, K: nan}},
		{Range: Range{Min: nan, Max: 1}},
		{Curve: Smoothstep(0, math.Inf(1))},
		{Curve: Normal(nan, 0.1)},
		{Range: Range{Min: 0, Max: math.Inf(1)}},
	} {
		before := c.Curve.Eval(c.Range.Normalize(0.5))
		_, err := newWith(c)
		assert.True(t, errors.Is(err, ErrBadParam), "%+v: %v", c, err)
		assert.Equal(t, 0.0, before, "%+v: it scored 0 (a veto) at 0.5", c)
	}
}

// Degenerate finite parameters are still accepted: each has a documented meaning.
func TestNewAcceptsDegenerateFiniteParameters(t *testing.T) {
	for _, c := range []Consideration{
		{Curve: Normal(0.5, 0)},                             // a spike at the mean
		{Curve: Smoothstep(0.5, 0.5)},                       // a step
		{Curve: Exponential(0)},                             // the line
		{Curve: Logistic(1e300, 0.5)},                       // a step
		{Curve: Curve{Kind: CurveLinear, M: 1e300, C: 0.5}}, // steep (Linear(1e300, -1e300) is 0 at every input: ErrCurveZero)
		{Range: Range{Min: 3, Max: 3}},                      // a step
		{Range: Range{Min: -math.MaxFloat64, Max: math.MaxFloat64}},
		{Range: Range{Min: 10, Max: 0}}, // inverted
		{Curve: Curve{Kind: CurveIdentity, M: -1e308}},
	} {
		_, err := newWith(c)
		assert.NoError(t, err, "%+v", c)
	}
}

// Two finite parameters that scored 0 where the formula has a value: an Exponential
// whose e^K overflows (K > 709.78: Inf/Inf or x/Inf, so 0 at every x, the same silent
// veto as a NaN), and a Normal whose K² underflows (0/0 on the mean, where the K = 0
// limit is M + B).
func TestExtremeFiniteParametersScoreTheirLimit(t *testing.T) {
	for _, k := range []float64{709, 710, 800, 1e6} {
		c := Exponential(k)
		assert.Equal(t, 1.0, c.Eval(1), "K=%v at 1", k)
		assert.Equal(t, 0.0, c.Eval(0), "K=%v at 0", k)
		// e^(K·(x − 1)): at x = 1 − 1/K it is 1/e (to the ratio's rounding)
		assert.InDelta(t, math.Exp(-1), c.Eval(1-1/k), 1e-9, "K=%v", k)
	}
	assert.InDelta(t, math.Expm1(700*0.99)/math.Expm1(700), Exponential(700).Eval(0.99), 1e-15, "K ≤ 709.78 keeps its formula")
	assert.Equal(t, 1.0, Curve{Kind: CurveExponential, M: 1, K: 800, C: -0.5}.Eval(0.75), "past x = 1 + C: clamped to 1")

	n := Normal(0.5, 1e-200)
	assert.Equal(t, 1.0, n.Eval(0.5), "on the mean: the peak")
	assert.Equal(t, 0.0, n.Eval(0.6))
	assert.InDelta(t, math.Exp(-0.5), Normal(0, 1e-160).Eval(1e-160), 1e-3, "K² a denormal (few digits): still the formula")
}
