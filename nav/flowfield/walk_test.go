package flowfield

import (
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/require"
)

// nextChain is Walk written as the chain of Next calls it replaces.
func nextChain(f *Field, c grid.Cell, path []grid.Cell) int {
	at := c
	for k := range path {
		n, ok := f.Next(at)
		if !ok || n == at {
			return k
		}
		path[k], at = n, n
	}
	return len(path)
}

// TestWalkIsTheNextChain: from every cell of weighted random grids with
// walls and two goals, and from cells off the grid, Walk writes the cells
// the chain of Next calls visits, stopping where it stops (a cell without a
// path, a goal), for every length of path; PrefetchAlong, called for every
// cell and heading on the way, changes none of it.
func TestWalkIsTheNextChain(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 12))
	for round := range 4 {
		g := randomGrid(rng, 23+round, 17, 25, round%2 == 1)
		goals := []grid.Cell{{X: 3, Y: 4}, {X: 19, Y: 12}}
		for _, gc := range goals {
			g.SetCost(gc, 1)
		}
		f := New(g)
		f.Build(goals...)
		stops := map[int]int{}
		for y := int32(-2); y < int32(g.Height())+2; y++ {
			for x := int32(-2); x < int32(g.Width())+2; x++ {
				c := grid.Cell{X: x, Y: y}
				for dx := -1; dx <= 1; dx++ {
					for dy := -1; dy <= 1; dy++ {
						f.PrefetchAlong(c, dx, dy)
					}
				}
				for n := 0; n <= 6; n++ {
					want, got := make([]grid.Cell, n), make([]grid.Cell, n)
					k := nextChain(f, c, want)
					require.Equal(t, k, f.Walk(c, got), "cell %v, room %d", c, n)
					require.Equal(t, want[:k], got[:k], "cell %v, room %d", c, n)
					if n == 6 {
						stops[k]++
					}
				}
			}
		}
		// the walks both ran their full length and stopped short (at goals,
		// blocked cells and cells off the grid)
		require.Positive(t, stops[6], "round %d", round)
		require.Positive(t, stops[0], "round %d", round)
	}
}
