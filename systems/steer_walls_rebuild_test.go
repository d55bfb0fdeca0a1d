package systems

import (
	"testing"

	"github.com/archai-go/archai/nav/grid"
)

// wallBenchGrid is an 832² grid (the 100,000-agent swarm's size) with every
// 97th cell blocked, or with none.
func wallBenchGrid(scattered bool) *grid.Grid {
	g := grid.New(832, 832)
	for i := 0; scattered && i < 832*832; i += 97 {
		g.SetCost(grid.Cell{X: int32(i % 832), Y: int32(i / 832)}, grid.Blocked)
	}
	return g
}

// BenchmarkWallBitsRebuild times a whole rebuild of the wall tables of an
// 832² grid with scattered walls, the grid's clearance built beforehand
// (Steer.Update builds it first), untimed.
func BenchmarkWallBitsRebuild(b *testing.B) {
	g := wallBenchGrid(true)
	var w wallBits
	w.update(g)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		c := grid.Cell{X: int32(i % 800), Y: 400}
		b.StopTimer()
		g.SetCost(c, grid.Blocked)
		g.Clearance(c) // Steer.Update builds it before the bitmap
		b.StartTimer()
		w.rebuild(g)
		b.StopTimer()
		g.SetCost(c, 1)
		w.rebuild(g)
		b.StartTimer()
	}
}

// BenchmarkWallBitsEdit times wallBits.update after one cell's edit (a
// cell of row 400 blocked, then opened again, in turn) on an 832² grid with
// scattered walls, or in the open (no walls: a pillar placed and removed,
// the patch's worst case), the grid's clearance built beforehand, untimed.
func BenchmarkWallBitsEdit(b *testing.B) {
	for _, bc := range []struct {
		name      string
		scattered bool
	}{{"scattered", true}, {"open", false}} {
		b.Run(bc.name, func(b *testing.B) {
			g := wallBenchGrid(bc.scattered)
			var w wallBits
			w.update(g)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				c := grid.Cell{X: int32(16 + (i/2)%800), Y: 400}
				b.StopTimer()
				if g.Passable(c) {
					g.SetCost(c, grid.Blocked)
				} else {
					g.SetCost(c, 1)
				}
				g.Clearance(c) // Steer.Update builds it before the bitmap
				b.StartTimer()
				w.update(g)
			}
		})
	}
}
