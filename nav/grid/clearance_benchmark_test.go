package grid

import (
	"runtime"
	"testing"
	"time"
)

// BenchmarkClearanceEdit times Grid.Clearance after one cell's edit (a cell
// of row 400 blocked, then opened again, in turn) on an 832² grid (the
// 100,000-agent swarm's size) with every 97th cell blocked, or in the open
// (no walls: a pillar placed and removed, the patch's worst case);
// cpu-µs/op is the thread's CPU time in Clearance.
func BenchmarkClearanceEdit(b *testing.B) {
	for _, bc := range []struct {
		name      string
		scattered bool
	}{{"scattered", true}, {"open", false}} {
		b.Run(bc.name, func(b *testing.B) {
			g := New(832, 832)
			for i := 0; bc.scattered && i < 832*832; i += 97 {
				g.SetCost(Cell{X: int32(i % 832), Y: int32(i / 832)}, Blocked)
			}
			g.Clearance(Cell{})
			b.ReportAllocs()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var cpu time.Duration
			for i := 0; b.Loop(); i++ {
				c := Cell{X: int32(16 + (i/2)%800), Y: 400}
				b.StopTimer()
				if g.Passable(c) {
					g.SetCost(c, Blocked)
				} else {
					g.SetCost(c, 1)
				}
				b.StartTimer()
				c0 := threadCPU()
				g.Clearance(c)
				cpu += threadCPU() - c0
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/1e3/float64(b.N), "cpu-µs/op")
		})
	}
}
