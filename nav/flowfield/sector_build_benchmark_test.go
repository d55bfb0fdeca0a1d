package flowfield

import (
	"testing"

	"github.com/archai-go/archai/nav/grid"
)

// BenchmarkNewSectors is the construction of the sector layer (portals,
// then one Dijkstra search inside its sector per portal node) on the
// generated town map of cmd/bench (grid.GenerateTown, seed 3), 64-cell
// sectors: the wait before the first frame of a swarm on a big map.
// cpu-ms/build is the CPU time of every thread of the process (the
// searches run on GOMAXPROCS goroutines; Linux only), ms/build the wall
// time; nodes is the portal graph's node count.
func BenchmarkNewSectors(b *testing.B) {
	for _, size := range []int{1024, 4096} {
		b.Run(map[int]string{1024: "town1024", 4096: "town4096"}[size], func(b *testing.B) {
			g, err := grid.GenerateTown(size, 3)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			var s *Sectors
			c0 := processCPU()
			for i := 0; i < b.N; i++ {
				if s, err = NewSectors(g, 0); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(processCPU()-c0)/float64(b.N)/1e6, "cpu-ms/build")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/build")
			b.ReportMetric(float64(s.Nodes()), "nodes")
		})
	}
}
