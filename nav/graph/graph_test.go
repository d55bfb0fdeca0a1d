package graph

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gonumgraph "gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/path"
	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestAStarInconsistentHeuristic: on the weighted graph
//
//	S –1– A –3– C –4– G
//	S –2– B –1– C
//
// the heuristic h(B) = 5 is exact, hence admissible, but inconsistent
// (h(B) > w(B,C) + h(C) = 1). A* first reaches C through A (g = 4) and
// expands it; only later does B offer g = 3. Closing C for good, as gonum's
// path.AStar does, yields 8; reopening it yields the optimum 7.
func TestAStarInconsistentHeuristic(t *testing.T) {
	const S, A, B, C, G = 0, 1, 2, 3, 4
	g := simple.NewWeightedUndirectedGraph(0, math.Inf(1))
	for _, e := range []struct {
		a, b int64
		w    float64
	}{{S, A, 1}, {S, B, 2}, {A, C, 3}, {B, C, 1}, {C, G, 4}} {
		g.SetWeightedEdge(g.NewWeightedEdge(simple.Node(e.a), simple.Node(e.b), e.w))
	}
	h := func(n int64) float64 {
		if n == B {
			return 5
		}
		return 0
	}
	p, cost, _, err := AStar(g, S, G, h, nil)
	require.NoError(t, err)
	assert.Equal(t, 7.0, cost)
	assert.Equal(t, []int64{S, B, C, G}, p)

	// gonum's A* under the same heuristic, for the record
	gp, _ := path.AStar(simple.Node(S), simple.Node(G), g, func(x, _ gonumgraph.Node) float64 { return h(x.ID()) })
	_, gw := gp.To(G)
	assert.Equal(t, 8.0, gw, "gonum closes C for good")
}

func TestGraphNearestMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	g := New()
	_, _, err := g.Nearest(r2.Vec{})
	require.ErrorIs(t, err, ErrNoWaypoint)
	for i := 0; i < 500; i++ {
		g.AddWaypoint(r2.Vec{X: rng.Float64() * 100, Y: rng.Float64() * 100})
	}
	for i := 0; i < 200; i++ {
		q := r2.Vec{X: rng.Float64()*120 - 10, Y: rng.Float64()*120 - 10}
		id, d, err := g.Nearest(q)
		require.NoError(t, err)
		best := math.Inf(1)
		for j := 0; j < g.Len(); j++ {
			best = math.Min(best, r2.Norm(r2.Sub(q, g.Position(int64(j)))))
		}
		require.InDelta(t, best, d, 1e-9)
		require.InDelta(t, best, r2.Norm(r2.Sub(q, g.Position(id))), 1e-9)
	}
	// adding a waypoint rebuilds the tree
	id := g.AddWaypoint(r2.Vec{X: -50, Y: -50})
	got, _, _ := g.Nearest(r2.Vec{X: -49, Y: -49})
	assert.Equal(t, id, got)
}

func TestGraphPathMatchesDijkstra(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	g := New()
	for i := 0; i < 200; i++ {
		g.AddWaypoint(r2.Vec{X: rng.Float64() * 100, Y: rng.Float64() * 100})
	}
	for i := int64(0); i < 200; i++ {
		for k := 0; k < 3; k++ {
			j := int64(rng.IntN(200))
			if j == i {
				continue
			}
			if k == 0 {
				g.ConnectCost(i, j, 1.5*r2.Norm(r2.Sub(g.Position(i), g.Position(j)))) // a slow road
			} else {
				g.Connect(i, j)
			}
		}
	}
	all := path.DijkstraAllPaths(g.Gonum())
	for q := 0; q < 100; q++ {
		a, b := int64(rng.IntN(200)), int64(rng.IntN(200))
		p, cost, err := g.Path(a, b, nil)
		_, want, _ := all.Between(a, b)
		if math.IsInf(want, 1) {
			require.ErrorIs(t, err, ErrUnreachable)
			continue
		}
		require.NoError(t, err)
		require.InDelta(t, want, cost, 1e-9)
		require.Equal(t, a, p[0])
		require.Equal(t, b, p[len(p)-1])
		var sum float64
		for i := 1; i < len(p); i++ {
			w, ok := g.Gonum().Weight(p[i-1], p[i])
			require.True(t, ok)
			sum += w
		}
		require.InDelta(t, cost, sum, 1e-9)
	}
	_, _, err := g.Path(0, 999, nil)
	assert.ErrorIs(t, err, ErrNoWaypoint)
}

func TestGraphRoute(t *testing.T) {
	g := New()
	a := g.AddWaypoint(r2.Vec{X: 0, Y: 0})
	b := g.AddWaypoint(r2.Vec{X: 10, Y: 0})
	c := g.AddWaypoint(r2.Vec{X: 10, Y: 10})
	g.Connect(a, b)
	g.Connect(b, c)
	pts, cost, err := g.Route(r2.Vec{X: -1, Y: 0}, r2.Vec{X: 11, Y: 10}, nil)
	require.NoError(t, err)
	assert.Equal(t, []r2.Vec{{X: -1}, {}, {X: 10}, {X: 10, Y: 10}, {X: 11, Y: 10}}, pts)
	assert.InDelta(t, 22.0, cost, 1e-12)
	d := g.AddWaypoint(r2.Vec{X: 50, Y: 50}) // isolated
	_, _, err = g.Route(r2.Vec{}, g.Position(d), nil)
	assert.ErrorIs(t, err, ErrUnreachable)
}
