package grid_test

import (
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/internal/gridtest"
	"gonum.org/v1/gonum/spatial/r2"
)

// LineOfSight between random points (on grid lines, corners, centres) never passes a
// blocked cell's interior nor a corner between two blocked cells, and LineOfSightBlocker
// agrees.
func TestLineOfSightNeverCrossesAWallOrCutsACorner(t *testing.T) {
	bad, total := 0, 0
	for seed := uint64(0); seed < 300; seed++ {
		r := rand.New(rand.NewPCG(seed, 13))
		w, h := 3+r.IntN(12), 3+r.IntN(12)
		g := gridtest.RandomGrid(r, w, h, 0.25, 0)
		if seed%2 == 0 {
			g.Prepare()
		}
		for q := 0; q < 60; q++ {
			pt := func() r2.Vec {
				switch r.IntN(4) {
				case 0: // on a grid line or corner
					return r2.Vec{X: float64(r.IntN(w + 1)), Y: float64(r.IntN(h+1)) + float64(r.IntN(2))*r.Float64()}
				case 1:
					return r2.Vec{X: float64(r.IntN(w)) + 0.5, Y: float64(r.IntN(h)) + 0.5}
				default:
					return r2.Vec{X: r.Float64() * float64(w), Y: r.Float64() * float64(h)}
				}
			}
			a, b := pt(), pt()
			if !g.Passable(g.CellAt(a)) || !g.Passable(g.CellAt(b)) {
				continue
			}
			total++
			if g.LineOfSight(a, b) {
				if why := badThin(g, a, b); why != "" {
					bad++
					if bad < 5 {
						t.Errorf("seed %d: LOS %v→%v true but %s\n%s", seed, a, b, why, gridtest.Dump(g))
					}
				}
				if wb, ok := g.LineOfSightBlocker(a, b); !ok {
					t.Errorf("blocker disagrees: %v", wb)
				}
			}
		}
	}
	t.Logf("%d of %d", bad, total)
}

// LineOfSightWide at clearance c holds only for segments at least c − 1 from every blocked
// cell.
func TestLineOfSightWideKeepsClearanceMinusOne(t *testing.T) {
	bad, total, yes := 0, 0, 0
	for seed := uint64(0); seed < 300; seed++ {
		r := rand.New(rand.NewPCG(seed, 17))
		w, h := 6+r.IntN(20), 6+r.IntN(20)
		g := gridtest.RandomGrid(r, w, h, 0.04, 0)
		for q := 0; q < 60; q++ {
			pt := func() r2.Vec {
				switch r.IntN(3) {
				case 0:
					return r2.Vec{X: float64(r.IntN(w + 1)), Y: float64(r.IntN(h+1)) + float64(r.IntN(2))*r.Float64()}
				case 1:
					return r2.Vec{X: float64(r.IntN(w)) + 0.5, Y: float64(r.IntN(h)) + 0.5}
				default:
					return r2.Vec{X: r.Float64() * float64(w), Y: r.Float64() * float64(h)}
				}
			}
			a, b := pt(), pt()
			c := uint8(2 + r.IntN(3))
			total++
			if g.LineOfSightWide(a, b, c) {
				yes++
				if d, at := minWallDist(g, a, b); d < float64(c)-1-1e-9 {
					bad++
					if bad < 5 {
						t.Errorf("seed %d: LOSWide %v→%v c %d true but %v from %v\n%s", seed, a, b, c, d, at, gridtest.Dump(g))
					}
				}
			}
		}
	}
	t.Logf("%d bad of %d (%d seen)", bad, total, yes)
}
