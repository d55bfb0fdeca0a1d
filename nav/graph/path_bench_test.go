package graph_test

import (
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/nav/graph"
	"gonum.org/v1/gonum/spatial/r2"
)

// BenchmarkPath: Path on a 40×40 lattice of waypoints with jittered positions, each
// joined to its right and lower neighbours by Connect (every edge costs its length:
// the heuristic's scale stays 1), between random pairs.
func BenchmarkPath(b *testing.B) {
	const side = 40
	r := rand.New(rand.NewPCG(1, 2))
	g := graph.New()
	for y := 0; y < side; y++ {
		for x := 0; x < side; x++ {
			g.AddWaypoint(r2.Vec{X: float64(x) + r.Float64()*0.5, Y: float64(y) + r.Float64()*0.5})
		}
	}
	for y := 0; y < side; y++ {
		for x := 0; x < side; x++ {
			id := int64(y*side + x)
			if x+1 < side {
				g.Connect(id, id+1)
			}
			if y+1 < side {
				g.Connect(id, id+side)
			}
		}
	}
	pairs := make([][2]int64, 64)
	for i := range pairs {
		pairs[i] = [2]int64{int64(r.IntN(side * side)), int64(r.IntN(side * side))}
	}
	var dst []int64
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		p := pairs[i%len(pairs)]
		var err error
		if dst, _, err = g.Path(p[0], p[1], dst); err != nil {
			b.Fatal(err)
		}
	}
}
