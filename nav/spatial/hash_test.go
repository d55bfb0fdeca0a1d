package spatial

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

func randomPoints(rng *rand.Rand, n int, w, h, margin float64) []r2.Vec {
	pts := make([]r2.Vec, n)
	for i := range pts {
		pts[i] = r2.Vec{X: rng.Float64()*(w+2*margin) - margin, Y: rng.Float64()*(h+2*margin) - margin}
	}
	return pts
}

func bruteForce(pts []r2.Vec, c r2.Vec, r float64) []int32 {
	out := []int32{}
	for i, p := range pts {
		if d := r2.Sub(p, c); float64(d.X*d.X)+float64(d.Y*d.Y) <= r*r {
			out = append(out, int32(i))
		}
	}
	return out
}

func TestQueryMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name             string
		cell, w, h       float64
		n                int
		margin, maxRange float64
	}{
		{"dense", 2, 100, 80, 2000, 0, 6},
		{"outside points clamped", 4, 50, 50, 1000, 20, 15},
		{"radius larger than map", 8, 40, 30, 300, 5, 100},
		{"non-integer sizes", 1.7, 33.3, 12.9, 500, 1, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pts := randomPoints(rng, tc.n, tc.w, tc.h, tc.margin)
			h := NewHash(tc.cell, tc.w, tc.h)
			h.Reset()
			for i, p := range pts {
				h.Insert(int32(i), p)
			}
			h.Build()
			require.Equal(t, tc.n, h.Len())
			var dst []int32
			for q := 0; q < 300; q++ {
				c := r2.Vec{X: rng.Float64()*(tc.w+4*tc.margin) - 2*tc.margin, Y: rng.Float64()*(tc.h+4*tc.margin) - 2*tc.margin}
				r := rng.Float64() * tc.maxRange
				dst = h.Query(c, r, dst[:0])
				got := append([]int32{}, dst...)
				slices.Sort(got)
				want := bruteForce(pts, c, r)
				require.Equalf(t, want, got, "query %d at %v r=%v", q, c, r)
			}
		})
	}
}

func TestQueryEdgeCases(t *testing.T) {
	h := NewHash(1, 10, 10)
	h.Reset()
	assert.Empty(t, h.Query(r2.Vec{X: 5, Y: 5}, 3, nil), "empty hash")
	h.Insert(7, r2.Vec{X: 5, Y: 5})
	h.Insert(8, r2.Vec{X: 8, Y: 5})
	h.Insert(9, r2.Vec{X: -50, Y: 200}) // outside: clamped into bucket (0, 9)
	assert.Panics(t, func() { h.Query(r2.Vec{X: 5, Y: 5}, 1, nil) }, "query before Build")
	h.Build()

	assert.Equal(t, []int32{7, 8}, h.Query(r2.Vec{X: 5, Y: 5}, 3, nil), "boundary distance 3 is included")
	assert.Equal(t, []int32{7}, h.Query(r2.Vec{X: 5, Y: 5}, 2.999, nil))
	assert.Equal(t, []int32{7}, h.Query(r2.Vec{X: 5, Y: 5}, 0, nil), "radius 0 finds coincident points")
	assert.Empty(t, h.Query(r2.Vec{X: 5, Y: 5}, -1, nil))
	assert.Empty(t, h.Query(r2.Vec{X: 5, Y: 5}, math.NaN(), nil))
	assert.Equal(t, []int32{9}, h.Query(r2.Vec{X: -49, Y: 199}, 2, nil), "outside points are still found")

	// Appends to dst.
	dst := []int32{42}
	assert.Equal(t, []int32{42, 7, 8}, h.Query(r2.Vec{X: 6, Y: 5}, 2.5, dst))

	p, ok := h.Position(8)
	assert.True(t, ok)
	assert.Equal(t, r2.Vec{X: 8, Y: 5}, p)
	_, ok = h.Position(100)
	assert.False(t, ok)

	// Reset forgets everything.
	h.Reset()
	h.Build()
	assert.Empty(t, h.Query(r2.Vec{X: 5, Y: 5}, 100, nil))
	assert.Zero(t, h.Len())

	assert.Panics(t, func() { NewHash(0, 10, 10) })
	assert.Panics(t, func() { NewHash(1, -1, 10) })
	assert.Panics(t, func() { NewHash(1, 10, math.Inf(1)) })
	assert.Panics(t, func() { NewHash(1e-9, 1e6, 1e6) })
}

func TestQueryDeterministicOrder(t *testing.T) {
	// Row-major buckets, insertion order within a bucket.
	h := NewHash(2, 10, 10)
	h.Reset()
	h.Insert(1, r2.Vec{X: 5, Y: 5})   // bucket (2,2)
	h.Insert(2, r2.Vec{X: 3, Y: 5})   // bucket (1,2)
	h.Insert(3, r2.Vec{X: 5.5, Y: 3}) // bucket (2,1)
	h.Insert(4, r2.Vec{X: 4.5, Y: 5}) // bucket (2,2), after 1
	h.Build()
	assert.Equal(t, []int32{3, 2, 1, 4}, h.Query(r2.Vec{X: 4.5, Y: 4.5}, 3, nil))

	// The same input always gives the same output.
	first := h.Query(r2.Vec{X: 4.5, Y: 4.5}, 3, nil)
	h.Build()
	assert.Equal(t, first, h.Query(r2.Vec{X: 4.5, Y: 4.5}, 3, nil))
}

func TestHashZeroAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	pts := randomPoints(rng, 10000, 200, 200, 0)
	h := NewHash(4, 200, 200)
	dst := make([]int32, 0, 1024)
	frame := func() {
		h.Reset()
		for i, p := range pts {
			h.Insert(int32(i), p)
		}
		h.Build()
		for i := 0; i < 100; i++ {
			dst = h.Query(pts[i*97], 4, dst[:0])
		}
	}
	frame() // grow buffers
	assert.Zero(t, testing.AllocsPerRun(20, frame))
	assert.NotEmpty(t, dst)
}

func TestQueryPositionsMatchesQuery(t *testing.T) {
	h := NewHash(2, 50, 50)
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 2000 {
		h.Insert(int32(i), r2.Vec{X: r.Float64() * 50, Y: r.Float64() * 50})
	}
	h.Build()
	for range 200 {
		c := r2.Vec{X: r.Float64() * 50, Y: r.Float64() * 50}
		rad := r.Float64() * 6
		want := h.Query(c, rad, nil)
		ids, pos := h.QueryPositions(c, rad, nil, nil)
		require.Equal(t, want, ids)
		require.Len(t, pos, len(ids))
		for k, id := range ids {
			p, ok := h.Position(id)
			require.True(t, ok)
			require.Equal(t, p, pos[k])
		}
	}
}

// QuerySlots finds what Query finds, in its order, as slots of Sorted, after
// Build and after BuildFrom.
func TestQuerySlotsMatchesQuery(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	pts := make([]r2.Vec, 2000)
	for i := range pts {
		pts[i] = r2.Vec{X: r.Float64() * 50, Y: r.Float64() * 50}
	}
	built := NewHash(2, 50, 50)
	for i, p := range pts {
		built.Insert(int32(i), p)
	}
	built.Build()
	from := NewHash(2, 50, 50)
	from.BuildFrom(pts, 1, nil)
	for _, h := range []*Hash{built, from} {
		ids, pos := h.Sorted()
		for range 200 {
			c := r2.Vec{X: r.Float64() * 50, Y: r.Float64() * 50}
			rad := r.Float64() * 6
			want := h.Query(c, rad, nil)
			slots := h.QuerySlots(c, rad, nil)
			require.Len(t, slots, len(want))
			for k, sl := range slots {
				require.Equal(t, want[k], ids[sl])
				require.Equal(t, pts[ids[sl]], pos[sl])
			}
		}
		assert.Empty(t, h.QuerySlots(r2.Vec{X: 5, Y: 5}, math.NaN(), nil))
	}
}

// Items at NaN or infinite positions are stored (in the border buckets) but
// no finite query finds them, and a query at a NaN centre finds nothing: a bad
// position never shows up among anybody's neighbours.
func TestNonFinitePositionsAreNeverFound(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	h := NewHash(2, 20, 20)
	pts := []r2.Vec{{X: 5, Y: 5}, {X: nan, Y: 5}, {X: 5, Y: inf}, {X: -inf, Y: -inf}, {X: nan, Y: nan}, {X: 0, Y: 0}}
	for i, p := range pts {
		h.Insert(int32(i), p)
	}
	h.Build()
	require.Equal(t, len(pts), h.Len())
	for _, tc := range []struct {
		center r2.Vec
		radius float64
		want   []int32
	}{
		{r2.Vec{X: 5, Y: 5}, 1, []int32{0}},
		{r2.Vec{X: 0, Y: 0}, 1e6, []int32{5, 0}},
		{r2.Vec{X: 0, Y: 20}, 30, []int32{5, 0}},
		{r2.Vec{X: nan, Y: 5}, 10, nil},
		{r2.Vec{X: 5, Y: 5}, nan, nil},
		{r2.Vec{X: -inf, Y: 0}, 5, nil},
	} {
		got := h.Query(tc.center, tc.radius, nil)
		assert.ElementsMatch(t, tc.want, got, "query %v r %v", tc.center, tc.radius)
		ids, pos := h.QueryPositions(tc.center, tc.radius, nil, nil)
		assert.ElementsMatch(t, tc.want, ids)
		assert.Len(t, pos, len(ids))
	}
}
