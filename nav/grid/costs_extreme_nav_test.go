package grid_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/internal/gridtest"
	"github.com/archai-go/archai/nav/grid"
)

// Costs from 1.4e-45 to 3e38 side by side: still the brute-force cost, and the path's own.
func TestSearchExactWithExtremeCosts(t *testing.T) {
	sets := [][]float32{{1e-30, 1}, {1, 1e30}, {1, 3e38}, {1.401298464324817e-45, 1}, {0.001, 0.002, 1000}, {1, 1.0000001}}
	for si, set := range sets {
		for seed := uint64(0); seed < 60; seed++ {
			r := rand.New(rand.NewPCG(seed, uint64(si)))
			w, h := 2+r.IntN(10), 2+r.IntN(10)
			g := grid.New(w, h)
			for y := 0; y < h; y++ {
				for x := 0; x < w; x++ {
					c := grid.Cell{X: int32(x), Y: int32(y)}
					if r.Float64() < 0.15 {
						g.SetCost(c, grid.Blocked)
					} else {
						g.SetCost(c, set[r.IntN(len(set))])
					}
				}
			}
			for _, opt := range []grid.Options{{}, {Moves: grid.Moves4}, {Heuristic: grid.EuclideanHeuristic}, {Clearance: 2}, {Weight: 0.5}} {
				s := grid.NewSearchOptions(g, opt)
				for q := 0; q < 10; q++ {
					a := grid.Cell{X: int32(r.IntN(w)), Y: int32(r.IntN(h))}
					b := grid.Cell{X: int32(r.IntN(w)), Y: int32(r.IntN(h))}
					p, cost, err := s.Path(a, b, nil)
					if !g.Passable(a) || !g.Passable(b) {
						continue
					}
					d := gridtest.From(g, a, opt.Moves == grid.Moves4, opt.Clearance)
					want := d[int(b.Y)*w+int(b.X)]
					if a == b {
						want = 0
					}
					if opt.Clearance > 1 && a != b && gridtest.Clearance(g, b) < int(opt.Clearance) {
						want = math.Inf(1)
					}
					if math.IsInf(want, 1) {
						if !errors.Is(err, grid.ErrUnreachable) {
							t.Fatalf("set %v seed %d: want unreachable got %v", set, seed, err)
						}
						continue
					}
					if err != nil {
						t.Fatalf("set %v seed %d opt %+v %v→%v: %v (want %v)", set, seed, opt, a, b, err, want)
					}
					got := checkPath(t, g, p, opt.Moves == grid.Moves4, opt.Clearance)
					if math.Abs(got-cost) > 1e-9*max(cost, 1e-300) || math.Abs(want-cost) > 1e-6*want {
						t.Fatalf("set %v seed %d opt %+v %v→%v: cost %v path's %v want %v\n%s", set, seed, opt, a, b, cost, got, want, gridtest.Dump(g))
					}
				}
			}
		}
	}
}
