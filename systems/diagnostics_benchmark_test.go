package systems

import (
	"testing"

	"github.com/archai-go/archai/nav/grid"
)

// BenchmarkDiagnosticsCheck times one check of 2000 well set-up agents (every
// component the contract tables name) by the Diagnostics system, the per-frame
// way to run Diagnose's checks; ns/agent is per agent.
func BenchmarkDiagnosticsCheck(b *testing.B) {
	w, g := newWorld(64, 64)
	g.SetCost(grid.Cell{X: 63, Y: 63}, grid.Blocked)
	const n = 2000
	for range n {
		goodAgent(b, w)
	}
	s := &Diagnostics{}
	s.Initialize(w)
	s.Check(w)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s.Check(w)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/agent")
}
