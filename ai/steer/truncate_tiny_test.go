package steer

import (
	"math"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"gonum.org/v1/gonum/spatial/r2"
)

// exactOver reports whether |r| > max in exact arithmetic (r.X² + r.Y² > max²).
func exactOver(r r2.Vec, max float64) bool {
	sq := func(f float64) *big.Float {
		b := new(big.Float).SetPrec(4400).SetFloat64(f)
		return b.Mul(b, b)
	}
	s := sq(r.X)
	return s.Add(s, sq(r.Y)).Cmp(sq(max)) > 0
}

// exactLen is |r| to float64 precision, with no overflow or underflow.
func exactLen(r r2.Vec) float64 {
	x := new(big.Float).SetPrec(4400).SetFloat64(r.X)
	y := new(big.Float).SetPrec(4400).SetFloat64(r.Y)
	s := new(big.Float).SetPrec(4400).Mul(x, x)
	s.Add(s, y.Mul(y, y))
	f, _ := s.Sqrt(s).Float64()
	return f
}

// A force truncated to a tiny limit (below 2⁻⁵⁰⁰, subnormal included) came back
// longer than the limit: the squares of its components underflowed, so its length
// read as 0 (Truncate((1e-299, 0), 1e-300) returned the force unchanged, ten times the
// limit), and a force longer than about 1.3e154 read as infinite and came back as the
// zero vector. Truncate now scales such a vector into range first: the result is never
// longer than the limit, exactly, and points the way v does.
func TestTruncateTinyAndHugeLimits(t *testing.T) {
	sub := math.SmallestNonzeroFloat64
	for _, tc := range []struct {
		v   r2.Vec
		max float64
	}{
		{r2.Vec{X: 1e-299}, 1e-300},
		{r2.Vec{X: 3e-200, Y: -4e-200}, 1e-300},
		{r2.Vec{X: 1, Y: 1}, 1e-310},
		{r2.Vec{X: 1, Y: 1}, 5 * sub},
		{r2.Vec{X: 1, Y: 1}, sub},
		{r2.Vec{X: 3 * sub, Y: 4 * sub}, sub},
		{r2.Vec{X: 1e-310, Y: 1e-311}, 3e-320},
		{r2.Vec{X: 1e200, Y: -1e200}, 1},
		{r2.Vec{X: 1e300, Y: 1e-300}, 1e-300},
		{r2.Vec{X: math.MaxFloat64, Y: math.MaxFloat64}, math.MaxFloat64},
		{r2.Vec{X: 1e-170, Y: 1e-170}, 1e300},
	} {
		r := Truncate(tc.v, tc.max)
		assert.False(t, exactOver(r, tc.max), "Truncate(%v, %g) = %v, length %g", tc.v, tc.max, r, exactLen(r))
		want := min(exactLen(tc.v), tc.max)
		if tc.max > 1e-300 {
			assert.InEpsilon(t, want, exactLen(r), 1e-14, "Truncate(%v, %g): length", tc.v, tc.max)
		} else { // 2⁻⁴⁸ short at most, or what a subnormal's few bits allow
			assert.LessOrEqual(t, want-exactLen(r), max(want*0x1p-47, 4*sub), "Truncate(%v, %g): length", tc.v, tc.max)
		}
		if r.X != 0 || r.Y != 0 {
			assert.GreaterOrEqual(t, r.X*tc.v.X, 0.0, "same way along x")
			assert.GreaterOrEqual(t, r.Y*tc.v.Y, 0.0, "same way along y")
		}
	}
	for _, bad := range []float64{0, -1, -sub, math.NaN(), math.Inf(-1)} {
		assert.Equal(t, r2.Vec{}, Truncate(r2.Vec{X: 1e-320, Y: 1}, bad), "max %v", bad)
	}
	for _, v := range []r2.Vec{{X: math.NaN()}, {Y: math.Inf(1)}, {X: math.Inf(-1), Y: 1e-300}} {
		assert.Equal(t, r2.Vec{}, Truncate(v, 1e-300), "v %v", v)
		assert.Equal(t, r2.Vec{}, Truncate(v, sub), "v %v", v)
	}
	// an infinite limit truncates nothing finite
	assert.Equal(t, r2.Vec{X: 1e300, Y: -1e300}, Truncate(r2.Vec{X: 1e300, Y: -1e300}, math.Inf(1)))
}

// wide reports whether Truncate(v, max) takes the path for lengths outside
// [2⁻⁵⁰⁰, 2⁵⁰⁰] (truncateWide, or v for an infinite max), where the plain rule's
// squared length underflows or overflows: there the tests check the exact bound
// rather than the plain rule's bits.
func wide(v r2.Vec, max float64) bool {
	n := norm(v)
	inRange := max >= 0x1p-500 && max <= 0x1p500
	return finite(v) && max > 0 && !(inRange && n >= 0x1p-500 && n <= 0x1p500) &&
		!(inRange && float64(v.X*v.X)+float64(v.Y*v.Y) <= max*max)
}
