package systems

import (
	"testing"

	"github.com/archai-go/archai/nav/grid"
)

// BenchmarkFlowFieldArrival times the flow-field system's frame without
// sampling (agents standing still): field lookups and the arrival decision,
// for 10,000 agents on an open 128×128 grid, a quarter of them gathered
// around the goal.
func BenchmarkFlowFieldArrival(b *testing.B) {
	const n = 10000
	g := grid.New(128, 128)
	c := newCrowd(b, g, n, grid.Cell{X: 64, Y: 64}, 1, 2)
	c.s.Run(c.w, 300)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		c.flow.Update(c.w)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/agent")
}
