package graph_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/nav/graph"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// Nearest squared the distances, which overflow to +Inf past about 1.34e154: a
// point 1e200 from every waypoint got a distance of +Inf and whichever waypoint the
// k-d tree met first, and Route added that +Inf leg to its cost with no error. Nearest
// now finds the nearest waypoint and its exact distance whenever the distance is
// finite, and refuses one past math.MaxFloat64 (ErrPosition).
func TestNearestOfAFarPointIsExact(t *testing.T) {
	g := graph.New()
	g.AddWaypoint(r2.Vec{X: 1e300})
	near := g.AddWaypoint(r2.Vec{X: 0, Y: 1e199})
	g.AddWaypoint(r2.Vec{X: -1e300})
	id, d, err := g.Nearest(r2.Vec{X: 0, Y: 1e200})
	require.NoError(t, err)
	assert.Equal(t, near, id)
	assert.Equal(t, 9e199, d)

	id, d, err = g.Nearest(r2.Vec{X: -1.5e308, Y: -1.5e308}) // 1.5e308·√2 from the nearest
	require.ErrorIs(t, err, graph.ErrPosition)
	assert.ErrorContains(t, err, "farther than")
	assert.Equal(t, int64(-1), id)
	assert.Zero(t, d)
}

// Route's cost is the path's and the two legs' sum: legs of 1e308 each made it
// +Inf with no error. A sum past math.MaxFloat64 is ErrUnreachable now, as AStar's
// is for a path whose edge costs overflow.
func TestRouteWhoseCostOverflowsIsRefused(t *testing.T) {
	g := graph.New()
	a := g.AddWaypoint(r2.Vec{X: 0})
	b := g.AddWaypoint(r2.Vec{X: 1})
	require.NoError(t, g.TryConnect(a, b))

	pts, cost, err := g.Route(r2.Vec{X: -1e308}, r2.Vec{X: 1e308}, nil)
	require.ErrorIs(t, err, graph.ErrUnreachable)
	assert.ErrorContains(t, err, "overflows")
	assert.Empty(t, pts)
	assert.Zero(t, cost)

	// one leg of 1e308 is a finite route
	pts, cost, err = g.Route(r2.Vec{X: -1e308}, r2.Vec{X: 2}, nil)
	require.NoError(t, err)
	assert.Len(t, pts, 4)
	assert.Equal(t, 1e308, cost) // 1e308 + 1 + 1 rounds to 1e308
	assert.False(t, math.IsInf(cost, 0))
}
