package grid

import (
	"math/rand/v2"
	"testing"
)

// fresh returns a new grid with g's costs (its clearance computed whole).
func freshCopy(g *Grid) *Grid {
	f := New(g.Width(), g.Height())
	for y := range g.Height() {
		for x := range g.Width() {
			c := Cell{X: int32(x), Y: int32(y)}
			f.SetCost(c, g.Cost(c))
		}
	}
	return f
}

// The patched clearance equals the whole computation after edits at the
// borders and corners, on one-cell-wide grids, and in fields open enough
// for the cap of 255 to matter, opening and closing cells.
func TestClearancePatchAtBordersAndCap(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 3))
	for _, sz := range [][2]int{{1, 1}, {1, 40}, {40, 1}, {2, 3}, {17, 9}, {600, 600}, {700, 3}} {
		w, h := sz[0], sz[1]
		g := New(w, h)
		g.Clearance(Cell{})
		for round := range 12 {
			n := 1 + rng.IntN(6)
			for range n {
				var c Cell
				switch rng.IntN(3) {
				case 0: // a corner
					c = Cell{X: int32(rng.IntN(2) * (w - 1)), Y: int32(rng.IntN(2) * (h - 1))}
				case 1: // a border
					c = Cell{X: int32(rng.IntN(w)), Y: int32(rng.IntN(2) * (h - 1))}
				default:
					c = Cell{X: int32(rng.IntN(w)), Y: int32(rng.IntN(h))}
				}
				if rng.IntN(2) == 0 {
					g.SetCost(c, Blocked)
				} else {
					g.SetCost(c, 1)
				}
			}
			f := freshCopy(g)
			for y := range h {
				for x := range w {
					c := Cell{X: int32(x), Y: int32(y)}
					if got, want := g.Clearance(c), f.Clearance(c); got != want {
						t.Fatalf("%dx%d round %d: clearance of %v %d, want %d", w, h, round, c, got, want)
					}
				}
			}
		}
	}
}
