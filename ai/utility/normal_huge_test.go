package utility

import (
	"math"
	"testing"
)

// A Normal curve whose mean or width is so large that (x − C)² or 2K² overflows scored 0
// at every x (Inf/Inf is NaN, and a finite K under an infinite d² gave e^−∞), though
// New accepts such finite parameters: with C = K = 1e200 the bell is e^(−1/2) ≈ 0.607
// across [0, 1].
func TestNormalCurveWithHugeMeanAndWidth(t *testing.T) {
	for _, tc := range []struct {
		c    Curve
		x    float64
		want float64
	}{
		{Normal(1e200, 1e200), 0, math.Exp(-0.5)},
		{Normal(1e200, 1e200), 1, math.Exp(-0.5)},
		{Normal(1e160, 1e160), 0.5, math.Exp(-0.5)},
		{Normal(2e154, 1e154), 0, math.Exp(-2)}, // d² overflows, 2K² does not
		{Normal(0.5, 1e200), 0.5, 1},            // 2K² overflows: the flat limit
		{Normal(-1e300, 1e-10), 0, 0},           // far outside the bell
		{Normal(0.5, 0.1), 0.7, math.Exp(-2)},   // an ordinary bell, unchanged
	} {
		if got := tc.c.Eval(tc.x); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%+v.Eval(%v) = %v, want %v", tc.c, tc.x, got, tc.want)
		}
	}
}
