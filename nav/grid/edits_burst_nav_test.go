package grid_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/internal/gridtest"
	"github.com/archai-go/archai/nav/grid"
)

// Bursts of 1 to 5,000 edits (past the patch limits of the clearance field, the moves and
// the jump tables) on grids up to 70×70: the clearance field equals a brute-force one and
// searches stay exact.
func TestClearanceAndSearchesAfterBurstsOfEdits(t *testing.T) {
	for seed := uint64(0); seed < 7; seed++ {
		r := rand.New(rand.NewPCG(seed, 77))
		w, h := 20+r.IntN(50), 20+r.IntN(50)
		g := gridtest.RandomGrid(r, w, h, []float64{0.02, 0.08, 0.2}[r.IntN(3)], 0)
		opts := []grid.Options{{JumpPoints: true}, {Clearance: 2}, {Clearance: 4}, {}, {Clearance: 7}}
		ss := make([]*grid.Search, len(opts))
		for i, o := range opts {
			ss[i] = grid.NewSearchOptions(g, o)
		}
		for round := 0; round < 8; round++ {
			// clearance field check
			for y := 0; y < h; y++ {
				for x := 0; x < w; x++ {
					c := grid.Cell{X: int32(x), Y: int32(y)}
					if got, want := int(g.Clearance(c)), gridtest.Clearance(g, c); got != want {
						t.Fatalf("seed %d round %d: clearance %v = %d want %d", seed, round, c, got, want)
					}
				}
			}
			for q := 0; q < 4; q++ {
				a := grid.Cell{X: int32(r.IntN(w)), Y: int32(r.IntN(h))}
				b := grid.Cell{X: int32(r.IntN(w)), Y: int32(r.IntN(h))}
				if !g.Passable(a) || !g.Passable(b) {
					continue
				}
				for i, o := range opts {
					p, cost, err := ss[i].Path(a, b, nil)
					d := gridtest.From(g, a, false, o.Clearance)
					want := d[int(b.Y)*w+int(b.X)]
					if a == b {
						want = 0
					}
					if o.Clearance > 1 && a != b && gridtest.Clearance(g, b) < int(o.Clearance) {
						want = math.Inf(1)
					}
					if math.IsInf(want, 1) {
						if !errors.Is(err, grid.ErrUnreachable) {
							t.Fatalf("seed %d opt %+v: want unreachable, got %v", seed, o, err)
						}
						continue
					}
					if err != nil || math.Abs(cost-want) > 1e-6*want {
						t.Fatalf("seed %d round %d opt %+v %v→%v: cost %v err %v want %v", seed, round, o, a, b, cost, err, want)
					}
					checkPath(t, g, p, false, o.Clearance)
				}
			}
			n := []int{1, 5, 63, 65, 300, 5000}[r.IntN(6)]
			for k := 0; k < n; k++ {
				e := grid.Cell{X: int32(r.IntN(w)), Y: int32(r.IntN(h))}
				if r.IntN(5) == 0 {
					g.SetCost(e, grid.Blocked)
				} else {
					g.SetCost(e, 1)
				}
			}
		}
	}
}
