package grid

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// plainOctile is Dijkstra on a uniform-cost grid: 8 moves, diagonals √2, no
// corner cutting; +Inf when goal is unreachable.
func plainOctile(g *Grid, start, goal Cell) float64 {
	w, h := g.Width(), g.Height()
	d := make([]float64, w*h)
	for i := range d {
		d[i] = math.Inf(1)
	}
	done := make([]bool, w*h)
	d[g.index(start)] = 0
	for {
		best := -1
		for i := range d {
			if !done[i] && !math.IsInf(d[i], 1) && (best < 0 || d[i] < d[best]) {
				best = i
			}
		}
		if best < 0 {
			return math.Inf(1)
		}
		done[best] = true
		c := Cell{int32(best % w), int32(best / w)}
		if c == goal {
			return d[best]
		}
		for dy := int32(-1); dy <= 1; dy++ {
			for dx := int32(-1); dx <= 1; dx++ {
				n := Cell{c.X + dx, c.Y + dy}
				if (dx == 0 && dy == 0) || !g.Passable(n) {
					continue
				}
				step := 1.0
				if dx != 0 && dy != 0 {
					if !g.Passable(Cell{c.X + dx, c.Y}) || !g.Passable(Cell{c.X, c.Y + dy}) {
						continue
					}
					step = math.Sqrt2
				}
				if v := d[best] + step; v < d[g.index(n)] {
					d[g.index(n)] = v
				}
			}
		}
	}
}

// TestFastSearchesSlicedByOneMatchPlainDijkstra: the default A* loop
// (runOctile) and exact JPS (runJPSExact), stepped one expansion at a time
// and with an odd budget, find paths of the optimal cost on small random
// grids (thin, with many walls, start or goal blocked, start = goal, cells
// opened and blocked between queries), and report unreachable goals.
func TestFastSearchesSlicedByOneMatchPlainDijkstra(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for round := range 150 {
		w, h := 1+rng.IntN(24), 1+rng.IntN(24)
		g := New(w, h)
		density := rng.Float64() * 0.45
		for y := range h {
			for x := range w {
				if rng.Float64() < density {
					g.SetCost(Cell{int32(x), int32(y)}, Blocked)
				}
			}
		}
		for _, jps := range []bool{false, true} {
			for _, budget := range []int{1, 7, 1 << 30} {
				s := NewSearchOptions(g, Options{JumpPoints: jps})
				for q := range 6 {
					if q > 0 { // edits between queries: the searches' grid mirrors follow
						for range 1 + rng.IntN(4) {
							c := Cell{int32(rng.IntN(w)), int32(rng.IntN(h))}
							if g.Passable(c) {
								g.SetCost(c, Blocked)
							} else {
								g.SetCost(c, 1)
							}
						}
					}
					start := Cell{int32(rng.IntN(w)), int32(rng.IntN(h))}
					goal := Cell{int32(rng.IntN(w)), int32(rng.IntN(h))}
					if rng.IntN(8) == 0 {
						goal = start
					}
					want := plainOctile(g, start, goal)
					if !g.Passable(start) || !g.Passable(goal) {
						want = math.Inf(1)
					}
					err := s.Start(start, goal)
					if err == nil {
						for steps := 0; ; steps++ {
							n, done := s.Step(budget)
							require.LessOrEqual(t, n, budget)
							if done {
								break
							}
							require.Less(t, steps, 4*w*h+8, "round %d: the search ends", round)
						}
						var path []Cell
						var cost float64
						path, cost, err = s.Result(nil)
						if err == nil {
							require.InDelta(t, want, cost, 1e-9, "round %d jps %v budget %d %v→%v", round, jps, budget, start, goal)
							require.Equal(t, start, path[0])
							require.Equal(t, goal, path[len(path)-1])
							continue
						}
					}
					require.True(t, math.IsInf(want, 1), "round %d jps %v budget %d %v→%v: %v, want cost %v", round, jps, budget, start, goal, err, want)
				}
			}
		}
	}
}
