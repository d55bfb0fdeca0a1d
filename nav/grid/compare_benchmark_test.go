package grid

import (
	"math"
	"runtime"
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

// spent is the time a benchmark phase took: wall clock, and CPU time of the
// benchmark's thread (threadCPU; 0 outside Linux).
type spent struct{ wall, cpu time.Duration }

// timed runs f on the calling thread, which the caller has locked
// (runtime.LockOSThread), and adds its wall and CPU time to sp.
func (sp *spent) timed(f func()) {
	c0, t0 := threadCPU(), time.Now()
	f()
	sp.wall += time.Since(t0)
	sp.cpu += threadCPU() - c0
}

// perExp returns d in ns per expansion.
func perExp(d time.Duration, expanded int) float64 {
	return float64(d.Nanoseconds()) / float64(max(expanded, 1))
}

// ratio returns a/b, 0 when b is 0 (no CPU time outside Linux).
func ratio(a, b time.Duration) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// BenchmarkVsGonumAStar runs the same queries on the same grid with our A*
// and with gonum's path.AStar (octile heuristic) on the grid converted to a
// gonum graph, and reports µs per query of each, our ns per node expansion
// and gonum/ours, the speed-up, in wall-clock time and (cpu-) in CPU time of
// the benchmark's thread, which on a loaded machine leaves out the time the
// thread waited for a core. Each op runs every query with ours, then every
// query with gonum's, so each search runs with the caches its own previous
// query left. Costs are checked to agree.
func BenchmarkVsGonumAStar(b *testing.B) {
	for _, tc := range []struct {
		name  string
		every int
	}{{"arena.map", 1}, {"random512-25-0.map", 10}} {
		b.Run(tc.name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
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
			costs := make([]float64, len(qs))
			var ours, theirs spent
			expanded := 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				ours.timed(func() {
					for k, q := range qs {
						buf, costs[k], _ = s.Path(q.Start, q.Goal, buf)
						expanded += s.Expanded()
					}
				})
				theirs.timed(func() {
					for k, q := range qs {
						sp, _ := path.AStar(simple.Node(int64(q.Start.Y)*w+int64(q.Start.X)), simple.Node(int64(q.Goal.Y)*w+int64(q.Goal.X)), gg, h)
						_, gc := sp.To(int64(q.Goal.Y)*w + int64(q.Goal.X))
						if math.Abs(gc-costs[k]) > 1e-6 {
							b.Fatalf("%v->%v: ours %v, gonum %v", q.Start, q.Goal, costs[k], gc)
						}
					}
				})
			}
			n := float64(b.N * len(qs))
			b.ReportMetric(float64(ours.wall.Microseconds())/n, "ours-µs/query")
			b.ReportMetric(float64(theirs.wall.Microseconds())/n, "gonum-µs/query")
			b.ReportMetric(ratio(theirs.wall, ours.wall), "gonum/ours")
			b.ReportMetric(ratio(theirs.cpu, ours.cpu), "cpu-gonum/ours")
			b.ReportMetric(perExp(ours.wall, expanded), "ours-ns/exp")
			b.ReportMetric(perExp(ours.cpu, expanded), "ours-cpu-ns/exp")
		})
	}
}

// jpsBenchMaps are the benchmark maps of the JPS-vs-A* benchmarks, with the
// sampling of their queries (every: one query in every).
var jpsBenchMaps = []struct {
	name  string
	every int
}{{"arena.map", 1}, {"rmtst01.map", 1}, {"random512-25-0.map", 1}, {"maze512-4-0.map", 100}}

// jpsBenchSetup loads map name and returns an A* search, a jump point search
// and the map's reachable queries, one in every.
func jpsBenchSetup(b *testing.B, name string, every int) (a, j *Search, qs []Query) {
	g, all := loadBench(b, name)
	return NewSearch(g), NewSearchOptions(g, Options{JumpPoints: true}), reachableQueries(g, all, every)
}

// BenchmarkJPSVsAStar runs every (sampled) query of each benchmark map with
// jump point search and with our A*, and reports µs per query of each,
// expansions of each, ns per expansion of each and JPS/A* time, in
// wall-clock time and (cpu-) in CPU time of the benchmark's thread. Each op
// runs every query with A*, then every query with JPS.
func BenchmarkJPSVsAStar(b *testing.B) {
	for _, tc := range jpsBenchMaps {
		b.Run(tc.name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			a, j, qs := jpsBenchSetup(b, tc.name, tc.every)
			buf := make([]Cell, 0, 4096)
			var ta, tj spent
			ea, ej := 0, 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				ta.timed(func() {
					for _, q := range qs {
						buf, _, _ = a.Path(q.Start, q.Goal, buf)
						ea += a.Expanded()
					}
				})
				tj.timed(func() {
					for _, q := range qs {
						buf, _, _ = j.Path(q.Start, q.Goal, buf)
						ej += j.Expanded()
					}
				})
			}
			n := float64(b.N * len(qs))
			b.ReportMetric(float64(ta.wall.Microseconds())/n, "astar-µs/query")
			b.ReportMetric(float64(tj.wall.Microseconds())/n, "jps-µs/query")
			b.ReportMetric(float64(ea)/n, "astar-exp/query")
			b.ReportMetric(float64(ej)/n, "jps-exp/query")
			b.ReportMetric(ratio(tj.wall, ta.wall), "jps/astar")
			b.ReportMetric(ratio(tj.cpu, ta.cpu), "cpu-jps/astar")
			b.ReportMetric(perExp(ta.wall, ea), "astar-ns/exp")
			b.ReportMetric(perExp(tj.wall, ej), "jps-ns/exp")
			b.ReportMetric(perExp(ta.cpu, ea), "astar-cpu-ns/exp")
			b.ReportMetric(perExp(tj.cpu, ej), "jps-cpu-ns/exp")
		})
	}
}

// BenchmarkJPSVsAStarSteady is BenchmarkJPSVsAStar once both searches are
// warm: each search runs every query once before the timing, then each op
// times one pass of A* and one of jump point search over every query, by
// CPU time of the benchmark's thread. It reports the fastest pass of each,
// in µs per query and in ns per expansion, their ratio (min-cpu-jps/astar),
// and the expansions per query of each. On a machine shared
// with other work a pass is only ever slowed down, so the fastest of several
// is the steadiest figure; run it with -benchtime of at least 5x. The
// first-query costs BenchmarkJPSVsAStar's first pass includes (page faults,
// caches emptied by the other search) are left out.
func BenchmarkJPSVsAStarSteady(b *testing.B) {
	for _, tc := range jpsBenchMaps {
		b.Run(tc.name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			a, j, qs := jpsBenchSetup(b, tc.name, tc.every)
			buf := make([]Cell, 0, 4096)
			// pass returns the CPU time of one pass and its expansions (the
			// same in every pass: the searches are deterministic)
			pass := func(s *Search) (time.Duration, int) {
				e := 0
				c0 := threadCPU()
				for _, q := range qs {
					buf, _, _ = s.Path(q.Start, q.Goal, buf)
					e += s.Expanded()
				}
				return threadCPU() - c0, e
			}
			_, ea := pass(a)
			_, ej := pass(j)
			ma, mj := time.Duration(math.MaxInt64), time.Duration(math.MaxInt64)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				ta, _ := pass(a)
				tj, _ := pass(j)
				ma, mj = min(ma, ta), min(mj, tj)
			}
			n := float64(len(qs))
			b.ReportMetric(float64(ma.Nanoseconds())/n/1000, "min-astar-cpu-µs/query")
			b.ReportMetric(float64(mj.Nanoseconds())/n/1000, "min-jps-cpu-µs/query")
			b.ReportMetric(ratio(mj, ma), "min-cpu-jps/astar")
			b.ReportMetric(float64(ea)/n, "astar-exp/query")
			b.ReportMetric(float64(ej)/n, "jps-exp/query")
			b.ReportMetric(perExp(ma, ea), "min-astar-cpu-ns/exp")
			b.ReportMetric(perExp(mj, ej), "min-jps-cpu-ns/exp")
		})
	}
}
