package grid

import (
	"fmt"
	"math"
)

// GenerateTown returns a size×size town map generated from seed, the map of archai's
// benchmark scenarios (cmd/bench): a wall along the border, rectangular buildings of
// 3 to 12 cells a side covering about a quarter of the area, and size/4 broken walls
// (8 to 31 cells long, with a gap every 7 cells). Only the largest 4-connected open
// area is left passable (every other pocket is blocked), so every open cell reaches
// every other one. A size below 16 is raised to 16. The same size and seed give the
// same map on every platform (SplitMix64, Steele et al. 2014).
//
// It returns an error wrapping [ErrTooLarge] if size² exceeds [MaxCells] (size >
// 8192). Generating takes time linear in the cells (about a second for 4096²).
func GenerateTown(size int, seed uint64) (*Grid, error) {
	if size < 16 {
		size = 16
	}
	if err := checkSize(size, size); err != nil {
		return nil, fmt.Errorf("grid: GenerateTown(%d): %w", size, err)
	}
	g := New(size, size)
	r := splitMix{state: seed}
	block := func(x, y int) { g.SetCost(Cell{X: int32(x), Y: int32(y)}, Blocked) }
	for i := 0; i < size; i++ {
		block(i, 0)
		block(i, size-1)
		block(0, i)
		block(size-1, i)
	}
	for covered := 0; covered < size*size/4; {
		w, h := 3+r.intn(10), 3+r.intn(10)
		x0, y0 := 1+r.intn(size-2-w), 1+r.intn(size-2-h)
		for y := y0; y < y0+h; y++ {
			for x := x0; x < x0+w; x++ {
				block(x, y)
			}
		}
		covered += w * h
	}
	for range size / 4 { // broken walls
		x, y := 1+r.intn(size-2), 1+r.intn(size-2)
		dx, dy := 1, 0
		if r.intn(2) == 0 {
			dx, dy = 0, 1
		}
		n := 8 + r.intn(24)
		for i := 0; i < n && x > 0 && y > 0 && x < size-1 && y < size-1; i++ {
			if i%7 != 3 { // a gap every few cells
				block(x, y)
			}
			x, y = x+dx, y+dy
		}
	}
	keepLargestArea(g)
	return g, nil
}

// splitMix is SplitMix64, the generator of GenerateTown (the same stream as
// ai/steer.Rand, which this package may not import).
type splitMix struct{ state uint64 }

func (r *splitMix) next() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn returns a number in [0, n), 0 for n ≤ 0.
func (r *splitMix) intn(n int) int {
	if n <= 0 {
		return 0
	}
	return int(r.next() % uint64(n))
}

// keepLargestArea blocks every passable cell outside the largest 4-connected
// open area (the first found, in row-major order, among equals). Under the
// no-corner-cutting rule a diagonal move needs both orthogonal neighbours
// open, so 4-connected areas are exactly the 8-connected ones. It leaves the
// grid's components labelled (one component, label 0; one byte a cell), so
// that the first Connected or Prepare does not label them again.
func keepLargestArea(g *Grid) {
	sizes := g.labelComponentsSizes([]int{})
	best := int32(-1)
	for i, n := range sizes {
		if best < 0 || n > sizes[best] {
			best = int32(i)
		}
	}
	g.compVersion = 0 // SetCost patches no labels: they are written below
	for i := range g.cost {
		if l := g.compAt(i); l >= 0 && l != best {
			g.SetCost(Cell{X: int32(i % g.w), Y: int32(i / g.w)}, Blocked)
		}
	}
	// every passable cell is now in the one component left
	g.comp8 = noLabels(g.comp8, g.w*g.h, math.MaxUint8)
	for i, c := range g.cost {
		if !isBlocked(c) {
			g.comp8[i] = 0
		}
	}
	g.comp16, g.comp32, g.compW = nil, nil, 1
	g.compVersion = g.topoVersion
}
