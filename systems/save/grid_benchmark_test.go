package save

import (
	"fmt"
	"testing"

	"github.com/archai-go/archai/nav/grid"
)

// The grid fingerprint a save computes (and a load, once at LoadInto and once at
// Restore): per cell of the default bench map (256×256) and of the largest grid.
func BenchmarkGridFingerprint(b *testing.B) {
	for _, side := range []int{256, 2048} {
		g := grid.New(side, side)
		b.Run(fmt.Sprintf("%dx%d", side, side), func(b *testing.B) {
			for b.Loop() {
				fingerprint(g)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(side*side), "ns/cell")
		})
	}
}
