package flowfield

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archai-go/archai/nav/grid"
)

// After Reserve(2), the first two goals take the reserved buffers: asking for
// them and building them allocates nothing, and the fields are the ones New
// would build.
func TestCacheReserveAllocatesNothingForNewGoals(t *testing.T) {
	g := grid.New(64, 48)
	for y := int32(5); y < 40; y++ {
		g.SetCost(grid.Cell{X: 30, Y: y}, grid.Blocked)
	}
	c := NewCache(g, 4)
	c.Reserve(2)
	c.Reserve(2) // idempotent: still two buffers
	assert.Len(t, c.free, 2)
	goals := []grid.Cell{{X: 2, Y: 2}, {X: 60, Y: 44}}
	k := 0
	allocs := testing.AllocsPerRun(1, func() {
		f, _ := c.Request(goals[k])
		f.Step(1 << 30)
		k++
	})
	require.Equal(t, 2, k, "AllocsPerRun runs once to warm up, then once")
	assert.Zero(t, allocs)
	assert.Empty(t, c.free)
	for _, goal := range goals {
		want := New(g)
		want.Build(goal)
		got := c.Get(goal)
		assert.Equal(t, want.Integration(grid.Cell{X: 40, Y: 20}), got.Integration(grid.Cell{X: 40, Y: 20}))
		assert.Equal(t, want.Integration(grid.Cell{X: 10, Y: 30}), got.Integration(grid.Cell{X: 10, Y: 30}))
	}
	c.Reserve(1) // two fields held already: nothing more
	assert.Empty(t, c.free)
}

// An absurd Reserve (a byte count given as a number of fields) is an error
// naming the limit, and allocates nothing; 0 and negative counts reserve
// nothing. Before, Reserve(1<<16) on a 1024² grid tried to allocate about
// 750 GB and the process was killed.
func TestCacheReserveRefusesAbsurdCounts(t *testing.T) {
	g := grid.New(1024, 1024)
	c := NewCache(g, 1<<16)
	err := c.Reserve(1 << 16)
	require.EqualError(t, err, "flowfield: Cache.Reserve(65536): 65536 more fields of 1052676 cells each is more than MaxReserveCells (1073741824) cells; reserve the fields held at once (2 for one goal that moves), not bytes")
	assert.Empty(t, c.free)
	assert.NoError(t, c.Reserve(0))
	assert.NoError(t, c.Reserve(-3))
	assert.Empty(t, c.free)
	// the limit is the fields' cells in total: 1020 fields of this grid fit
	assert.Equal(t, 1020, MaxReserveCells/((1024+2)*(1024+2)))
	assert.Error(t, c.Reserve(1021))
	require.NoError(t, c.Reserve(1))
	assert.Len(t, c.free, 1)
}
