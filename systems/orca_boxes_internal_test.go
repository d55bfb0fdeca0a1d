package systems

import (
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// ORCA's neighbour search for a NeighbourDist up to orcaGrowFrom reads the
// buckets round the agent first and the rest of NeighbourDist's only when an
// agent there could still be nearer than those kept (nearestInBoxes). It must
// keep what one query over NeighbourDist keeps: the k nearest of each kind
// (reciprocal, and not), nearest first, ties in the hash's order. Here on a
// crowd of ORCA agents and plain Movers (which do not avoid), half of them on
// a lattice of quarter cells so that many distances tie exactly, a dense
// clump among sparse agents, for several k and distances.
func TestORCANearestInBoxesKeepsWhatOneQueryKeeps(t *testing.T) {
	t.Parallel()
	w, _ := newWorld(48, 48)
	avoiders, err := NewSpawner(w, Mover{}, Avoider{})
	require.NoError(t, err)
	plain, err := NewSpawner(w, Mover{})
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(23, 5))
	const n = 900
	for i := range n {
		var p r2.Vec
		switch i % 3 {
		case 0: // a lattice of quarter cells: equal distances
			p = r2.Vec{X: float64(rng.IntN(48*4)) / 4, Y: float64(rng.IntN(48*4)) / 4}
		case 1: // a dense clump
			p = r2.Vec{X: 20 + rng.Float64()*4, Y: 20 + rng.Float64()*4}
		default:
			p = r2.Vec{X: rng.Float64() * 48, Y: rng.Float64() * 48}
		}
		if rng.IntN(4) == 0 {
			plain.Spawn(p, nil)
		} else {
			avoiders.Spawn(p, nil)
		}
	}
	o := &ORCA{}
	sched := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Spatial{}, &Steer{}, o, &Movement{})
	sched.Initialize(w)
	defer sched.Finalize(w)
	sched.Run(w, 1)
	var jobs []orcaJob
	q := o.filter.Query(w)
	for q.Next() {
		pos, vel, kin, _, p, _ := q.Get()
		jobs = append(jobs, orcaJob{self: q.Entity(), pos: pos.Vec, vel: vel.Vec, kin: *kin, params: *p})
	}
	require.NotEmpty(t, jobs)

	var sc orcaScratch
	for _, k := range []int{1, 3, 10, maxInsertNeighbours} {
		for _, dist := range []float64{0, 0.25, 0.9, 2, 3.3, 5, orcaGrowFrom} {
			for i := range jobs {
				j := jobs[i]
				j.params.MaxNeighbours, j.params.NeighbourDist = k, dist
				o.neighbours(&j, &sc)

				self := o.nb.ID(j.self)
				ids, pos := o.nb.Hash.Sorted()
				var rec, other []orcaNear
				for _, sl := range o.nb.Hash.QuerySlots(j.pos, dist, nil) {
					if ids[sl] == self {
						continue
					}
					c := orcaNear{distSq: norm2(r2.Sub(pos[sl], j.pos)), slot: sl, pos: pos[sl]}
					if o.bySlot[sl].share < 1 {
						rec = append(rec, c)
					} else {
						other = append(other, c)
					}
				}
				wantRec, wantOther := append([]orcaNear{}, sortNearest(rec, k)...), append([]orcaNear{}, sortNearest(other, k)...)
				if !assert.Equal(t, wantRec, append([]orcaNear{}, sc.near...), "reciprocal: k=%d dist=%g agent %d", k, dist, i) ||
					!assert.Equal(t, wantOther, append([]orcaNear{}, sc.alone...), "others: k=%d dist=%g agent %d", k, dist, i) {
					return
				}
				assert.Len(t, sc.nbrs, len(wantRec)+len(wantOther))
			}
		}
	}
}
