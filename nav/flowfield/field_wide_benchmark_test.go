package flowfield

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/archai-go/archai/nav/grid"
)

// BenchmarkBuildWide builds a whole field of clearance 1 (a point field) and
// 2 and 3 on 1024² grids, open and with 1 % scattered walls (where most
// cells keep clearance 2 or more), the build alone (cells classified and
// clearances computed outside the timer), and with the grid edited before
// each build (a cell toggled: what a door costs each field, the wide ones
// computing every cell's clearance and moves again).
func BenchmarkBuildWide(b *testing.B) {
	for _, blocked := range []int{0, 1} {
		for _, edit := range []bool{false, true} {
			for _, clr := range []uint8{1, 2, 3} {
				b.Run(fmt.Sprintf("1024x1024-blocked%d-edit%v-clearance%d", blocked, edit, clr), func(b *testing.B) {
					g := randomGrid(rand.New(rand.NewPCG(9, 9)), 1024, 1024, blocked, false)
					goal := grid.Cell{X: 512, Y: 512}
					g.SetCost(goal, 1)
					door := grid.Cell{X: 100, Y: 100}
					f := New(g)
					f.SetClearance(clr)
					f.Build(goal)
					runtime.LockOSThread()
					defer runtime.UnlockOSThread()
					b.ReportAllocs()
					b.ResetTimer()
					c0 := threadCPU()
					for i := 0; i < b.N; i++ {
						if edit {
							if i%2 == 0 {
								g.SetCost(door, grid.Blocked)
							} else {
								g.SetCost(door, 1)
							}
						}
						f.Build(goal)
					}
					b.ReportMetric(float64(threadCPU()-c0)/float64(b.N)/1e6, "cpu-ms/build")
				})
			}
		}
	}
}
