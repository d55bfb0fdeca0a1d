package flowfield

import (
	"math"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/require"
)

// TestRouteCostOverflowingFloat32ReadsUnreachable pins the documented limit of
// Field: integration values are float32 sums, so a route through two cells of
// cost math.MaxFloat32 reads as unreachable, while one such cell (or costs of
// 1e30) is followed, and grid A* finds both routes.
func TestRouteCostOverflowingFloat32ReadsUnreachable(t *testing.T) {
	for _, tc := range []struct {
		cost      float32
		cells     int
		reachable bool
	}{{1e30, 2, true}, {math.MaxFloat32, 1, true}, {math.MaxFloat32, 2, false}} {
		g := grid.New(10, 3)
		for x := int32(0); x < 10; x++ { // a corridor along row 1
			g.SetCost(grid.Cell{X: x, Y: 0}, grid.Blocked)
			g.SetCost(grid.Cell{X: x, Y: 2}, grid.Blocked)
		}
		for k := 0; k < tc.cells; k++ {
			g.SetCost(grid.Cell{X: int32(4 + k), Y: 1}, tc.cost)
		}
		start, goal := grid.Cell{X: 0, Y: 1}, grid.Cell{X: 9, Y: 1}
		_, cost, err := grid.NewSearch(g).Path(start, goal, nil)
		require.NoError(t, err, "A* sums in float64")
		require.InEpsilon(t, float64(tc.cost)*float64(tc.cells)+float64(9-tc.cells), cost, 1e-6)
		f := New(g)
		f.Build(goal)
		if tc.reachable {
			require.False(t, math.IsInf(f.Integration(start), 1), "cost %g × %d", tc.cost, tc.cells)
			require.Equal(t, 1.0, f.Direction(start).X)
		} else {
			require.True(t, math.IsInf(f.Integration(start), 1), "cost %g × %d: the float32 sum overflows", tc.cost, tc.cells)
			require.Equal(t, 0.0, f.Direction(start).X)
		}
	}
}
