package graph_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/nav/graph"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TryConnectCost refuses a waypoint with a NaN or infinite position, as TryConnect does:
// before, it joined one, and Route through it returned the point (NaN, 0) among the route's
// points with a nil error and a finite cost, which an agent then steered towards.
func TestTryConnectCostRefusesAWaypointNotFinite(t *testing.T) {
	g := graph.New()
	a := g.AddWaypoint(r2.Vec{X: 0})
	nan := g.AddWaypoint(r2.Vec{X: math.NaN()})
	inf := g.AddWaypoint(r2.Vec{Y: math.Inf(-1)})
	b := g.AddWaypoint(r2.Vec{X: 10})

	err := g.TryConnectCost(a, nan, 1)
	require.ErrorIs(t, err, graph.ErrPosition)
	assert.ErrorContains(t, err, "waypoint 1 at (NaN, 0)")
	assert.ErrorIs(t, g.TryConnectCost(inf, b, 1), graph.ErrPosition)
	assert.ErrorIs(t, g.TryConnectCost(b, nan, 1), graph.ErrPosition)
	assert.Zero(t, g.Gonum().Edges().Len(), "no edge added by a refused call")

	require.NoError(t, g.TryConnectCost(a, b, 12))
	pts, cost, err := g.Route(r2.Vec{X: 0.5}, r2.Vec{X: 9}, nil)
	require.NoError(t, err)
	assert.Equal(t, []r2.Vec{{X: 0.5}, {X: 0}, {X: 10}, {X: 9}}, pts)
	assert.Equal(t, 12+0.5+1.0, cost)
}

// Route refuses a path through a waypoint that is not finite (joined by the panicking
// ConnectCost, which allows it for Path's sake): the points would hold a NaN.
func TestRouteThroughAWaypointNotFiniteIsAnError(t *testing.T) {
	g := graph.New()
	a := g.AddWaypoint(r2.Vec{X: 0})
	nan := g.AddWaypoint(r2.Vec{X: math.NaN()})
	b := g.AddWaypoint(r2.Vec{X: 10})
	g.ConnectCost(a, nan, 1)
	g.ConnectCost(nan, b, 1)
	g.Connect(a, b) // 10: dearer than the way through nan

	ids, cost, err := g.Path(a, b, nil)
	require.NoError(t, err, "Path returns IDs only")
	assert.Equal(t, []int64{a, nan, b}, ids)
	assert.Equal(t, 2.0, cost)

	pts, cost, err := g.Route(r2.Vec{X: 0.5}, r2.Vec{X: 9}, []r2.Vec{{X: 7}})
	require.ErrorIs(t, err, graph.ErrPosition)
	assert.ErrorContains(t, err, "waypoint 1 at (NaN, 0)")
	assert.Empty(t, pts)
	assert.Zero(t, cost)
}
