package systems_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// spatialCrowd returns the guard-like crowd of n agents after a few frames,
// its Spatial system rebuilding the hash over workers goroutines.
func spatialCrowd(tb testing.TB, n, workers, frames int) (*crowd, *ecs.Scheduler) {
	tb.Helper()
	sc := newCrowd(tb, n, 3, 1, false)
	sc.Spatial.Workers = workers
	s := ecs.NewScheduler(sc.systems()...)
	s.Initialize(sc.World)
	s.Run(sc.World, frames)
	tb.Cleanup(func() { s.Finalize(sc.World) })
	return sc, s
}

// TestSpatialSameForAnyWorkers: the parallel rebuild gives the same
// Neighbours (IDs, entities, positions, and every query's answer in order)
// for 1, 2 and 3 workers.
func TestSpatialSameForAnyWorkers(t *testing.T) {
	type snapshot struct {
		positions []r2.Vec
		ids       []int
		queries   [][]int32
	}
	var snaps []snapshot
	for _, w := range []int{1, 2, 3} {
		sc, _ := spatialCrowd(t, 1500, w, 30)
		nb := ecs.Resource[systems.Neighbours](sc.World)
		require.NotNil(t, nb)
		var sn snapshot
		sn.positions = append(sn.positions, nb.Positions...)
		for _, e := range nb.Entities {
			sn.ids = append(sn.ids, int(e.ID()))
		}
		for i := 0; i < len(nb.Positions); i += 37 {
			sn.queries = append(sn.queries, nb.Hash.Query(nb.Positions[i], 6, nil))
		}
		snaps = append(snaps, sn)
	}
	require.NotEmpty(t, snaps[0].queries)
	assert.Greater(t, len(snaps[0].queries[0]), 1, "queries find neighbours")
	for i := 1; i < len(snaps); i++ {
		assert.Equal(t, snaps[0], snaps[i], "workers %d", i+1)
	}
}

// TestSpatialAllocatesNothingWarm with 2 workers.
func TestSpatialAllocatesNothingWarm(t *testing.T) {
	sc, _ := spatialCrowd(t, 1000, 2, 3)
	assert.Zero(t, testing.AllocsPerRun(20, func() { sc.Spatial.Update(sc.World) }))
}

// benchSpatial100k measures the hash rebuild of 100,000 agents (the
// guard-like crowd, 4-cell buckets) with workers goroutines.
func benchSpatial100k(b *testing.B, workers int) {
	const n = 100_000
	sc, _ := spatialCrowd(b, n, workers, 1)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		sc.Spatial.Update(sc.World)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/agent")
}

func BenchmarkSpatial100k1(b *testing.B) { benchSpatial100k(b, 1) }
func BenchmarkSpatial100k2(b *testing.B) { benchSpatial100k(b, 2) }

// TestSpatialSkipsNaNSameForAnyWorkers: agents with a NaN Position are left
// out (Skipped) and the others keep their query order, for 1, 2 and 3
// workers alike.
func TestSpatialSkipsNaNSameForAnyWorkers(t *testing.T) {
	var want []int
	for _, w := range []int{1, 2, 3} {
		sc, _ := spatialCrowd(t, 301, w, 1)
		q := generic.NewFilter1[components.Position]().Query(sc.World)
		var nan []arche.Entity
		for i := 0; q.Next(); i++ {
			if i%100 == 7 { // one in each worker's range
				q.Get().X = math.NaN()
				nan = append(nan, q.Entity())
			}
		}
		sc.Spatial.Update(sc.World)
		nb := ecs.Resource[systems.Neighbours](sc.World)
		require.Len(t, nan, 3)
		assert.Equal(t, 3, nb.Skipped, "workers %d", w)
		for _, e := range nan {
			assert.Equal(t, int32(-1), nb.ID(e), "workers %d", w)
		}
		var ids []int
		for i, e := range nb.Entities {
			require.Equal(t, int32(i), nb.ID(e), "workers %d", w)
			ids = append(ids, int(e.ID()))
		}
		require.Len(t, ids, 298)
		if want == nil {
			want = ids
		}
		assert.Equal(t, want, ids, "workers %d", w)
	}
}
