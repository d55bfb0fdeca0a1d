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
