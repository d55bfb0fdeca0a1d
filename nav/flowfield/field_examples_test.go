package flowfield_test

import (
	"fmt"

	"github.com/archai-go/archai/nav/flowfield"
	"github.com/archai-go/archai/nav/grid"
)

// A walk along a field: the next cells a shortest path from (0, 0) runs
// through, around the end of a wall (no corner cut: (1, 1) to (2, 2) would
// cut the wall's corner), towards the goal (5, 0); a walk stops at the goal.
func ExampleField_Walk() {
	g := grid.New(6, 3)
	for y := int32(0); y < 2; y++ {
		g.SetCost(grid.Cell{X: 2, Y: y}, grid.Blocked) // a wall, open at the bottom
	}
	f := flowfield.New(g)
	f.Build(grid.Cell{X: 5, Y: 0})

	var path [4]grid.Cell
	n := f.Walk(grid.Cell{X: 0, Y: 0}, path[:])
	fmt.Println(n, path[:n])
	n = f.Walk(grid.Cell{X: 4, Y: 1}, path[:])
	fmt.Println(n, path[:n])
	fmt.Println(f.Walk(grid.Cell{X: 5, Y: 0}, path[:])) // the goal: no cell after it
	// Output:
	// 4 [{1 1} {1 2} {2 2} {3 2}]
	// 1 [{5 0}]
	// 0
}

// A field for wide agents: a wall with a 1-cell gap in row 5 and a 3-cell
// gap in rows 1 to 3. A point field leads from (2, 5) straight through the
// narrow gap; a field of clearance 2 (grid.ClearanceFor(1): an agent of
// radius 1) leads round through the wide one, and a cache keys the two
// fields apart.
func ExampleField_SetClearance() {
	g := grid.New(12, 8)
	for y := int32(0); y < 8; y++ {
		if y != 5 && (y < 1 || y > 3) {
			g.SetCost(grid.Cell{X: 6, Y: y}, grid.Blocked)
		}
	}
	goal := grid.Cell{X: 10, Y: 5}
	c := flowfield.NewCache(g, 4)
	point := c.Get(goal)
	wide := c.GetWide(goal, grid.ClearanceFor(1))

	var path [6]grid.Cell
	n := point.Walk(grid.Cell{X: 2, Y: 5}, path[:])
	fmt.Println("point:", path[:n])
	n = wide.Walk(grid.Cell{X: 2, Y: 5}, path[:])
	fmt.Println("wide: ", path[:n])
	fmt.Println(wide.Clearance(), c.Len())
	// Output:
	// point: [{3 5} {4 5} {5 5} {6 5} {7 5} {8 5}]
	// wide:  [{3 4} {4 3} {4 2} {5 2} {6 2} {7 2}]
	// 2 2
}
