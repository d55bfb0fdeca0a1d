package spatial

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

func TestBuildFromFramesMatchBuild_review18(t *testing.T) {
	lowerRangeSortMin(t, 0)
	rng := rand.New(rand.NewPCG(3, 4))
	for _, side := range []float64{61, 7.5, 2, 1.01} {
		h := NewHash(2, side, side)
		n := 300
		if side < 3 {
			n = 5
		}
		pts := randomPoints(rng, n, side, side, 0)
		for frame := range 80 {
			for i := range pts {
				switch rng.IntN(20) {
				case 0:
					pts[i] = r2.Vec{X: math.Floor(rng.Float64()*side/2) * 2, Y: math.Floor(rng.Float64()*side/2) * 2} // on a bucket edge
				case 1:
					pts[i] = r2.Vec{X: math.NaN(), Y: math.Inf(1)}
				case 2:
					pts[i] = r2.Vec{X: side, Y: -0.0}
				case 3:
					pts[i].X = math.Nextafter(pts[i].X, -1)
				default:
					pts[i].X += 0.3 * (rng.Float64()*2 - 1)
					pts[i].Y += 0.3 * (rng.Float64()*2 - 1)
				}
			}
			parts := []int{1, 2, 2, 3, 1, 2, 4, 2}[frame%8]
			if frame%16 == 9 { // the same points again: nothing moved
				parts = 2
			}
			ser := NewHash(2, side, side)
			for i, p := range pts {
				ser.Insert(int32(i), p)
			}
			ser.Build()
			h.BuildFrom(pts, parts, goRunner)
			if frame%16 == 9 {
				h.BuildFrom(pts, parts, goRunner)
			}
			require.Equal(t, bucketStarts(ser), bucketStarts(h), "side %v frame %d, %d parts: bucket starts", side, frame, parts)
			require.Equal(t, ser.sortedIDs, h.sortedIDs, "side %v frame %d, %d parts: order", side, frame, parts)
			for i := range pts {
				require.Equal(t, int32(i), h.sortedIDs[h.Slots()[i]], "frame %d", frame)
			}
		}
	}
}
