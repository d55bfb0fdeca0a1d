package systems

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"gonum.org/v1/gonum/spatial/r2"
)

// A MaxNeighbours above maxInsertNeighbours sorts the candidates once instead of keeping
// the nearest by insertion (quadratic: 96% of 10 s a frame for 1,500 agents within reach
// of each other with MaxNeighbours 1<<40). It must keep the same neighbours in the same
// order, ties (many equal distances here) in the order found.
func TestSortNearestKeepsWhatInsertionKeeps(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 5, 40, 300} {
		cands := make([]orcaNear, n)
		for i := range cands {
			cands[i] = orcaNear{distSq: float64(r.IntN(12)), slot: int32(i), pos: r2.Vec{X: float64(i)}}
		}
		for _, k := range []int{1, 2, 10, 33, 100, 1000} {
			var kept []orcaNear
			for _, c := range cands {
				kept = keepNearest(kept, c, k)
			}
			sorted := sortNearest(append([]orcaNear(nil), cands...), k)
			assert.Equal(t, kept, sorted, "n=%d k=%d", n, k)
			assert.Len(t, sorted, min(n, k))
		}
	}
}
