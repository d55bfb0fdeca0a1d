// Package render draws archai maps, agents, paths and flow fields into
// paletted images, captions each frame with the simulation time and a legend,
// and writes the frames as PNG or animated GIF.
//
// Positions are in cells (cell (x, y) covers [x, x+1)×[y, y+1)); an image
// drawn with scale s has s×s pixels per cell. Colours are indices of
// [Palette], so frames can be written as a GIF without quantising:
//
//	img := render.Map(g, 4)                       // walls and costs
//	render.Dot(img, 4, pos, 2, render.Blue)       // an agent
//	frame := render.Caption(img, clock.Time,      // time and legend below the map
//		render.Item{Colour: render.Blue, Label: "guard"},
//		render.Item{Colour: render.Red, Label: "intruder"})
//	err := render.WritePNG("crowd.png", frame)
//
// Text is drawn with a built-in 5×7 pixel font (upper-case letters, digits
// and common punctuation; lower case is drawn as upper case), so the package
// needs no font files.
//
// The package is pure: it reads a *grid.Grid and positions, never an Arche
// world; the live view of a running world is package systems/debugview.
package render

import (
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"io"
	"os"

	"github.com/archai-go/archai/nav/grid"
	"gonum.org/v1/gonum/spatial/r2"
)

// Colour indices of [Palette]. The first seven keep the order of the
// examples' former internal renderer.
const (
	Open       uint8 = iota // open ground of cost 1 (the background)
	Wall                    // impassable cells
	Blue                    // first team
	Red                     // second team, goals
	Green                   // arrived, success
	Faint                   // flow-field arrows, grid lines
	Black                   // text, outlines
	Orange                  // running
	Costly                  // ground costing more than 1 and at most 4
	VeryCostly              // ground costing more than 4
	Purple                  // a third team, a selected agent
	Grey                    // idle, stopped
)

// Palette is the palette of every picture; the colour constants index it.
var Palette = color.Palette{
	color.RGBA{0xf4, 0xf1, 0xea, 0xff}, // open
	color.RGBA{0x3a, 0x3a, 0x40, 0xff}, // wall
	color.RGBA{0x1f, 0x6f, 0xd1, 0xff}, // blue
	color.RGBA{0xd1, 0x3b, 0x2f, 0xff}, // red
	color.RGBA{0x2a, 0x9d, 0x4a, 0xff}, // green
	color.RGBA{0xd8, 0xd2, 0xc4, 0xff}, // faint
	color.RGBA{0x00, 0x00, 0x00, 0xff}, // black
	color.RGBA{0xe8, 0x8a, 0x1a, 0xff}, // orange
	color.RGBA{0xe2, 0xd6, 0xb0, 0xff}, // costly
	color.RGBA{0xc4, 0xb0, 0x7c, 0xff}, // very costly
	color.RGBA{0x8a, 0x3f, 0xc0, 0xff}, // purple
	color.RGBA{0x9a, 0x9a, 0x9a, 0xff}, // grey
}

// Map draws g with scale pixels per cell (scale < 1 counts as 1): walls in
// [Wall], ground costing more than 1 in [Costly] (more than 4: [VeryCostly]),
// the rest in [Open].
func Map(g *grid.Grid, scale int) *image.Paletted {
	scale = max(1, scale)
	img := image.NewPaletted(image.Rect(0, 0, g.Width()*scale, g.Height()*scale), Palette)
	for y := 0; y < g.Height(); y++ {
		for x := 0; x < g.Width(); x++ {
			c := Open
			switch cost := g.Cost(grid.Cell{X: int32(x), Y: int32(y)}); {
			case cost == grid.Blocked:
				c = Wall
			case cost > 4:
				c = VeryCostly
			case cost > 1:
				c = Costly
			}
			if c != Open {
				fill(img, x*scale, y*scale, scale, scale, c)
			}
		}
	}
	return img
}

// Dot draws a square dot of colour c and side size pixels centred on p
// (cells). Pixels outside the image are left out.
func Dot(img *image.Paletted, scale int, p r2.Vec, size int, c uint8) {
	x, y := int(p.X*float64(scale)), int(p.Y*float64(scale))
	fill(img, x-size/2, y-size/2, size, size, c)
}

// Line draws a line of colour c from a to b (cells). Pixels outside the image
// are left out.
func Line(img *image.Paletted, scale int, a, b r2.Vec, c uint8) {
	d := r2.Sub(b, a)
	n := int(max(abs(d.X), abs(d.Y))*float64(scale)) + 1
	if n > 1<<20 { // a line far longer than any image: not drawn pixel by pixel
		return
	}
	for i := 0; i <= n; i++ {
		t := float64(i) / float64(n)
		p := r2.Vec{X: a.X + float64(t*d.X), Y: a.Y + float64(t*d.Y)} // rounded: the same pixels on every build (no multiply-add)
		x, y := int(p.X*float64(scale)), int(p.Y*float64(scale))
		if (image.Point{X: x, Y: y}).In(img.Rect) {
			img.SetColorIndex(x, y, c)
		}
	}
}

// Clone copies img.
func Clone(img *image.Paletted) *image.Paletted {
	out := image.NewPaletted(img.Rect, img.Palette)
	copy(out.Pix, img.Pix)
	return out
}

// WritePNG writes img to the file at path.
func WritePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// EncodeGIF writes frames to w as an animated GIF looping forever, delay
// hundredths of a second per frame. Frames of different sizes are allowed
// (each is placed at its own bounds).
func EncodeGIF(w io.Writer, frames []*image.Paletted, delay int) error {
	anim := &gif.GIF{Image: frames, Delay: make([]int, len(frames))}
	var screen image.Rectangle
	for i, f := range frames {
		anim.Delay[i] = delay
		screen = screen.Union(f.Rect)
	}
	anim.Config = image.Config{ColorModel: Palette, Width: screen.Max.X, Height: screen.Max.Y}
	return gif.EncodeAll(w, anim)
}

// WriteGIF writes frames to the file at path with [EncodeGIF].
func WriteGIF(path string, frames []*image.Paletted, delay int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := EncodeGIF(f, frames, delay); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func fill(img *image.Paletted, x0, y0, w, h int, c uint8) {
	r := image.Rect(x0, y0, x0+w, y0+h).Intersect(img.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			img.SetColorIndex(x, y, c)
		}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
