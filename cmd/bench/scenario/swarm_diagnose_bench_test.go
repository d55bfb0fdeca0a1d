package scenario

import (
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
)

// BenchmarkSwarmDiagnose100k times systems.Diagnose on the swarm of
// BenchmarkSwarmFrame100k (100,000 flow followers, seed 3, 2 workers) after
// 300 frames, as `go run ./cmd/bench -scenario swarm -agents 100000 -frames 300`
// ends (the benchmark does not time Diagnose); ns/agent is per agent. Its
// blocked_by_agents check of flow followers reads each follower's
// FlowFollower.ProgressCheck (kept by FlowField) and looks at the neighbours of
// those only whose run without progress is BlockedSpan or longer. cpu-ms/op
// is the process's CPU time (getrusage) per call, steadier than the wall
// clock on a shared machine.
func BenchmarkSwarmDiagnose100k(b *testing.B) {
	const n = 100000
	s, err := NewSwarm(SwarmConfig{Agents: n, Seed: 3, Workers: 2})
	if err != nil {
		b.Fatal(err)
	}
	sch := ecs.NewScheduler(s.Systems()...)
	sch.Initialize(s.World)
	defer sch.Finalize(s.World)
	sch.Run(s.World, 300)
	b.ReportAllocs()
	b.ResetTimer()
	cpu := processCPU()
	for b.Loop() {
		systems.Diagnose(s.World)
	}
	cpu = processCPU() - cpu
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/agent")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/1e6, "cpu-ms/op")
}
