package scenario

import (
	"testing"

	"github.com/archai-go/archai/ecs"
)

func BenchmarkSwarmFrame(b *testing.B) {
	const n = 20000
	s, err := NewSwarm(SwarmConfig{Agents: n, Seed: 1, Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	sch := ecs.NewScheduler(s.Systems()...)
	sch.Initialize(s.World)
	sch.Run(s.World, 120)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		sch.Update(s.World)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/agent")
}

// BenchmarkSwarmFrame100k is the swarm of the README's figures (100,000
// agents, seed 3, 2 workers), warm; with -cpuprofile it shows where a frame
// goes:
//
//	go test ./cmd/bench/scenario -run '^$' -bench SwarmFrame100k -benchtime 100x -cpuprofile cpu.prof
//
// BenchmarkSwarmFrame100kDrawOrder is the same swarm created in draw order
// rather than tile order (SwarmConfig.DrawOrder): the pair measures what
// creating a crowd in spatial order saves.
func BenchmarkSwarmFrame100k(b *testing.B) { benchSwarm100k(b, false) }

func BenchmarkSwarmFrame100kDrawOrder(b *testing.B) { benchSwarm100k(b, true) }

func benchSwarm100k(b *testing.B, drawOrder bool) {
	const n = 100000
	s, err := NewSwarm(SwarmConfig{Agents: n, Seed: 3, Workers: 2, DrawOrder: drawOrder})
	if err != nil {
		b.Fatal(err)
	}
	sch := ecs.NewScheduler(s.Systems()...)
	sch.Initialize(s.World)
	defer sch.Finalize(s.World)
	sch.Run(s.World, 30)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		sch.Update(s.World)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/agent")
}
