package graph_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/nav/graph"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// Waypoints so far apart that their distance overflows float64 (finite
// coordinates of ±1e308): TryConnect made a closed edge of it (cost +Inf) with no
// error, so the two were silently never joined. It is refused now, like a
// waypoint at an infinite position.
func TestTryConnectRefusesADistanceThatOverflows(t *testing.T) {
	g := graph.New()
	a := g.AddWaypoint(r2.Vec{X: -1e308})
	b := g.AddWaypoint(r2.Vec{X: 1e308})
	err := g.TryConnect(a, b)
	require.ErrorIs(t, err, graph.ErrPosition)
	assert.ErrorContains(t, err, "waypoints 0 and 1 are farther apart than")
	assert.Zero(t, g.Gonum().Edges().Len(), "no edge added by a refused call")

	// the largest distance that does not overflow is joined as before
	c := g.AddWaypoint(r2.Vec{X: 7e307})
	require.NoError(t, g.TryConnect(a, c))
	assert.Equal(t, 1.7e308, g.Gonum().WeightedEdge(a, c).Weight())
}

// Edges of finite cost whose sum overflows (a designer's math.MaxFloat64 for "open
// but avoid"): the only path costs more than float64 holds. AStar said
// ErrUnreachable as for a closed road, with nothing to tell the two apart; the
// error still wraps ErrUnreachable and now says why.
func TestPathWhoseCostOverflowsSaysSo(t *testing.T) {
	g := graph.New()
	a := g.AddWaypoint(r2.Vec{X: 0})
	b := g.AddWaypoint(r2.Vec{X: 1})
	c := g.AddWaypoint(r2.Vec{X: 2})
	g.ConnectCost(a, b, math.MaxFloat64)
	g.ConnectCost(b, c, math.MaxFloat64)
	_, _, err := g.Path(a, c, nil)
	require.ErrorIs(t, err, graph.ErrUnreachable)
	assert.ErrorContains(t, err, "1 waypoint(s) reached only by paths costing more than")

	// a closed road is plain ErrUnreachable
	g.ConnectCost(b, c, math.Inf(1))
	_, _, err = g.Path(a, c, nil)
	assert.Equal(t, graph.ErrUnreachable, err)

	// one expensive edge still gives its path
	g.ConnectCost(b, c, 1)
	path, cost, err := g.Path(a, c, nil)
	require.NoError(t, err)
	assert.Equal(t, []int64{0, 1, 2}, path)
	assert.Equal(t, math.MaxFloat64, cost)
}
