package utility

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCurveKnownPoints(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		name  string
		curve Curve
		x, y  float64
	}{
		{"identity 0", Curve{}, 0, 0},
		{"identity 1", Curve{}, 1, 1},
		{"identity mid", Curve{}, 0.3, 0.3},
		{"identity clamps input above", Curve{}, 1.5, 1},
		{"identity clamps input below", Curve{}, -0.2, 0},
		{"identity NaN", Curve{}, nan, 0},
		{"identity +Inf", Curve{}, inf, 0},
		{"identity -Inf", Curve{}, -inf, 0},

		{"linear falling 0", Linear(-1, 1), 0, 1},
		{"linear falling 1", Linear(-1, 1), 1, 0},
		{"linear falling 0.25", Linear(-1, 1), 0.25, 0.75},
		{"linear output clamped", Linear(2, 0), 0.75, 1},
		{"linear shifted", Curve{Kind: CurveLinear, M: 1, C: 0.5}, 0.25, 0},
		{"linear NaN", Linear(-1, 1), nan, 0}, // not the curve's value at 0

		{"quadratic 0", Quadratic(), 0, 0},
		{"quadratic 0.5", Quadratic(), 0.5, 0.25},
		{"quadratic 1", Quadratic(), 1, 1},
		{"inverse quadratic 0", InverseQuadratic(), 0, 1},
		{"inverse quadratic 0.5", InverseQuadratic(), 0.5, 0.75},
		{"inverse quadratic 1", InverseQuadratic(), 1, 0},
		{"square root", Polynomial(0.5), 0.25, 0.5},
		{"negative base, fractional power", Curve{Kind: CurvePolynomial, M: 1, K: 0.5, C: 0.5}, 0.25, 0},

		{"exponential 0", Exponential(2), 0, 0},
		{"exponential 1", Exponential(2), 1, 1},
		{"exponential 0.5", Exponential(2), 0.5, 0.2689414213699951},
		{"exponential k=0 is linear", Exponential(0), 0.5, 0.5},

		{"logistic midpoint", Logistic(10, 0.5), 0.5, 0.5},
		{"logistic 0", Logistic(10, 0.5), 0, 0.0066928509242848554},
		{"logistic 1", Logistic(10, 0.5), 1, 0.9933071490757153},

		{"logit midpoint", Logit(10, 0.5), 0.5, 0.5},
		{"logit 0.9", Logit(10, 0.5), 0.9, 0.719722457733622},
		{"logit 0 is -Inf, clamped", Logit(10, 0.5), 0, 0},
		{"logit 1 is +Inf, clamped", Logit(10, 0.5), 1, 1},
		{"logit with zero steepness is NaN", Curve{Kind: CurveLogit, K: 1}, 0.5, 0},

		{"normal mean", Normal(0.5, 0.1), 0.5, 1},
		{"normal one sd", Normal(0.5, 0.1), 0.6, 0.6065306597126334},
		{"normal 0", Normal(0.5, 0.1), 0, 3.726653172078671e-06},
		{"normal 1", Normal(0.5, 0.1), 1, 3.726653172078671e-06},
		{"normal zero width on mean", Normal(0.5, 0), 0.5, 1},
		{"normal zero width off mean", Normal(0.5, 0), 0.51, 0},

		{"sine quarter 0", Sine(0.5), 0, 0},
		{"sine quarter 0.5", Sine(0.5), 0.5, 0.7071067811865475},
		{"sine quarter 1", Sine(0.5), 1, 1},
		{"sine half peak", Sine(1), 0.5, 1},

		{"smoothstep 0", Smoothstep(0, 1), 0, 0},
		{"smoothstep 0.25", Smoothstep(0, 1), 0.25, 0.15625},
		{"smoothstep 0.5", Smoothstep(0, 1), 0.5, 0.5},
		{"smoothstep 1", Smoothstep(0, 1), 1, 1},
		{"smoothstep edges", Smoothstep(0.2, 0.6), 0.4, 0.5},
		{"smoothstep zero width below", Smoothstep(0.2, 0.2), 0.1, 0},
		{"smoothstep zero width at", Smoothstep(0.2, 0.2), 0.2, 1},

		{"unknown kind", Curve{Kind: 200}, 0.5, 0},
	}
	for _, c := range cases {
		assert.InDelta(t, c.y, c.curve.Eval(c.x), 1e-12, c.name)
	}
}

func TestLogitUndoesLogistic(t *testing.T) {
	for _, x := range []float64{0.05, 0.3, 0.5, 0.77, 0.95} {
		y := Logistic(10, 0.5).Eval(x)
		assert.InDelta(t, x, Logit(10, 0.5).Eval(y), 1e-12)
	}
}

func TestCurveOutputAlwaysInUnitInterval(t *testing.T) {
	params := []float64{-1e300, -10, -1, -0.5, 0, 0.5, 1, 3, 1e300, math.NaN(), math.Inf(1)}
	for kind := CurveKind(0); kind < numCurveKinds; kind++ {
		for _, m := range params {
			for _, k := range params {
				for _, x := range []float64{0, 0.5, 1, math.NaN()} {
					y := Curve{Kind: kind, M: m, K: k, B: k / 3, C: m / 7}.Eval(x)
					if !(y >= 0 && y <= 1) {
						t.Fatalf("%v m=%v k=%v x=%v: %v", kind, m, k, x, y)
					}
				}
			}
		}
	}
}

func TestRangeNormalize(t *testing.T) {
	inf := math.Inf(1)
	cases := []struct {
		name string
		r    Range
		v, y float64
	}{
		{"mid", Range{0, 10}, 5, 0.5},
		{"min", Range{0, 10}, 0, 0},
		{"max", Range{0, 10}, 10, 1},
		{"below", Range{0, 10}, -1, 0},
		{"above", Range{0, 10}, 20, 1},
		{"inverted at min", Range{10, 0}, 10, 0},
		{"inverted at max", Range{10, 0}, 0, 1},
		{"inverted 2.5", Range{10, 0}, 2.5, 0.75},
		{"zero width below", Range{3, 3}, 2.9, 0},
		{"zero width at", Range{3, 3}, 3, 1},
		{"+Inf is far", Range{0, 20}, inf, 1},
		{"-Inf", Range{0, 20}, -inf, 0},
		// finite bounds whose width overflows (every fact read 0 before, break15)
		{"widest range, 0", Range{-1e308, 1e308}, 0, 0.5},
		{"widest range, top", Range{-1e308, 1e308}, 1e308, 1},
		{"widest range, bottom", Range{-1e308, 1e308}, -1e308, 0},
		{"widest range, 5e307", Range{-1e308, 1e308}, 5e307, 0.75},
		{"widest inverted", Range{math.MaxFloat64, -math.MaxFloat64}, math.MaxFloat64, 0},
		{"widest, +Inf fact", Range{-1e308, 1e308}, inf, 1},
	}
	for _, c := range cases {
		assert.Equal(t, c.y, c.r.Normalize(c.v), c.name)
	}
	assert.True(t, math.IsNaN(Range{0, 1}.Normalize(math.NaN())))
	assert.True(t, math.IsNaN(Range{0, inf}.Normalize(inf)))
	assert.Equal(t, 0.0, Curve{}.Eval(Range{0, 1}.Normalize(math.NaN())), "NaN fact scores 0")
}

func TestCurveKindString(t *testing.T) {
	assert.Equal(t, "Logistic", CurveLogistic.String())
	assert.Equal(t, "CurveKind(42)", CurveKind(42).String())
}
