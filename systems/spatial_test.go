package systems_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/nav/spatial"
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
// guard-like crowd, DefaultHashCell buckets) with workers goroutines.
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

// TestSpatialDefaultBucket: a Spatial with no CellSize builds its hash with
// DefaultHashCell (2-cell) buckets, on which a separation query of the
// bundles' default radius (3·DefaultRadius) reads at most 2×2 buckets, and
// every query (separation, a FlowFollower's separation, flocking, ORCA's
// neighbour distance) finds exactly the agents a brute-force scan finds.
func TestSpatialDefaultBucket(t *testing.T) {
	require.Equal(t, 2.0, systems.DefaultHashCell)
	sc, _ := spatialCrowd(t, 1500, 2, 30)
	assert.Equal(t, systems.DefaultHashCell, sc.Spatial.CellSize, "the crowd's Spatial{} gets the default at Initialize")
	nb := ecs.Resource[systems.Neighbours](sc.World)
	require.NotNil(t, nb)
	assert.Equal(t, systems.DefaultHashCell, nb.Hash.CellSize())

	sep := 3 * systems.DefaultRadius
	found := 0
	for i, p := range nb.Positions {
		x0, x1, y0, y1, ok := nb.Hash.Rows(p, sep)
		require.True(t, ok)
		require.LessOrEqual(t, x1-x0, 1, "agent %d at %v: columns of buckets", i, p)
		require.LessOrEqual(t, y1-y0, 1, "agent %d at %v: rows of buckets", i, p)
		for _, r := range []float64{sep, 2.5 * systems.DefaultRadius, systems.DefaultNeighbourRadius, systems.DefaultNeighbourDist} {
			var want []int32
			for j, q := range nb.Positions {
				if dx, dy := q.X-p.X, q.Y-p.Y; dx*dx+dy*dy <= r*r { // Query's rule
					want = append(want, int32(j))
				}
			}
			got := nb.Hash.Query(p, r, nil)
			assert.ElementsMatch(t, want, got, "agent %d at %v, radius %v", i, p, r)
			if r == sep {
				found += len(got) - 1
			}
		}
	}
	assert.Greater(t, found, len(nb.Positions)/2, "agents have separation neighbours")
}

// TestSpatialCountedRebuildSameAsFresh: agents of one archetype, in the
// query at their hash IDs (the swarm's case, where the check pass counts
// the hash's first pass itself), moving every frame; a frame where one
// turns NaN and one where it comes back (the plain rebuild) among them. After
// every frame, for 1, 2 and 3 workers, the hash holds what a fresh build
// from Neighbours.Positions holds: the same order and slots.
func TestSpatialCountedRebuildSameAsFresh(t *testing.T) {
	for _, workers := range []int{1, 2, 3} {
		g := grid.New(64, 48)
		world := arche.NewWorld()
		w := &world
		arche.AddResource(w, g)
		m := generic.NewMap2[components.Position, components.Velocity](w)
		const n = 5000
		ents := make([]arche.Entity, n)
		for i := range ents {
			ents[i] = m.NewWith(&components.Position{Vec: r2.Vec{X: float64(i%64) + 0.5, Y: float64(i%48) + 0.25}}, &components.Velocity{})
		}
		sp := &systems.Spatial{Workers: workers}
		sp.Initialize(w)
		nb := ecs.Resource[systems.Neighbours](w)
		fresh := spatial.NewHash(systems.DefaultHashCell, 64, 48)
		for frame := range 6 {
			for i, e := range ents {
				p, _ := m.Get(e)
				p.X = math.Mod(p.X+0.37*float64(i%7), 64)
				p.Y = math.Mod(p.Y+0.11*float64(i%5)+0.05*float64(frame), 48)
				switch {
				case frame == 3 && i == 2600:
					p.X = math.NaN()
				case frame == 4 && i == 2600:
					p.X = 3.5
				}
			}
			sp.Update(w)
			fresh.BuildFrom(nb.Positions, 1, nil)
			wantIDs, wantPos := fresh.Sorted()
			ids, pos := nb.Hash.Sorted()
			require.Equal(t, wantIDs, ids, "workers %d, frame %d: order", workers, frame)
			require.Equal(t, wantPos, pos, "workers %d, frame %d: positions", workers, frame)
			require.Equal(t, fresh.Slots(), nb.Hash.Slots(), "workers %d, frame %d: slots", workers, frame)
			wantSkipped := 0
			if frame == 3 {
				wantSkipped = 1
			}
			require.Equal(t, wantSkipped, nb.Skipped, "workers %d, frame %d", workers, frame)
		}
		sp.Finalize(w)
	}
}
