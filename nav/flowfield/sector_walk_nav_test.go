package flowfield_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/internal/gridtest"
	"github.com/archai-go/archai/nav/flowfield"
	"github.com/archai-go/archai/nav/grid"
)

// Sector fields on odd sizes with goals moving on and off the grid and edits between
// budgeted Updates: a cell has a direction exactly when brute-force Dijkstra reaches the
// goal, a walk that requests its sectors reaches it with legal moves, and no integration is
// below the optimal cost.
func TestSectorWalksReachTheGoalThroughEditsAndGoalMoves(t *testing.T) {
	worst := 1.0
	for seed := uint64(0); seed < 400; seed++ {
		r := rand.New(rand.NewPCG(seed, 19))
		w, h := 1+r.IntN(30), 1+r.IntN(30)
		costs := []int{1, 1, 3}[r.IntN(3)]
		g := gridtest.RandomGrid(r, w, h, []float64{0, 0.1, 0.2, 0.3}[r.IntN(4)], costs)
		s, err := flowfield.NewSectors(g, 4+r.IntN(6))
		if err != nil {
			t.Fatal(err)
		}
		f := flowfield.NewSectorField(s)
		goal := grid.Cell{X: int32(r.IntN(w)), Y: int32(r.IntN(h))}
		f.SetGoal(goal)
		for round := 0; round < 8; round++ {
			if r.IntN(3) == 0 { // the goal moves
				goal = grid.Cell{X: int32(r.IntN(w+2)) - 1, Y: int32(r.IntN(h+2)) - 1}
				f.SetGoal(goal)
			}
			f.Update(r.IntN(40))
			want := gridtest.To(g, 1, goal)
			if !g.InBounds(goal) {
				for i := range want {
					want[i] = math.Inf(1)
				}
			}
			for q := 0; q < 12; q++ {
				c := grid.Cell{X: int32(r.IntN(w)), Y: int32(r.IntN(h))}
				wv := want[int(c.Y)*w+int(c.X)]
				_, ok := f.Next(c)
				if math.IsInf(wv, 1) {
					if ok {
						t.Fatalf("seed %d: %v unreachable (goal %v) but Next ok\n%s", seed, c, goal, gridtest.Dump(g))
					}
					continue
				}
				if !ok {
					t.Fatalf("seed %d round %d: %v reachable (%v) but no Next (goal %v)\n%s", seed, round, c, wv, goal, gridtest.Dump(g))
				}
				cur, sum := c, 0.0
				for steps := 0; ; steps++ {
					if steps > 4*w*h+10 {
						t.Fatalf("seed %d: walk from %v to %v does not end", seed, c, goal)
					}
					f.Request(cur)
					f.Update(1 << 20)
					n, ok := f.Next(cur)
					if !ok {
						t.Fatalf("seed %d: walk from %v lost at %v", seed, c, cur)
					}
					if n == cur {
						if cur != goal {
							t.Fatalf("seed %d: walk from %v stops at %v, goal %v", seed, c, cur, goal)
						}
						break
					}
					if !g.Passable(n) || max(n.X-cur.X, cur.X-n.X) > 1 || max(n.Y-cur.Y, cur.Y-n.Y) > 1 {
						t.Fatalf("seed %d: bad step %v→%v", seed, cur, n)
					}
					cc := float64(g.Cost(n))
					if n.X != cur.X && n.Y != cur.Y {
						if !g.Passable(grid.Cell{X: n.X, Y: cur.Y}) || !g.Passable(grid.Cell{X: cur.X, Y: n.Y}) {
							t.Fatalf("seed %d: corner cut %v→%v", seed, cur, n)
						}
						cc *= math.Sqrt2
					}
					sum += cc
					cur = n
				}
				if wv > 0 {
					worst = max(worst, sum/wv)
				}
				// with every sector of the walk built: the walk costs at most the start's integration
				iv := f.Integration(c)
				if iv < wv*(1-1e-5) {
					t.Fatalf("seed %d: integration %v below optimal %v at %v", seed, iv, wv, c)
				}
			}
			for k := 0; k < 1+r.IntN(5); k++ {
				e := grid.Cell{X: int32(r.IntN(w)), Y: int32(r.IntN(h))}
				switch r.IntN(3) {
				case 0:
					g.SetCost(e, grid.Blocked)
				case 1:
					g.SetCost(e, 1)
				default:
					g.SetCost(e, float32(1+r.IntN(costs)))
				}
			}
		}
	}
	t.Logf("worst walk / optimal: %.3f", worst)
}
