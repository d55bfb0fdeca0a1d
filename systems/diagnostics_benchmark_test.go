package systems

import (
	"testing"

	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
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
	timeChecks(b, s, w, n)
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
	timeChecks(b, s, w, n)
}

// BenchmarkDiagnosticsCheckFlowCut is the worst case of CauseFlowUnreachable: 2000
// flow followers walled off from their goal (a pocket of 50×40 cells), all standing
// (Steer false), so every one has its field looked up and is counted.
func BenchmarkDiagnosticsCheckFlowCut(b *testing.B) {
	w, g := newWorld(64, 64)
	for i := int32(0); i <= 51; i++ {
		g.SetCost(grid.Cell{X: i, Y: 41}, grid.Blocked)
	}
	for i := int32(0); i <= 41; i++ {
		g.SetCost(grid.Cell{X: 51, Y: i}, grid.Blocked)
	}
	const n = 2000
	for i := range n {
		e := w.NewEntity()
		put(w, e, components.Position{Vec: r2.Vec{X: 0.5 + float64(i%50), Y: 0.5 + float64(i/50)}})
		put(w, e, components.FlowFollower{Goal: grid.Cell{X: 60, Y: 60}})
	}
	ff := &FlowField{Workers: 1}
	ff.Initialize(w)
	ff.Update(w)
	s := &Diagnostics{}
	s.Initialize(w)
	if r := s.Check(w); r.Counts[CauseFlowUnreachable] != n {
		b.Fatalf("%d cut off, want %d: %s", r.Counts[CauseFlowUnreachable], n, r)
	}
	timeChecks(b, s, w, n)
}

// timeChecks times s.Check on w frame after frame, reporting ns per agent of the n.
func timeChecks(b *testing.B, s *Diagnostics, w *arche.World, n int) {
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s.Check(w)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/agent")
}

// ownChoice is a program's own component keeping a utility choice.
type ownChoice struct {
	Mood   float64
	Choice utility.State
}

// BenchmarkDiagnosticsCheckOwnStates is BenchmarkDiagnosticsCheck's world whose
// 2000 agents also keep a utility.State in a component of the program's own, each
// counting unread inputs, so that every one is read and counted.
func BenchmarkDiagnosticsCheckOwnStates(b *testing.B) {
	w, g := newWorld(64, 64)
	g.SetCost(grid.Cell{X: 63, Y: 63}, grid.Blocked)
	const n = 2000
	for range n {
		e := goodAgent(b, w)
		put(w, e, ownChoice{Choice: utility.State{Unread: 1}})
	}
	s := &Diagnostics{}
	s.Initialize(w)
	if r := s.Check(w); r.Counts[CauseUtilityFactWrongType] != n {
		b.Fatalf("%d unread, want %d: %s", r.Counts[CauseUtilityFactWrongType], n, r)
	}
	timeChecks(b, s, w, n)
}
