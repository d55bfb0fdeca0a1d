package spatial

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/spatial/r2"
)

// benchRebuild measures Reset+Insert+Build for n agents spread over a square
// at a density of one agent per 4 cells²; ns/agent is the per-agent figure.
func benchRebuild(b *testing.B, n int) {
	side := float64(2 * isqrt(n))
	pts := randomPoints(rand.New(rand.NewPCG(1, 1)), n, side, side, 0)
	h := NewHash(2, side, side)
	rebuild := func() {
		h.Reset()
		for i, p := range pts {
			h.Insert(int32(i), p)
		}
		h.Build()
	}
	rebuild()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rebuild()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/agent")
}

func BenchmarkRebuild10k(b *testing.B)  { benchRebuild(b, 10_000) }
func BenchmarkRebuild100k(b *testing.B) { benchRebuild(b, 100_000) }

// BenchmarkQuery measures one neighbour query of radius 2 (one bucket side)
// among 100k agents, about 3 neighbours each.
func BenchmarkQuery100k(b *testing.B) {
	const n = 100_000
	side := float64(2 * isqrt(n))
	pts := randomPoints(rand.New(rand.NewPCG(1, 1)), n, side, side, 0)
	h := NewHash(2, side, side)
	for i, p := range pts {
		h.Insert(int32(i), p)
	}
	h.Build()
	dst := make([]int32, 0, 256)
	found := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dst = h.Query(pts[i%n], 2, dst[:0])
		found += len(dst)
	}
	b.ReportMetric(float64(found)/float64(b.N), "found/op")
}

func isqrt(n int) int {
	r := 0
	for (r+1)*(r+1) <= n {
		r++
	}
	return r
}

// benchBuildFrom measures BuildFrom for n agents (as benchRebuild) split
// into parts run on goroutines: 1 part is the serial build.
func benchBuildFrom(b *testing.B, n, parts int) {
	side := float64(2 * isqrt(n))
	pts := randomPoints(rand.New(rand.NewPCG(1, 1)), n, side, side, 0)
	h := NewHash(2, side, side)
	h.BuildFrom(pts, parts, goRunner)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		h.BuildFrom(pts, parts, goRunner)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/agent")
}

func BenchmarkBuildFrom100k1(b *testing.B) { benchBuildFrom(b, 100_000, 1) }
func BenchmarkBuildFrom100k2(b *testing.B) { benchBuildFrom(b, 100_000, 2) }

// BenchmarkBuildFromSparse100k2 measures BuildFrom for 100k agents on a
// 4096² area with 2-cell buckets (4M buckets, 42 per agent), in 2 parts: the
// swarm on a 4096² map. The build's cost follows the agents.
func BenchmarkBuildFromSparse100k2(b *testing.B) {
	const n, side = 100_000, 4096
	pts := randomPoints(rand.New(rand.NewPCG(1, 1)), n, side, side, 0)
	h := NewHash(2, side, side)
	h.BuildFrom(pts, 2, goRunner)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		h.BuildFrom(pts, 2, goRunner)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/agent")
}

// BenchmarkBuildFromTiled100k2 is BuildFrom of the swarm's 100k agents: on
// an 832² area (173,056 buckets of 2 cells, 1.7 per agent), created in tile
// order (TileOrder, 8-cell tiles) as the scenarios spawn them, in 2 parts.
func BenchmarkBuildFromTiled100k2(b *testing.B) {
	const n, side = 100_000, 832
	pts := randomPoints(rand.New(rand.NewPCG(1, 1)), n, side, side, 0)
	order, err := TileOrder(pts, 8, nil)
	if err != nil {
		b.Fatal(err)
	}
	tiled := make([]r2.Vec, n)
	for k, i := range order {
		tiled[k] = pts[i]
	}
	h := NewHash(2, side, side)
	h.BuildFrom(tiled, 2, goRunner)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		h.BuildFrom(tiled, 2, goRunner)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/agent")
}
