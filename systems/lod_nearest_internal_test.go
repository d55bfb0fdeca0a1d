package systems

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/spatial/r2"
)

// TestLODNearestSweepIsExact: nearest's sweep over focus points sorted by X
// gives, to the bit, the distance a scan of every point gives, for 1 to 300
// points (clustered, on one column, duplicated, far apart) and positions
// inside, outside and far off them, NaN and infinite included.
func TestLODNearestSweepIsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 13))
	coord := func() float64 {
		switch rng.IntN(10) {
		case 0:
			return float64(rng.IntN(5)) // duplicates, a shared column
		case 1:
			return 1e6 * (rng.Float64() - 0.5)
		case 2:
			return 1e160 * rng.Float64() // squares overflow
		default:
			return 512 * rng.Float64()
		}
	}
	swept := 0
	for round := range 4000 {
		var s LOD
		n := 1 + rng.IntN(300)
		for range n {
			s.points = append(s.points, r2.Vec{X: coord(), Y: coord()})
		}
		slices.SortFunc(s.points, func(a, b r2.Vec) int { return cmp.Compare(a.X, b.X) })
		for k := range 20 {
			p := r2.Vec{X: coord(), Y: coord()}
			switch k {
			case 0:
				p.X = math.NaN()
			case 1:
				p.Y = math.Inf(-1)
			case 2:
				p = s.points[rng.IntN(n)] // on a point
			}
			want := math.Inf(1)
			for _, f := range s.points {
				want = math.Min(want, sq2(f.X-p.X, f.Y-p.Y))
			}
			want = math.Sqrt(want)
			got := s.nearest(p)
			if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
				t.Fatalf("round %d: %d points, p %v: nearest %v, a scan of all %v", round, n, p, got, want)
			}
			if n > lodScan && finiteVec(p) {
				swept++
			}
		}
	}
	if swept < 50000 {
		t.Fatalf("only %d positions swept", swept)
	}
}

// BenchmarkLODNearest: nearest for one position among 1, 50 and 1,000 focus
// points spread over a 512×512 map (the sweep from lodScan+1 points on).
func BenchmarkLODNearest(b *testing.B) {
	for _, n := range []int{1, 50, 1000} {
		b.Run(map[int]string{1: "points=1", 50: "points=50", 1000: "points=1000"}[n], func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			var s LOD
			for range n {
				s.points = append(s.points, r2.Vec{X: 512 * rng.Float64(), Y: 512 * rng.Float64()})
			}
			slices.SortFunc(s.points, func(a, b r2.Vec) int { return cmp.Compare(a.X, b.X) })
			ps := make([]r2.Vec, 4096)
			for i := range ps {
				ps[i] = r2.Vec{X: 512 * rng.Float64(), Y: 512 * rng.Float64()}
			}
			sum := 0.0
			i := 0
			for b.Loop() {
				sum += s.nearest(ps[i&4095])
				i++
			}
			_ = sum
		})
	}
}
