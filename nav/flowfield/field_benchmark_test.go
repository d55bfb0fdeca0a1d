package flowfield

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"gonum.org/v1/gonum/spatial/r2"
)

// BenchmarkBuild builds a whole field (integration and direction) on open
// and 20 %-blocked grids of 512² and 1024² cells; ns/cell is per settled
// cell, cpu-ms/build the CPU time of the benchmark's thread per build
// (Linux; it leaves out the time the thread waited for a core on a shared
// machine).
func BenchmarkBuild(b *testing.B) {
	for _, size := range []int{512, 1024} {
		for _, blocked := range []int{0, 20} {
			b.Run(fmt.Sprintf("%dx%d-blocked%d", size, size, blocked), func(b *testing.B) {
				g := randomGrid(rand.New(rand.NewPCG(9, 9)), size, size, blocked, false)
				goal := grid.Cell{X: int32(size / 2), Y: int32(size / 2)}
				g.SetCost(goal, 1)
				f := New(g)
				f.Build(goal) // classify the cells once, outside the timer
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				b.ReportAllocs()
				b.ResetTimer()
				c0 := threadCPU()
				for i := 0; i < b.N; i++ {
					f.Build(goal)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/build")
				b.ReportMetric(float64(threadCPU()-c0)/float64(b.N)/1e6, "cpu-ms/build")
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(f.Settled()), "ns/cell")
			})
		}
	}
}

// BenchmarkBuildOld is BenchmarkBuild for the build before issue 13 (a
// 4-ary heap over the unpadded grid, kept in reference_test.go), to compare
// in one run.
func BenchmarkBuildOld(b *testing.B) {
	for _, size := range []int{512, 1024} {
		for _, blocked := range []int{0, 20} {
			b.Run(fmt.Sprintf("%dx%d-blocked%d", size, size, blocked), func(b *testing.B) {
				g := randomGrid(rand.New(rand.NewPCG(9, 9)), size, size, blocked, false)
				goal := grid.Cell{X: int32(size / 2), Y: int32(size / 2)}
				g.SetCost(goal, 1)
				f := newRef(g)
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					f.build(goal)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/build")
			})
		}
	}
}

// BenchmarkSample is the per-agent cost of steering by a field.
func BenchmarkSample(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	g := randomGrid(rng, 256, 256, 20, false)
	g.SetCost(grid.Cell{X: 128, Y: 128}, 1)
	f := New(g)
	f.Build(grid.Cell{X: 128, Y: 128})
	pts := make([]r2.Vec, 1024)
	for i := range pts {
		pts[i] = r2.Vec{X: rng.Float64() * 256, Y: rng.Float64() * 256}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f.Sample(pts[i%len(pts)])
	}
}

// BenchmarkBuildSharedMaps builds whole fields on the shared MovingAI maps,
// towards 8 passable goals taken in turn (the same for every run);
// cpu-ms/build as in BenchmarkBuild.
func BenchmarkBuildSharedMaps(b *testing.B) {
	maps, _ := filepath.Glob(filepath.Join(mapsDir, "*.map"))
	if len(maps) == 0 {
		b.Skip("maps absent")
	}
	for _, path := range maps {
		g, err := grid.LoadMap(path)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(strings.TrimSuffix(filepath.Base(path), ".map"), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			var goals []grid.Cell
			for len(goals) < 8 {
				c := grid.Cell{X: int32(rng.IntN(g.Width())), Y: int32(rng.IntN(g.Height()))}
				if g.Passable(c) {
					goals = append(goals, c)
				}
			}
			f := New(g)
			f.Build(goals[0]) // classify the cells once, outside the timer
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			b.ReportAllocs()
			b.ResetTimer()
			c0 := threadCPU()
			for i := 0; i < b.N; i++ {
				f.Build(goals[i%len(goals)])
			}
			b.ReportMetric(float64(threadCPU()-c0)/float64(b.N)/1e6, "cpu-ms/build")
		})
	}
}
