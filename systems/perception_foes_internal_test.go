package systems

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestFoeIndexKeepsClassesAcrossFrames builds one foe index frame after frame
// while teams join and leave (it counts with the last frame's classes and
// finds the teams afresh only when one is new) and checks each frame's
// buckets, team by team, against an index built from scratch: the same hash
// IDs with the same positions, in the same order. Two workers split the
// passes as the system does.
func TestFoeIndexKeepsClassesAcrossFrames(t *testing.T) {
	const n, w, h, workers = 600, 40, 30, 2
	rng := rand.New(rand.NewPCG(1, 2))
	var kept foeIndex
	kept.resize(w, h, workers)
	for frame, teams := range [][]uint8{{0, 1}, {0, 1}, {0, 1, 2}, {1, 2}, {1, 2}, {0, 1, 2, 3, 4, 5}, {0, 5}, {7}} {
		nb := &Neighbours{Positions: make([]r2.Vec, n), Teams: make([]uint8, n)}
		for i := range n {
			nb.Positions[i] = r2.Vec{X: rng.Float64()*(w+4) - 2, Y: rng.Float64()*(h+4) - 2} // some outside
			nb.Teams[i] = teams[rng.IntN(len(teams))]
		}
		runOn := func(x *foeIndex) func(int) {
			return func(m int) {
				for k := range workers {
					x.work(nb, k, k*m/workers, (k+1)*m/workers)
				}
			}
		}
		kept.build(nb, workers, runOn(&kept))
		var fresh foeIndex
		fresh.resize(w, h, workers)
		fresh.build(nb, workers, runOn(&fresh))
		for _, team := range teams {
			require.GreaterOrEqual(t, kept.class[team], int8(0), "frame %d team %d has a class", frame, team)
			for b := range fresh.buckets {
				got := kept.bucket(team, b)
				want := fresh.bucket(team, b)
				if fresh.mixed || kept.mixed { // one class: compare this team's items only
					got, want = ofTeam(got, nb, team), ofTeam(want, nb, team)
				}
				require.Equal(t, want, got, "frame %d team %d bucket %d", frame, team, b)
			}
		}
	}
}

// bucket returns the items of team's class in bucket b.
func (x *foeIndex) bucket(team uint8, b int) []foeItem {
	k := int(x.class[team])*x.buckets + b
	return x.items[x.starts[k]:x.starts[k+1]]
}

func ofTeam(items []foeItem, nb *Neighbours, team uint8) []foeItem {
	var out []foeItem
	for _, it := range items {
		if nb.Teams[it.id] == team {
			out = append(out, it)
		}
	}
	return out
}

// TestFoeIndexSameForAnyWorkers builds the index with 1, 2 and 3 workers
// (the prefix sums have a path for each) and checks each against the
// counting sort's definition: every agent in the bucket of its position
// and class, hash IDs ascending within a bucket, and the same starts and
// items whatever the number of workers.
func TestFoeIndexSameForAnyWorkers(t *testing.T) {
	const n, w, h = 900, 37, 23
	rng := rand.New(rand.NewPCG(3, 4))
	nb := &Neighbours{Positions: make([]r2.Vec, n), Teams: make([]uint8, n)}
	for i := range n {
		nb.Positions[i] = r2.Vec{X: rng.Float64()*(w+4) - 2, Y: rng.Float64()*(h+4) - 2}
		nb.Teams[i] = uint8(rng.IntN(3))
	}
	var first *foeIndex
	for _, workers := range []int{1, 2, 3} {
		x := &foeIndex{}
		x.resize(w, h, workers)
		x.build(nb, workers, func(m int) {
			for k := range workers {
				x.work(nb, k, k*m/workers, (k+1)*m/workers)
			}
		})
		require.Len(t, x.starts, x.nclass*x.buckets+1)
		require.Equal(t, int32(n), x.starts[len(x.starts)-1], "%d workers: every agent placed", workers)
		for k := range x.nclass * x.buckets {
			run := x.items[x.starts[k]:x.starts[k+1]]
			for j, it := range run {
				c, b := k/x.buckets, k%x.buckets
				p := nb.Positions[it.id]
				require.Equal(t, p, it.p)
				require.Equal(t, x.teams[c], nb.Teams[it.id], "%d workers key %d", workers, k)
				require.Equal(t, b, x.bucketOf(p.Y, x.rows)*x.cols+x.bucketOf(p.X, x.cols), "%d workers key %d", workers, k)
				if j > 0 {
					require.Less(t, run[j-1].id, it.id, "%d workers key %d: hash IDs ascending", workers, k)
				}
			}
		}
		if first == nil {
			first = x
			continue
		}
		require.Equal(t, first.starts, x.starts, "%d workers", workers)
		require.Equal(t, first.items[:n], x.items[:n], "%d workers", workers)
	}
}
