package spatial

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestLayoutMatchesRowsRowSpan: a dense build's Layout finds the buckets and
// slots Rows and RowSpan do, for centres inside the area, outside it (also
// far off, where a conversion before the clamp would wrap) and on bucket
// edges; a sparse build, or no build, has no Layout.
func TestLayoutMatchesRowsRowSpan(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	h := NewHash(2, 101, 60) // 51×30 buckets, the last column half outside the area
	_, ok := h.Layout()
	assert.False(t, ok, "no layout before a build")
	pts := randomPoints(rng, 3000, 101, 60, 3)
	h.BuildFrom(pts, 2, serialRunner)
	l, ok := h.Layout()
	require.True(t, ok, "a dense build has a layout")
	assert.Equal(t, []int{51, 30}, []int{l.W, l.H})
	assert.Len(t, l.Start, 51*30+1)
	centres := []r2.Vec{{X: 0, Y: 0}, {X: 2, Y: 4}, {X: 101, Y: 60}, {X: 100.999, Y: 59.5}, {X: -5, Y: 70},
		{X: 1e300, Y: -1e300}, {X: -1e18, Y: 1e19}, {X: 4, Y: 1e10}}
	for range 500 {
		centres = append(centres, r2.Vec{X: rng.Float64()*121 - 10, Y: rng.Float64()*80 - 10})
	}
	for _, c := range centres {
		for _, r := range []float64{0, 0.75, 1, 2, 2.5, 7} {
			x0, x1, y0, y1, ok := h.Rows(c, r)
			require.True(t, ok)
			lx0, lx1, ly0, ly1 := l.Rows(c, r)
			require.Equal(t, []int{x0, x1, y0, y1}, []int{lx0, lx1, ly0, ly1}, "centre %v, radius %v", c, r)
			for y := y0; y <= y1; y++ {
				lo, hi := h.RowSpan(y, x0, x1)
				llo, lhi := l.RowSpan(y, x0, x1)
				require.Equal(t, []int{lo, hi}, []int{llo, lhi}, "centre %v, radius %v, row %d", c, r, y)
			}
		}
	}
	sparse := NewHash(2, 1000, 600)
	sparse.BuildFrom(pts[:100], 2, serialRunner)
	_, ok = sparse.Layout()
	assert.False(t, ok, "a sparse build has no layout")
}
