package grid

import (
	"testing"

	"gonum.org/v1/gonum/spatial/r2"
)

// benchScenario runs the scenario's queries round-robin and reports the time
// per query (ns/op) plus the mean number of nodes expanded per query and the
// time per expanded node.
func benchScenario(b *testing.B, name string, every int) { benchScenarioOpt(b, name, every, Options{}) }

func benchScenarioOpt(b *testing.B, name string, every int, opt Options) {
	g, all := loadBench(b, name)
	var qs []Query
	for i, q := range all {
		if i%every == 0 && g.Connected(q.Start, q.Goal) {
			qs = append(qs, q)
		}
	}
	s := NewSearchOptions(g, opt)
	buf := make([]Cell, 0, 4096)
	for _, q := range qs {
		buf, _, _ = s.Path(q.Start, q.Goal, buf)
	}
	expanded, reopened := 0, 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q := qs[i%len(qs)]
		buf, _, _ = s.Path(q.Start, q.Goal, buf)
		expanded += s.Expanded()
		reopened += s.Reopened()
	}
	b.ReportMetric(float64(reopened)/float64(b.N), "reopened/op")
	b.StopTimer()
	b.ReportMetric(float64(expanded)/float64(b.N), "expanded/op")
	if expanded > 0 {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(expanded), "ns/node")
	}
}

func BenchmarkPathArena(b *testing.B)     { benchScenario(b, "arena.map", 1) }
func BenchmarkPathRmtst01(b *testing.B)   { benchScenario(b, "rmtst01.map", 1) }
func BenchmarkPathRandom512(b *testing.B) { benchScenario(b, "random512-25-0.map", 1) }
func BenchmarkPathMaze512(b *testing.B)   { benchScenario(b, "maze512-4-0.map", 50) }

func BenchmarkJPSArena(b *testing.B)     { benchScenarioOpt(b, "arena.map", 1, jps) }
func BenchmarkJPSRmtst01(b *testing.B)   { benchScenarioOpt(b, "rmtst01.map", 1, jps) }
func BenchmarkJPSRandom512(b *testing.B) { benchScenarioOpt(b, "random512-25-0.map", 1, jps) }
func BenchmarkJPSMaze512(b *testing.B)   { benchScenarioOpt(b, "maze512-4-0.map", 50, jps) }

func BenchmarkConnected(b *testing.B) {
	g, qs := loadBench(b, "random512-25-0.map")
	g.Prepare()
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for i := 0; i < b.N; i++ {
		q := qs[i%len(qs)]
		if g.Connected(q.Start, q.Goal) {
			n++
		}
	}
	_ = n
}

func BenchmarkLineOfSight(b *testing.B) {
	g, qs := loadBench(b, "random512-25-0.map")
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for i := 0; i < b.N; i++ {
		q := qs[i%len(qs)]
		if g.LineOfSight(g.Center(q.Start), g.Center(q.Goal)) {
			n++
		}
	}
	_ = n
}

func BenchmarkLineOfSightOpen64(b *testing.B) {
	g := New(128, 128)
	a, c := r2.Vec{X: 0.5, Y: 3.25}, r2.Vec{X: 64.5, Y: 40.75}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if !g.LineOfSight(a, c) {
			b.Fatal("blocked")
		}
	}
}

// BenchmarkRebuildAfterEdit measures the first query after a grid edit on
// random512: the search rebuilds its mirror of the grid (allowed moves for
// A*, and the bitsets, jump bits and diagonal runs for JPS) before a
// one-step search. Grid.Prepare runs outside the timer.
func BenchmarkRebuildAfterEdit(b *testing.B) {
	for _, tc := range []struct {
		name string
		opt  Options
	}{{"astar", Options{}}, {"jps", jps}} {
		b.Run(tc.name, func(b *testing.B) {
			g, _ := loadBench(b, "random512-25-0.map")
			s := NewSearchOptions(g, tc.opt)
			buf := make([]Cell, 0, 16)
			a, c := Cell{-1, -1}, Cell{}
			for y := int32(0); y < 10 && a.X < 0; y++ {
				for x := int32(0); x < 10; x++ {
					if g.Passable(Cell{x, y}) && g.Passable(Cell{x + 1, y}) {
						a, c = Cell{x, y}, Cell{x + 1, y}
						break
					}
				}
			}
			edit := Cell{X: 300, Y: 300}
			for !g.Passable(edit) {
				edit.X++
			}
			old := g.Cost(edit)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				if i%2 == 0 {
					g.SetCost(edit, Blocked)
				} else {
					g.SetCost(edit, old)
				}
				g.Prepare()
				b.StartTimer()
				if _, _, err := s.Path(a, c, buf); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// random512: one edit as a world that changes sees it, all timed: a cell
// closes or opens (SetCost), Grid.Prepare relabels the connected components
// (O(width·height), the bulk), and a short search brings the search's
// mirror up to date (A*: the nine cells around the edit; JPS: a rebuild).
func BenchmarkEditThenSearch(b *testing.B) {
	for _, tc := range []struct {
		name string
		opt  Options
	}{{"astar", Options{}}, {"jps", jps}} {
		b.Run(tc.name, func(b *testing.B) {
			g, _ := loadBench(b, "random512-25-0.map")
			s := NewSearchOptions(g, tc.opt)
			buf := make([]Cell, 0, 16)
			a, c := Cell{-1, -1}, Cell{}
			for y := int32(0); y < 10 && a.X < 0; y++ {
				for x := int32(0); x < 10; x++ {
					if g.Passable(Cell{x, y}) && g.Passable(Cell{x + 1, y}) {
						a, c = Cell{x, y}, Cell{x + 1, y}
						break
					}
				}
			}
			edit := Cell{X: 300, Y: 300}
			for !g.Passable(edit) {
				edit.X++
			}
			old := g.Cost(edit)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if i%2 == 0 {
					g.SetCost(edit, Blocked)
				} else {
					g.SetCost(edit, old)
				}
				g.Prepare()
				if _, _, err := s.Path(a, c, buf); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
