package flowfield_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/internal/gridtest"
	"github.com/archai-go/archai/nav/flowfield"
	"github.com/archai-go/archai/nav/grid"
)

func checkField(t *testing.T, tag string, g *grid.Grid, f *flowfield.Field, goal grid.Cell, clr uint8) {
	t.Helper()
	want := gridtest.To(g, clr, goal)
	w := g.Width()
	for y := 0; y < g.Height(); y++ {
		for x := 0; x < w; x++ {
			c := grid.Cell{X: int32(x), Y: int32(y)}
			wv := want[y*w+x]
			gv := f.Integration(c)
			if math.IsInf(wv, 1) != math.IsInf(gv, 1) || (!math.IsInf(wv, 1) && math.Abs(wv-gv) > 1e-4*max(1, wv)) {
				t.Fatalf("%s: cell %v integration %v want %v (goal %v clr %d)\n%s", tag, c, gv, wv, goal, clr, gridtest.Dump(g))
			}
			// follow Next: must reach the goal with the field's cost
			if math.IsInf(wv, 1) {
				if _, ok := f.Next(c); ok {
					t.Fatalf("%s: cell %v unreachable but has a next", tag, c)
				}
				continue
			}
			cur, sum := c, 0.0
			for steps := 0; cur != goal; steps++ {
				n, ok := f.Next(cur)
				if !ok || steps > w*g.Height() {
					t.Fatalf("%s: walk from %v stuck at %v", tag, c, cur)
				}
				if n == cur {
					break
				}
				cc := float64(g.Cost(n))
				if n.X != cur.X && n.Y != cur.Y {
					for _, s := range []grid.Cell{{X: n.X, Y: cur.Y}, {X: cur.X, Y: n.Y}} {
						if !g.Passable(s) || (clr > 1 && gridtest.Clearance(g, s) < int(clr)) {
							t.Fatalf("%s: walk from %v cuts a corner at %v→%v", tag, c, cur, n)
						}
					}
					cc *= math.Sqrt2
				}
				if !g.Passable(n) || (clr > 1 && n != goal && gridtest.Clearance(g, n) < int(clr)) {
					t.Fatalf("%s: walk enters %v", tag, n)
				}
				sum += cc
				cur = n
			}
			if math.Abs(sum-wv) > 1e-4*max(1, wv) {
				t.Fatalf("%s: walk from %v costs %v want %v", tag, c, sum, wv)
			}
		}
	}
}

// Fields of clearance 1 to 3 on random grids of 1 to 12 costs, whole and budgeted, after
// random edits: integration equal to brute-force backwards Dijkstra (goal and start
// exempt), and walking Next costs that much, legally.
func TestFieldMatchesBruteForceDijkstraWithEdits(t *testing.T) {
	for seed := uint64(0); seed < 300; seed++ {
		r := rand.New(rand.NewPCG(seed, 3))
		w, h := 1+r.IntN(17), 1+r.IntN(17)
		costs := []int{1, 1, 4, 12}[r.IntN(4)]
		g := gridtest.RandomGrid(r, w, h, []float64{0, 0.1, 0.2, 0.35}[r.IntN(4)], costs)
		clr := []uint8{1, 1, 2, 3}[r.IntN(4)]
		f := flowfield.New(g)
		f.SetClearance(clr)
		for round := 0; round < 6; round++ {
			goal := grid.Cell{X: int32(r.IntN(w)), Y: int32(r.IntN(h))}
			if r.IntN(2) == 0 {
				f.Build(goal)
			} else {
				f.Start(goal)
				for !f.Step(1 + r.IntN(5)) {
				}
			}
			checkField(t, "seed "+itoa(seed)+" round "+itoa(uint64(round)), g, f, goal, clr)
			for k := 0; k < 1+r.IntN(4); k++ {
				e := grid.Cell{X: int32(r.IntN(w)), Y: int32(r.IntN(h))}
				switch r.IntN(3) {
				case 0:
					g.SetCost(e, grid.Blocked)
				case 1:
					g.SetCost(e, 1)
				default:
					g.SetCost(e, float32(1+r.IntN(max(costs, 1))))
				}
			}
		}
	}
}

// Cache.GetWide across goals, clearances and edits: always the brute-force field.
func TestCacheGetWideMatchesBruteForceDijkstra(t *testing.T) {
	for seed := uint64(0); seed < 150; seed++ {
		r := rand.New(rand.NewPCG(seed, 5))
		w, h := 2+r.IntN(15), 2+r.IntN(15)
		g := gridtest.RandomGrid(r, w, h, 0.15, 1)
		c := flowfield.NewCache(g, 1+r.IntN(3))
		for round := 0; round < 10; round++ {
			goal := grid.Cell{X: int32(r.IntN(w)), Y: int32(r.IntN(h))}
			clr := []uint8{1, 2, 3}[r.IntN(3)]
			f := c.GetWide(goal, clr)
			checkField(t, "cache seed "+itoa(seed), g, f, goal, clr)
			e := grid.Cell{X: int32(r.IntN(w)), Y: int32(r.IntN(h))}
			if r.IntN(2) == 0 {
				g.SetCost(e, grid.Blocked)
			} else {
				g.SetCost(e, 1)
			}
		}
	}
}

func itoa(v uint64) string {
	if v == 0 {
		return "0"
	}
	b := []byte{}
	for v > 0 {
		b = append([]byte{byte('0' + v%10)}, b...)
		v /= 10
	}
	return string(b)
}
