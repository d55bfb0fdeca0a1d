package flowfield

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/require"
)

// TestSectorsRefreshEqualsFresh (review20): after rounds of random
// edits (costs, walls, partial undos, cells on sector borders, edit counts
// around grid.MaxEditLog) on grids whose sides are not multiples of the
// sector side (and sector sides not powers of two), a refreshed Sectors
// holds the graph one built afresh does.
func TestSectorsRefreshEqualsFresh(t *testing.T) {
	for _, tc := range []struct{ w, h, size int }{{37, 29, 8}, {50, 21, 6}, {64, 64, 16}, {9, 70, 4}} {
		for _, edits := range []int{1, 3, grid.MaxEditLog/2 - 1, grid.MaxEditLog - 1, grid.MaxEditLog, grid.MaxEditLog + 1, 3 * grid.MaxEditLog / 2} {
			t.Run(fmt.Sprintf("%dx%d/%d/%d", tc.w, tc.h, tc.size, edits), func(t *testing.T) {
				g := grid.New(tc.w, tc.h)
				rng := rand.New(rand.NewPCG(uint64(tc.w*tc.h), uint64(edits)))
				for range tc.w * tc.h / 4 {
					g.SetCost(grid.Cell{X: int32(rng.IntN(tc.w)), Y: int32(rng.IntN(tc.h))}, grid.Blocked)
				}
				s, err := NewSectors(g, tc.size)
				require.NoError(t, err)
				costs := []float32{1, 2, 3.5, grid.Blocked}
				for round := range 4 {
					var undo []grid.Cell
					var was []float32
					for range edits {
						var c grid.Cell
						if rng.IntN(2) == 0 { // a cell on a sector border
							c = grid.Cell{X: int32(min(tc.w-1, rng.IntN(tc.w/tc.size+1)*tc.size-rng.IntN(2))), Y: int32(rng.IntN(tc.h))}
							if c.X < 0 {
								c.X = 0
							}
						} else {
							c = grid.Cell{X: int32(rng.IntN(tc.w)), Y: int32(rng.IntN(tc.h))}
						}
						undo, was = append(undo, c), append(was, g.Cost(c))
						g.SetCost(c, costs[rng.IntN(len(costs))])
					}
					for k := range undo { // undo about half
						if rng.IntN(2) == 0 {
							g.SetCost(undo[len(undo)-1-k], was[len(undo)-1-k])
						}
					}
					s.Refresh()
					f, err := NewSectors(g, tc.size)
					require.NoError(t, err)
					requireSameGraph(t, s, f, fmt.Sprintf("round %d", round))
				}
			})
		}
	}
}
