package flowfield_test

import (
	"testing"

	"github.com/archai-go/archai/nav/flowfield"
	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The goal's sector is built again when its goal cell, blocked for a while (a door shut
// on the goal), opens again: before, an Update whose budget went elsewhere (0 here) left
// it unbuilt, and every cell of the goal's sector had no direction (Next false,
// Integration +Inf) while the cells of the other sectors were routed towards it through
// the portals; the agents nearest the goal stood still.
func TestSectorGoalSectorIsBuiltWhenTheGoalOpensAgain(t *testing.T) {
	g := grid.New(16, 8)
	s, err := flowfield.NewSectors(g, 8)
	require.NoError(t, err)
	f := flowfield.NewSectorField(s)
	goal := grid.Cell{X: 2, Y: 2}
	near, far := grid.Cell{X: 3, Y: 3}, grid.Cell{X: 12, Y: 3}
	f.SetGoal(goal)
	n, ok := f.Next(near)
	require.True(t, ok)
	assert.Equal(t, goal, n)

	g.SetCost(goal, grid.Blocked)
	f.Update(0)
	_, ok = f.Next(near)
	assert.False(t, ok, "no way to a blocked goal")
	_, ok = f.Next(far)
	assert.False(t, ok, "no way to a blocked goal")

	g.SetCost(goal, 1)
	f.Update(0)
	assert.True(t, f.Built(0), "the goal's sector")
	n, ok = f.Next(near)
	require.True(t, ok, "a cell next to the goal, in the goal's sector")
	assert.Equal(t, goal, n)
	assert.InDelta(t, 1.41421356, f.Integration(near), 1e-6)
	n, ok = f.Next(far)
	require.True(t, ok)
	assert.Equal(t, grid.Cell{X: 11, Y: 3}, grid.Cell{X: n.X, Y: 3}, "westwards")
}
