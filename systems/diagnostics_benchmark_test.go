package systems

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	"gonum.org/v1/gonum/spatial/r2"
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

// BenchmarkDiagnosticsCheckHeldOff is BenchmarkDiagnosticsCheck's world at its worst
// for CauseHeldOffGoal: its 2000 agents, 0.9 cells apart in rows (within each other's
// SeparationRadius, 1, and none touching) and far from their goal, all at rest and
// found stuck, so every one queries the spatial hash and is counted.
func BenchmarkDiagnosticsCheckHeldOff(b *testing.B) {
	w, g := newWorld(64, 64)
	g.SetCost(grid.Cell{X: 63, Y: 63}, grid.Blocked)
	const n = 2000
	for i := range n {
		e := goodAgent(b, w)
		compOf[components.Position](w, e).Vec = r2.Vec{X: 10 + 0.9*float64(i%50), Y: 10 + 0.9*float64(i/50)}
		put(w, e, components.Progress{Stuck: true})
	}
	sp := &Spatial{Workers: 1}
	sp.Initialize(w)
	sp.Update(w)
	s := &Diagnostics{}
	s.Initialize(w)
	if r := s.Check(w); r.Counts[CauseHeldOffGoal] != n {
		b.Fatalf("%d held off, want %d: %s", r.Counts[CauseHeldOffGoal], n, r)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s.Check(w)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/agent")
}
