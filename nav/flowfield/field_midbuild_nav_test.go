package flowfield_test

import (
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/internal/gridtest"
	"github.com/archai-go/archai/nav/flowfield"
	"github.com/archai-go/archai/nav/grid"
)

func cloneGrid(g *grid.Grid) *grid.Grid {
	c := grid.New(g.Width(), g.Height())
	for y := 0; y < g.Height(); y++ {
		for x := 0; x < g.Width(); x++ {
			cell := grid.Cell{X: int32(x), Y: int32(y)}
			c.SetCost(cell, g.Cost(cell))
		}
	}
	return c
}

// Edits between Steps of a budgeted build: the finished field is that of the grid when
// Start was called (Stale tells).
func TestAFieldEditedMidBuildIsThatOfTheOldGrid(t *testing.T) {
	for seed := uint64(0); seed < 300; seed++ {
		r := rand.New(rand.NewPCG(seed, 31))
		w, h := 2+r.IntN(15), 2+r.IntN(15)
		costs := []int{1, 3, 12}[r.IntN(3)]
		g := gridtest.RandomGrid(r, w, h, 0.2, costs)
		clr := []uint8{1, 2}[r.IntN(2)]
		f := flowfield.New(g)
		f.SetClearance(clr)
		goal := grid.Cell{X: int32(r.IntN(w)), Y: int32(r.IntN(h))}
		old := cloneGrid(g)
		f.Start(goal)
		f.Step(r.IntN(10))
		for k := 0; k < 3; k++ {
			e := grid.Cell{X: int32(r.IntN(w)), Y: int32(r.IntN(h))}
			if r.IntN(2) == 0 {
				g.SetCost(e, grid.Blocked)
			} else {
				g.SetCost(e, float32(1+r.IntN(costs)))
			}
		}
		for !f.Step(3) {
		}
		// the field must be that of the old grid
		want := gridtest.To(old, clr, goal)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				c := grid.Cell{X: int32(x), Y: int32(y)}
				gv, wv := f.Integration(c), want[y*w+x]
				if (gv != wv) && !(gv-wv < 1e-4*wv && wv-gv < 1e-4*wv) {
					t.Fatalf("seed %d: %v got %v want (old grid) %v; stale %v", seed, c, gv, wv, f.Stale())
				}
			}
		}
	}
}
