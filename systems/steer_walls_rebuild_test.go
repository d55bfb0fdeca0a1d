package systems

import (
	"testing"

	"github.com/archai-go/archai/nav/grid"
)

// BenchmarkWallBitsRebuild times wallBits.update after a grid edit on an
// 832² grid (the 100,000-agent swarm's size), the grid's clearance built
// beforehand (Steer.Update builds it first), untimed.
func BenchmarkWallBitsRebuild(b *testing.B) {
	g := grid.New(832, 832)
	for i := 0; i < 832*832; i += 97 {
		g.SetCost(grid.Cell{X: int32(i % 832), Y: int32(i / 832)}, grid.Blocked)
	}
	var w wallBits
	w.update(g)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		c := grid.Cell{X: int32(i % 800), Y: 400}
		b.StopTimer()
		g.SetCost(c, grid.Blocked)
		g.Clearance(c) // Steer.Update builds it before the bitmap
		b.StartTimer()
		w.update(g)
		b.StopTimer()
		g.SetCost(c, 1)
		b.StartTimer()
	}
}
