// Package picture draws archai maps, agents and flow fields into paletted
// images and writes them as PNG or animated GIF, for the examples.
package picture

import (
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"os"

	"github.com/archai-go/archai/nav/grid"
	"gonum.org/v1/gonum/spatial/r2"
)

// Colour indices of Palette.
const (
	Open uint8 = iota
	Wall
	Blue
	Red
	Green
	Faint
	Black
)

// Palette is the palette of every picture.
var Palette = color.Palette{
	color.RGBA{0xf4, 0xf1, 0xea, 0xff}, // open
	color.RGBA{0x3a, 0x3a, 0x40, 0xff}, // wall
	color.RGBA{0x1f, 0x6f, 0xd1, 0xff}, // blue
	color.RGBA{0xd1, 0x3b, 0x2f, 0xff}, // red
	color.RGBA{0x2a, 0x9d, 0x4a, 0xff}, // green
	color.RGBA{0xd8, 0xd2, 0xc4, 0xff}, // faint
	color.RGBA{0x00, 0x00, 0x00, 0xff}, // black
}

// Map draws g with scale pixels per cell.
func Map(g *grid.Grid, scale int) *image.Paletted {
	img := image.NewPaletted(image.Rect(0, 0, g.Width()*scale, g.Height()*scale), Palette)
	for y := 0; y < g.Height(); y++ {
		for x := 0; x < g.Width(); x++ {
			if !g.Passable(grid.Cell{X: int32(x), Y: int32(y)}) {
				fill(img, x*scale, y*scale, scale, scale, Wall)
			}
		}
	}
	return img
}

// Dot draws a dot of colour c and side size pixels centred on p (cells).
func Dot(img *image.Paletted, scale int, p r2.Vec, size int, c uint8) {
	x, y := int(p.X*float64(scale)), int(p.Y*float64(scale))
	fill(img, x-size/2, y-size/2, size, size, c)
}

// Line draws a line of colour c from a to b (cells).
func Line(img *image.Paletted, scale int, a, b r2.Vec, c uint8) {
	d := r2.Sub(b, a)
	n := int(max(abs(d.X), abs(d.Y))*float64(scale)) + 1
	for i := 0; i <= n; i++ {
		p := r2.Add(a, r2.Scale(float64(i)/float64(n), d))
		x, y := int(p.X*float64(scale)), int(p.Y*float64(scale))
		if (image.Point{X: x, Y: y}).In(img.Rect) {
			img.SetColorIndex(x, y, c)
		}
	}
}

func fill(img *image.Paletted, x0, y0, w, h int, c uint8) {
	r := image.Rect(x0, y0, x0+w, y0+h).Intersect(img.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
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

// WritePNG writes img to path.
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

// WriteGIF writes frames as an animated GIF looping forever, delay hundredths
// of a second per frame.
func WriteGIF(path string, frames []*image.Paletted, delay int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	anim := &gif.GIF{Image: frames, Delay: make([]int, len(frames))}
	for i := range anim.Delay {
		anim.Delay[i] = delay
	}
	if err := gif.EncodeAll(f, anim); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
