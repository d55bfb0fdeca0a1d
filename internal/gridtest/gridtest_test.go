package gridtest_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/internal/gridtest"
	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/require"
)

// The references on grids small enough to check by hand.
func TestReferencesByHand(t *testing.T) {
	open := grid.New(5, 5)
	require.Equal(t, 3, gridtest.Clearance(open, grid.Cell{X: 2, Y: 2}), "the grid's edge is a wall")
	require.Equal(t, 1, gridtest.Clearance(open, grid.Cell{X: 0, Y: 3}))
	require.True(t, gridtest.Wide(open, grid.Cell{X: 2, Y: 2}, 3))
	require.False(t, gridtest.Wide(open, grid.Cell{X: 1, Y: 2}, 3))

	// 3×3 with the centre blocked: no corner cutting past it, so the far corner is 4
	// straight moves away, and the middle of the far side is 3.
	g := grid.New(3, 3)
	g.SetCost(grid.Cell{X: 1, Y: 1}, grid.Blocked)
	d := gridtest.From(g, grid.Cell{}, false, 1)
	require.Equal(t, 4.0, d[2*3+2])
	require.Equal(t, 3.0, d[2*3+1])
	require.True(t, math.IsInf(d[1*3+1], 1))
	require.Equal(t, d, gridtest.To(g, 1, grid.Cell{}), "symmetric on a grid of unit costs")

	// Costs of 5 on the cells beside the diagonal: the diagonal costs √2 times the entered
	// cell's 1; four-connected, a route must enter a cell of cost 5.
	c := grid.New(2, 2)
	c.SetCost(grid.Cell{X: 1, Y: 0}, 5)
	c.SetCost(grid.Cell{X: 0, Y: 1}, 5)
	require.InDelta(t, math.Sqrt2, gridtest.From(c, grid.Cell{}, false, 1)[3], 1e-12)
	require.Equal(t, 6.0, gridtest.From(c, grid.Cell{}, true, 1)[3])
	require.Equal(t, 5.0, gridtest.From(c, grid.Cell{}, false, 1)[1], "a move costs the cell entered")
	require.Equal(t, 1.0, gridtest.To(c, 1, grid.Cell{})[1], "toward the goal: the goal's cost is entered")

	// Clearance 2 on a 4×4 open grid: no cell is wide, so only the goal's own cell and
	// cells next to it (a route may start on a narrow cell) reach it.
	w := grid.New(4, 4)
	to := gridtest.To(w, 2, grid.Cell{X: 1, Y: 1})
	require.Equal(t, 1.0, to[1*4+2])
	require.True(t, math.IsInf(to[3*4+3], 1))
}
