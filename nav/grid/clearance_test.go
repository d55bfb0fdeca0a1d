package grid

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestClearance(t *testing.T) {
	g := New(9, 7)
	// the border alone: Chebyshev distance to the nearest edge, +1
	assert.Equal(t, uint8(1), g.Clearance(Cell{0, 0}))
	assert.Equal(t, uint8(1), g.Clearance(Cell{8, 3}))
	assert.Equal(t, uint8(3), g.Clearance(Cell{4, 2}))
	assert.Equal(t, uint8(4), g.Clearance(Cell{4, 3}))
	assert.Equal(t, uint8(0), g.Clearance(Cell{-1, 3}), "off the grid")
	assert.Equal(t, uint8(0), g.Clearance(Cell{9, 0}), "off the grid")

	g.SetCost(Cell{4, 3}, Blocked)
	assert.Equal(t, uint8(0), g.Clearance(Cell{4, 3}), "blocked")
	assert.Equal(t, uint8(1), g.Clearance(Cell{5, 4}), "diagonal neighbour of a wall")
	assert.Equal(t, uint8(2), g.Clearance(Cell{6, 3}), "Chebyshev, not Manhattan")
	assert.Equal(t, uint8(2), g.Clearance(Cell{4, 1}), "wall at 2 and border at 2")

	g.SetCost(Cell{4, 3}, 1) // the field follows the grid's changes
	assert.Equal(t, uint8(4), g.Clearance(Cell{4, 3}))
}

func TestClearanceCapped(t *testing.T) {
	g := New(600, 600)
	assert.Equal(t, uint8(255), g.Clearance(Cell{300, 300}))
	assert.Equal(t, uint8(255), g.Clearance(Cell{255, 300}))
	assert.Equal(t, uint8(254), g.Clearance(Cell{253, 300}))
}

func TestClearancePreparedForReaders(t *testing.T) {
	g := New(5, 5)
	require.Equal(t, uint8(3), g.Clearance(Cell{2, 2}))
	g.SetCost(Cell{2, 1}, Blocked)
	g.Prepare() // recomputes the field it already holds
	assert.Equal(t, g.version, g.clearVersion)
	assert.Equal(t, uint8(1), g.Clearance(Cell{2, 2}))
	assert.Zero(t, testing.AllocsPerRun(100, func() { g.Clearance(Cell{3, 3}) }))
}
