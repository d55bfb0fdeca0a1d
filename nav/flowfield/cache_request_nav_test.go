package flowfield_test

import (
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/internal/gridtest"
	"github.com/archai-go/archai/nav/flowfield"
	"github.com/archai-go/archai/nav/grid"
)

// Cache.RequestWide under budgeted Updates and edits: a field it reports complete and
// current is the brute-force one.
func TestCacheRequestCompleteFieldsAreRight(t *testing.T) {
	for seed := uint64(0); seed < 200; seed++ {
		r := rand.New(rand.NewPCG(seed, 41))
		w, h := 2+r.IntN(16), 2+r.IntN(16)
		g := gridtest.RandomGrid(r, w, h, 0.15, []int{1, 4, 12}[r.IntN(3)])
		c := flowfield.NewCache(g, 1+r.IntN(3))
		goals := []grid.Cell{{X: int32(r.IntN(w)), Y: int32(r.IntN(h))}, {X: int32(r.IntN(w)), Y: int32(r.IntN(h))}}
		clrs := []uint8{1, 2}
		for f := 0; f < 60; f++ {
			for _, goal := range goals {
				for _, clr := range clrs {
					c.RequestWide(goal, clr)
				}
			}
			c.Update(r.IntN(30))
			if r.IntN(4) == 0 {
				e := grid.Cell{X: int32(r.IntN(w)), Y: int32(r.IntN(h))}
				if r.IntN(2) == 0 {
					g.SetCost(e, grid.Blocked)
				} else {
					g.SetCost(e, float32(1+r.IntN(3)))
				}
			}
			// a complete, current field must be right
			for _, goal := range goals {
				for _, clr := range clrs {
					f, ok := c.RequestWide(goal, clr)
					if ok {
						if f.Stale() || !f.Done() {
							t.Fatalf("seed %d: ok but stale %v done %v", seed, f.Stale(), f.Done())
						}
						checkField(t, "cache request", g, f, goal, clr)
					}
				}
			}
		}
	}
}
