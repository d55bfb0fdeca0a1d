package grid

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestFloorToInt32 pins the conversion on both sides of its fast path
// (values in [0, 2³¹) truncate directly): negatives round down, not towards
// zero, and NaN and out-of-range values clamp.
func TestFloorToInt32(t *testing.T) {
	cases := []struct {
		v    float64
		want int32
	}{
		{0, 0}, {0.999, 0}, {1, 1}, {831.5, 831},
		{math.Nextafter(1, 0), 0}, {-0.0, 0}, {-1e-300, -1}, {-0.5, -1}, {-1, -1}, {-1.5, -2},
		{math.MaxInt32, math.MaxInt32}, {math.Nextafter(1<<31, 0), math.MaxInt32}, {1 << 31, math.MaxInt32},
		{1e300, math.MaxInt32}, {math.Inf(1), math.MaxInt32},
		{math.MinInt32, math.MinInt32}, {-1e300, math.MinInt32}, {math.Inf(-1), math.MinInt32},
		{math.NaN(), math.MinInt32},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, floorToInt32(c.v), "floor(%v)", c.v)
	}
}

// TestLineOfSightBlocker: the blocker is a blocked or out-of-bounds cell
// the walk reached, and the answer is LineOfSight's.
func TestLineOfSightBlocker(t *testing.T) {
	g := New(6, 3)
	g.SetCost(Cell{X: 3, Y: 1}, Blocked)
	b, clear := g.LineOfSightBlocker(r2.Vec{X: 0.5, Y: 1.5}, r2.Vec{X: 5.5, Y: 1.5})
	assert.False(t, clear)
	assert.Equal(t, Cell{X: 3, Y: 1}, b)
	b, clear = g.LineOfSightBlocker(r2.Vec{X: 0.5, Y: 0.5}, r2.Vec{X: 7.5, Y: 0.5})
	assert.False(t, clear)
	assert.Equal(t, Cell{X: 7, Y: 0}, b)
	_, clear = g.LineOfSightBlocker(r2.Vec{X: 0.5, Y: 0.5}, r2.Vec{X: 5.5, Y: 0.5})
	assert.True(t, clear)
}
