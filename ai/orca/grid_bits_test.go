package orca

import (
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// GridSegments and GridSegmentsBits find the segments the cell-by-cell
// version found, in its order (ties in distance included), on random grids
// of walls from sparse to dense, narrow and wider than a 64-cell word, at
// positions on, beside and off the grid, with reaches from 0 to past the grid
// (50 grids of 20 positions; 200 with ARCHAI_LONG=1). Windows up to 62
// columns wide take the one-word scan (narrowSegments), unless wideOnly.
func TestGridSegmentsBitsMatchCellByCell(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	trials := 50 // the first quarter of the grids; all 200 with ARCHAI_LONG=1
	if os.Getenv("ARCHAI_LONG") != "" {
		trials = 200
	}
	for trial := range trials {
		w, h := 1+r.IntN(150), 1+r.IntN(90)
		if trial%4 == 0 {
			w, h = 1+r.IntN(6), 1+r.IntN(6)
		}
		density := r.Float64() * 0.7
		walls := make([]bool, w*h)
		for i := range walls {
			walls[i] = r.Float64() < density
		}
		blocked := func(x, y int32) bool {
			if x < 0 || y < 0 || int(x) >= w || int(y) >= h {
				t.Fatalf("asked for cell (%d, %d) off the %d×%d grid", x, y, w, h)
			}
			return walls[int(y)*w+int(x)]
		}
		bitsOf := func(y, x0 int32, dst []uint64) {
			clear(dst)
			for i := range int32(64 * len(dst)) {
				if int(x0+i) < w && blocked(x0+i, y) {
					dst[i/64] |= 1 << (i % 64)
				}
			}
		}
		var want, byCell, byBits Solver
		wide := Solver{wideOnly: true} // the general scan, also for windows of one word
		for range 20 {
			pos := r2.Vec{X: r.Float64()*float64(w+8) - 4, Y: r.Float64()*float64(h+8) - 4}
			if r.IntN(4) == 0 { // on a cell's corner or side
				pos.X, pos.Y = math.Floor(pos.X), math.Floor(pos.Y)+0.5*float64(r.IntN(2))
			}
			reach := r.Float64() * 8
			switch r.IntN(8) {
			case 0:
				reach = 0
			case 1:
				reach = r.Float64() * 200
			}
			exp := append([]Segment{}, want.gridSegmentsCells(pos, reach, w, h, blocked)...)
			got := append([]Segment{}, byCell.GridSegments(pos, reach, w, h, blocked)...)
			require.Equal(t, exp, got, "GridSegments: %d×%d grid, pos %v, reach %v", w, h, pos, reach)
			got = append([]Segment{}, byBits.GridSegmentsBits(pos, reach, w, h, bitsOf)...)
			require.Equal(t, exp, got, "GridSegmentsBits: %d×%d grid, pos %v, reach %v", w, h, pos, reach)
			got = append([]Segment{}, wide.GridSegmentsBits(pos, reach, w, h, bitsOf)...)
			require.Equal(t, exp, got, "GridSegmentsBits, general scan: %d×%d grid, pos %v, reach %v", w, h, pos, reach)
		}
	}
}

// gridSegmentsCells is GridSegments as first written (a wall map of bools
// read a cell at a time, the edges found cell by cell): the oracle its bitmap
// version is tested against.
func (s *Solver) gridSegmentsCells(pos r2.Vec, reach float64, width, height int, blocked Blocked) []Segment {
	s.segs, s.dist = s.segs[:0], s.dist[:0]
	if !finite(pos) || !(reach >= 0) || width <= 0 || height <= 0 {
		return s.segs
	}
	// the open cells whose edges may be within reach, clipped to the grid
	x0 := clampCell(math.Floor(pos.X-reach), width)
	x1 := clampCell(math.Floor(pos.X+reach), width)
	y0 := clampCell(math.Floor(pos.Y-reach), height)
	y1 := clampCell(math.Floor(pos.Y+reach), height)
	if pos.X+reach < 0 || pos.Y+reach < 0 || pos.X-reach >= float64(width) || pos.Y-reach >= float64(height) {
		return s.segs // the whole window is off the grid
	}
	// wall map of the window and a ring round it: cells off the grid are walls
	nx, ny := x1-x0+3, y1-y0+3
	cells := make([]bool, nx*ny)
	for j := range ny {
		y := y0 - 1 + j
		for i := range nx {
			x := x0 - 1 + i
			cells[j*nx+i] = x < 0 || y < 0 || x >= width || y >= height || blocked(int32(x), int32(y))
		}
	}
	wall := func(x, y int) bool { return cells[(y-y0+1)*nx+(x-x0+1)] }
	// Horizontal edges, row by row: the bottom edge (y) of an open cell over a
	// wall runs from x+1 to x (wall on the left of −x), its top edge (y+1)
	// under a wall from x to x+1.
	for y := y0; y <= y1; y++ {
		for _, below := range [2]bool{true, false} {
			start := -1
			for x := x0; x <= x1+1; x++ {
				edge := x <= x1 && !wall(x, y) && ((below && wall(x, y-1)) || (!below && wall(x, y+1)))
				switch {
				case edge && start < 0:
					start = x
				case !edge && start >= 0:
					a, b := float64(start), float64(x)
					if below {
						s.add(pos, reach, r2.Vec{X: b, Y: float64(y)}, r2.Vec{X: a, Y: float64(y)})
					} else {
						s.add(pos, reach, r2.Vec{X: a, Y: float64(y + 1)}, r2.Vec{X: b, Y: float64(y + 1)})
					}
					start = -1
				}
			}
		}
	}
	// Vertical edges, column by column: the left edge (x) of an open cell
	// beside a wall runs from y to y+1, its right edge (x+1) from y+1 to y.
	for x := x0; x <= x1; x++ {
		for _, left := range [2]bool{true, false} {
			start := -1
			for y := y0; y <= y1+1; y++ {
				edge := y <= y1 && !wall(x, y) && ((left && wall(x-1, y)) || (!left && wall(x+1, y)))
				switch {
				case edge && start < 0:
					start = y
				case !edge && start >= 0:
					a, b := float64(start), float64(y)
					if left {
						s.add(pos, reach, r2.Vec{X: float64(x), Y: a}, r2.Vec{X: float64(x), Y: b})
					} else {
						s.add(pos, reach, r2.Vec{X: float64(x + 1), Y: b}, r2.Vec{X: float64(x + 1), Y: a})
					}
					start = -1
				}
			}
		}
	}
	s.sortSegments()
	return s.segs
}

// Windows about one word wide (60 to 66 columns with the ring, either side of
// the one-word scan's limit of 64), at the grid's edges and inside: the
// one-word scan and the general one find the same segments in the same order.
func TestNarrowSegmentsAtTheWordsEdge(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	const w, h = 100, 100
	walls := make([]bool, w*h)
	for i := range walls {
		walls[i] = r.Float64() < 0.3
	}
	bitsOf := func(y, x0 int32, dst []uint64) {
		clear(dst)
		for i := range int32(64 * len(dst)) {
			if int(x0+i) < w && walls[int(y)*w+int(x0+i)] {
				dst[i/64] |= 1 << (i % 64)
			}
		}
	}
	var narrow Solver
	wide := Solver{wideOnly: true}
	for range 400 {
		pos := r2.Vec{X: r.Float64()*float64(w+40) - 20, Y: r.Float64()*float64(h+40) - 20}
		reach := 28.5 + r.Float64()*3.5 // windows of 57 to 64 columns, 60 to 66 with the ring
		exp := append([]Segment{}, wide.GridSegmentsBits(pos, reach, w, h, bitsOf)...)
		got := append([]Segment{}, narrow.GridSegmentsBits(pos, reach, w, h, bitsOf)...)
		require.Equal(t, exp, got, "pos %v, reach %v", pos, reach)
	}
}
