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
