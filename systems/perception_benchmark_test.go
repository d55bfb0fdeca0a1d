package systems_test

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/mlange-42/arche/generic"
)

// benchPerception100k measures perception for the guard-like crowd of
// 100,000 agents with workers goroutines, in ns per perceiving agent (every
// agent is due every frame here, see BenchmarkPerception, and each frame
// marks every agent's Perception stale again, as the decision system would).
func benchPerception100k(b *testing.B, workers int) {
	const n = 100_000
	sc := newCrowd(b, n, 3, 1, false)
	sc.Perception.Workers = workers
	s := ecs.NewScheduler(sc.systems()...)
	s.Initialize(sc.World)
	s.Run(sc.World, 2)
	b.Cleanup(func() { s.Finalize(sc.World) })
	b.ReportAllocs()
	b.ResetTimer()
	checked := 0
	stale := generic.NewFilter1[components.Perception]()
	for b.Loop() {
		b.StopTimer()
		q := stale.Query(sc.World)
		for q.Next() {
			q.Get().Fresh = false
		}
		b.StartTimer()
		sc.Clock.Update(sc.World)
		sc.Perception.Update(sc.World)
		checked += sc.Perception.Checked
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(checked), "ns/perceive")
}

func BenchmarkPerception100k1(b *testing.B) { benchPerception100k(b, 1) }
func BenchmarkPerception100k2(b *testing.B) { benchPerception100k(b, 2) }
