package scenario

import (
	"testing"
	"time"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/mlange-42/arche/generic"
)

// BenchmarkGuardsFrame100k is the guard scenario of the README's figures
// (100,000 agents, seed 3, 2 workers), warm (30 frames first), reporting the
// process CPU time per frame as cpu-ms (both workers summed); with
// -cpuprofile it shows where a frame goes:
//
//	go test ./cmd/bench/scenario -run '^$' -bench GuardsFrame100k -benchtime 120x -cpuprofile cpu.prof
func BenchmarkGuardsFrame100k(b *testing.B) { guardsFrame(b, 100000, 2) }

// BenchmarkGuardsFrame10k is BenchmarkGuardsFrame100k at 10,000 agents.
func BenchmarkGuardsFrame10k(b *testing.B) { guardsFrame(b, 10000, 2) }

func guardsFrame(b *testing.B, n, workers int) {
	g, sch := warmGuards(b, n, workers, 30)
	b.ReportAllocs()
	b.ResetTimer()
	c0 := processCPU()
	for b.Loop() {
		sch.Update(g.World)
	}
	b.ReportMetric(float64((processCPU()-c0).Microseconds())/1000/float64(b.N), "cpu-ms")
}

// BenchmarkGuardsPathFollow100k times the guards' PathFollow system alone at
// 100,000 agents (seed 3, 2 workers) after 120 frames, frame after frame on
// the same state (no other system runs), as cpu-ms:
//
//	go test ./cmd/bench/scenario -run '^$' -bench 'GuardsPathFollow100k' -benchtime 100x
func BenchmarkGuardsPathFollow100k(b *testing.B) { guardsPathFollow(b, 100000, 2) }

// BenchmarkGuardsPathFollow10k is BenchmarkGuardsPathFollow100k at 10,000
// agents.
func BenchmarkGuardsPathFollow10k(b *testing.B) { guardsPathFollow(b, 10000, 2) }

func guardsPathFollow(b *testing.B, n, workers int) {
	g, _ := warmGuards(b, n, workers, 120)
	timeSteer(b, func() { g.PathFollow.Update(g.World) })
}

// BenchmarkGuardsPerception100k times the guards' Perception system alone at
// 100,000 agents (seed 3, 2 workers) after 120 frames and the next frame's
// clock: that frame's perceivers again and again (their Perception marked stale between
// updates, outside the timing), as cpu-ms per update:
//
//	go test ./cmd/bench/scenario -run '^$' -bench 'GuardsPerception100k' -benchtime 100x
func BenchmarkGuardsPerception100k(b *testing.B) { guardsPerception(b, 100000, 2) }

// BenchmarkGuardsPerception10k is BenchmarkGuardsPerception100k at 10,000
// agents.
func BenchmarkGuardsPerception10k(b *testing.B) { guardsPerception(b, 10000, 2) }

func guardsPerception(b *testing.B, n, workers int) {
	g, _ := warmGuards(b, n, workers, 120)
	g.Clock.Update(g.World) // the next frame's agents are due
	stale := generic.NewFilter1[components.Perception]()
	b.ReportAllocs()
	b.ResetTimer()
	var cpu time.Duration
	for b.Loop() {
		b.StopTimer()
		q := stale.Query(g.World)
		for q.Next() {
			q.Get().Fresh = false
		}
		b.StartTimer()
		c0 := processCPU()
		g.Perception.Update(g.World)
		cpu += processCPU() - c0
	}
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms")
}

// warmGuards builds the guard scenario of n agents (seed 3) on workers
// goroutines, initializes its systems (finalized when b ends) and runs frames
// frames, for a benchmark to time what follows.
func warmGuards(b *testing.B, n, workers, frames int) (*Guards, *ecs.Scheduler) {
	b.Helper()
	g, err := NewGuards(Config{Agents: n, Seed: 3, Workers: workers})
	if err != nil {
		b.Fatal(err)
	}
	sch := ecs.NewScheduler(g.Systems()...)
	sch.Initialize(g.World)
	b.Cleanup(func() { sch.Finalize(g.World) })
	sch.Run(g.World, frames)
	return g, sch
}
