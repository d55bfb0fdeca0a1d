package grid_test

import (
	"errors"
	"math"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A door cell or a cost read from level data that is not valid gets an error naming
// it, and leaves the grid as it was; SetCost panics on the same input.
func TestTrySetCostRefusesBadCellsAndCosts(t *testing.T) {
	nan := float32(math.NaN())
	cases := []struct {
		name string
		c    grid.Cell
		cost float32
		want error
		msg  string
	}{
		{"column -1", grid.Cell{X: -1, Y: 3}, grid.Blocked, grid.ErrOutOfBounds, "grid: cell out of bounds: cell {-1 3} on a 8x6 grid"},
		{"column = width", grid.Cell{X: 8, Y: 0}, 1, grid.ErrOutOfBounds, "grid: cell out of bounds: cell {8 0} on a 8x6 grid"},
		{"row = height", grid.Cell{X: 0, Y: 6}, 1, grid.ErrOutOfBounds, "grid: cell out of bounds: cell {0 6} on a 8x6 grid"},
		{"huge row", grid.Cell{X: 2, Y: math.MaxInt32}, 1, grid.ErrOutOfBounds, "grid: cell out of bounds: cell {2 2147483647} on a 8x6 grid"},
		{"NaN", grid.Cell{X: 2, Y: 3}, nan, grid.ErrInvalidCost, "grid: cost must be > 0 or Blocked: NaN for cell {2 3}"},
		{"zero", grid.Cell{X: 2, Y: 3}, 0, grid.ErrInvalidCost, "grid: cost must be > 0 or Blocked: 0 for cell {2 3}"},
		{"negative", grid.Cell{X: 2, Y: 3}, -2, grid.ErrInvalidCost, "grid: cost must be > 0 or Blocked: -2 for cell {2 3}"},
		{"-Inf", grid.Cell{X: 2, Y: 3}, float32(math.Inf(-1)), grid.ErrInvalidCost, "grid: cost must be > 0 or Blocked: -Inf for cell {2 3}"},
		// a cell off the grid is reported first when both are wrong
		{"both", grid.Cell{X: 9, Y: 9}, nan, grid.ErrOutOfBounds, "grid: cell out of bounds: cell {9 9} on a 8x6 grid"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := grid.New(8, 6)
			a, b := grid.Cell{X: 0, Y: 0}, grid.Cell{X: 7, Y: 5}
			require.True(t, g.Connected(a, b))
			v := g.Version()
			err := g.TrySetCost(tc.c, tc.cost)
			require.Error(t, err)
			assert.True(t, errors.Is(err, tc.want), "%v is not %v", err, tc.want)
			assert.False(t, errors.Is(err, otherErr(tc.want)))
			assert.Equal(t, tc.msg, err.Error())
			assert.Equal(t, v, g.Version(), "a refused edit changed the grid")
			assert.Equal(t, float32(1), g.Cost(grid.Cell{X: 2, Y: 3}))
			assert.Equal(t, float32(1), g.MinCost())
			r, exact := g.EditedSince(v)
			assert.True(t, exact)
			assert.True(t, r.Empty(), "a refused edit was logged: %v", r)
			assert.PanicsWithValue(t, "grid: SetCost: "+tc.msg[len("grid: "):], func() { g.SetCost(tc.c, tc.cost) })
		})
	}
}

func otherErr(e error) error {
	if e == grid.ErrOutOfBounds {
		return grid.ErrInvalidCost
	}
	return grid.ErrOutOfBounds
}

// A valid edit through TrySetCost is SetCost's: the door closes (components,
// version, edit log) and opens again, allocating nothing once warm.
func TestTrySetCostEditsAsSetCost(t *testing.T) {
	g := grid.New(9, 5)
	for y := int32(0); y < 5; y++ {
		if y != 2 {
			g.SetCost(grid.Cell{X: 4, Y: y}, grid.Blocked)
		}
	}
	door, a, b := grid.Cell{X: 4, Y: 2}, grid.Cell{X: 0, Y: 0}, grid.Cell{X: 8, Y: 4}
	require.True(t, g.Connected(a, b))
	v := g.Version()
	require.NoError(t, g.TrySetCost(door, grid.Blocked))
	assert.Equal(t, v+1, g.Version())
	assert.False(t, g.Connected(a, b), "the closed door still joins the halves")
	r, ok := g.EditedSince(v)
	assert.True(t, ok)
	assert.Equal(t, grid.Rect{Min: door, Max: door}, r)
	require.NoError(t, g.TrySetCost(door, 3))
	assert.True(t, g.Connected(a, b))
	assert.Equal(t, float32(3), g.Cost(door))
	assert.Equal(t, float32(3), g.MaxCost())
	require.NoError(t, g.TrySetCost(door, 3)) // no change: no new version
	assert.Equal(t, v+2, g.Version())

	allocs := testing.AllocsPerRun(100, func() {
		_ = g.TrySetCost(door, grid.Blocked)
		_ = g.TrySetCost(door, 1)
	})
	assert.Zero(t, allocs)
}
