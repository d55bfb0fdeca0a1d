package grid

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// referenceLabels is the cell-by-cell flood fill labelComponents and
// keepLargestArea ran before the scanline fill: labels in the row-major
// order of each component's first cell, -1 for closed cells, and each
// component's size.
func referenceLabels(w, h int, open func(i int) bool) ([]int32, []int) {
	comp := make([]int32, w*h)
	for i := range comp {
		comp[i] = -1
	}
	var sizes []int
	for start := range comp {
		if comp[start] >= 0 || !open(start) {
			continue
		}
		label := int32(len(sizes))
		sizes = append(sizes, 0)
		comp[start] = label
		stack := []int{start}
		for len(stack) > 0 {
			j := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			sizes[label]++
			x, y := j%w, j/w
			for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				nx, ny := x+d[0], y+d[1]
				if k := ny*w + nx; nx >= 0 && ny >= 0 && nx < w && ny < h && comp[k] < 0 && open(k) {
					comp[k] = label
					stack = append(stack, k)
				}
			}
		}
	}
	return comp, sizes
}

// labels returns a copy of the grid's component labels, -1 when blocked,
// whatever their width.
func (g *Grid) labels() []int32 {
	out := make([]int32, g.w*g.h)
	for i := range out {
		out[i] = g.compAt(i)
	}
	return out
}

// TestFillComponentsSameAsCellFill checks the scanline fill against the
// cell-by-cell one: the same label for every cell (so the same numbering)
// and the same component sizes, on random grids from nearly open to nearly
// closed, one-row and one-column grids, spirals and combs (spans that reach
// back into rows already filled), NaN and -Inf costs (open, as Passable
// says) and clearances (the wide components' labels).
func TestFillComponentsSameAsCellFill(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 13))
	type tc struct {
		name string
		w, h int
		cost []float32
	}
	var cases []tc
	for _, wh := range [][2]int{{1, 1}, {1, 37}, {41, 1}, {2, 2}, {17, 23}, {64, 64}, {200, 150}} {
		for _, pct := range []int{0, 10, 30, 45, 60, 90, 100} {
			c := make([]float32, wh[0]*wh[1])
			for i := range c {
				switch r := rng.IntN(100); {
				case r < pct:
					c[i] = Blocked
				case r == 99:
					c[i] = float32(math.NaN())
				case r == 98:
					c[i] = float32(math.Inf(-1))
				default:
					c[i] = 1 + float32(rng.IntN(4))
				}
			}
			cases = append(cases, tc{"random", wh[0], wh[1], c})
		}
	}
	// a spiral: one component that winds back over the rows filled first
	spiral := make([]float32, 61*61)
	for i := range spiral {
		spiral[i] = Blocked
	}
	x, y, dx, dy, n := 30, 30, 1, 0, 1
	for step := 0; x >= 0 && y >= 0 && x < 61 && y < 61; step++ {
		for k := 0; k < n && x >= 0 && y >= 0 && x < 61 && y < 61; k++ {
			spiral[y*61+x] = 1
			x, y = x+dx, y+dy
		}
		dx, dy = -dy, dx
		if step%2 == 1 {
			n += 2
		}
	}
	cases = append(cases, tc{"spiral", 61, 61, spiral})
	// a comb hanging from its bottom row
	comb := make([]float32, 30*20)
	for i := range comb {
		if xx, yy := i%30, i/30; yy < 19 && xx%2 == 1 {
			comb[i] = Blocked
		}
	}
	cases = append(cases, tc{"comb", 30, 20, comb})
	for _, c := range cases {
		want, wantSizes := referenceLabels(c.w, c.h, func(i int) bool { return !isBlocked(c.cost[i]) })
		got := noLabels[int32](nil, c.w*c.h, -1)
		_, _, _, sizes := fillComponents(c.cost, float32(math.Inf(-1)), math.MaxFloat32, c.w, c.h, got, -1, 0, 0, nil, []int{})
		if !slices.Equal(got, want) || !slices.Equal(sizes, wantSizes) {
			t.Fatalf("%s %dx%d: labels or sizes differ from the cell fill (%d and %d components)", c.name, c.w, c.h, len(sizes), len(wantSizes))
		}
		// the grid's own labels (Prepare), and the wide ones by clearance
		g := New(c.w, c.h)
		for i, v := range c.cost {
			g.cost[i] = v
		}
		g.topoVersion++
		g.Prepare()
		if !slices.Equal(g.labels(), want) {
			t.Fatalf("%s %dx%d: Prepare's labels differ from the cell fill", c.name, c.w, c.h)
		}
		g.Clearance(Cell{})
		cl := g.clear
		for _, need := range []uint8{2, 3} {
			wantWide, _ := referenceLabels(c.w, c.h, func(i int) bool { return cl[i] >= need })
			if got := g.wideLabels(need); !slices.Equal(got, wantWide) {
				t.Fatalf("%s %dx%d: labels of clearance %d differ from the cell fill", c.name, c.w, c.h, need)
			}
		}
	}
}

// TestFillComponentsStackStaysSmall: the scanline fill stacks spans, not
// cells, so labelling an open 1024² grid (one component of a million
// cells) leaves a stack of a few entries, where the cell fill grew to the
// size of the grid's frontier (megabytes kept by the grid).
func TestFillComponentsStackStaysSmall(t *testing.T) {
	g := New(1024, 1024)
	g.SetCost(Cell{X: 500, Y: 500}, Blocked)
	g.Prepare()
	if cap(g.stack) > 4096 {
		t.Fatalf("stack of %d entries after labelling an open grid", cap(g.stack))
	}
	if g.Component(Cell{}) != 0 || g.Component(Cell{X: 1023, Y: 1023}) != 0 || g.Component(Cell{X: 500, Y: 500}) != -1 {
		t.Fatalf("components %d, %d, %d; want 0, 0, -1", g.Component(Cell{}), g.Component(Cell{X: 1023, Y: 1023}), g.Component(Cell{X: 500, Y: 500}))
	}
}

// TestComponentLabelWidths: the labels take one byte a cell up to 255
// components, two up to 65,535, four beyond, and read the same in each
// width (against the cell fill); a labelling crossing a width boundary
// widens mid-way; relabelling a grid whose count stays allocates nothing,
// and GenerateTown leaves its one component labelled in one byte a cell.
func TestComponentLabelWidths(t *testing.T) {
	// isolated open cells on a lattice: (side/2)² components
	for _, c := range []struct {
		side  int
		width uint8
	}{{30, 1}, {31, 2}, {32, 2}, {510, 2}, {512, 4}} {
		g := New(c.side, c.side)
		for i := range g.cost {
			if x, y := i%c.side, i/c.side; x%2 == 1 || y%2 == 1 {
				g.cost[i] = Blocked
			}
		}
		g.cost[len(g.cost)-1] = 1 // one more, joined to none when side is even
		g.topoVersion++
		g.Prepare()
		want, sizes := referenceLabels(c.side, c.side, func(i int) bool { return !isBlocked(g.cost[i]) })
		if g.compW != c.width {
			t.Fatalf("side %d, %d components: labels of %d bytes, want %d", c.side, len(sizes), g.compW, c.width)
		}
		if !slices.Equal(g.labels(), want) {
			t.Fatalf("side %d, %d components: labels differ from the cell fill", c.side, len(sizes))
		}
		// a door between the first two components: relabelled in place
		g.SetCost(Cell{X: 1, Y: 0}, 1)
		allocs := testing.AllocsPerRun(3, func() {
			g.topoVersion++
			g.labelComponents()
		})
		if allocs != 0 {
			t.Fatalf("side %d: relabelling at the same width allocated %v times", c.side, allocs)
		}
		if !g.Connected(Cell{}, Cell{X: 2}) || g.Connected(Cell{}, Cell{Y: 2}) {
			t.Fatalf("side %d: the door joins (0,0) and (2,0) only", c.side)
		}
	}
	g, err := GenerateTown(200, 3)
	if err != nil {
		t.Fatal(err)
	}
	if g.compW != 1 || g.compVersion != g.topoVersion {
		t.Fatalf("GenerateTown: labels of %d bytes at topology %d (grid at %d); want 1, current", g.compW, g.compVersion, g.topoVersion)
	}
	want, _ := referenceLabels(200, 200, func(i int) bool { return !isBlocked(g.cost[i]) })
	if !slices.Equal(g.labels(), want) {
		t.Fatal("GenerateTown: its labels differ from a labelling of its map")
	}
}
