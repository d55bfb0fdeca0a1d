package grid

import (
	"math"
	"math/rand/v2"
	"testing"
)

// MinCost and MaxCost, kept in O(1) by SetCost, equal a scan of the costs
// after random edits that empty the grid of passable cells, refill it and
// move the cheapest and dearest cells about (few distinct costs, so the ends
// of the range are often shared and often left by their last cell).
func TestCostRangeAgainstScanRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 19))
	costs := []float32{0.25, 1, 2, 7, Blocked}
	for _, sz := range [][2]int{{1, 1}, {1, 3}, {4, 4}, {9, 5}} {
		g := New(sz[0], sz[1])
		for step := range 3000 {
			c := Cell{X: int32(rng.IntN(sz[0])), Y: int32(rng.IntN(sz[1]))}
			g.SetCost(c, costs[rng.IntN(len(costs))])
			if rng.IntN(3) == 0 {
				continue // read after several edits too
			}
			lo, hi, n := float32(math.Inf(1)), float32(0), 0
			for y := range sz[1] {
				for x := range sz[0] {
					if v := g.Cost(Cell{X: int32(x), Y: int32(y)}); !isBlocked(v) {
						lo, hi, n = min(lo, v), max(hi, v), n+1
					}
				}
			}
			if n == 0 {
				lo = 1
			}
			if g.MinCost() != lo || g.MaxCost() != hi {
				t.Fatalf("%v step %d: MinCost %v MaxCost %v, scan %v %v", sz, step, g.MinCost(), g.MaxCost(), lo, hi)
			}
		}
	}
}
