package spatial_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/archai-go/archai/nav/spatial"
	"gonum.org/v1/gonum/spatial/r2"
)

// Query and Nearest (Build and BuildFrom) against a scan, with items off the area, NaN,
// infinite and huge.
func TestHashQueryAndNearestMatchBruteForce(t *testing.T) {
	for seed := uint64(0); seed < 400; seed++ {
		r := rand.New(rand.NewPCG(seed, 2))
		cs := []float64{0.3, 1, 2.5, 7}[r.IntN(4)]
		W, H := 1+r.Float64()*40, 1+r.Float64()*40
		h := spatial.NewHash(cs, W, H)
		n := r.IntN(200)
		pos := make([]r2.Vec, n)
		for i := range pos {
			pos[i] = r2.Vec{X: r.Float64()*(W+20) - 10, Y: r.Float64()*(H+20) - 10}
			if r.IntN(20) == 0 {
				pos[i].X = []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e300, -1e300}[r.IntN(5)]
			}
		}
		if seed%2 == 0 {
			h.Reset()
			for i, p := range pos {
				h.Insert(int32(i), p)
			}
			h.Build()
		} else {
			h.BuildFrom(pos, 1+r.IntN(4), nil)
		}
		for q := 0; q < 30; q++ {
			c := r2.Vec{X: r.Float64()*(W+20) - 10, Y: r.Float64()*(H+20) - 10}
			rad := r.Float64() * 12
			got := h.Query(c, rad, nil)
			var want []int32
			for i, p := range pos {
				dx, dy := p.X-c.X, p.Y-c.Y
				if float64(dx*dx)+float64(dy*dy) <= float64(rad*rad) { // rounded products, as Query (no fused multiply-add under GOAMD64=v3)
					want = append(want, int32(i))
				}
			}
			gs := slices.Clone(got)
			slices.Sort(gs)
			if !slices.Equal(gs, want) {
				t.Fatalf("seed %d: query %v r %v got %v want %v", seed, c, rad, gs, want)
			}
			id, d, ok := h.Nearest(c, rad, func(id int32, p r2.Vec, dist float64) bool { return id%3 != 0 })
			bi, bd := int32(-1), math.Inf(1)
			for _, i := range got {
				if i%3 == 0 {
					continue
				}
				p := pos[i]
				dx, dy := p.X-c.X, p.Y-c.Y
				dd := math.Sqrt(float64(dx*dx) + float64(dy*dy)) // rounded products, as Nearest
				if dd < bd {
					bi, bd = i, dd
				}
			}
			if ok != (bi >= 0) || (ok && d != bd) {
				t.Fatalf("seed %d: nearest %v %v %v want %v %v", seed, id, d, ok, bi, bd)
			}
		}
	}
}
