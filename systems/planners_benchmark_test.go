package systems_test

import (
	"fmt"
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// BenchmarkPlanners10000 runs systems.HTN and systems.GOAP over 10,000 agents each (the
// test domains: a guard that replans on alarms, a fetcher whose fetch fails now and
// then) at 10 Hz and 5 Hz, and reports the cost per think and the plans per frame.
func BenchmarkPlanners10000(b *testing.B) {
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			world := arche.NewWorld()
			w := &world
			hreg, hid := guardHTN(b)
			greg, gid := fetchGOAP(b)
			arche.AddResource(w, hreg)
			arche.AddResource(w, greg)
			hs, err := systems.NewSpawner(w, systems.HTNThinker{Registry: hreg, Domain: hid})
			require.NoError(b, err)
			hs.SpawnBatch(10000, func(i int, a *systems.Spawned) { a.Position.Vec = r2.Vec{X: float64(i % 100)} })
			gs, err := systems.NewSpawner(w, systems.GOAPThinker{Registry: greg, Domain: gid, Interval: 0.2})
			require.NoError(b, err)
			gs.SpawnBatch(10000, nil)
			h := &systems.HTN{Workers: workers}
			g := &systems.GOAP{Workers: workers}
			s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), h, g)
			s.Initialize(w)
			defer s.Finalize(w)
			s.Run(w, 60)
			thinks, plans := h.TotalThought+g.TotalThought, 0
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				s.Run(w, 1)
				plans += h.Plans + g.Plans
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(h.TotalThought+g.TotalThought-thinks), "ns/think")
			b.ReportMetric(float64(plans)/float64(b.N), "plans/frame")
		})
	}
}
