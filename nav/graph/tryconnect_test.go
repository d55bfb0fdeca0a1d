package graph_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/archai-go/archai/nav/graph"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TryConnect and TryConnectCost return an error where Connect and ConnectCost
// panic (newbie20 finding 6: a waypoint graph read from level data with a NaN
// waypoint crashed the program), and leave the graph unchanged.
func TestTryConnectReturnsErrors(t *testing.T) {
	g := graph.New()
	a := g.AddWaypoint(r2.Vec{X: 0, Y: 0})
	b := g.AddWaypoint(r2.Vec{X: 3, Y: 4})
	bad := g.AddWaypoint(r2.Vec{X: math.NaN(), Y: 1})
	far := g.AddWaypoint(r2.Vec{X: math.Inf(1), Y: 1})

	err := g.TryConnect(a, bad)
	require.ErrorIs(t, err, graph.ErrPosition)
	assert.ErrorContains(t, err, "waypoint 2 at (NaN, 1)")
	assert.ErrorIs(t, g.TryConnect(far, a), graph.ErrPosition)
	assert.ErrorIs(t, g.TryConnect(a, a), graph.ErrNoWaypoint)
	assert.ErrorIs(t, g.TryConnect(a, 9), graph.ErrNoWaypoint)
	assert.ErrorIs(t, g.TryConnect(-1, b), graph.ErrNoWaypoint)
	assert.ErrorIs(t, g.TryConnectCost(a, b, -1), graph.ErrBadWeight)
	assert.ErrorIs(t, g.TryConnectCost(a, b, math.NaN()), graph.ErrBadWeight)
	assert.ErrorIs(t, g.TryConnectCost(b, b, 1), graph.ErrNoWaypoint)
	assert.Zero(t, g.Gonum().Edges().Len(), "no edge added by a refused call")

	require.NoError(t, g.TryConnect(a, b))
	e := g.Gonum().WeightedEdge(a, b)
	require.NotNil(t, e)
	assert.Equal(t, 5.0, e.Weight(), "the distance")
	require.NoError(t, g.TryConnectCost(a, b, 7))
	assert.Equal(t, 7.0, g.Gonum().WeightedEdge(a, b).Weight())
}

func ExampleGraph_TryConnect() {
	g := graph.New()
	door := g.AddWaypoint(r2.Vec{X: 2, Y: 2})
	typo := g.AddWaypoint(r2.Vec{X: math.NaN(), Y: 5}) // a bad line in the level file
	hall := g.AddWaypoint(r2.Vec{X: 2, Y: 8})
	fmt.Println(g.TryConnect(door, typo))
	fmt.Println(g.TryConnect(door, hall))
	// Output:
	// graph: position not finite: waypoint 1 at (NaN, 5)
	// <nil>
}
