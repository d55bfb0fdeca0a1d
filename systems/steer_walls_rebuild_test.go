package systems

import (
	"runtime"
	"testing"
	"time"

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
// (Steer.Update builds it first), untimed; cpu-µs/op is the thread's CPU
// time in the rebuild, which a shared machine disturbs less than the wall
// clock.
func BenchmarkWallBitsRebuild(b *testing.B) {
	g := wallBenchGrid(true)
	var w wallBits
	w.update(g)
	b.ReportAllocs()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var cpu time.Duration
	for i := 0; b.Loop(); i++ {
		c := grid.Cell{X: int32(i % 800), Y: 400}
		b.StopTimer()
		g.SetCost(c, grid.Blocked)
		g.Clearance(c) // Steer.Update builds it before the bitmap
		b.StartTimer()
		c0 := threadCPU()
		w.rebuild(g)
		cpu += threadCPU() - c0
		b.StopTimer()
		g.SetCost(c, 1)
		w.rebuild(g)
		b.StartTimer()
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/1e3/float64(b.N), "cpu-µs/op")
}

// BenchmarkWallBitsEdit times wallBits.update after one cell's edit (a
// cell of row 400 blocked, then opened again, in turn) on an 832² grid with
// scattered walls, or in the open (no walls: a pillar placed and removed,
// the patch's worst case), the grid's clearance built beforehand, untimed;
// cpu-µs/op as for BenchmarkWallBitsRebuild.
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
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var cpu time.Duration
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
				c0 := threadCPU()
				w.update(g)
				cpu += threadCPU() - c0
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/1e3/float64(b.N), "cpu-µs/op")
		})
	}
}
