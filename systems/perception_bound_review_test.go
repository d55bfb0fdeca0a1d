package systems

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/nav/spatial"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestFoeIndexNearestMatchesPlainRule checks foeIndex.nearest (own bucket row
// first, the other rows bounded by its answer; nearestAll where a line it
// tests is blocked) and nearestAll alone against a scan of every agent
// with the plain rule, on positions chosen to meet the bound's edges: on
// bucket borders, outside the grid (border rows hold them), at the same
// point as others (ties by hash ID), NaN; sight ranges of 0, a bucket side,
// and far beyond the grid; with and without a field of view.
//
// It runs with the index's buckets of foeBucket cells and, the bounds of fit
// lowered, of 2 and 8 times that (big20: fit widens them for a small crowd
// on a big map; the answers must not change), and each of them again with a
// team holding more than half of the agents and a spatial hash of them in
// Neighbours: that class is then left out of the index from the second build
// and searched in the hash (nearestDense).
func TestFoeIndexNearestMatchesPlainRule(t *testing.T) {
	for _, c := range []struct {
		perAgent, least int
		side            float64
	}{{foeKeysPerAgent, foeMinBuckets, foeBucket}, {0, 16, 2 * foeBucket}, {0, 1, 8 * foeBucket}} {
		for _, dense := range []bool{false, true} {
			t.Run(fmt.Sprint(c.side, dense), func(t *testing.T) {
				defer func(a, b int) { foeKeysPerAgent, foeMinBuckets = a, b }(foeKeysPerAgent, foeMinBuckets)
				foeKeysPerAgent, foeMinBuckets = c.perAgent, c.least
				foeNearestMatchesPlainRule(t, c.side, dense)
			})
		}
	}
}

func foeNearestMatchesPlainRule(t *testing.T, side float64, dense bool) {
	const w, h, n = 40, 30, 500
	g := grid.New(w, h)
	for y := int32(5); y < 25; y++ {
		g.SetCost(grid.Cell{X: 17, Y: y}, grid.Blocked)
	}
	for x := int32(22); x < 35; x++ {
		g.SetCost(grid.Cell{X: x, Y: 14}, grid.Blocked)
	}
	var sight openCells
	sight.update(g)
	rng := rand.New(rand.NewPCG(3, 4))
	coord := func(size float64) float64 {
		switch rng.IntN(6) {
		case 0: // a bucket border
			return foeBucket * float64(rng.IntN(int(size/foeBucket)+3)-1)
		case 1: // outside the grid
			return []float64{-3.5, -0.25, size + 0.5, size + 7}[rng.IntN(4)]
		case 2: // on a cell centre row
			return float64(rng.IntN(int(size))) + 0.5
		default:
			return rng.Float64() * size
		}
	}
	nb := &Neighbours{Positions: make([]r2.Vec, n), Teams: make([]uint8, n)}
	for i := range n {
		if i > 0 && rng.IntN(8) == 0 {
			nb.Positions[i] = nb.Positions[rng.IntN(i)] // a tie
		} else {
			nb.Positions[i] = r2.Vec{X: coord(w), Y: coord(h)}
		}
		if rng.IntN(50) == 0 {
			nb.Positions[i].X = math.NaN()
		}
		nb.Teams[i] = uint8(rng.IntN(3))
		if dense && rng.IntN(3) > 0 {
			nb.Teams[i] = 1 // about 7 in 9 of the agents
		}
	}
	if dense {
		nb.Hash = spatial.NewHash(2, w, h)
		for i, p := range nb.Positions {
			nb.Hash.Insert(int32(i), p)
		}
		nb.Hash.Build()
	}
	var x foeIndex
	x.resize(w, h, 1)
	x.build(nb, 1, func(m int) { x.work(nb, 0, 0, m) })
	require.Equal(t, -1, x.dense, "no class is left out of the first build")
	x.build(nb, 1, func(m int) { x.work(nb, 0, 0, m) }) // the second: the dense class from the first's counts
	require.Equal(t, side, x.size, "the buckets' side")
	if dense {
		require.Equal(t, int(x.class[1]), x.dense, "team 1 is searched in the hash")
		require.Less(t, int(x.starts[len(x.starts)-1]), n/2, "and left out of the index")
	} else {
		require.Equal(t, -1, x.dense)
	}
	var cands []foeCandidate
	checked, found, blocked := 0, 0, 0
	for q := range 3000 {
		self := int32(rng.IntN(n))
		pos := nb.Positions[self]
		if q%3 == 0 { // an agent not in the index
			self, pos = -1, r2.Vec{X: coord(w), Y: coord(h)}
		}
		if !finiteVec(pos) {
			continue
		}
		team := uint8(rng.IntN(3))
		radius := []float64{0, foeBucket, 2.5, 7, 11.3, 1e9}[rng.IntN(6)]
		cosHalf, heading, hn := -2.0, r2.Vec{}, 0.0
		if rng.IntN(2) == 0 {
			heading = r2.Vec{X: rng.Float64() - 0.5, Y: rng.Float64() - 0.5}
			cosHalf, hn = math.Cos(math.Pi/3), math.Hypot(heading.X, heading.Y)
		}
		var id int32
		var d float64
		hnArg := hn
		if q%2 == 1 {
			hnArg = -1 // found by nearest when first needed, as Perception asks
		}
		var at r2.Vec
		id, d, at, cands = x.nearest(pos, radius, team, self, cosHalf, heading, hnArg, cands, &sight, g)
		if id2, d2, at2, _ := x.nearestAll(pos, radius, team, self, cosHalf, heading, hnArg, nil, &sight, g); id2 != id || d2 != d || at2 != at {
			t.Fatalf("query %d: nearest %d %v %v, nearestAll %d %v %v", q, id, d, at, id2, d2, at2)
		}
		// the plain rule over every agent
		want, wantD2 := int32(-1), math.Inf(1)
		nearID, nearD2 := int32(-1), math.Inf(1) // line of sight or not
		for j, p := range nb.Positions {
			dx, dy := p.X-pos.X, p.Y-pos.Y
			d2 := float64(dx*dx) + float64(dy*dy) // rounded as Perception's (no multiply-add on any build)
			if int32(j) == self || nb.Teams[j] == team || !(d2 <= radius*radius) {
				continue
			}
			if cosHalf > -2 && d2 > 0 && float64(dx*heading.X)+float64(dy*heading.Y) < cosHalf*math.Sqrt(d2)*hn {
				continue
			}
			if d2 < nearD2 || (d2 == nearD2 && int32(j) < nearID) {
				nearID, nearD2 = int32(j), d2
			}
			if d2 > wantD2 || (d2 == wantD2 && int32(j) > want) || !g.LineOfSight(pos, p) {
				continue
			}
			want, wantD2 = int32(j), d2
		}
		checked++
		if nearID >= 0 && nearID != want {
			blocked++ // the nearest foe is out of sight: nearest searches again with every candidate
		}
		require.Equal(t, want, id, "query %d at %v radius %v team %d", q, pos, radius, team)
		if want >= 0 {
			found++
			require.Equal(t, math.Sqrt(wantD2), d)
			require.Equal(t, nb.Positions[want], at, "the target's position")
		}
	}
	require.Greater(t, found, checked/4, "most queries find a foe")
	require.Greater(t, blocked, checked/20, "some queries' nearest foe is out of sight")
}
