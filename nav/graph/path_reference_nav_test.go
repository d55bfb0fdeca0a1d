package graph_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/nav/graph"
	"gonum.org/v1/gonum/graph/path"
	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/spatial/r2"
)

// Path on random waypoint graphs with closed (+Inf) and slow edges: the cost of gonum's
// Dijkstra without the closed edges, and a path of that cost.
func TestPathMatchesGonumDijkstraRandom(t *testing.T) {
	for seed := uint64(0); seed < 500; seed++ {
		r := rand.New(rand.NewPCG(seed, 1))
		g := graph.New()
		n := 1 + r.IntN(25)
		for i := 0; i < n; i++ {
			g.AddWaypoint(r2.Vec{X: r.Float64() * 100, Y: r.Float64() * 100})
		}
		for k := 0; k < r.IntN(3*n+1); k++ {
			a, b := int64(r.IntN(n)), int64(r.IntN(n))
			if a == b {
				continue
			}
			switch r.IntN(4) {
			case 0:
				g.ConnectCost(a, b, math.Inf(1))
			case 1:
				d := r2.Norm(r2.Sub(g.Position(a), g.Position(b)))
				if err := g.TryConnectCost(a, b, d*(1+r.Float64()*3)); err != nil {
					t.Fatal(err)
				}
			default:
				if err := g.TryConnect(a, b); err != nil {
					t.Fatal(err)
				}
			}
		}
		// gonum reference without closed edges
		ref := simple.NewWeightedUndirectedGraph(0, math.Inf(1))
		for i := 0; i < n; i++ {
			ref.AddNode(simple.Node(i))
		}
		es := g.Gonum().WeightedEdges()
		for es.Next() {
			e := es.WeightedEdge()
			if !math.IsInf(e.Weight(), 1) {
				ref.SetWeightedEdge(e)
			}
		}
		for q := 0; q < 10; q++ {
			a, b := int64(r.IntN(n)), int64(r.IntN(n))
			p, cost, err := g.Path(a, b, nil)
			sp := path.DijkstraFrom(simple.Node(a), ref)
			_, want := sp.To(b)
			if math.IsInf(want, 1) {
				if !errors.Is(err, graph.ErrUnreachable) {
					t.Fatalf("seed %d: %d→%d want unreachable got %v %v", seed, a, b, p, err)
				}
				continue
			}
			if err != nil || math.Abs(cost-want) > 1e-9*max(1, want) {
				t.Fatalf("seed %d: %d→%d cost %v err %v want %v", seed, a, b, cost, err, want)
			}
			sum := 0.0
			for i := 1; i < len(p); i++ {
				w, ok := g.Gonum().Weight(p[i-1], p[i])
				if !ok || math.IsInf(w, 1) {
					t.Fatalf("seed %d: path uses missing/closed edge", seed)
				}
				sum += w
			}
			if math.Abs(sum-cost) > 1e-9*max(1, cost) {
				t.Fatalf("seed %d: path sums %v, cost %v", seed, sum, cost)
			}
		}
	}
}
