package graph_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/nav/graph"
	"github.com/stretchr/testify/assert"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestPathAndRouteErrorsNameWhatIsWrong: Path names the unknown waypoint (as
// TryConnect does) and Route names the end whose position is unusable, or says
// the graph is empty, rather than the bare sentinel.
func TestPathAndRouteErrorsNameWhatIsWrong(t *testing.T) {
	g := graph.New()
	a := g.AddWaypoint(r2.Vec{X: 0, Y: 0})
	b := g.AddWaypoint(r2.Vec{X: 4, Y: 0})
	g.Connect(a, b)

	_, _, err := g.Path(a, 99, nil)
	assert.ErrorIs(t, err, graph.ErrNoWaypoint)
	assert.EqualError(t, err, "graph: no such waypoint: 99 (the graph has 2)")
	_, _, err = g.Path(-1, b, nil)
	assert.EqualError(t, err, "graph: no such waypoint: -1 (the graph has 2)")

	_, _, err = g.Route(r2.Vec{X: 1, Y: 1}, r2.Vec{X: math.NaN(), Y: 2}, nil)
	assert.ErrorIs(t, err, graph.ErrPosition)
	assert.EqualError(t, err, "graph: position not finite: route to (NaN, 2)")
	_, _, err = g.Route(r2.Vec{X: math.Inf(1), Y: 1}, r2.Vec{X: 1, Y: 2}, nil)
	assert.EqualError(t, err, "graph: position not finite: route from (+Inf, 1)")

	_, _, err = graph.New().Route(r2.Vec{X: 1}, r2.Vec{X: 2}, nil)
	assert.ErrorIs(t, err, graph.ErrNoWaypoint)
	assert.EqualError(t, err, "graph: no such waypoint: the graph has no waypoints (route from (1, 0))")
}
