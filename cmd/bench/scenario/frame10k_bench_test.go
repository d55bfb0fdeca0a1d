package scenario

import (
	"testing"

	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
)

// BenchmarkSwarmFrame10k is the swarm of the 10,000-agent target
// (seed 3, 2 workers), warm: at this size a frame's fixed cost per system
// (scans, hand-offs to the workers, per-frame resets) shows beside the
// per-agent work:
//
//	go test ./cmd/bench/scenario -run '^$' -bench 'Frame10k' -benchtime 300x -cpuprofile cpu.prof
//
// (BenchmarkGuardsFrame10k, beside BenchmarkGuardsFrame100k, is its guards'
// counterpart.)
func BenchmarkSwarmFrame10k(b *testing.B) {
	const n = 10000
	s, err := NewSwarm(SwarmConfig{Agents: n, Seed: 3, Workers: 2})
	if err != nil {
		b.Fatal(err)
	}
	frame10k(b, n, s.World, ecs.NewScheduler(s.Systems()...))
}

// frame10k runs 30 frames unmeasured, then times warm frames of n agents.
func frame10k(b *testing.B, n int, w *arche.World, sch *ecs.Scheduler) {
	sch.Initialize(w)
	defer sch.Finalize(w)
	sch.Run(w, 30)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		sch.Update(w)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/agent")
}

// BenchmarkSwarmFrameFixed is BenchmarkSwarmFrame10k's map (256², seed 3)
// with 64 agents instead of 10,000: what a frame costs whatever the
// number of agents (hand-offs to the workers, per-frame work sized by the
// map, scans of the queries).
func BenchmarkSwarmFrameFixed(b *testing.B) {
	g := GenerateMap(MapSizeFor(10000), 3)
	s, err := NewSwarm(SwarmConfig{Agents: 64, Seed: 3, Workers: 2, Grid: g})
	if err != nil {
		b.Fatal(err)
	}
	frame10k(b, 64, s.World, ecs.NewScheduler(s.Systems()...))
}

// BenchmarkGuardsFrameFixed is BenchmarkSwarmFrameFixed for the guards.
func BenchmarkGuardsFrameFixed(b *testing.B) {
	g := GenerateMap(MapSizeFor(10000), 3)
	s, err := NewGuards(Config{Agents: 64, Seed: 3, Workers: 2, Grid: g})
	if err != nil {
		b.Fatal(err)
	}
	frame10k(b, 64, s.World, ecs.NewScheduler(s.Systems()...))
}
