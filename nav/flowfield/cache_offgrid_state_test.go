package flowfield

import (
	"math"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A cache asked for goals off the grid (a follower's goal off the map) holds a
// field for each, as for any goal; its state restores, into a cache that answers
// as the saved one. Before, Restore refused the state State had written ("goal
// ... is off the grid"), so a world saved then did not load.
func TestCacheRestoresGoalsOffTheGrid(t *testing.T) {
	g := grid.New(8, 8)
	c := NewCache(g, 4)
	goals := []grid.Cell{{X: -1, Y: 3}, {X: 8, Y: 3}, {X: math.MinInt32, Y: math.MaxInt32}, {X: 2, Y: 2}}
	for _, goal := range goals {
		c.Request(goal)
	}
	c.Update(1 << 20)
	g.SetCost(grid.Cell{X: 5, Y: 5}, grid.Blocked) // the fields go stale
	st, err := c.State()
	require.NoError(t, err)
	require.Len(t, st.Entries, 4)

	r := NewCache(g, 1)
	require.NoError(t, r.Restore(st))
	got, err := r.State()
	require.NoError(t, err)
	assert.Equal(t, st, got)
	for _, goal := range goals {
		f, _ := r.Request(goal)
		_, ok := f.Next(grid.Cell{X: 3, Y: 3})
		assert.Equal(t, g.InBounds(goal), ok, "goal %v: a direction only towards a goal on the grid", goal)
	}
}
