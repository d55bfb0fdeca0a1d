package grid_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/archai-go/archai/nav/grid"
	"gonum.org/v1/gonum/spatial/r2"
)

func Example() {
	const arena = `type octile
height 5
width 7
map
.......
.@@@@@.
.@...@.
.@.@.@.
...@...
`
	g, err := grid.ReadMap(strings.NewReader(arena), "arena.map")
	if err != nil {
		fmt.Println(err)
		return
	}
	s := grid.NewSearch(g)
	path, cost, err := s.Path(grid.Cell{X: 2, Y: 2}, grid.Cell{X: 4, Y: 4}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("cost %.4f over %d cells\n", cost, len(path))
	fmt.Println(path)

	_, _, err = s.Path(grid.Cell{X: 0, Y: 0}, grid.Cell{X: 3, Y: 3}, nil)
	fmt.Println(err)
	// Output:
	// cost 4.0000 over 5 cells
	// [{2 2} {3 2} {4 2} {4 3} {4 4}]
	// grid: cell blocked
}

func ExampleReadMap_errors() {
	_, err := grid.ReadMap(strings.NewReader("type octile\nheight 2\nwidth 3\nmap\n...\n..\n"), "bad.map")
	fmt.Println(err)
	// Output:
	// grid: bad.map line 6: row 1 has 2 tiles, want width 3
}

func ExampleGrid_LineOfSight() {
	g := grid.New(4, 4)
	g.SetCost(grid.Cell{X: 2, Y: 1}, grid.Blocked)
	g.SetCost(grid.Cell{X: 1, Y: 2}, grid.Blocked)
	from, to := g.Center(grid.Cell{X: 0, Y: 3}), g.Center(grid.Cell{X: 3, Y: 0})
	fmt.Println(g.LineOfSight(from, to))                              // squeezes between (2,1) and (1,2)
	fmt.Println(g.LineOfSight(from, g.Center(grid.Cell{X: 3, Y: 3}))) // along the open bottom row
	// Output:
	// false
	// true
}

// A river with one ford two cells wide: an agent of radius 0.3 crosses it,
// one of radius 1.2 (clearance 2) cannot, and its search says so without
// expanding a node.
func ExampleGrid_ConnectedWide() {
	g := grid.New(40, 20)
	for x := int32(0); x < 40; x++ {
		if x != 20 && x != 21 {
			g.SetCost(grid.Cell{X: x, Y: 10}, grid.Blocked)
		}
	}
	a, b := grid.Cell{X: 5, Y: 3}, grid.Cell{X: 30, Y: 16}
	fmt.Println(g.ConnectedWide(a, b, grid.ClearanceFor(0.3)), g.ConnectedWide(a, b, grid.ClearanceFor(1.2)))
	s := grid.NewSearchOptions(g, grid.Options{Clearance: grid.ClearanceFor(1.2)})
	_, _, err := s.Path(a, b, nil)
	fmt.Println(err, s.Expanded())
	// Output:
	// true false
	// grid: goal unreachable from start 0
}

// A generated town (the benchmark's map): every open cell reaches every other,
// so any two open cells make a valid move order.
func ExampleGenerateTown() {
	g, err := grid.GenerateTown(24, 7)
	if err != nil {
		fmt.Println(err)
		return
	}
	for y := 0; y < g.Height(); y++ {
		var row strings.Builder
		for x := 0; x < g.Width(); x++ {
			if g.Passable(grid.Cell{X: int32(x), Y: int32(y)}) {
				row.WriteByte('.')
			} else {
				row.WriteByte('@')
			}
		}
		fmt.Println(row.String())
	}
	fmt.Println(g.Connected(grid.Cell{X: 1, Y: 1}, grid.Cell{X: 22, Y: 22}))
	// Output:
	// @@@@@@@@@@@@@@@@@@@@@@@@
	// @.............@@@@@@@@@@
	// @....@........@@@@@@@@@@
	// @....@........@@@@@@@@@@
	// @....@.@@@@@@@@@@@@@@@@@
	// @......@@@@@@@@@@@@@@@@@
	// @...@@@@@@@@@@@@@@@@@@@@
	// @....@.@@@@@@@@@@@@@@@@@
	// @....@.@@@@@@@@@@@@@@@@@
	// @..@@@.@@@@@@@@@@@@@@@@@
	// @....@.@@@@@@@@@@@@@@@@@
	// @....@........@@@@@@@@@@
	// @.............@@@@@@@@@@
	// @....@........@@@@@@@@@@
	// @....@..@.....@@@@@@@@@@
	// @....@..@.....@@@@@@@@@@
	// @....@..@.....@@@@@@@@@@
	// @....@...............@@@
	// @....@..@............@@@
	// @.......@............@@@
	// @.@@@@@@@@@@.@@@@@@.@@@@
	// @....@@@@..............@
	// @....@@@@..............@
	// @@@@@@@@@@@@@@@@@@@@@@@@
	// true
}

// MinCost and MaxCost give the range of the passable costs; SetCost keeps
// it without a scan of the grid.
func ExampleGrid_MaxCost() {
	g := grid.New(8, 8)
	g.SetCost(grid.Cell{X: 2, Y: 3}, 4)   // mud
	g.SetCost(grid.Cell{X: 5, Y: 5}, 0.5) // road
	fmt.Println(g.MinCost(), g.MaxCost())
	g.SetCost(grid.Cell{X: 2, Y: 3}, grid.Blocked) // the mud walled off
	fmt.Println(g.MinCost(), g.MaxCost())
	// Output:
	// 0.5 4
	// 0.5 1
}

// Labelling the components of wide agents' clearance before concurrent readers
// ask for it: a wall with a gap 2 cells wide lets clearance-2 agents through
// nowhere, so the two sides are apart for them.
func ExampleGrid_PrepareWide() {
	g := grid.New(16, 16)
	for x := int32(0); x < 16; x++ {
		if x != 7 && x != 8 {
			g.SetCost(grid.Cell{X: x, Y: 8}, grid.Blocked)
		}
	}
	g.PrepareWide(2) // on the caller: readers on other goroutines then build nothing
	a, b := grid.Cell{X: 4, Y: 3}, grid.Cell{X: 4, Y: 12}
	fmt.Println(g.ConnectedWide(a, b, 1), g.ConnectedWide(a, b, 2))
	// Output: true false
}

// Doors read from level data: TrySetCost refuses a cell off the map or a cost
// that is not one with an error, where SetCost would panic, and leaves the grid
// as it was.
func ExampleGrid_TrySetCost() {
	g := grid.New(8, 8)
	doors := []struct {
		cell grid.Cell
		cost float32
	}{
		{grid.Cell{X: 3, Y: 4}, grid.Blocked},
		{grid.Cell{X: -1, Y: 3}, grid.Blocked}, // a typo in the level file
		{grid.Cell{X: 5, Y: 5}, 0},             // a cost of 0 for "free"
	}
	for _, d := range doors {
		if err := g.TrySetCost(d.cell, d.cost); err != nil {
			fmt.Println(err, errors.Is(err, grid.ErrOutOfBounds), errors.Is(err, grid.ErrInvalidCost))
		}
	}
	fmt.Println(g.Passable(grid.Cell{X: 3, Y: 4}), g.Cost(grid.Cell{X: 5, Y: 5}))
	// Output:
	// grid: cell out of bounds: cell {-1 3} on a 8x8 grid true false
	// grid: cost must be > 0 or Blocked: 0 for cell {5 5} false true
	// false 1
}

// A goal a player clicked inside a wall, turned into the open cell nearest it.
func ExampleGrid_NearestOpen() {
	g := grid.New(64, 64)
	for y := range int32(50) {
		g.SetCost(grid.Cell{X: 30, Y: y}, grid.Blocked) // a wall
	}
	clicked := r2.Vec{X: 30.6, Y: 10.2}
	if c, ok := g.NearestOpen(clicked, 8); ok {
		fmt.Println(c, g.Center(c))
	}
	// Output:
	// {31 10} {31.5 10.5}
}
