package systems

import (
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestOpenCellsClearImpliesLineOfSight: whenever the summed-area shortcut
// says a line of sight is clear, the grid's walk agrees, for random segments
// (some on grid lines, through corners, or leaving the grid) over a random
// map; and the shortcut answers often enough to pay. After SetCost the table
// follows the grid.
func TestOpenCellsClearImpliesLineOfSight(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	g := grid.New(40, 30)
	for range 150 {
		g.SetCost(grid.Cell{X: int32(rng.IntN(40)), Y: int32(rng.IntN(30))}, grid.Blocked)
	}
	var o openCells
	point := func() r2.Vec {
		p := r2.Vec{X: rng.Float64()*42 - 1, Y: rng.Float64()*32 - 1}
		switch rng.IntN(6) {
		case 0:
			p.X = float64(int(p.X)) // on a vertical grid line
		case 1:
			p.X, p.Y = float64(int(p.X)), float64(int(p.Y)) // a corner
		case 2:
			p.Y = float64(int(p.Y)) + 1e-12 // within rounding of a line
		}
		return p
	}
	for round := range 2 {
		o.update(g)
		shortcut := 0
		for range 20000 {
			a := point()
			b := r2.Add(a, r2.Vec{X: rng.Float64()*8 - 4, Y: rng.Float64()*8 - 4})
			if rng.IntN(4) == 0 { // diagonal through corners
				d := float64(rng.IntN(5) - 2)
				b = r2.Add(a, r2.Vec{X: d, Y: d})
			}
			if o.clear(a, b) {
				shortcut++
				require.True(t, g.LineOfSight(a, b), "round %d: %v → %v", round, a, b)
			}
		}
		assert.Greater(t, shortcut, 1000, "the shortcut answers")
		// open a wall and block the open: the table is rebuilt
		for range 200 {
			c := grid.Cell{X: int32(rng.IntN(40)), Y: int32(rng.IntN(30))}
			if g.Passable(c) {
				g.SetCost(c, grid.Blocked)
			} else {
				g.SetCost(c, 1)
			}
		}
	}
}

// TestOpenCellsBitmapMatchesTable: the bitmap's answer for a rectangle is the
// summed-area table's, for random rectangles of every width up to 70 cells
// (one and two words of a row, and the table beyond) on a 150-cell-wide map.
func TestOpenCellsBitmapMatchesTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	g := grid.New(150, 40)
	for range 600 {
		g.SetCost(grid.Cell{X: int32(rng.IntN(150)), Y: int32(rng.IntN(40))}, grid.Blocked)
	}
	var o openCells
	o.update(g)
	open := 0
	for range 50000 {
		w, h := 1+rng.IntN(70), 1+rng.IntN(6)
		if rng.IntN(8) == 0 {
			h = 1 + rng.IntN(30)
		}
		x0, y0 := rng.IntN(150-w+1), rng.IntN(40-h+1)
		want := o.openSum(x0, x0+w, y0, y0+h)
		require.Equal(t, want, o.open(x0, x0+w, y0, y0+h), "cells [%d, %d)×[%d, %d)", x0, x0+w, y0, y0+h)
		if want {
			open++
		}
	}
	assert.Greater(t, open, 1000, "open rectangles tested")
}

// rowBits reads what the grid says, a word at a time from any column, past
// the grid's last column as open, and follows an edit.
func TestOpenCellsRowBitsMatchGrid(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	g := grid.New(150, 20)
	for range 900 {
		g.SetCost(grid.Cell{X: int32(rng.IntN(150)), Y: int32(rng.IntN(20))}, grid.Blocked)
	}
	var o openCells
	check := func() {
		o.update(g)
		for range 2000 {
			y, x0 := int32(rng.IntN(20)), int32(rng.IntN(150))
			dst := make([]uint64, 1+rng.IntN(3))
			o.rowBits(y, x0, dst)
			for i := range int32(64 * len(dst)) {
				want := int(x0+i) < 150 && !g.Passable(grid.Cell{X: x0 + i, Y: y})
				if want != (dst[i/64]>>(i%64)&1 != 0) { // testify only on a mismatch: a call per cell costs a stack walk
					require.Equal(t, want, dst[i/64]>>(i%64)&1 != 0, "cell (%d, %d)", x0+i, y)
				}
			}
		}
	}
	check()
	g.SetCost(grid.Cell{X: 70, Y: 3}, grid.Blocked)
	g.SetCost(grid.Cell{X: 71, Y: 3}, 1)
	check()
}
