package systems_test

import (
	"fmt"
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
// from Neighbours.Positions holds: the same order and slots. Lopsided: the
// workers' ranges of the query are cut unequally (worker 0 recorded as
// three times slower each frame, so its range shrinks frame by frame).
func TestSpatialCountedRebuildSameAsFresh(t *testing.T) {
	for _, workers := range []int{1, 2, 3} {
		t.Run(fmt.Sprintf("%d workers, even", workers), func(t *testing.T) { testSpatialCountedRebuild(t, workers, false) })
		t.Run(fmt.Sprintf("%d workers, lopsided", workers), func(t *testing.T) { testSpatialCountedRebuild(t, workers, true) })
	}
}

func testSpatialCountedRebuild(t *testing.T, workers int, lopsided bool) {
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
		if lopsided && frame > 0 {
			sp.TookCheck(0, 3000)
			for k := 1; k < workers; k++ {
				sp.TookCheck(k, 1000)
			}
		}
		sp.Update(w)
		if b := sp.CheckBounds(); lopsided && workers > 1 && frame > 0 {
			require.Less(t, b[1], n/workers, "workers %d, frame %d: the slower worker's range is shorter", workers, frame)
		}
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

// TestSpatialCheckFastLoopSameAsGeneral: the check pass copies the agents
// that are last frame's at their query index in a loop of their own; two
// worlds in step, one with that loop off, give the same Neighbours every
// frame (entities, hash IDs, positions and velocities bit for bit, teams,
// skipped agents, the hash's order and slots) through moves, positions and
// velocities turning NaN or infinite for a frame, agents removed and added
// (entity IDs reused), and agents changing archetype (a Faction removed or
// added again: the query's order then differs from the hash IDs'), for 1, 2
// and 3 workers.
func TestSpatialCheckFastLoopSameAsGeneral(t *testing.T) {
	type world struct {
		w    *arche.World
		m    generic.Map3[components.Position, components.Velocity, components.Faction]
		fac  generic.Map1[components.Faction]
		sp   *systems.Spatial
		ents []arche.Entity
	}
	const n = 3000
	at := func(i, frame int) r2.Vec {
		return r2.Vec{X: math.Mod(float64(i%64)+0.5+0.37*float64(i%7*frame), 64), Y: math.Mod(float64(i/64%48)+0.25+0.11*float64(i%5*frame), 48)}
	}
	for _, workers := range []int{1, 2, 3} {
		var ws [2]*world
		for k := range ws {
			aw := arche.NewWorld()
			x := &world{w: &aw}
			arche.AddResource(x.w, grid.New(64, 48))
			x.m = generic.NewMap3[components.Position, components.Velocity, components.Faction](x.w)
			x.fac = generic.NewMap1[components.Faction](x.w)
			for i := range n {
				x.ents = append(x.ents, x.m.NewWith(&components.Position{Vec: at(i, 0)}, &components.Velocity{Vec: r2.Vec{X: 0.1, Y: float64(i % 3)}}, &components.Faction{Team: uint8(i % 4)}))
			}
			x.sp = &systems.Spatial{Workers: workers}
			systems.SetSpatialNoFast(x.sp, k == 1)
			x.sp.Initialize(x.w)
			ws[k] = x
		}
		for frame := range 60 {
			for _, x := range ws {
				for i, e := range x.ents {
					if !x.w.Alive(e) {
						continue
					}
					p, v, _ := x.m.Get(e)
					p.Vec, v.Vec = at(i, frame), r2.Vec{X: 0.1, Y: float64(i % 3)}
					switch { // for this frame only; positions one frame in five
					case frame%5 == 2 && i%397 == frame%20:
						p.X = math.NaN()
					case frame%5 == 2 && i%391 == frame%13:
						p.Y = math.Inf(-1)
					case i%383 == frame%11:
						v.X = math.NaN()
					case i%377 == frame%17:
						v.Y = math.Inf(1)
					}
					if f := x.fac.Get(e); f != nil && frame%6 == 1 && i%5 == 0 {
						f.Team++
					}
				}
				switch frame {
				case 30: // some removed
					for i := 5; i < n; i += 211 {
						x.w.RemoveEntity(x.ents[i])
					}
				case 35: // some added, reusing entity IDs
					for i := range 7 {
						x.ents = append(x.ents, x.m.NewWith(&components.Position{Vec: r2.Vec{X: float64(i) + 0.5, Y: 3.5}}, &components.Velocity{}, &components.Faction{Team: 9}))
					}
				case 45, 50: // some change archetype, and back
					for i := 3; i < len(x.ents); i += 97 {
						e := x.ents[i]
						if !x.w.Alive(e) {
							continue
						}
						if frame == 45 {
							x.fac.Remove(e)
						} else {
							x.fac.Assign(e, &components.Faction{Team: uint8(1 + i%5)})
						}
					}
				}
				x.sp.Update(x.w)
			}
			a := ecs.Resource[systems.Neighbours](ws[0].w)
			b := ecs.Resource[systems.Neighbours](ws[1].w)
			require.Equal(t, b.Entities, a.Entities, "workers %d, frame %d: entities", workers, frame)
			require.Equal(t, b.Skipped, a.Skipped, "workers %d, frame %d: skipped", workers, frame)
			require.Equal(t, b.Teams, a.Teams, "workers %d, frame %d: teams", workers, frame)
			require.Equal(t, len(b.Positions), len(a.Positions))
			require.Equal(t, len(b.Velocities), len(a.Velocities))
			// Compared bit for bit, with testify only on a difference: a
			// require.Equal per value was 90% of this test's time.
			for i := range a.Positions {
				for _, pair := range [][2]r2.Vec{{a.Positions[i], b.Positions[i]}, {a.Velocities[i], b.Velocities[i]}} {
					if math.Float64bits(pair[1].X) != math.Float64bits(pair[0].X) || math.Float64bits(pair[1].Y) != math.Float64bits(pair[0].Y) {
						require.Equal(t, math.Float64bits(pair[1].X), math.Float64bits(pair[0].X), "workers %d, frame %d, ID %d", workers, frame, i)
						require.Equal(t, math.Float64bits(pair[1].Y), math.Float64bits(pair[0].Y), "workers %d, frame %d, ID %d", workers, frame, i)
					}
				}
			}
			for _, e := range ws[0].ents {
				if b.ID(e) != a.ID(e) {
					require.Equal(t, b.ID(e), a.ID(e), "workers %d, frame %d, entity %v", workers, frame, e)
				}
			}
			ia, pa := a.Hash.Sorted()
			ib, pb := b.Hash.Sorted()
			require.Equal(t, ib, ia, "workers %d, frame %d: order", workers, frame)
			require.Equal(t, pb, pa, "workers %d, frame %d: sorted positions", workers, frame)
			require.Equal(t, b.Hash.Slots(), a.Hash.Slots(), "workers %d, frame %d: slots", workers, frame)
		}
		for _, x := range ws {
			x.sp.Finalize(x.w)
		}
	}
}
