package flowfield_test

import (
	"math/rand/v2"
	"os"
	"testing"

	"github.com/archai-go/archai/nav/flowfield"
	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/require"
)

// Sector fields on 250 random grids and seed 469's (1,500 with ARCHAI_LONG=1) up to 24×24 (a fifth of the cells walls) of
// several costs — up to 10^6 apart, near float32's largest and smallest — with sector
// sides 4 to 256, then after random edits: from every cell a walk along Next, which
// requests and builds sectors as agents do, makes legal moves and reaches the goal
// exactly when grid.Connected says it can. Seed 469 (9×20, costs 1 to 23, 4-cell
// sectors, the goal in a corner sector it reaches its nodes from only the long way
// round) panicked in SetGoal: the portal search's first pushes, a goal-to-node cost
// plus a crossing, went past the bucket ring sized for node-to-node costs, wrapped
// into an earlier bucket and settled a node twice (index out of range on its
// sector's exits). Such a search now runs on the heap.
func TestSectorWalksOnRandomCostsReachTheGoal(t *testing.T) {
	sets := [][]float32{{1e-6, 1}, {1, 1e6}, {1e-3, 1, 1e3}, {1, 2, 3, 5, 7, 11, 13, 17, 19, 23}, {1e30, 1e36}, {1e-38, 1e-32}}
	seeds := []uint64{469} // the panic below
	for seed := range uint64(250) {
		seeds = append(seeds, seed)
	}
	if os.Getenv("ARCHAI_LONG") != "" {
		seeds = seeds[:0]
		for seed := range uint64(1500) {
			seeds = append(seeds, seed)
		}
	}
	for _, seed := range seeds {
		r := rand.New(rand.NewPCG(seed, 3))
		W, H := 1+r.IntN(24), 1+r.IntN(24)
		g := grid.New(W, H)
		set := sets[r.IntN(len(sets))]
		for y := range H {
			for x := range W {
				c := grid.Cell{X: int32(x), Y: int32(y)}
				if r.IntN(10) < 2 {
					g.SetCost(c, grid.Blocked)
				} else {
					g.SetCost(c, set[r.IntN(len(set))])
				}
			}
		}
		size := []int{4, 5, 7, 8, 256}[r.IntN(5)]
		s, err := flowfield.NewSectors(g, size)
		require.NoError(t, err)
		f := flowfield.NewSectorField(s)
		goal := grid.Cell{X: int32(r.IntN(W)), Y: int32(r.IntN(H))}
		require.NotPanics(t, func() { f.SetGoal(goal) }, "seed %d", seed)
		for round := range 2 {
			if round == 1 { // edits
				for range 5 {
					c := grid.Cell{X: int32(r.IntN(W)), Y: int32(r.IntN(H))}
					if r.IntN(2) == 0 {
						g.SetCost(c, grid.Blocked)
					} else {
						g.SetCost(c, set[r.IntN(len(set))])
					}
				}
				f.Update(1 << 30)
			}
			for y := range H {
				for x := range W {
					c := grid.Cell{X: int32(x), Y: int32(y)}
					cur, reached := c, false
					for range 4*W*H + 10 {
						if r.IntN(3) == 0 {
							f.Request(cur)
							f.Update(1 << 30)
						}
						n, ok := f.Next(cur)
						if !ok {
							break
						}
						if n == cur {
							reached = cur == goal
							break
						}
						dx, dy := n.X-cur.X, n.Y-cur.Y
						legal := dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1 && g.Passable(n) &&
							(dx == 0 || dy == 0 || g.Passable(grid.Cell{X: cur.X + dx, Y: cur.Y}) && g.Passable(grid.Cell{X: cur.X, Y: cur.Y + dy}))
						require.True(t, legal, "seed %d round %d: step %v→%v", seed, round, cur, n)
						cur = n
					}
					require.Equal(t, g.Connected(c, goal), reached, "seed %d round %d (%d×%d, sectors of %d, costs %v): from %v to %v (stopped at %v)", seed, round, W, H, size, set, c, goal, cur)
				}
			}
		}
	}
}
