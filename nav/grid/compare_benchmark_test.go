package grid

import (
	"math"
	"testing"
	"time"

	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/path"
	"gonum.org/v1/gonum/graph/simple"
)

// gonumGrid converts g to a gonum weighted directed graph with the same
// moves and costs (node ID = y·width + x).
func gonumGrid(g *Grid) *simple.WeightedDirectedGraph {
	gg := simple.NewWeightedDirectedGraph(0, math.Inf(1))
	w := g.Width()
	for y := int32(0); y < int32(g.Height()); y++ {
		for x := int32(0); x < int32(w); x++ {
			if c := (Cell{x, y}); g.Passable(c) {
				gg.AddNode(simple.Node(int64(y)*int64(w) + int64(x)))
			}
		}
	}
	for y := int32(0); y < int32(g.Height()); y++ {
		for x := int32(0); x < int32(w); x++ {
			c := Cell{x, y}
			if !g.Passable(c) {
				continue
			}
			for dy := int32(-1); dy <= 1; dy++ {
				for dx := int32(-1); dx <= 1; dx++ {
					n := Cell{x + dx, y + dy}
					if (dx == 0 && dy == 0) || !g.Passable(n) {
						continue
					}
					cost := float64(g.Cost(n))
					if dx != 0 && dy != 0 {
						if !g.Passable(Cell{x + dx, y}) || !g.Passable(Cell{x, y + dy}) {
							continue
						}
						cost *= Sqrt2
					}
					gg.SetWeightedEdge(gg.NewWeightedEdge(simple.Node(int64(y)*int64(w)+int64(x)), simple.Node(int64(n.Y)*int64(w)+int64(n.X)), cost))
				}
			}
		}
	}
	return gg
}

func reachableQueries(g *Grid, all []Query, every int) []Query {
	var qs []Query
	for i, q := range all {
		if i%every == 0 && q.Start != q.Goal && g.Connected(q.Start, q.Goal) {
			qs = append(qs, q)
		}
	}
	return qs
}

// BenchmarkVsGonumAStar runs the same queries on the same grid with our A*
// and with gonum's path.AStar (octile heuristic) on the grid converted to a
// gonum graph, and reports µs per query of each, our ns per node expansion
// and gonum/ours, the speed-up. Costs are checked to agree.
func BenchmarkVsGonumAStar(b *testing.B) {
	for _, tc := range []struct {
		name  string
		every int
	}{{"arena.map", 1}, {"random512-25-0.map", 10}} {
		b.Run(tc.name, func(b *testing.B) {
			g, all := loadBench(b, tc.name)
			qs := reachableQueries(g, all, tc.every)
			gg := gonumGrid(g)
			w := int64(g.Width())
			h := func(x, y graph.Node) float64 {
				a := Cell{int32(x.ID() % w), int32(x.ID() / w)}
				c := Cell{int32(y.ID() % w), int32(y.ID() / w)}
				return Octile(a, c)
			}
			s := NewSearch(g)
			buf := make([]Cell, 0, 4096)
			var ours, theirs time.Duration
			expanded := 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for _, q := range qs {
					t0 := time.Now()
					var cost float64
					buf, cost, _ = s.Path(q.Start, q.Goal, buf)
					t1 := time.Now()
					expanded += s.Expanded()
					sp, _ := path.AStar(simple.Node(int64(q.Start.Y)*w+int64(q.Start.X)), simple.Node(int64(q.Goal.Y)*w+int64(q.Goal.X)), gg, h)
					_, gc := sp.To(int64(q.Goal.Y)*w + int64(q.Goal.X))
					theirs += time.Since(t1)
					ours += t1.Sub(t0)
					if math.Abs(gc-cost) > 1e-6 {
						b.Fatalf("%v->%v: ours %v, gonum %v", q.Start, q.Goal, cost, gc)
					}
				}
			}
			n := float64(b.N * len(qs))
			b.ReportMetric(float64(ours.Microseconds())/n, "ours-µs/query")
			b.ReportMetric(float64(theirs.Microseconds())/n, "gonum-µs/query")
			b.ReportMetric(float64(theirs)/float64(ours), "gonum/ours")
			b.ReportMetric(float64(ours.Nanoseconds())/float64(expanded), "ours-ns/exp")
		})
	}
}

// BenchmarkJPSVsAStar runs every (sampled) query of each benchmark map with
// jump point search and with our A*, and reports µs per query of each,
// expansions of each, ns per expansion of each and JPS/A* time.
func BenchmarkJPSVsAStar(b *testing.B) {
	for _, tc := range []struct {
		name  string
		every int
	}{{"arena.map", 1}, {"rmtst01.map", 1}, {"random512-25-0.map", 1}, {"maze512-4-0.map", 100}} {
		b.Run(tc.name, func(b *testing.B) {
			g, all := loadBench(b, tc.name)
			qs := reachableQueries(g, all, tc.every)
			a := NewSearch(g)
			j := NewSearchOptions(g, Options{JumpPoints: true})
			buf := make([]Cell, 0, 4096)
			var ta, tj time.Duration
			ea, ej := 0, 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for _, q := range qs {
					t0 := time.Now()
					buf, _, _ = a.Path(q.Start, q.Goal, buf)
					t1 := time.Now()
					buf, _, _ = j.Path(q.Start, q.Goal, buf)
					tj += time.Since(t1)
					ta += t1.Sub(t0)
					ea += a.Expanded()
					ej += j.Expanded()
				}
			}
			n := float64(b.N * len(qs))
			b.ReportMetric(float64(ta.Microseconds())/n, "astar-µs/query")
			b.ReportMetric(float64(tj.Microseconds())/n, "jps-µs/query")
			b.ReportMetric(float64(ea)/n, "astar-exp/query")
			b.ReportMetric(float64(ej)/n, "jps-exp/query")
			b.ReportMetric(float64(tj)/float64(ta), "jps/astar")
			b.ReportMetric(float64(ta.Nanoseconds())/float64(ea), "astar-ns/exp")
			b.ReportMetric(float64(tj.Nanoseconds())/float64(ej), "jps-ns/exp")
		})
	}
}
