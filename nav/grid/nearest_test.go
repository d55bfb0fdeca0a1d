package grid_test

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/assert"
	"gonum.org/v1/gonum/spatial/r2"
)

// NearestOpen on the README's wall (x = 30, y < 50, on 64×64), off the grid, far
// off it and for input it cannot use.
func TestNearestOpen(t *testing.T) {
	g := grid.New(64, 64)
	for y := range int32(50) {
		g.SetCost(grid.Cell{X: 30, Y: y}, grid.Blocked)
	}
	for _, c := range []struct {
		p      r2.Vec
		within int
		want   grid.Cell
		ok     bool
	}{
		{r2.Vec{X: 5.5, Y: 5.5}, 0, grid.Cell{X: 5, Y: 5}, true},               // open: its own cell
		{r2.Vec{X: 30.5, Y: 10.5}, 4, grid.Cell{X: 29, Y: 10}, true},           // both sides as near: the first in row order
		{r2.Vec{X: 30.7, Y: 10.5}, 4, grid.Cell{X: 31, Y: 10}, true},           // the nearer side
		{r2.Vec{X: 30.5, Y: 10.5}, 0, grid.Cell{}, false},                      // no ring but its own
		{r2.Vec{X: 100.5, Y: 4.5}, 100, grid.Cell{X: 63, Y: 4}, true},          // off the grid: across its edge
		{r2.Vec{X: 100.5, Y: 4.5}, 36, grid.Cell{}, false},                     // the grid is 37 rings off
		{r2.Vec{X: -1e12, Y: 1e12}, math.MaxInt, grid.Cell{X: 0, Y: 63}, true}, // far off: its nearest corner, at once
		{r2.Vec{X: math.NaN(), Y: 1}, 10, grid.Cell{}, false},                  // not finite
		{r2.Vec{X: 1, Y: math.Inf(1)}, 10, grid.Cell{}, false},                 // not finite
		{r2.Vec{X: 5.5, Y: 5.5}, -1, grid.Cell{}, false},                       // a negative within
	} {
		if bits.UintSize == 32 && c.within == math.MaxInt && c.ok {
			continue // a 32-bit within cannot reach 1e12 rings: false there, rightly
		}
		got, ok := g.NearestOpen(c.p, c.within)
		assert.Equal(t, c.ok, ok, "%v within %d", c.p, c.within)
		assert.Equal(t, c.want, got, "%v within %d", c.p, c.within)
	}
	full := grid.New(3, 3)
	for y := range int32(3) {
		for x := range int32(3) {
			full.SetCost(grid.Cell{X: x, Y: y}, grid.Blocked)
		}
	}
	_, ok := full.NearestOpen(r2.Vec{X: 1.5, Y: 1.5}, math.MaxInt)
	assert.False(t, ok, "a grid with no open cell")
}

// NearestOpen against a search of every cell, on random grids and points on and off them.
func TestNearestOpenAgainstEveryCell(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for range 200 {
		w, h := 1+rng.IntN(12), 1+rng.IntN(12)
		g := grid.New(w, h)
		for y := range h {
			for x := range w {
				if rng.Float64() < 0.6 {
					g.SetCost(grid.Cell{X: int32(x), Y: int32(y)}, grid.Blocked)
				}
			}
		}
		for range 20 {
			p := r2.Vec{X: rng.Float64()*float64(w+10) - 5, Y: rng.Float64()*float64(h+10) - 5}
			within := rng.IntN(20)
			c := g.CellAt(p)
			want, wantOK, wantR, wantD := grid.Cell{}, false, 0, 0.0
			for y := range h {
				for x := range w {
					n := grid.Cell{X: int32(x), Y: int32(y)}
					if !g.Passable(n) {
						continue
					}
					r := max(abs(int(n.X-c.X)), abs(int(n.Y-c.Y)))
					d := r2.Norm2(r2.Sub(p, g.Center(n)))
					if r <= within && (!wantOK || r < wantR || r == wantR && d < wantD) {
						want, wantOK, wantR, wantD = n, true, r, d
					}
				}
			}
			got, ok := g.NearestOpen(p, within)
			if !assert.Equal(t, wantOK, ok, "%v within %d on %dx%d", p, within, w, h) || !assert.Equal(t, want, got, "%v within %d", p, within) {
				return
			}
		}
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// NearestOpen for a point far off the grid: the rings are counted from the
// point's own cell, not one clamped to the int32 range, and the nearest centre
// is told apart from the next row's however far off the point is.
func TestNearestOpenFarOff(t *testing.T) {
	g := grid.New(64, 64)
	for _, c := range []struct {
		p      r2.Vec
		within int64
		want   grid.Cell
		ok     bool
	}{
		{r2.Vec{X: 1e8, Y: 5.5}, math.MaxInt, grid.Cell{X: 63, Y: 5}, true},
		{r2.Vec{X: 1e12, Y: 5.5}, math.MaxInt, grid.Cell{X: 63, Y: 5}, true},
		{r2.Vec{X: -1e15, Y: 40.2}, math.MaxInt, grid.Cell{X: 0, Y: 40}, true},
		{r2.Vec{X: 1e300, Y: 5.5}, math.MaxInt, grid.Cell{X: 63, Y: 5}, true},
		{r2.Vec{X: 20.5, Y: -math.MaxFloat64}, math.MaxInt, grid.Cell{X: 20, Y: 0}, true},
		{r2.Vec{X: math.MaxFloat64, Y: math.MaxFloat64}, math.MaxInt, grid.Cell{X: 63, Y: 63}, true},
		{r2.Vec{X: 1e10, Y: 5.5}, 3e9, grid.Cell{}, false},                 // 1e10 − 63 rings off
		{r2.Vec{X: 1e10, Y: 5.5}, 1e10 - 63, grid.Cell{X: 63, Y: 5}, true}, // the last ring it needs
		{r2.Vec{X: 1e10, Y: 5.5}, 1e10 - 64, grid.Cell{}, false},
	} {
		if int64(int(c.within)) != c.within || bits.UintSize == 32 && c.within == math.MaxInt && c.ok {
			continue // past a 32-bit int, or a 32-bit within cannot reach so far (false there, rightly)
		}
		got, ok := g.NearestOpen(c.p, int(c.within))
		assert.Equal(t, c.ok, ok, "%v within %d", c.p, c.within)
		assert.Equal(t, c.want, got, "%v within %d", c.p, c.within)
	}
}

// NearestOpen from as far off as a float goes, diagonally, to a grid whose only
// open cells are on its first row (away from the corner) or its first column.
func TestNearestOpenFromTheFarCorner(t *testing.T) {
	if bits.UintSize == 32 {
		t.Skip("a 32-bit within cannot reach as far as a float goes")
	}
	for _, row := range []bool{true, false} {
		g := grid.New(8, 8)
		for y := range int32(8) {
			for x := range int32(8) {
				if (row && (y != 0 || x == 0)) || (!row && (x != 0 || y == 0)) {
					g.SetCost(grid.Cell{X: x, Y: y}, grid.Blocked)
				}
			}
		}
		want := grid.Cell{X: 7, Y: 0}
		if !row {
			want = grid.Cell{X: 0, Y: 7}
		}
		got, ok := g.NearestOpen(r2.Vec{X: math.MaxFloat64, Y: math.MaxFloat64}, math.MaxInt)
		assert.True(t, ok)
		assert.Equal(t, want, got, "open row %v", row)
	}
}
