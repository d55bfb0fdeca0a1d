package render_test

import (
	"bytes"
	"image"
	"image/gif"
	"math"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems/render"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

func TestMapDrawsWallsAndCosts(t *testing.T) {
	g := grid.New(4, 2)
	g.SetCost(grid.Cell{X: 1, Y: 0}, grid.Blocked)
	g.SetCost(grid.Cell{X: 2, Y: 0}, 2)
	g.SetCost(grid.Cell{X: 3, Y: 0}, 9)
	img := render.Map(g, 3)
	require.Equal(t, image.Rect(0, 0, 12, 6), img.Rect)
	assert.Equal(t, render.Open, img.ColorIndexAt(1, 1))
	assert.Equal(t, render.Wall, img.ColorIndexAt(3, 0))
	assert.Equal(t, render.Wall, img.ColorIndexAt(5, 2))
	assert.Equal(t, render.Costly, img.ColorIndexAt(7, 1))
	assert.Equal(t, render.VeryCostly, img.ColorIndexAt(10, 1))
	assert.Equal(t, render.Open, img.ColorIndexAt(10, 4), "second row is open")
}

func TestDotAndLineStayInside(t *testing.T) {
	img := render.Map(grid.New(4, 4), 2)
	render.Dot(img, 2, r2.Vec{X: 0, Y: 0}, 3, render.Red) // half outside
	assert.Equal(t, render.Red, img.ColorIndexAt(0, 0))
	render.Line(img, 2, r2.Vec{X: -10, Y: 1}, r2.Vec{X: 10, Y: 1}, render.Blue)
	assert.Equal(t, render.Blue, img.ColorIndexAt(5, 2))
	render.Line(img, 2, r2.Vec{}, r2.Vec{X: math.Inf(1)}, render.Blue) // no hang, nothing drawn
}

func TestCaptionAddsTimeAndLegend(t *testing.T) {
	img := render.Map(grid.New(100, 10), 2) // 200 px wide
	out := render.Caption(img, 12.5, render.Item{Colour: render.Blue, Label: "guard"})
	// the 1 px rule, a margin, one line of 7 px text and a margin
	require.Equal(t, image.Rect(0, 0, 200, 20+1+3+render.GlyphHeight+3), out.Rect)
	assert.Equal(t, img.Pix, out.Pix[:len(img.Pix)], "the map is kept unchanged above the strip")
	assert.Equal(t, render.Wall, out.ColorIndexAt(50, 20), "a rule separates map and caption")
	blue, black := 0, 0
	for _, p := range out.Pix[len(img.Pix):] {
		switch p {
		case render.Blue:
			blue++
		case render.Black:
			black++
		}
	}
	assert.Equal(t, render.GlyphHeight*render.GlyphHeight, blue, "one swatch")
	assert.Greater(t, black, 40, "the time and the label are written")

	// a narrow image wraps the legend onto more lines
	narrow := render.Caption(render.Map(grid.New(20, 5), 2), 1, render.Item{Colour: render.Blue, Label: "guards"}, render.Item{Colour: render.Red, Label: "intruders"})
	assert.Equal(t, 10+1+3*(render.GlyphHeight+3)+3, narrow.Rect.Dy())
}

func TestCaptionOfASubImage(t *testing.T) {
	full := render.Map(grid.New(10, 10), 1)
	full.SetColorIndex(5, 5, render.Red)
	sub := full.SubImage(image.Rect(4, 4, 8, 8)).(*image.Paletted)
	out := render.Caption(sub, 0)
	assert.Equal(t, render.Red, out.ColorIndexAt(5, 5))
	assert.Equal(t, 4, out.Rect.Min.X)
}

func TestTextAndWidth(t *testing.T) {
	assert.Equal(t, 0, render.TextWidth(""))
	assert.Equal(t, 5, render.TextWidth("A"))
	assert.Equal(t, 3*6-1, render.TextWidth("t=1"))
	img := image.NewPaletted(image.Rect(0, 0, 20, 10), render.Palette)
	end := render.Text(img, 1, 1, "I", render.Black)
	assert.Equal(t, 7, end)
	// 'I': top row 0x0e is the middle three columns
	assert.Equal(t, render.Open, img.ColorIndexAt(1, 1))
	assert.Equal(t, render.Black, img.ColorIndexAt(2, 1))
	assert.Equal(t, render.Black, img.ColorIndexAt(4, 1))
	assert.Equal(t, render.Black, img.ColorIndexAt(3, 4), "the stem")
	// lower case as upper case; an unknown rune as a box
	a, b := image.NewPaletted(img.Rect, render.Palette), image.NewPaletted(img.Rect, render.Palette)
	render.Text(a, 0, 0, "abc", render.Black)
	render.Text(b, 0, 0, "ABC", render.Black)
	assert.Equal(t, a.Pix, b.Pix)
	box := image.NewPaletted(img.Rect, render.Palette)
	render.Text(box, 0, 0, "€", render.Black)
	assert.Equal(t, render.Black, box.ColorIndexAt(0, 0))
	assert.Equal(t, render.Black, box.ColorIndexAt(4, 6))
}

func TestCaptionWritesNaNTime(t *testing.T) {
	img := render.Map(grid.New(40, 2), 2)
	a := render.Caption(img, math.NaN())
	b := render.Caption(img, 0)
	assert.NotEqual(t, a.Pix, b.Pix)
}

func TestEncodeGIF(t *testing.T) {
	img := render.Map(grid.New(8, 8), 1)
	var buf bytes.Buffer
	require.NoError(t, render.EncodeGIF(&buf, []*image.Paletted{img, render.Caption(img, 1)}, 10))
	anim, err := gif.DecodeAll(&buf)
	require.NoError(t, err)
	assert.Len(t, anim.Image, 2)
	assert.Equal(t, []int{10, 10}, anim.Delay)
}
