package flowfield_test

import (
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/nav/flowfield"
	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/require"
)

// walkSector follows f.Next from c, requesting and building every sector it
// enters (as systems.FlowField does), for at most limit steps; it returns
// the cell it stopped on, whether that is the goal and whether it stopped
// (reached the goal or Next reported no path) rather than ran out of steps.
func walkSector(t *testing.T, f *flowfield.SectorField, c grid.Cell, limit int) (end grid.Cell, reached, stopped bool) {
	return walkSectorBuilding(t, f, c, limit, true)
}

// walkSectorBuilding is walkSector, requesting sectors only with build.
func walkSectorBuilding(t *testing.T, f *flowfield.SectorField, c grid.Cell, limit int, build bool) (end grid.Cell, reached, stopped bool) {
	g := f.Sectors().Grid()
	for range limit {
		if build {
			f.Request(c)
			f.Update(1 << 30)
		}
		n, ok := f.Next(c)
		if !ok {
			return c, false, true
		}
		if n == c {
			return c, c == f.Goal(), true
		}
		dx, dy := n.X-c.X, n.Y-c.Y
		require.True(t, dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1 && g.Passable(n) &&
			(dx == 0 || dy == 0 || g.Passable(grid.Cell{X: c.X + dx, Y: c.Y}) && g.Passable(grid.Cell{X: c.X, Y: c.Y + dy})), "step %v→%v", c, n)
		c = n
	}
	return c, false, false
}

// A 1×10 corridor of costs 1 and 1e-8 (10^8 apart, past float32's 2^24) with
// 4-cell sectors, the case the SectorField doc named as cycling: walks that
// build each sector as they enter it stop (at the goal, or where Next reports
// no path), one whose route BuildRoute built first reaches the goal, and with
// every sector built in either order no walk loops. (These walks did not loop
// before the fix either; TestSectorWalksOnCostsFarApartStop did.)
func TestSectorWalkOnCostsBeyondFloat32Stops(t *testing.T) {
	for _, costs := range [][]float32{{1, 1e-8}, {1e-8, 1}, {1, 1e-30}, {1e30, 1}} {
		for goalX := int32(0); goalX < 10; goalX++ {
			g := grid.New(10, 1)
			for x := range 10 {
				g.SetCost(grid.Cell{X: int32(x)}, costs[x%2])
			}
			s, err := flowfield.NewSectors(g, 4)
			require.NoError(t, err)
			f := flowfield.NewSectorField(s)
			goal := grid.Cell{X: goalX}
			for x := int32(0); x < 10; x++ {
				f.SetGoal(goal)
				end, _, stopped := walkSector(t, f, grid.Cell{X: x}, 1000)
				require.True(t, stopped, "costs %v goal %v: from %v looping at %v", costs, goal, x, end)
				f.SetGoal(goal)
				f.BuildRoute(grid.Cell{X: x})
				end, reached, _ := walkSector(t, f, grid.Cell{X: x}, 1000)
				require.True(t, reached, "costs %v goal %v (route built): from %v stopped at %v", costs, goal, x, end)
				for _, order := range [][]int32{{0, 4, 8}, {8, 4, 0}} { // every sector built, in both orders
					f.SetGoal(goal)
					for _, c := range order {
						f.Request(grid.Cell{X: c})
						f.Update(1 << 30)
					}
					for y := int32(0); y < 10; y++ {
						end, _, stopped := walkSectorBuilding(t, f, grid.Cell{X: y}, 1000, false)
						require.True(t, stopped, "costs %v goal %v (sectors built %v): from %v looping at %v", costs, goal, order, y, end)
					}
				}
			}
		}
	}
}

// Random grids of costs far beyond float32's 2^24 apart: a walk that builds
// sectors as it enters them never loops (it stops at the goal or where Next
// reports no path, and reaches the goal only when connected), nor does one
// whose route BuildRoute built first. Before the fix, seed 1 (14×18, costs 1
// and 1e9, 4-cell sectors) looped: (10,3) and (10,4), across a sector edge,
// both read 2.000000128e9 and stepped to each other. The log gives how many
// walks stopped short of a connected goal (14 of 41,366 when written).
func TestSectorWalksOnCostsFarApartStop(t *testing.T) {
	sets := [][]float32{{1e-8, 1}, {1, 1e9}, {1e-30, 1, 1e30}, {1e-20, 1e-10, 1, 1e10}}
	noPath, routeShort, walks := 0, 0, 0
	for seed := uint64(0); seed < 600; seed++ {
		r := rand.New(rand.NewPCG(seed, 11))
		W, H := 1+r.IntN(20), 1+r.IntN(20)
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
		size := []int{4, 5, 8}[r.IntN(3)]
		s, err := flowfield.NewSectors(g, size)
		require.NoError(t, err)
		f := flowfield.NewSectorField(s)
		goal := grid.Cell{X: int32(r.IntN(W)), Y: int32(r.IntN(H))}
		for y := range H {
			for x := range W {
				c := grid.Cell{X: int32(x), Y: int32(y)}
				conn := g.Connected(c, goal)
				f.SetGoal(goal)
				end, reached, stopped := walkSector(t, f, c, 4*W*H+10)
				require.True(t, stopped, "seed %d (%d×%d, sectors of %d, costs %v): from %v to %v looping at %v", seed, W, H, size, set, c, goal, end)
				require.True(t, !reached || conn, "seed %d: reached from %v, not connected", seed, c)
				if conn && !reached {
					noPath++
				}
				f.SetGoal(goal)
				f.BuildRoute(c)
				end, reached, stopped = walkSector(t, f, c, 4*W*H+10)
				require.True(t, stopped, "seed %d (%d×%d, sectors of %d, costs %v; route built): from %v to %v looping at %v", seed, W, H, size, set, c, goal, end)
				require.True(t, !reached || conn, "seed %d: reached from %v, not connected", seed, c)
				if conn {
					walks++
					if !reached {
						routeShort++
					}
				}
			}
		}
	}
	t.Logf("of %d walks to a connected goal, %d stopped short (Next: no path); with the route built first, %d", walks, noPath, routeShort)
}
