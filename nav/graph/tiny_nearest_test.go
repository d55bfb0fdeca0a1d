package graph_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/nav/graph"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// Nearest compared squared distances, which lose their bits below about 1.5e-154 and
// are 0 below about 2.2e-162: with waypoints about 1e-160 apart the k-d tree could not
// tell them apart and returned a farther one. Scaling every coordinate by a power of
// two changes no distance's bits but the exponent, so Nearest of a tiny layout must give
// the waypoint and (scaled back) the distance that the same layout scaled up gives.
func TestNearestOfTinyDistancesIsExact(t *testing.T) {
	const up = 0x1p600 // exact: a power of two
	for _, scale := range []float64{1e-156, 1e-158, 1e-160, 1e-162, 1e-300} {
		rng := rand.New(rand.NewPCG(7, math.Float64bits(scale)))
		tiny, big := graph.New(), graph.New()
		for range 200 {
			p := r2.Vec{X: rng.Float64() * scale * 10, Y: rng.Float64() * scale * 10}
			tiny.AddWaypoint(p)
			big.AddWaypoint(r2.Scale(up, p))
		}
		wrongID, wrongD := 0, 0
		for range 300 {
			q := r2.Vec{X: rng.Float64() * scale * 10, Y: rng.Float64() * scale * 10}
			wantID, wantD, err := big.Nearest(r2.Scale(up, q))
			require.NoError(t, err)
			id, d, err := tiny.Nearest(q)
			require.NoError(t, err)
			if id != wantID {
				wrongID++
			} else if d != wantD/up {
				wrongD++
			}
		}
		assert.Zero(t, wrongID, "scale %g: queries answered with another waypoint", scale)
		assert.Zero(t, wrongD, "scale %g: queries answered with another distance", scale)
	}

	// two waypoints 1e-160 apart, the point 1e-161 from the second
	g := graph.New()
	g.AddWaypoint(r2.Vec{X: 0})
	b := g.AddWaypoint(r2.Vec{X: 1e-160})
	id, d, err := g.Nearest(r2.Vec{X: 9e-161})
	require.NoError(t, err)
	assert.Equal(t, b, id)
	assert.InEpsilon(t, 1e-161, d, 1e-12)
	// a point on a waypoint is that waypoint, at 0
	id, d, err = g.Nearest(r2.Vec{X: 1e-160})
	require.NoError(t, err)
	assert.Equal(t, b, id)
	assert.Zero(t, d)
}
