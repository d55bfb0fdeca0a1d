package systems

import (
	"math"
	"testing"

	"github.com/archai-go/archai/nav/flowfield"
	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/assert"
	"gonum.org/v1/gonum/spatial/r2"
)

// pocketGrid is a wall x 10..16 (the map of TestEscapeThroughAPocketTrapsTheAgent) with one
// open cell in it, the pocket, at (15, 9): an agent at (14.5, 9.5) is in the wall.
func pocketGrid() *grid.Grid {
	g := grid.New(40, 20)
	for x := int32(10); x < 17; x++ {
		for y := int32(0); y < 20; y++ {
			g.SetCost(grid.Cell{X: x, Y: y}, grid.Blocked)
		}
	}
	g.SetCost(grid.Cell{X: 15, Y: 9}, 1)
	return g
}

// TestEscapePassesOverPockets: the exits whose segment from the agent crosses the
// pocket (or passes through one of its corners) are passed over, by escapeCell on a
// field's values and by escapeToward on the grid's components; with no other exit
// escapeCell keeps the nearest ring's best.
func TestEscapePassesOverPockets(t *testing.T) {
	g := pocketGrid()
	f := flowfield.New(g)
	goal := grid.Cell{X: 35, Y: 10}
	f.Build(goal)
	p := r2.Vec{X: 14.5, Y: 9.5}
	assert.True(t, math.IsInf(f.Integration(grid.Cell{X: 15, Y: 9}), 1))
	noPath := func(c grid.Cell) bool { return math.IsInf(f.Integration(c), 1) }
	assert.True(t, entersDeadEnd(g, p, g.Center(grid.Cell{X: 17, Y: 10}), noPath), "through the pocket")
	assert.True(t, entersDeadEnd(g, p, g.Center(grid.Cell{X: 17, Y: 12}), noPath), "through its corner (16, 10)")
	assert.False(t, entersDeadEnd(g, p, g.Center(grid.Cell{X: 17, Y: 13}), noPath), "below it")
	assert.False(t, entersDeadEnd(g, r2.Vec{X: 14.5, Y: 10.5}, g.Center(grid.Cell{X: 17, Y: 10}), noPath), "from the cell below")
	// a path follower's line to its goal: into the pocket first from (14, 9); from
	// (14, 10) into (17, 10), connected to the goal
	cutOff := func(c grid.Cell) bool { return !g.Connected(c, goal) }
	assert.True(t, entersDeadEnd(g, p, g.Center(goal), cutOff))
	assert.False(t, entersDeadEnd(g, r2.Vec{X: 14.5, Y: 10.5}, g.Center(goal), cutOff))
	out, ok := escapeCell(f, g, p)
	assert.True(t, ok)
	assert.Equal(t, grid.Cell{X: 17, Y: 13}, out, "ring 3's exits all cross the pocket; ring 4's best that does not")
	out, ok = escapeToward(g, p, goal)
	assert.True(t, ok)
	assert.Equal(t, grid.Cell{X: 17, Y: 13}, out, "ring 4's nearest the goal that does not cross the pocket")
	out, ok = escapeToward(g, r2.Vec{X: 14.5, Y: 10.5}, goal)
	assert.True(t, ok)
	assert.Equal(t, grid.Cell{X: 17, Y: 10}, out, "from the cell below: ring 3's nearest the goal")
	// the pocket longer, (15, 5..14): every exit within 4 cells crosses it; escapeCell
	// keeps ring 3's best, escapeToward finds none (the agent seeks its goal)
	for y := int32(5); y <= 14; y++ {
		g.SetCost(grid.Cell{X: 15, Y: y}, 1)
	}
	f.Build(goal)
	out, ok = escapeCell(f, g, p)
	assert.True(t, ok)
	assert.Equal(t, grid.Cell{X: 17, Y: 10}, out)
	_, ok = escapeToward(g, p, goal)
	assert.False(t, ok)
	// a blocked goal: no exit for a path follower
	g.SetCost(goal, grid.Blocked)
	_, ok = escapeToward(g, p, goal)
	assert.False(t, ok)
}
