package spatial

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// nearestByQuery is what Nearest must equal: the first item of Query's
// answer, in order, that is strictly nearer than every accepted one before.
func nearestByQuery(h *Hash, c r2.Vec, r float64, accept func(int32) bool) (int32, float64) {
	best, bestD := int32(-1), math.Inf(1)
	for _, id := range h.Query(c, r, nil) {
		p, _ := h.Position(id)
		d := r2.Sub(p, c)
		dist := math.Sqrt(float64(d.X*d.X) + float64(d.Y*d.Y)) // rounded as the package's (no multiply-add on any build)
		if dist >= bestD || !accept(id) {
			continue
		}
		best, bestD = id, dist
	}
	return best, bestD
}

// TestNearestEqualsQueryScan on random crowds with many exact ties (points
// on a lattice), items outside the area and at NaN, centres inside and
// outside, radii from 0 to beyond the area, and an accept that refuses most
// items.
func TestNearestEqualsQueryScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for _, cell := range []float64{0.7, 1, 4} {
		h := NewHash(cell, 30, 20)
		pts := randomPoints(rng, 800, 30, 20, 2)
		for i := 0; i < len(pts); i += 3 { // lattice points: equal distances
			pts[i] = r2.Vec{X: float64(rng.IntN(30)) + 0.5, Y: float64(rng.IntN(20)) + 0.5}
		}
		pts[7] = r2.Vec{X: math.NaN(), Y: 3}
		h.BuildFrom(pts, 1, nil)
		for q := range 400 {
			c := r2.Vec{X: rng.Float64()*36 - 3, Y: rng.Float64()*26 - 3}
			if q%5 == 0 {
				c = r2.Vec{X: float64(rng.IntN(30)) + 0.5, Y: float64(rng.IntN(20)) + 0.5}
			}
			r := []float64{0, 0.5, 2.5, 8, 50}[q%5]
			mod := int32(1 + q%4)
			accept := func(id int32) bool { return id%mod == 0 }
			wantID, wantD := nearestByQuery(h, c, r, accept)
			calls := 0
			id, d, ok := h.Nearest(c, r, func(id int32, p r2.Vec, dist float64) bool {
				calls++
				got, _ := h.Position(id)
				require.Equal(t, got, p)
				return accept(id)
			})
			require.Equal(t, wantID, id, "cell %v centre %v radius %v", cell, c, r)
			assert.Equal(t, wantID >= 0, ok)
			if ok {
				assert.Equal(t, wantD, d)
			}
			assert.LessOrEqual(t, calls, len(h.Query(c, r, nil)))
		}
	}
}

func TestNearestEdgeCases(t *testing.T) {
	h := NewHash(1, 10, 10)
	any := func(int32, r2.Vec, float64) bool { return true }
	id, d, ok := h.Nearest(r2.Vec{X: 1, Y: 1}, 5, any) // empty, never built
	assert.Equal(t, int32(-1), id)
	assert.True(t, math.IsInf(d, 1))
	assert.False(t, ok)
	h.Insert(3, r2.Vec{X: 2, Y: 2})
	assert.Panics(t, func() { h.Nearest(r2.Vec{X: 1, Y: 1}, 5, any) })
	h.Build()
	id, d, ok = h.Nearest(r2.Vec{X: 2, Y: 5}, 3, any)
	assert.Equal(t, int32(3), id)
	assert.Equal(t, 3.0, d)
	assert.True(t, ok)
	for _, tc := range []struct {
		c r2.Vec
		r float64
	}{{r2.Vec{X: 2, Y: 5}, 2.9}, {r2.Vec{X: 2, Y: 2}, -1}, {r2.Vec{X: 2, Y: 2}, math.NaN()}, {r2.Vec{X: math.NaN(), Y: 2}, 5}} {
		_, _, ok = h.Nearest(tc.c, tc.r, any)
		assert.False(t, ok, "%v %v", tc.c, tc.r)
	}
}

func TestNearestAllocatesNothing(t *testing.T) {
	pts := randomPoints(rand.New(rand.NewPCG(1, 3)), 1000, 40, 40, 0)
	h := NewHash(4, 40, 40)
	h.BuildFrom(pts, 1, nil)
	team := int32(3)
	assert.Zero(t, testing.AllocsPerRun(50, func() {
		h.Nearest(r2.Vec{X: 20, Y: 20}, 8, func(id int32, _ r2.Vec, _ float64) bool { return id%4 == team })
	}))
}
