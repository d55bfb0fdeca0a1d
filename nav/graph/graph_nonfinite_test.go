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

// A waypoint with a NaN coordinate (bad level data) is never the nearest, and the others
// are still found: newbie14's Nearest of (1, 0) returned a waypoint 4.1 away while one
// stood 1 away, the NaN waypoint having broken the k-d tree. Paths through such a
// waypoint are still cheapest (its heuristic counts as 0).
func TestNearestWithANaNWaypoint(t *testing.T) {
	g := New()
	a := g.AddWaypoint(r2.Vec{X: 0, Y: 0})
	n := g.AddWaypoint(r2.Vec{X: math.NaN(), Y: 0})
	b := g.AddWaypoint(r2.Vec{X: 10, Y: 0})
	c := g.AddWaypoint(r2.Vec{X: 5, Y: 1})
	g.ConnectCost(a, n, 1)
	g.ConnectCost(n, b, 8)
	g.Connect(a, c)
	g.Connect(c, b)
	for _, p := range []r2.Vec{{X: 1, Y: 0}, {X: 9, Y: 0}, {X: 5, Y: 3}, {X: -100, Y: 0}} {
		id, d, err := g.Nearest(p)
		require.NoError(t, err)
		want, best := int64(-1), math.Inf(1)
		for i := range int64(g.Len()) {
			if dd := r2.Norm(r2.Sub(g.Position(i), p)); dd < best {
				want, best = i, dd
			}
		}
		assert.Equal(t, want, id, "nearest to %v", p)
		assert.InDelta(t, best, d, 1e-12)
	}
	path, cost, err := g.Path(a, b, nil)
	require.NoError(t, err)
	assert.Equal(t, []int64{a, n, b}, path, "the cheapest path, through the NaN waypoint")
	assert.Equal(t, 9.0, cost)

	only := New()
	only.AddWaypoint(r2.Vec{X: math.Inf(1)})
	_, _, err = only.Nearest(r2.Vec{})
	assert.ErrorIs(t, err, ErrNoWaypoint, "no waypoint with a finite position")
}
