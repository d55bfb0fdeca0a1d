package grid

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// requireClearanceRecomputed fails unless g's clearance field equals one
// computed whole, and puts the patched field back.
func requireClearanceRecomputed(t *testing.T, g *Grid, msg string) {
	t.Helper()
	g.Clearance(Cell{})
	patched := append([]uint8(nil), g.clear...)
	v := g.clearVersion
	g.clearVersion = 0 // no patch: computed whole
	g.computeClearance()
	if string(patched) != string(g.clear) {
		for i := range patched {
			require.Equal(t, g.clear[i], patched[i], "clearance of cell (%d, %d), %s", i%g.w, i/g.w, msg)
		}
	}
	require.Equal(t, v, g.clearVersion)
}

// TestClearancePatchMatchesRecompute: after random runs of edits (walls
// placed and removed, several at once, at the edges and corners, costs
// changed without changing passability, cells edited back and forth, more
// edits than a patch takes), the patched clearance equals the field
// computed whole, on grids from 1×1 to 97×61, sparse and dense, and most
// updates are patches.
func TestClearancePatchMatchesRecompute(t *testing.T) {
	rng := newRand(21)
	patched, updates := 0, 0
	for _, sz := range [][3]int{{1, 1, 0}, {1, 17, 4}, {23, 1, 5}, {2, 2, 2}, {5, 7, 12}, {64, 3, 20}, {65, 9, 50}, {40, 40, 30}, {40, 40, 500}, {97, 61, 8}, {97, 61, 1500}} {
		w, h := sz[0], sz[1]
		g := New(w, h)
		for range sz[2] {
			g.SetCost(Cell{X: int32(rng.Intn(w)), Y: int32(rng.Intn(h))}, Blocked)
		}
		g.Clearance(Cell{})
		cell := func() Cell {
			c := Cell{X: int32(rng.Intn(w)), Y: int32(rng.Intn(h))}
			switch rng.Intn(4) { // an edge or a corner half the time
			case 0:
				c.X = int32(rng.Intn(2) * (w - 1))
			case 1:
				c.Y = int32(rng.Intn(2) * (h - 1))
			}
			return c
		}
		for range 60 {
			var edits int
			switch r := rng.Intn(20); {
			case r == 0:
				edits = 0
			case r == 1:
				edits = clearPatchMax + 1 + rng.Intn(40) // computed whole
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
					g.SetCost(c, Blocked)
					g.SetCost(c, 1)
					g.SetCost(c, old)
				default:
					if g.Passable(c) {
						g.SetCost(c, Blocked)
					} else {
						g.SetCost(c, 1)
					}
				}
			}
			if g.clearVersion != g.version {
				if g.patchClearance() {
					patched++
				} else {
					g.computeClearance()
				}
				g.clearVersion = g.version
			}
			updates++
			requireClearanceRecomputed(t, g, "random edits")
		}
	}
	require.Greater(t, patched, updates*2/3, "patches of %d updates", updates)
}

// TestClearancePatchInTheOpen: a pillar placed and removed in an open grid
// larger than twice the cap (the windows reach 254 cells and clearances
// 255), at its centre, corners and edges, through Clearance and Prepare.
func TestClearancePatchInTheOpen(t *testing.T) {
	g := New(600, 530)
	require.Equal(t, uint8(255), g.Clearance(Cell{X: 300, Y: 260}))
	for _, c := range []Cell{{X: 300, Y: 260}, {X: 0, Y: 0}, {X: 599, Y: 529}, {X: 599, Y: 3}, {X: 40, Y: 529}} {
		g.SetCost(c, Blocked)
		g.Prepare()
		require.Equal(t, g.version, g.clearVersion)
		requireClearanceRecomputed(t, g, "pillar placed")
		g.SetCost(c, 1)
		requireClearanceRecomputed(t, g, "pillar removed")
	}
	require.Equal(t, uint8(255), g.Clearance(Cell{X: 300, Y: 260}))
}

// TestClearancePatchAllocatesNothing: a door opened and closed in turn
// costs no allocation once the scratch has grown.
func TestClearancePatchAllocatesNothing(t *testing.T) {
	g := New(64, 64)
	for y := int32(0); y < 64; y++ {
		g.SetCost(Cell{X: 32, Y: y}, Blocked)
	}
	g.Clearance(Cell{})
	door := Cell{X: 32, Y: 20}
	allocs := testing.AllocsPerRun(100, func() {
		if g.Passable(door) {
			g.SetCost(door, Blocked)
		} else {
			g.SetCost(door, 1)
		}
		g.Clearance(door)
	})
	require.Zero(t, allocs)
	requireClearanceRecomputed(t, g, "door")
}
