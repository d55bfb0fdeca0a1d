package scenario

import (
	"fmt"
	"math"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/nav/grid"
)

// DefaultMapSize is the side of the generated default map for up to 10,000
// agents, in cells.
const DefaultMapSize = 256

// MapSizeFor returns the side of the generated map for a crowd of agents:
// DefaultMapSize up to 10,000 agents, and beyond that growing with the square
// root of the crowd (in steps of 64 cells), so the density stays about 0.15
// agents per cell: 832×832 for 100,000 agents.
func MapSizeFor(agents int) int {
	if agents <= 10000 {
		return DefaultMapSize
	}
	side := float64(DefaultMapSize) * math.Sqrt(float64(agents)/10000)
	return int(math.Ceil(side/64)) * 64
}

// MaxAgents is the largest crowd whose generated map (MapSizeFor) fits in a grid:
// 10,240,000 agents get an 8192×8192 map, grid.MaxCells cells.
const MaxAgents = (8192 / DefaultMapSize) * (8192 / DefaultMapSize) * 10000

// CheckAgents returns an error if the generated map of a crowd of agents
// (MapSizeFor) would have more than grid.MaxCells cells: more than MaxAgents
// agents. The scenarios' constructors call it before generating their map; a
// program with a map of its own (Config.Grid) is not bound by it.
func CheckAgents(agents int) error {
	if agents > MaxAgents {
		side := float64(DefaultMapSize) * math.Sqrt(float64(agents)/10000)
		return fmt.Errorf("%d agents: their generated map would be about %.0f×%.0f cells, more than the %d cells of a grid (grid.MaxCells); at most %d agents on a generated map",
			agents, side, side, grid.MaxCells, MaxAgents)
	}
	return nil
}

// generateFor returns the map generated for agents and seed, or CheckAgents' error.
func generateFor(agents int, seed uint64) (*grid.Grid, error) {
	if err := CheckAgents(agents); err != nil {
		return nil, fmt.Errorf("scenario: %w", err)
	}
	return GenerateMap(MapSizeFor(agents), seed), nil
}

// GenerateMap returns a size×size (at least 16×16) town map generated from seed: a walled
// border, rectangular buildings covering about a quarter of the area, and
// broken walls. Only the largest connected open area is left passable (every
// other pocket is filled), so every open cell can reach every other.
//
// Panics: if size² exceeds grid.MaxCells (size > 8192); check a crowd with
// CheckAgents before GenerateMap(MapSizeFor(agents), seed).
func GenerateMap(size int, seed uint64) *grid.Grid {
	if size < 16 {
		size = 16
	}
	g := grid.New(size, size)
	r := steer.NewRand(seed)
	block := func(x, y int) { g.SetCost(grid.Cell{X: int32(x), Y: int32(y)}, grid.Blocked) }
	for i := 0; i < size; i++ {
		block(i, 0)
		block(i, size-1)
		block(0, i)
		block(size-1, i)
	}
	area := size * size
	for covered := 0; covered < area/4; {
		w, h := 3+r.Intn(10), 3+r.Intn(10)
		x0, y0 := 1+r.Intn(size-2-w), 1+r.Intn(size-2-h)
		for y := y0; y < y0+h; y++ {
			for x := x0; x < x0+w; x++ {
				block(x, y)
			}
		}
		covered += w * h
	}
	for range size / 4 { // broken walls
		x, y := 1+r.Intn(size-2), 1+r.Intn(size-2)
		dx, dy := 1, 0
		if r.Intn(2) == 0 {
			dx, dy = 0, 1
		}
		n := 8 + r.Intn(24)
		for i := 0; i < n && x > 0 && y > 0 && x < size-1 && y < size-1; i++ {
			if i%7 != 3 { // a gap every few cells
				block(x, y)
			}
			x, y = x+dx, y+dy
		}
	}
	keepLargestArea(g)
	return g
}

// keepLargestArea blocks every passable cell outside the largest 4-connected
// open area. Under the no-corner-cutting rule a diagonal move needs both
// orthogonal neighbours open, so 4-connected areas are exactly the 8-connected
// ones.
func keepLargestArea(g *grid.Grid) {
	w, h := g.Width(), g.Height()
	label := make([]int32, w*h)
	var sizes []int
	stack := make([]int, 0, 1024)
	for start := range label {
		c := grid.Cell{X: int32(start % w), Y: int32(start / w)}
		if label[start] != 0 || !g.Passable(c) {
			continue
		}
		sizes = append(sizes, 0)
		id := int32(len(sizes))
		label[start] = id
		stack = append(stack[:0], start)
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			sizes[id-1]++
			x, y := i%w, i/w
			for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				nx, ny := x+d[0], y+d[1]
				n := ny*w + nx
				if nx < 0 || ny < 0 || nx >= w || ny >= h || label[n] != 0 ||
					!g.Passable(grid.Cell{X: int32(nx), Y: int32(ny)}) {
					continue
				}
				label[n] = id
				stack = append(stack, n)
			}
		}
	}
	best := int32(0)
	for i, n := range sizes {
		if best == 0 || n > sizes[best-1] {
			best = int32(i + 1)
		}
	}
	for i, l := range label {
		if l != 0 && l != best {
			g.SetCost(grid.Cell{X: int32(i % w), Y: int32(i / w)}, grid.Blocked)
		}
	}
}
