package flowfield

import (
	"math"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/assert"
	"gonum.org/v1/gonum/spatial/r2"
)

func TestFieldBudgetsBelowOneSettleNothing(t *testing.T) {
	g := grid.New(10, 10)
	for _, budget := range []int{0, -1, math.MinInt} {
		f := New(g)
		f.Start(grid.Cell{X: 5, Y: 5})
		assert.False(t, f.Step(budget), "budget %d", budget)
		assert.Zero(t, f.Settled())
		assert.True(t, f.Step(math.MaxInt), "a later budget finishes it")
		assert.Equal(t, 100, f.Settled())

		c := NewCache(g, 2)
		c.Request(grid.Cell{X: 1, Y: 1})
		assert.Zero(t, c.Update(budget))
	}
	// No reachable goal: complete whatever the budget.
	f := New(g)
	f.Start(grid.Cell{X: -1, Y: 0})
	assert.True(t, f.Step(0))
}

func TestFieldSampleBadPositions(t *testing.T) {
	g := grid.New(10, 10)
	f := New(g)
	f.Build(grid.Cell{X: 5, Y: 5})
	for _, p := range []r2.Vec{
		{X: math.NaN(), Y: 3},
		{X: 3, Y: math.Inf(1)},
		{X: math.Inf(-1), Y: math.Inf(-1)},
		{X: -0.5, Y: 3},
		{X: 1e300, Y: 3},
	} {
		d, ok := f.Sample(p)
		assert.False(t, ok, "%v has no path", p)
		assert.Equal(t, r2.Vec{}, d, "%v", p)
	}
}

// Restore refuses a capacity past the grid's cell count: no more goals can be distinct.
func TestRestoreCapacityPastTheCells(t *testing.T) {
	c := NewCache(grid.New(4, 4), 2)
	err := c.Restore(CacheState{Capacity: 17})
	assert.ErrorContains(t, err, "capacity 17 for a grid of 16 cells")
	assert.NoError(t, c.Restore(CacheState{Capacity: 16}))
	assert.Equal(t, 16, c.Capacity())
}

// A cache saved on one grid and restored on another (a wall the saved run did not
// have) builds its fields to other counts: the error says the grid is not the saved
// run's, which the counts alone left the user to guess.
func TestRestoreOnAnotherGridSaysSo(t *testing.T) {
	c := NewCache(grid.New(16, 16), 2)
	c.Get(grid.Cell{X: 1, Y: 1})
	st, err := c.State()
	assert.NoError(t, err)
	other := grid.New(16, 16)
	for x := range int32(10) {
		other.SetCost(grid.Cell{X: x, Y: 8}, grid.Blocked)
	}
	c2 := NewCache(other, 2)
	err = c2.Restore(st)
	assert.ErrorContains(t, err, "goal {1 1} built again to 246 cells (done true), saved at 256 (done true): the grid is not the saved run's")
	assert.Zero(t, c2.Len(), "left empty")
	assert.NoError(t, NewCache(grid.New(16, 16), 2).Restore(st), "the same map restores")
}
