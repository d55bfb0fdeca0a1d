package systems

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// Memory that grows with the map, not the crowd (big20): on a 4096² map a
// byte per cell is 16 MB, so each table a system keeps per cell is counted
// here, in bytes allocated per cell, on a map big enough that per-cell
// tables dwarf everything else.

// allocatedBytes returns the bytes f allocates on the heap (MemStats'
// TotalAlloc, freed or not).
func allocatedBytes(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// bigMapTown is a 1024² town map with rooms and streets (grid.GenerateTown).
func bigMapTown(t *testing.T) *grid.Grid {
	t.Helper()
	g, err := grid.GenerateTown(1024, 3)
	require.NoError(t, err)
	return g
}

// TestFlowFieldSectorModeReservesNoWholeGridField: in sector mode the
// flowfield.Cache stays empty, so Reserve must not allocate whole-grid fields
// (about 11 bytes per cell each, and on the 4096² swarm, Reserve 2 held 353 MB
// that nothing read). Initialize allocates the sector layer alone: the copy
// of the costs (4 bytes per cell) and the per-node directions (about 5), and
// the cache holds no field, free or in use, after it.
func TestFlowFieldSectorModeReservesNoWholeGridField(t *testing.T) {
	g := bigMapTown(t)
	g.Prepare()
	cells := float64(g.Width() * g.Height())
	for _, sectors := range []int{0, 64} {
		world := arche.NewWorld()
		w := &world
		arche.AddResource(w, g)
		flow := &FlowField{Sectors: sectors, Capacity: 2, Reserve: 2, Workers: 1}
		perCell := float64(allocatedBytes(func() { flow.Initialize(w) })) / cells
		t.Logf("Sectors %d: Initialize allocated %.1f bytes per cell", sectors, perCell)
		if sectors == 0 {
			require.Greater(t, perCell, 18.0, "whole-grid mode reserves its 2 fields (the test's yardstick)")
		} else {
			require.Less(t, perCell, 12.0, "sector mode: the sector layer only, no whole-grid field")
		}
		flow.Finalize(w)
	}
}

// TestFoeIndexKeysFollowTheCrowdNotTheMap: Perception's foe index counts,
// clears and prefix-sums every key (team class × bucket) each frame, so on a
// big map its buckets widen until there are at most foeKeysPerAgent per
// agent (or foeMinBuckets): 10 agents on 4096² used to cost 524,288 keys a
// frame (0.25 ms, newbie19), 3,000 agents the same. The crowd of the
// guards' reference (100,000 agents on 832²) keeps buckets of foeBucket
// cells. A rebuild allocates nothing once warm.
func TestFoeIndexKeysFollowTheCrowdNotTheMap(t *testing.T) {
	for _, c := range []struct {
		side, agents int
		bucket       float64 // the side fit must pick
	}{{4096, 10, 64}, {4096, 3000, 32}, {1024, 3000, 8}, {832, 100000, 8}, {256, 10, 8}} {
		rng := rand.New(rand.NewPCG(uint64(c.side), uint64(c.agents)))
		nb := &Neighbours{Positions: make([]r2.Vec, c.agents), Teams: make([]uint8, c.agents)}
		for i := range nb.Positions {
			nb.Positions[i] = r2.Vec{X: rng.Float64() * float64(c.side), Y: rng.Float64() * float64(c.side)}
			nb.Teams[i] = uint8(i % 2)
		}
		var x foeIndex
		x.resize(c.side, c.side, 2)
		run := func(m int) { x.work(nb, 0, 0, m/2); x.work(nb, 1, m/2, m) }
		x.build(nb, 2, run)
		require.Equal(t, c.bucket, x.size, "%d agents on %d²: the buckets' side", c.agents, c.side)
		keys := len(x.starts) - 1
		require.LessOrEqual(t, keys, 2*max(foeKeysPerAgent*c.agents, foeMinBuckets), "%d agents on %d²: keys", c.agents, c.side)
		require.Equal(t, int32(c.agents), x.starts[keys], "every agent indexed")
		require.Zero(t, testing.AllocsPerRun(3, func() { x.build(nb, 2, run) }), "a warm rebuild allocates")
	}
}

// TestOpenCellsCountsWrapExactly: the table of blocked cells that Perception
// and ORCA share keeps its counts modulo 2¹⁶ (two bytes a cell rather than
// four; 32 MB less on 4096²). On a map with more than 2¹⁶ blocked cells,
// where the prefix counts wrap many times, and on an open map with a few
// blocked cells, every rectangle's answer (below 2¹⁶ cells from the table,
// at or above it from the bitmap) equals a scan of the grid, before and
// after edits that the table holds as pending cells.
func TestOpenCellsCountsWrapExactly(t *testing.T) {
	const w, h = 330, 300              // 99,000 cells
	for _, fill := range []int{8, 0} { // in 10: most cells blocked, or none
		rng := rand.New(rand.NewPCG(20, uint64(fill)))
		g := grid.New(w, h)
		for y := range int32(h) {
			for x := range int32(w) {
				if rng.IntN(10) < fill {
					g.SetCost(grid.Cell{X: x, Y: y}, grid.Blocked)
				}
			}
		}
		var o openCells
		o.update(g)
		require.Len(t, o.sum, (w+1)*(h+1))
		// a block of blocked cells but one, opened and closed below
		for y := int32(100); y < 104; y++ {
			for x := int32(200); x < 206; x++ {
				g.SetCost(grid.Cell{X: x, Y: y}, grid.Blocked)
			}
		}
		big, small, open := 0, 0, 0
		for round := range 6 {
			if round > 0 { // edits the table keeps pending
				for range 3 {
					c := grid.Cell{X: int32(rng.IntN(w)), Y: int32(rng.IntN(h))}
					g.SetCost(c, []float32{grid.Blocked, 1}[rng.IntN(2)])
				}
				g.SetCost(grid.Cell{X: 203, Y: 102}, []float32{grid.Blocked, 1}[round%2])
			}
			o.update(g)
			for q := range 400 {
				x0, x1 := rng.IntN(w), rng.IntN(w)
				y0, y1 := rng.IntN(h), rng.IntN(h)
				x0, x1 = min(x0, x1), max(x0, x1)+1
				y0, y1 = min(y0, y1), max(y0, y1)+1
				switch q % 4 {
				case 0: // around the block of blocked cells
					x0, x1, y0, y1 = 200+rng.IntN(3), 203+rng.IntN(3), 100+rng.IntN(2), 102+rng.IntN(2)
				case 1: // 2¹⁶ cells or more
					x0, x1, y0, y1 = rng.IntN(20), w-rng.IntN(20), rng.IntN(20), h-rng.IntN(20)
				case 2: // one cell: the one in the block, or any
					x0, y0 = 203, 102
					if q%8 == 6 {
						x0, y0 = rng.IntN(w), rng.IntN(h)
					}
					x1, y1 = x0+1, y0+1
				}
				want := false
				for y := y0; y < y1 && !want; y++ {
					for x := x0; x < x1; x++ {
						if !g.Passable(grid.Cell{X: int32(x), Y: int32(y)}) {
							want = true
							break
						}
					}
				}
				if (x1-x0)*(y1-y0) >= 1<<16 {
					big++
				} else {
					small++
				}
				if !want {
					open++
				}
				require.Equal(t, want, o.blockedIn(x0, x1, y0, y1), "fill %d round %d [%d,%d)×[%d,%d)", fill, round, x0, x1, y0, y1)
				require.Equal(t, !want, o.open(x0, x1, y0, y1), "fill %d round %d [%d,%d)×[%d,%d)", fill, round, x0, x1, y0, y1)
			}
		}
		require.Greater(t, big, 500, "rectangles of 2¹⁶ cells or more")
		require.Greater(t, small, 1000, "rectangles read from the table")
		require.Greater(t, open, 50, "open rectangles")
	}
}
