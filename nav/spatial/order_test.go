package spatial_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/nav/spatial"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

func TestTileOrder(t *testing.T) {
	ps := []r2.Vec{
		{X: 9.5, Y: 0.5},       // 0: tile (0,1)
		{X: 0.5, Y: 9.5},       // 1: tile (1,0)
		{X: 1.5, Y: 0.2},       // 2: tile (0,0), row 0, x 1
		{X: math.NaN(), Y: 1},  // 3: last
		{X: 0.7, Y: 1.5},       // 4: tile (0,0), row 1, x 0
		{X: 1.2, Y: 0.9},       // 5: same cell as 2: index order
		{X: -0.5, Y: 0.5},      // 6: tile (0,-1)
		{X: math.Inf(1), Y: 2}, // 7: last, after 3
		{X: 7.9, Y: 7.9},       // 8: tile (0,0), row 7
		{X: 0.1, Y: 8.0},       // 9: tile (1,0), row 8, before 1 (row 9)
		{X: 16.5, Y: -0.5},     // 10: tile (-1,2): first
	}
	got, err := spatial.TileOrder(ps, 8, nil)
	require.NoError(t, err)
	assert.Equal(t, []int32{10, 6, 2, 5, 4, 8, 0, 9, 1, 3, 7}, got)

	for _, bad := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		out, err := spatial.TileOrder(ps, bad, []int32{5})
		assert.ErrorIs(t, err, spatial.ErrTileSize, "tile %v", bad)
		assert.Empty(t, out)
	}
	out, err := spatial.TileOrder(nil, 8, []int32{1, 2})
	require.NoError(t, err)
	assert.Empty(t, out)
}
