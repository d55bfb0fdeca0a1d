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

// TestSpatialSwapOfSkippedAgents: an agent's Position turns NaN in the frame
// another's turns finite again, so the hash holds as many agents as in the
// last frame but not the same ones; hash IDs still follow entity IDs, the
// NaN one is out and the other back in, and a frame with nothing changed
// keeps every ID.
func TestSpatialSwapOfSkippedAgents(t *testing.T) {
	for _, w := range []int{1, 2} {
		sc, _ := spatialCrowd(t, 200, w, 1)
		var ents []arche.Entity
		q := generic.NewFilter1[components.Position]().Query(sc.World)
		for q.Next() {
			ents = append(ents, q.Entity())
		}
		x, y := ents[10], ents[150]
		pos := generic.NewMap1[components.Position](sc.World)
		keep := *pos.Get(x)
		pos.Get(x).X = math.NaN()
		sc.Spatial.Update(sc.World)
		nb := ecs.Resource[systems.Neighbours](sc.World)
		assert.Equal(t, int32(-1), nb.ID(x))
		assert.Equal(t, 1, nb.Skipped)
		pos.Get(y).Y = math.Inf(1)
		*pos.Get(x) = keep
		sc.Spatial.Update(sc.World)
		assert.Equal(t, int32(-1), nb.ID(y), "workers %d", w)
		assert.GreaterOrEqual(t, nb.ID(x), int32(0), "workers %d", w)
		assert.Equal(t, 1, nb.Skipped)
		before := append([]arche.Entity(nil), nb.Entities...)
		sc.Spatial.Update(sc.World) // nothing changed
		assert.Equal(t, before, nb.Entities)
		for i, e := range nb.Entities {
			require.Equal(t, int32(i), nb.ID(e))
			if i > 0 {
				require.Less(t, nb.Entities[i-1].ID(), e.ID(), "hash IDs follow entity IDs")
			}
			require.Equal(t, *pos.Get(e), components.Position{Vec: nb.Positions[i]})
		}
	}
}
