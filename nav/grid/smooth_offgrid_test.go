package grid

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Smooth with cells off the grid (newbie20 finding 6: they came back unchanged,
// with no word in the docs), as its doc says: nothing is seen from or to a cell
// off the grid, so a path of such cells comes back whole; a middle cell off the
// grid between two cells in sight of each other is dropped like any other.
func TestSmoothWithCellsOffTheGrid(t *testing.T) {
	g := New(64, 64)
	path := []Cell{{-5, 3}, {100, 100}, {200, 3}}
	assert.Equal(t, path, Smooth(g, path, nil), "all off the grid: every cell kept")

	// an open run, a cell off the grid, then back: (1,1) cannot see (-1,1), so
	// (4,1) is kept; (4,1) sees (5,1), so (-1,1) is dropped
	path = []Cell{{1, 1}, {2, 1}, {3, 1}, {4, 1}, {-1, 1}, {5, 1}, {6, 1}}
	assert.Equal(t, []Cell{{1, 1}, {4, 1}, {6, 1}}, Smooth(g, path, nil))
	// off-grid ends are kept as given
	path = []Cell{{-3, 1}, {2, 1}, {3, 1}, {4, 1}, {70, 1}}
	assert.Equal(t, []Cell{{-3, 1}, {2, 1}, {4, 1}, {70, 1}}, Smooth(g, path, nil))
}
