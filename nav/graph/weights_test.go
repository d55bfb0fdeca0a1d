package graph

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/spatial/r2"
)

// AStar takes any gonum weighted graph, so a weight it cannot use (NaN, or negative:
// a cycle of negative cost improves forever) is the caller's data: it must end with
// ErrBadWeight, not run for ever. Graph.Path likewise after a weight set through Gonum().
// A negative edge that A* never relaxes (off the search) is no error.
func TestAStarBadWeightIsAnError(t *testing.T) {
	run := func(t *testing.T, g *simple.WeightedUndirectedGraph, s, goal int64) error {
		done := make(chan error, 1)
		go func() {
			_, _, _, err := AStar(g, s, goal, nil, nil)
			done <- err
		}()
		select {
		case err := <-done:
			return err
		case <-time.After(20 * time.Second):
			t.Fatal("AStar still running")
			return nil
		}
	}
	edges := func(ws ...float64) *simple.WeightedUndirectedGraph {
		g := simple.NewWeightedUndirectedGraph(0, math.Inf(1))
		for i, w := range ws { // a chain 0 – 1 – 2 – … , then node 9 alone
			g.SetWeightedEdge(g.NewWeightedEdge(simple.Node(int64(i)), simple.Node(int64(i+1)), w))
		}
		g.AddNode(simple.Node(9))
		return g
	}
	for _, c := range []struct {
		name string
		ws   []float64
	}{
		{"NaN", []float64{1, math.NaN(), 1}},
		{"negative", []float64{1, -2, 1}}, // undirected: 1 – 2 and back is a cycle of cost −4
	} {
		t.Run(c.name, func(t *testing.T) {
			err := run(t, edges(c.ws...), 0, 9) // unreachable goal: the whole component is searched
			require.True(t, errors.Is(err, ErrBadWeight), "%v", err)
			err = run(t, edges(c.ws...), 0, 3)
			require.True(t, errors.Is(err, ErrBadWeight), "%v", err)
		})
	}
	// Graph.Path over a weight set through Gonum()
	wg := New()
	a, b, c := wg.AddWaypoint(r2.Vec{}), wg.AddWaypoint(r2.Vec{X: 1}), wg.AddWaypoint(r2.Vec{X: 2})
	wg.Connect(a, b)
	wg.Connect(b, c)
	wg.Gonum().SetWeightedEdge(wg.Gonum().NewWeightedEdge(simple.Node(a), simple.Node(b), math.NaN()))
	_, _, err := wg.Path(a, c, nil)
	assert.ErrorIs(t, err, ErrBadWeight)
	// Connect to a waypoint with a NaN coordinate panics as documented (its cost is NaN)
	nan := wg.AddWaypoint(r2.Vec{X: math.NaN()})
	assert.PanicsWithValue(t, "graph: ConnectCost: invalid cost NaN", func() { wg.Connect(a, nan) })
	// +Inf is no bad weight: a closed road (never taken, newbie14), not ErrBadWeight
	_, _, _, err = AStar(edges(1, math.Inf(1)), 0, 2, nil, nil)
	assert.ErrorIs(t, err, ErrUnreachable)
}
