package graph

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// An edge of cost +Inf (a road closed by raising its cost) is never taken: newbie14 got the
// path [a b] of cost +Inf and a nil error, which a caller checking err walks.
func TestInfiniteEdgeIsNeverTaken(t *testing.T) {
	g := New()
	a := g.AddWaypoint(r2.Vec{X: 0, Y: 0})
	b := g.AddWaypoint(r2.Vec{X: 10, Y: 0})
	g.ConnectCost(a, b, math.Inf(1))
	path, cost, err := g.Path(a, b, nil)
	assert.ErrorIs(t, err, ErrUnreachable)
	assert.Empty(t, path)
	assert.Equal(t, 0.0, cost)

	c := g.AddWaypoint(r2.Vec{X: 5, Y: 5})
	g.Connect(a, c)
	g.Connect(c, b)
	path, cost, err = g.Path(a, b, nil)
	require.NoError(t, err)
	assert.Equal(t, []int64{a, c, b}, path, "the detour, not the closed road")
	assert.InDelta(t, 2*math.Sqrt(50), cost, 1e-12)
}

// A point with a NaN or infinite coordinate has no nearest waypoint: newbie14's Nearest of
// (NaN, 0) returned waypoint 2 at distance NaN and a nil error, and Route from it a route of
// cost NaN starting at (NaN, 0).
func TestNearestOfANonFinitePoint(t *testing.T) {
	g := New()
	g.AddWaypoint(r2.Vec{X: 0, Y: 0})
	g.AddWaypoint(r2.Vec{X: 10, Y: 0})
	g.Connect(0, 1)
	for _, p := range []r2.Vec{{X: math.NaN()}, {Y: math.Inf(1)}, {X: math.Inf(-1)}} {
		id, d, err := g.Nearest(p)
		assert.ErrorIs(t, err, ErrPosition, "%v", p)
		assert.Equal(t, int64(-1), id)
		assert.Equal(t, 0.0, d)
		route, cost, err := g.Route(p, r2.Vec{X: 10}, nil)
		assert.ErrorIs(t, err, ErrPosition, "from %v", p)
		assert.Empty(t, route)
		assert.Equal(t, 0.0, cost)
		_, _, err = g.Route(r2.Vec{}, p, nil)
		assert.ErrorIs(t, err, ErrPosition, "to %v", p)
	}
	id, d, err := g.Nearest(r2.Vec{X: 9, Y: 0})
	require.NoError(t, err)
	assert.Equal(t, int64(1), id)
	assert.Equal(t, 1.0, d)
}
