package graph_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/nav/graph"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A heuristic of -Inf, NaN, below 0, or not 0 at the goal counts as 0 where it is
// so: the path stays cheapest. Before, -Inf or NaN estimates ordered the open list
// wrongly and AStar returned a path of cost 51 for the optimal 49, with no error
// (a reviewer).
func TestAStarTakesAnUnusableEstimateAsZero(t *testing.T) {
	g := graph.New()
	const n = 50
	for i := range n {
		g.AddWaypoint(r2.Vec{X: float64(i)})
	}
	for i := 0; i+1 < n; i++ {
		g.Connect(int64(i), int64(i+1))
		if i+5 < n {
			g.ConnectCost(int64(i), int64(i+5), 5)
		}
	}
	_, best, _, err := graph.AStar(g.Gonum(), 0, n-1, nil, nil)
	require.NoError(t, err)
	require.Equal(t, 49.0, best)
	for name, h := range map[string]func(int64) float64{
		"-Inf":          func(int64) float64 { return math.Inf(-1) },
		"NaN every 3rd": func(k int64) float64 { return map[bool]float64{true: math.NaN(), false: float64(n - 1 - k)}[k%3 == 0] },
		"negative":      func(k int64) float64 { return -float64(k) },
		"goal -100":     func(k int64) float64 { return map[bool]float64{true: -100, false: float64(n - 1 - k)}[k == n-1] },
	} {
		_, cost, _, err := graph.AStar(g.Gonum(), 0, n-1, h, nil)
		require.NoError(t, err, name)
		assert.Equal(t, best, cost, name)
	}
}
