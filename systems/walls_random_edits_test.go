package systems

import (
	"testing"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/nav/grid"
)

// Review 4: the wall tables and the grid's clearance patched through random
// edit runs (clusters, undos, borders, cost-only changes, more edits than a
// patch takes or the grid remembers), with Clearance and Prepare called at
// random moments between edits and two tables on one grid updated at
// different times; each compared with a fresh grid built with the same
// cells.
func TestWallBitsAndClearanceRandomEdits(t *testing.T) {
	t.Parallel()
	rng := steer.NewRand(4011)
	for _, sz := range [][3]int{{1, 40, 3}, {40, 1, 3}, {3, 200, 30}, {130, 90, 20}, {130, 90, 2000}, {600, 560, 40}} {
		w, h := sz[0], sz[1]
		g := grid.New(w, h)
		for range sz[2] {
			g.SetCost(grid.Cell{X: int32(rng.Intn(w)), Y: int32(rng.Intn(h))}, grid.Blocked)
		}
		var a, b wallBits
		a.update(g)
		b.update(g)
		rounds := 50
		if w*h > 100000 {
			rounds = 12
		}
		for round := range rounds {
			var edits int
			switch r := rng.Intn(20); {
			case r == 0:
				edits = 257 + rng.Intn(40)
			case r == 1:
				edits = grid.MaxEditLog + rng.Intn(100)
			case r < 6:
				edits = 2 + rng.Intn(30)
			default:
				edits = 1
			}
			cx, cy := rng.Intn(w), rng.Intn(h)
			var undo []grid.Cell
			for range edits {
				c := grid.Cell{X: int32(rng.Intn(w)), Y: int32(rng.Intn(h))}
				switch rng.Intn(5) {
				case 0: // a cluster
					c = grid.Cell{X: int32(min(max(cx+rng.Intn(7)-3, 0), w-1)), Y: int32(min(max(cy+rng.Intn(7)-3, 0), h-1))}
				case 1: // the border
					if rng.Intn(2) == 0 {
						c.X = int32(rng.Intn(2) * (w - 1))
					} else {
						c.Y = int32(rng.Intn(2) * (h - 1))
					}
				}
				switch rng.Intn(5) {
				case 0:
					if g.Passable(c) {
						g.SetCost(c, float32(1+rng.Intn(4))) // cost only
					}
				default:
					if g.Passable(c) {
						g.SetCost(c, grid.Blocked)
						undo = append(undo, c)
					} else {
						g.SetCost(c, 1)
					}
				}
				switch rng.Intn(40) {
				case 0:
					g.Clearance(grid.Cell{X: int32(rng.Intn(w)), Y: int32(rng.Intn(h))})
				case 1:
					g.Prepare()
				case 2:
					b.update(g)
				}
			}
			if rng.Intn(3) == 0 { // undone
				for i := len(undo) - 1; i >= 0; i-- {
					g.SetCost(undo[i], 1)
				}
			}
			a.update(g)
			if round%3 == 0 {
				b.update(g)
				requireWallBitsRebuilt(t, &b, g, "b")
			}
			requireWallBitsRebuilt(t, &a, g, "a")
			// a fresh grid of the same cells: the same clearances
			fresh := grid.New(w, h)
			for i, c := range g.Costs() {
				if c != 1 {
					fresh.SetCost(grid.Cell{X: int32(i % w), Y: int32(i / w)}, c)
				}
			}
			for i := range w * h {
				c := grid.Cell{X: int32(i % w), Y: int32(i / w)}
				if g.Clearance(c) != fresh.Clearance(c) {
					t.Fatalf("%dx%d round %d: clearance of %v %d, fresh grid %d", w, h, round, c, g.Clearance(c), fresh.Clearance(c))
				}
			}
		}
	}
}
