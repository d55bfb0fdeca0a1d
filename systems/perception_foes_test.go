package systems

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestFoeIndexReusedAsTheCrowdChanges (review20): one foe index
// rebuilt frame after frame for a crowd that grows and shrinks (so its
// bucket side changes between builds, and its tables keep a larger crowd's
// lengths) answers nearest as the plain rule does: the nearest agent of
// another team within the radius and in line of sight (none from or to a
// point off the grid), ties to the lower ID.
func TestFoeIndexReusedAsTheCrowdChanges(t *testing.T) {
	defer func(a, b int) { foeKeysPerAgent, foeMinBuckets = a, b }(foeKeysPerAgent, foeMinBuckets)
	foeKeysPerAgent, foeMinBuckets = 2, 1
	const w, h = 300, 170
	g := grid.New(w, h) // open: every line of sight is clear
	var sight openCells
	sight.update(g)
	rng := rand.New(rand.NewPCG(20, 20))
	var x foeIndex
	x.resize(w, h, 2)
	var cands []foeCandidate
	sides := map[float64]bool{}
	for frame, n := range []int{900, 3, 1, 0, 40, 2000, 7, 600} {
		nb := &Neighbours{Positions: make([]r2.Vec, n), Teams: make([]uint8, n)}
		for i := range n {
			nb.Positions[i] = r2.Vec{X: rng.Float64()*(w+20) - 10, Y: rng.Float64()*(h+20) - 10}
			nb.Teams[i] = uint8(rng.IntN(2 + frame%3))
		}
		x.build(nb, 2, func(m int) { x.work(nb, 0, 0, m/2); x.work(nb, 1, m/2, m) })
		sides[x.size] = true
		for q := range 400 {
			pos := r2.Vec{X: rng.Float64()*(w+20) - 10, Y: rng.Float64()*(h+20) - 10}
			self := int32(-1)
			if n > 0 && q%2 == 0 {
				self = int32(rng.IntN(n))
				pos = nb.Positions[self]
			}
			team := uint8(rng.IntN(3))
			radius := []float64{3, 8, 20, 90, 1e9}[rng.IntN(5)]
			want, wantD2 := int32(-1), math.Inf(1)
			for i, p := range nb.Positions {
				if int32(i) == self || nb.Teams[i] == team {
					continue
				}
				d2 := sq2(p.X-pos.X, p.Y-pos.Y)
				if d2 <= radius*radius && d2 < wantD2 && g.LineOfSight(pos, p) { // none out of the grid
					want, wantD2 = int32(i), d2
				}
			}
			var id int32
			id, _, _, cands = x.nearest(pos, radius, team, self, -2, r2.Vec{}, 0, cands, &sight, g)
			if id != want {
				t.Fatalf("frame %d (n %d, side %v) query %d: nearest %d, the plain rule %d", frame, n, x.size, q, id, want)
			}
		}
	}
	if len(sides) < 3 {
		t.Fatalf("the bucket side changed too little: %v", sides)
	}
}
