package grid

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Review 5: the widened intermediate-node pruning (jumpDiagonalExact's fmax) in
// mazes with loops, where f rises far above the start's, against Dijkstra;
// one Search reused across queries of many starts, with 1×N and N×1 grids.

// r5Maze carves a maze of corridors of width cw (cells), walls of width 1, on a
// w×h grid, then knocks out open% of the remaining wall cells (loops, rooms).
func r5Maze(rng testRand, w, h, cw, open int) *Grid {
	g := New(w, h)
	for i := range w * h {
		g.SetCost(Cell{int32(i % w), int32(i / w)}, Blocked)
	}
	step := cw + 1
	nx, ny := (w-1)/step, (h-1)/step
	if nx < 1 || ny < 1 {
		return New(w, h)
	}
	carve := func(x0, y0, x1, y1 int) {
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				g.SetCost(Cell{int32(x), int32(y)}, 1)
			}
		}
	}
	seen := make([]bool, nx*ny)
	stack := []int{0}
	seen[0] = true
	carve(1, 1, cw, cw)
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		cx, cy := c%nx, c/nx
		var nb []int
		for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			x, y := cx+d[0], cy+d[1]
			if x >= 0 && y >= 0 && x < nx && y < ny && !seen[y*nx+x] {
				nb = append(nb, y*nx+x)
			}
		}
		if len(nb) == 0 {
			stack = stack[:len(stack)-1]
			continue
		}
		n := nb[rng.Intn(len(nb))]
		seen[n] = true
		x, y := n%nx, n/nx
		ax, ay := min(cx, x)*step+1, min(cy, y)*step+1
		bx, by := max(cx, x)*step+cw, max(cy, y)*step+cw
		carve(ax, ay, bx, by)
		stack = append(stack, n)
	}
	for i := range w * h {
		c := Cell{int32(i % w), int32(i / w)}
		if !g.Passable(c) && rng.Intn(100) < open {
			g.SetCost(c, 1)
		}
	}
	return g
}

func TestJPSMazesMatchDijkstra(t *testing.T) {
	rng := newRand(5005)
	for trial := 0; trial < 60; trial++ {
		w, h := 7+rng.Intn(70), 7+rng.Intn(70)
		if trial%4 == 0 {
			w, h = 100+rng.Intn(120), 100+rng.Intn(120)
		}
		g := r5Maze(rng, w, h, 1+rng.Intn(3), []int{0, 2, 8, 25}[rng.Intn(4)])
		s := NewSearchOptions(g, Options{JumpPoints: true})
		for q := 0; q < 6; q++ {
			r4CheckRandom(t, rng, g, s, 6, "maze")
		}
	}
}

func TestJPSThinGrids(t *testing.T) {
	rng := newRand(5006)
	for trial := 0; trial < 40; trial++ {
		n := 1 + rng.Intn(200)
		w, h := n, 1
		if trial%2 == 1 {
			w, h = 1, n
		}
		if trial%7 == 3 {
			w, h = 1, 1
		}
		g := r4Grid(rng, w, h, rng.Intn(10), 1)
		s := NewSearchOptions(g, Options{JumpPoints: true})
		for q := 0; q < 5; q++ {
			st := r4Cell(rng, g)
			r4Check(t, g, s, st, []Cell{st, r4Cell(rng, g), r4Cell(rng, g), {0, 0}, {int32(w - 1), int32(h - 1)}}, "thin")
		}
	}
}

// A sliced JPS query (Start, then Step with tiny budgets) in a maze ends with
// the cost of Path's.
func TestJPSSlicedMazes(t *testing.T) {
	rng := newRand(5007)
	for trial := 0; trial < 30; trial++ {
		g := r5Maze(rng, 9+rng.Intn(60), 9+rng.Intn(60), 1+rng.Intn(2), 5)
		s := NewSearchOptions(g, Options{JumpPoints: true})
		ref := NewSearch(g)
		for q := 0; q < 6; q++ {
			a, b := r4Cell(rng, g), r4Cell(rng, g)
			_, want, werr := ref.Path(a, b, nil)
			if err := s.Start(a, b); err != nil {
				require.Error(t, werr)
				continue
			}
			for done := false; !done; {
				_, done = s.Step(1 + rng.Intn(3))
			}
			_, got, err := s.Result(nil)
			if werr != nil {
				require.Error(t, err)
				continue
			}
			require.NoError(t, err)
			require.InDelta(t, want, got, 1e-9, "%v->%v", a, b)
		}
	}
}

// Mazes edited between queries (a door closed or opened in a corridor, many
// at once), with option switches, on one Search.
func TestJPSMazesWithEditsAndSwitches(t *testing.T) {
	rng := newRand(5008)
	for trial := 0; trial < 30; trial++ {
		g := r5Maze(rng, 9+rng.Intn(60), 9+rng.Intn(60), 1+rng.Intn(2), []int{0, 5, 20}[rng.Intn(3)])
		s := NewSearchOptions(g, Options{JumpPoints: true})
		for round := 0; round < 10; round++ {
			switch rng.Intn(6) {
			case 0:
				require.NoError(t, s.SetOptions(Options{}))
			case 1:
				require.NoError(t, s.SetOptions(Options{JumpPoints: true, Weight: 0.5}))
			case 2:
				require.NoError(t, s.SetOptions(Options{JumpPoints: true, Weight: 1}))
			default:
				require.NoError(t, s.SetOptions(Options{JumpPoints: true}))
			}
			n := rng.Intn(6)
			if rng.Intn(5) == 0 {
				n = 100
			}
			for range n {
				c := r4Cell(rng, g)
				if g.Passable(c) {
					g.SetCost(c, Blocked)
				} else {
					g.SetCost(c, 1)
				}
			}
			r4CheckRandom(t, rng, g, s, 5, "maze edits")
		}
	}
}

// JPS with the other admissible heuristics (Euclidean, Zero: jumpDiagonalExact's
// eager test computes f with the octile distance whatever the heuristic) and
// with a grid of one uniform cost above 1 stays exact in mazes.
func TestJPSMazesOtherHeuristics(t *testing.T) {
	rng := newRand(5009)
	for trial := 0; trial < 24; trial++ {
		g := r5Maze(rng, 9+rng.Intn(90), 9+rng.Intn(90), 1+rng.Intn(2), []int{0, 5, 20}[rng.Intn(3)])
		if trial%3 == 2 {
			for i := range g.Width() * g.Height() {
				c := Cell{int32(i % g.Width()), int32(i / g.Width())}
				if g.Passable(c) {
					g.SetCost(c, 3)
				}
			}
		}
		h := []Heuristic{EuclideanHeuristic, ZeroHeuristic, OctileHeuristic}[trial%3]
		s := NewSearchOptions(g, Options{JumpPoints: true, Heuristic: h})
		for q := 0; q < 5; q++ {
			r4CheckRandom(t, rng, g, s, 5, "heuristic")
		}
	}
}
