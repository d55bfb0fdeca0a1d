package graph_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/nav/graph"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A node removed through Gonum keeps its waypoint, as Graph.Gonum documents: Nearest
// still returns it and Route from near it is ErrNoWaypoint. Closing the waypoint's edges
// (the documented way to take it out of use) leaves Route working around it.
func TestAWaypointRemovedThroughGonumStaysNearest(t *testing.T) {
	g := graph.New()
	a := g.AddWaypoint(r2.Vec{X: 0})
	b := g.AddWaypoint(r2.Vec{X: 10})
	c := g.AddWaypoint(r2.Vec{X: 20})
	g.Connect(a, b)
	g.Connect(b, c)
	g.ConnectCost(a, c, 25)

	closed := graph.New()
	for i := range int64(3) {
		closed.AddWaypoint(g.Position(i))
	}
	closed.Connect(a, b)
	closed.Connect(b, c)
	closed.ConnectCost(a, c, 25)

	g.Gonum().RemoveNode(b)
	id, _, err := g.Nearest(r2.Vec{X: 9})
	require.NoError(t, err)
	assert.Equal(t, b, id, "the removed node's waypoint")
	_, _, err = g.Route(r2.Vec{X: 9}, r2.Vec{X: 20}, nil)
	assert.ErrorIs(t, err, graph.ErrNoWaypoint)

	closed.ConnectCost(a, b, math.Inf(1))
	closed.ConnectCost(b, c, math.Inf(1))
	pts, cost, err := closed.Route(r2.Vec{X: 1}, r2.Vec{X: 20}, nil)
	require.NoError(t, err)
	assert.Equal(t, []r2.Vec{{X: 1}, {X: 0}, {X: 20}, {X: 20}}, pts)
	assert.Equal(t, 26.0, cost)
	_, _, err = closed.Route(r2.Vec{X: 9}, r2.Vec{X: 20}, nil)
	assert.ErrorIs(t, err, graph.ErrUnreachable, "from nearest the closed waypoint: no way out of it")
}
