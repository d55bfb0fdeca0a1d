package systems

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A NeighbourDist far beyond the map (1e300, math.MaxFloat64) with a few neighbours
// read every agent in the hash for every agent, each frame: 22 times the default's
// cost at 3,000 agents (64 ms against 3 ms a frame), for the same 10 neighbours. The
// search now grows from 8 cells and stops at the first circle holding more than
// MaxNeighbours agents: the same neighbours in the same order (ties in the hash's
// order) as one query over the whole NeighbourDist, for a few, many or every
// neighbour, and far fewer agents read.
func TestORCAFarNeighbourDistReadsFewAgents(t *testing.T) {
	t.Parallel()
	w, g := newWorld(64, 64)
	sp, err := NewSpawner(w, Mover{}, Avoider{})
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(17, 1))
	const n = 600
	for range n {
		sp.Spawn(r2.Vec{X: rng.Float64() * 64, Y: rng.Float64() * 64}, nil)
	}
	sp.Spawn(r2.Vec{X: 300, Y: -200}, nil) // off the grid: in a border bucket, far away
	o := &ORCA{}
	sched := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Spatial{}, &Steer{}, o, &Movement{})
	sched.Initialize(w)
	defer sched.Finalize(w)
	sched.Run(w, 1)
	var jobs []orcaJob // as Update gathers them (it clears its own after the frame)
	q := o.filter.Query(w)
	for q.Next() {
		pos, vel, kin, _, p, _ := q.Get()
		jobs = append(jobs, orcaJob{self: q.Entity(), pos: pos.Vec, vel: vel.Vec, kin: *kin, params: *p})
	}
	require.Len(t, jobs, n+1)
	assert.Equal(t, 64, g.Width())

	var sc orcaScratch
	for _, c := range []struct {
		k        int
		dist     float64
		maxReads int // the agents read, summed over the agents, at most
	}{{10, 1e300, 40 * n}, {10, math.MaxFloat64, 40 * n}, {10, 40, 40 * n}, {1, 1e300, 40 * n}, {100, 1e300, 350 * n},
		{n, 1e300, (n + 1) * (n + 1)}, {math.MaxInt, 1e300, (n + 1) * (n + 1)}, {10, 5, 40 * n}} {
		reads := 0
		for i := range jobs {
			j := jobs[i]
			j.params.MaxNeighbours, j.params.NeighbourDist = c.k, c.dist
			o.neighbours(&j, &sc)
			reads += len(sc.slots)
			got := append([]orcaNear(nil), sc.near...)

			// what one query over the whole NeighbourDist keeps
			self := o.nb.ID(j.self)
			ids, pos := o.nb.Hash.Sorted()
			var all []orcaNear
			for _, sl := range o.nb.Hash.QuerySlots(j.pos, c.dist, nil) {
				if ids[sl] != self {
					d := r2.Sub(pos[sl], j.pos)
					all = append(all, orcaNear{distSq: norm2(d), slot: sl, pos: pos[sl]})
				}
			}
			want := sortNearest(all, c.k)
			if !assert.Equal(t, want, got, "k=%d dist=%g agent %d", c.k, c.dist, i) {
				return
			}
		}
		assert.LessOrEqual(t, reads, c.maxReads, "k=%d dist=%g", c.k, c.dist)
	}
}
