package systems

import (
	"testing"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/require"
)

// requireWallBitsRebuilt fails unless b's bitmap, quadrant table and
// clearance copy equal a rebuild's for g, and the copy is g's clearance.
func requireWallBitsRebuilt(t *testing.T, b *wallBits, g *grid.Grid, msg string) {
	t.Helper()
	var full wallBits
	full.update(g)
	require.Equal(t, full.bits, b.bits, "bitmap, %s", msg)
	require.Equal(t, full.clr, b.clr, "clearance, %s", msg)
	for i, c := range b.clr { // the grid's: Steer.nearWall reads it here
		if want := g.Clearance(grid.Cell{X: int32(i % g.Width()), Y: int32(i / g.Width())}); want != c {
			require.Equal(t, want, c, "clearance of cell %d, %s", i, msg) // testify per cell only on a mismatch: it costs a stack walk a call
		}
	}
	if string(full.more) != string(b.more) {
		for i := range full.more {
			require.Equal(t, full.more[i], b.more[i], "quadrant byte of cell (%d, %d), %s", i%g.Width(), i/g.Width(), msg)
		}
	}
}

// TestWallBitsPatchMatchesRebuild: after random runs of edits (doors opened
// and closed, several at once, at the edges and corners, costs changed
// without changing passability, cells edited back and forth), the patched
// tables equal a rebuild, byte for byte, on grids from 1×1 to 97×61, sparse
// and dense, and most updates are patches.
func TestWallBitsPatchMatchesRebuild(t *testing.T) {
	rng := steer.NewRand(11)
	patched, updates := 0, 0
	for _, sz := range [][3]int{{1, 1, 0}, {1, 17, 4}, {23, 1, 5}, {2, 2, 2}, {5, 7, 12}, {64, 3, 20}, {65, 9, 50}, {40, 40, 30}, {40, 40, 500}, {97, 61, 8}, {97, 61, 1500}} {
		w, h := sz[0], sz[1]
		g := grid.New(w, h)
		for range sz[2] {
			g.SetCost(grid.Cell{X: int32(rng.Intn(w)), Y: int32(rng.Intn(h))}, grid.Blocked)
		}
		var b wallBits
		b.update(g)
		cell := func() grid.Cell {
			c := grid.Cell{X: int32(rng.Intn(w)), Y: int32(rng.Intn(h))}
			switch rng.Intn(4) { // an edge or a corner half the time
			case 0:
				c.X = int32(rng.Intn(2) * (w - 1))
			case 1:
				c.Y = int32(rng.Intn(2) * (h - 1))
			}
			return c
		}
		for round := range 60 {
			var edits int
			switch r := rng.Intn(20); {
			case r == 0:
				edits = 0
			case r == 1:
				edits = wallPatchMax + 1 + rng.Intn(40) // a rebuild
			case r < 5:
				edits = 2 + rng.Intn(12)
			default:
				edits = 1
			}
			for range edits {
				c := cell()
				switch rng.Intn(6) {
				case 0:
					g.SetCost(c, float32(1+rng.Intn(3))) // open, or a cost change
				case 1: // back and forth
					old := g.Cost(c)
					g.SetCost(c, grid.Blocked)
					g.SetCost(c, 1)
					g.SetCost(c, old)
				default:
					if g.Passable(c) {
						g.SetCost(c, grid.Blocked)
					} else {
						g.SetCost(c, 1)
					}
				}
			}
			g.Clearance(grid.Cell{}) // as Steer.Update does
			v := g.Version()
			switch {
			case b.version == v:
			case b.patch(g):
				b.version = v
				patched++
			default:
				b.rebuild(g)
			}
			updates++
			requireWallBitsRebuilt(t, &b, g, "grid "+string(rune('A'+round%26)))
		}
	}
	require.Greater(t, patched, updates*2/3, "patches of %d updates", updates)
}

// TestWallBitsPatchInTheOpen: a pillar placed and removed in an open grid
// larger than twice the clearance's cap (the windows reach 254 cells), and
// at its corners and edges; the patched tables equal a rebuild.
func TestWallBitsPatchInTheOpen(t *testing.T) {
	g := grid.New(600, 530)
	var b wallBits
	b.update(g)
	for _, c := range []grid.Cell{{X: 300, Y: 260}, {X: 0, Y: 0}, {X: 599, Y: 529}, {X: 599, Y: 3}, {X: 40, Y: 529}} {
		for _, cost := range []float32{grid.Blocked, 1} {
			g.SetCost(c, cost)
			g.Clearance(grid.Cell{})
			require.True(t, b.patch(g), "cell %v patched", c)
			b.version = g.Version()
			requireWallBitsRebuilt(t, &b, g, "open grid")
		}
	}
}

// TestWallBitsPatchAllocatesNothing: a door opened and closed in turn is
// patched (not rebuilt) with no allocation once the scratch has grown.
func TestWallBitsPatchAllocatesNothing(t *testing.T) {
	g := grid.New(64, 64)
	for y := int32(0); y < 64; y++ {
		g.SetCost(grid.Cell{X: 32, Y: y}, grid.Blocked)
	}
	var b wallBits
	b.update(g)
	door := grid.Cell{X: 32, Y: 20}
	allocs := testing.AllocsPerRun(100, func() {
		if g.Passable(door) {
			g.SetCost(door, grid.Blocked)
		} else {
			g.SetCost(door, 1)
		}
		g.Clearance(door)
		require.True(t, b.patch(g))
		b.version = g.Version()
	})
	require.Zero(t, allocs)
	requireWallBitsRebuilt(t, &b, g, "door")
}
