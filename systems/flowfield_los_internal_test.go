package systems

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestUnitAsR2: unit gives r2.Unit's bits for vectors of every scale
// (subnormal to huge), signs, on the axes, and zero, infinite or NaN.
func TestUnitAsR2(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
	}
	vs := []r2.Vec{{}, {X: 1}, {Y: -2}, {X: 3, Y: 4}, {X: math.Inf(1), Y: 2}, {X: 1, Y: math.NaN()},
		{X: 5e-324, Y: 0}, {X: 1e308, Y: 1e308}, {X: -1e-310, Y: 3e-310}, {X: math.MaxFloat64, Y: -math.MaxFloat64}}
	for range 200000 {
		v := r2.Vec{X: rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-20)), Y: rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-20))}
		switch rng.IntN(5) {
		case 0:
			v.Y = v.X * float64(rng.IntN(3)-1)
		case 1:
			v.X = 0
		}
		vs = append(vs, v)
	}
	for _, v := range vs {
		want, got := r2.Unit(v), unit(v)
		require.True(t, same(want.X, got.X) && same(want.Y, got.Y), "%v: %v, want %v", v, got, want)
	}
}
