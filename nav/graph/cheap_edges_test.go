package graph_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/nav/graph"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/graph/path"
	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/spatial/r2"
)

// An edge cheaper than its length (a rail): Path used the straight-line distance as its
// heuristic, which then overestimates, and returned a-b-d (20) instead of a-c-d (5√2+1).
func TestPathCheapEdge(t *testing.T) {
	g := graph.New()
	a := g.AddWaypoint(r2.Vec{X: 0, Y: 0})
	b := g.AddWaypoint(r2.Vec{X: 10, Y: 0})
	c := g.AddWaypoint(r2.Vec{X: 5, Y: 5})
	d := g.AddWaypoint(r2.Vec{X: 20, Y: 0})
	g.Connect(a, b)
	g.Connect(b, d)
	g.Connect(a, c)
	assert.Equal(t, 1.0, g.HeuristicScale())
	g.ConnectCost(c, d, 1)
	cd := r2.Norm(r2.Sub(g.Position(c), g.Position(d)))
	assert.InDelta(t, 1/cd, g.HeuristicScale(), 1e-15)
	assert.LessOrEqual(t, g.HeuristicScale()*cd, 1.0)
	p, cost, err := g.Path(a, d, nil)
	require.NoError(t, err)
	assert.Equal(t, []int64{a, c, d}, p)
	assert.InDelta(t, 5*math.Sqrt2+1, cost, 1e-12)

	// closed again: the old path, and the scale stays low (a lower bound is admissible)
	g.ConnectCost(c, d, math.Inf(1))
	p, cost, err = g.Path(a, d, nil)
	require.NoError(t, err)
	assert.Equal(t, []int64{a, b, d}, p)
	assert.Equal(t, 20.0, cost)
	assert.InDelta(t, 1/cd, g.HeuristicScale(), 1e-15)

	// a free edge (cost 0): scale 0, Dijkstra
	require.NoError(t, g.TryConnectCost(c, d, 0))
	assert.Equal(t, 0.0, g.HeuristicScale())
	p, cost, err = g.Path(a, d, nil)
	require.NoError(t, err)
	assert.Equal(t, []int64{a, c, d}, p)
	assert.InDelta(t, 5*math.Sqrt2, cost, 1e-12)
}

// An edge of length 0 (two waypoints at one place) bounds nothing: any cost keeps the
// scale; a closed edge neither.
func TestHeuristicScaleZeroLengthAndClosed(t *testing.T) {
	g := graph.New()
	a := g.AddWaypoint(r2.Vec{X: 1, Y: 1})
	b := g.AddWaypoint(r2.Vec{X: 1, Y: 1})
	c := g.AddWaypoint(r2.Vec{X: 4, Y: 5})
	g.ConnectCost(a, b, 0)
	g.ConnectCost(a, c, math.Inf(1))
	g.ConnectCost(b, c, 7)
	assert.Equal(t, 1.0, g.HeuristicScale())
	p, cost, err := g.Path(a, c, nil)
	require.NoError(t, err)
	assert.Equal(t, []int64{a, b, c}, p)
	assert.Equal(t, 7.0, cost)
}

// Path against gonum's Dijkstra on random graphs where some edges cost less than their
// length (down to 0), some are closed, some set again (raised, lowered, closed) and some
// removed through Gonum, with waypoints sharing a position.
func TestPathCheapEdgesMatchesGonumDijkstraRandom(t *testing.T) {
	wrong := 0
	for seed := uint64(0); seed < 400; seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		g := graph.New()
		n := 2 + r.IntN(30)
		for i := 0; i < n; i++ {
			if i > 0 && r.IntN(10) == 0 {
				g.AddWaypoint(g.Position(int64(r.IntN(i)))) // same place as another
				continue
			}
			g.AddWaypoint(r2.Vec{X: r.Float64() * 100, Y: r.Float64() * 100})
		}
		for k := 0; k < 1+r.IntN(4*n); k++ {
			a, b := int64(r.IntN(n)), int64(r.IntN(n))
			if a == b {
				continue
			}
			d := r2.Norm(r2.Sub(g.Position(a), g.Position(b)))
			switch r.IntN(10) {
			case 0:
				g.ConnectCost(a, b, math.Inf(1))
			case 1:
				g.ConnectCost(a, b, d*r.Float64()) // a rail: cheaper than its length
			case 2:
				require.NoError(t, g.TryConnectCost(a, b, d*r.Float64()*0.2))
			case 3:
				if r.IntN(8) == 0 {
					g.ConnectCost(a, b, 0) // a teleporter
				} else {
					g.ConnectCost(a, b, d*(1+r.Float64()))
				}
			case 4:
				g.Gonum().RemoveEdge(a, b)
			default:
				require.NoError(t, g.TryConnect(a, b))
			}
		}
		ref := simple.NewWeightedUndirectedGraph(0, math.Inf(1))
		for i := 0; i < n; i++ {
			ref.AddNode(simple.Node(i))
		}
		for es := g.Gonum().WeightedEdges(); es.Next(); {
			if e := es.WeightedEdge(); !math.IsInf(e.Weight(), 1) {
				ref.SetWeightedEdge(e)
			}
		}
		for q := 0; q < 10; q++ {
			a, b := int64(r.IntN(n)), int64(r.IntN(n))
			p, cost, err := g.Path(a, b, nil)
			_, want := path.DijkstraFrom(simple.Node(a), ref).To(b)
			if math.IsInf(want, 1) {
				require.ErrorIs(t, err, graph.ErrUnreachable, "seed %d %d→%d", seed, a, b)
				continue
			}
			require.NoError(t, err, "seed %d %d→%d", seed, a, b)
			if math.Abs(cost-want) > 1e-9*(1+want) {
				wrong++
				t.Errorf("seed %d %d→%d: Path cost %v, Dijkstra %v (scale %v)", seed, a, b, cost, want, g.HeuristicScale())
				continue
			}
			require.Equal(t, a, p[0])
			require.Equal(t, b, p[len(p)-1])
			sum := 0.0
			for i := 1; i < len(p); i++ {
				w, ok := g.Gonum().Weight(p[i-1], p[i])
				require.True(t, ok)
				sum += w
			}
			require.InDelta(t, cost, sum, 1e-9*(1+cost), "seed %d", seed)
		}
	}
	assert.Zero(t, wrong)
}

// Position and Connect of an ID that is no waypoint panic naming the method and the ID,
// not with a bare index out of range.
func TestPositionConnectBadIDPanics(t *testing.T) {
	g := graph.New()
	a := g.AddWaypoint(r2.Vec{})
	for range 3 {
		g.AddWaypoint(r2.Vec{X: 1})
	}
	assert.PanicsWithValue(t, "graph: Position(99): not a waypoint (the graph has 4)", func() { g.Position(99) })
	assert.PanicsWithValue(t, "graph: Position(-1): not a waypoint (the graph has 4)", func() { g.Position(-1) })
	assert.PanicsWithValue(t, "graph: Connect(0, 99): bad waypoints", func() { g.Connect(a, 99) })
	assert.PanicsWithValue(t, "graph: Connect(-1, 0): bad waypoints", func() { g.Connect(-1, a) })
	assert.PanicsWithValue(t, "graph: Connect(0, 0): bad waypoints", func() { g.Connect(a, a) })
}
