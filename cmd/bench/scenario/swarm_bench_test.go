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
