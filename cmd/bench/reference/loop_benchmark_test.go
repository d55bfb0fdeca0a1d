package reference

import (
	"testing"

	"github.com/archai-go/archai/cmd/bench/scenario"
)

func benchStep(b *testing.B, agents, workers int) {
	lay, err := scenario.NewSwarmLayout(agents, 3, nil)
	if err != nil {
		b.Fatal(err)
	}
	l, err := New(Config{Grid: lay.Grid, Positions: lay.Positions, Goal: lay.Goal, Workers: workers})
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	l.Step()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		l.Step()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(agents), "ns/agent")
}

// BenchmarkStep100k measures a frame of the reference loop for 100,000
// agents on their 832×832 map, 1 and 2 workers.
func BenchmarkStep100k1(b *testing.B) { benchStep(b, 100_000, 1) }
func BenchmarkStep100k2(b *testing.B) { benchStep(b, 100_000, 2) }
