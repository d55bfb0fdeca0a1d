package scenario

import (
	"testing"

	"github.com/archai-go/archai/ecs"
)

// BenchmarkSwarmSteer100k times the swarm's Steer system alone at 100,000
// agents (seed 3, 2 workers) after 120 frames:
//
//	go test ./cmd/bench/scenario -run '^$' -bench 'SwarmSteer100k' -benchtime 100x
func BenchmarkSwarmSteer100k(b *testing.B) { swarmSteer(b, 100000, 2) }

// BenchmarkSwarmSteer10k is BenchmarkSwarmSteer100k at 10,000 agents.
func BenchmarkSwarmSteer10k(b *testing.B) { swarmSteer(b, 10000, 2) }

// BenchmarkGuardsSteer100k times the guards' Steer system alone at 100,000
// agents (seed 3, 2 workers) after 120 frames.
func BenchmarkGuardsSteer100k(b *testing.B) { guardsSteer(b, 100000, 2) }

// BenchmarkGuardsSteer10k is BenchmarkGuardsSteer100k at 10,000 agents.
func BenchmarkGuardsSteer10k(b *testing.B) { guardsSteer(b, 10000, 2) }

func swarmSteer(b *testing.B, n, workers int) {
	s, err := NewSwarm(SwarmConfig{Agents: n, Seed: 3, Workers: workers})
	if err != nil {
		b.Fatal(err)
	}
	sch := ecs.NewScheduler(s.Systems()...)
	sch.Initialize(s.World)
	defer sch.Finalize(s.World)
	sch.Run(s.World, 120)
	timeSteer(b, func() { s.Steer.Update(s.World) })
}

func guardsSteer(b *testing.B, n, workers int) {
	g, _ := warmGuards(b, n, workers, 120)
	timeSteer(b, func() { g.Steer.Update(g.World) })
}

// timeSteer times update (a Steer system's) frame after frame on the same
// state (no other system runs), reporting the process CPU time per frame as
// cpu-ms: the sum over the workers, which holds up better than wall-clock
// time on a shared machine.
func timeSteer(b *testing.B, update func()) {
	b.ReportAllocs()
	b.ResetTimer()
	c0 := processCPU()
	for b.Loop() {
		update()
	}
	b.ReportMetric(float64((processCPU()-c0).Microseconds())/1000/float64(b.N), "cpu-ms")
}
