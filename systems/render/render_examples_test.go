package render_test

import (
	"fmt"

	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems/render"
	"gonum.org/v1/gonum/spatial/r2"
)

// A 20×10 map with a wall, two agents and a caption with the simulation time
// and a legend: the caption adds a strip under the 80×40 picture, three
// lines high since the items do not fit on one.
func ExampleCaption() {
	g := grid.New(20, 10)
	for y := int32(0); y < 7; y++ {
		g.SetCost(grid.Cell{X: 10, Y: y}, grid.Blocked)
	}
	img := render.Map(g, 4)
	render.Dot(img, 4, r2.Vec{X: 3.5, Y: 5.5}, 3, render.Blue)
	render.Dot(img, 4, r2.Vec{X: 16.5, Y: 2.5}, 3, render.Red)
	frame := render.Caption(img, 2.5,
		render.Item{Colour: render.Blue, Label: "guard"},
		render.Item{Colour: render.Red, Label: "intruder"})
	fmt.Println(img.Rect.Dx(), "x", img.Rect.Dy(), "->", frame.Rect.Dx(), "x", frame.Rect.Dy())
	fmt.Println(frame.ColorIndexAt(14, 22) == render.Blue, frame.ColorIndexAt(66, 10) == render.Red)
	// Output:
	// 80 x 40 -> 80 x 74
	// true true
}
