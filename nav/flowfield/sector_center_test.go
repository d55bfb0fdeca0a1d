package flowfield_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/nav/flowfield"
	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Sectors.Center of a sector index that is none (SectorOf of a door cell off the
// grid is -1) is the cell (-1, -1), off the grid, which every grid and field call
// reads as such; it used to panic with an index out of range.
func TestSectorCenterOfNoSectorIsOffTheGrid(t *testing.T) {
	g := grid.New(40, 30) // 8-cell sectors: 5 across, 4 down
	s, err := flowfield.NewSectors(g, 8)
	require.NoError(t, err)
	across, down := s.Count()
	require.Equal(t, [2]int{5, 4}, [2]int{across, down})
	assert.Equal(t, grid.Cell{X: 32, Y: 24}, s.Center(across*down-1), "the last sector's first cell")
	assert.Equal(t, grid.Cell{X: 8, Y: 0}, s.Center(1))
	for _, i := range []int{s.SectorOf(grid.Cell{X: -1, Y: 3}), -2, across * down, math.MaxInt, math.MinInt} {
		c := s.Center(i)
		assert.Equal(t, grid.Cell{X: -1, Y: -1}, c, "sector %d", i)
		assert.False(t, g.InBounds(c))
	}
	f := flowfield.NewSectorField(s)
	f.SetGoal(grid.Cell{X: 30, Y: 20})
	f.Request(s.Center(-1)) // ignored, as any cell off the grid
	assert.Zero(t, f.Update(1<<20), "a request off the grid built a sector")
}
