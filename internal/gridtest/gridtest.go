// Package gridtest holds brute-force references for tests of the grid searches, flow fields
// and path queue: clearance measured ring by ring, Dijkstra from a start and to goals in
// float64 with a binary heap, and random grids. They are written from the movement rules
// (8-connected, diagonal √2 times the entered cell's cost, no corner cutting, the clearance
// rule of [grid.Options.Clearance]), not from the code they check, and are slow on purpose:
// use them on grids of a few hundred cells.
package gridtest

import (
	"container/heap"
	"math"
	"math/rand/v2"

	"github.com/archai-go/archai/nav/grid"
)

// Clearance is a cell's clearance counted ring by ring: 0 for a blocked cell or one off the
// grid, else the Chebyshev distance to the nearest cell that is blocked or off the grid,
// capped at 255.
func Clearance(g *grid.Grid, c grid.Cell) int {
	return clearance(g, c, 255)
}

// clearance is [Clearance] capped at limit.
func clearance(g *grid.Grid, c grid.Cell, limit int32) int {
	if !g.Passable(c) {
		return 0
	}
	for d := int32(1); d < limit; d++ {
		for y := c.Y - d; y <= c.Y+d; y++ {
			for x := c.X - d; x <= c.X+d; x++ {
				if max(abs(x-c.X), abs(y-c.Y)) == d && !g.Passable(grid.Cell{X: x, Y: y}) {
					return int(d)
				}
			}
		}
	}
	return int(limit)
}

func abs(a int32) int32 {
	if a < 0 {
		return -a
	}
	return a
}

// Wide reports whether an agent needing clearance clr may stand on c: c is passable and,
// for clr above 1, its [Clearance] is at least clr.
func Wide(g *grid.Grid, c grid.Cell, clr uint8) bool {
	return g.Passable(c) && (clr <= 1 || clearance(g, c, int32(clr)) >= int(clr))
}

// From returns the cost of the cheapest route from start to every cell, indexed y*width+x,
// +Inf where there is none. Every cell entered, and both sides of a diagonal move, must be
// [Wide]; moves4 leaves out diagonal moves. The start itself is not tested.
func From(g *grid.Grid, start grid.Cell, moves4 bool, clr uint8) []float64 {
	w := g.Width()
	dist := infs(w * g.Height())
	if !g.InBounds(start) {
		return dist
	}
	si := int(start.Y)*w + int(start.X)
	dist[si] = 0
	q := &queue{{0, si}}
	for q.Len() > 0 {
		it := heap.Pop(q).(item)
		if it.d > dist[it.i] {
			continue
		}
		cx, cy := int32(it.i%w), int32(it.i/w)
		for dy := int32(-1); dy <= 1; dy++ {
			for dx := int32(-1); dx <= 1; dx++ {
				diag := dx != 0 && dy != 0
				if (dx == 0 && dy == 0) || (diag && moves4) {
					continue
				}
				n := grid.Cell{X: cx + dx, Y: cy + dy}
				if !Wide(g, n, clr) {
					continue
				}
				c := float64(g.Cost(n))
				if diag {
					if !Wide(g, grid.Cell{X: cx + dx, Y: cy}, clr) || !Wide(g, grid.Cell{X: cx, Y: cy + dy}, clr) {
						continue
					}
					c *= math.Sqrt2
				}
				ni := int(n.Y)*w + int(n.X)
				if nd := it.d + c; nd < dist[ni] {
					dist[ni] = nd
					heap.Push(q, item{nd, ni})
				}
			}
		}
	}
	return dist
}

// To returns the cost of the cheapest route from every cell to the nearest of goals, indexed
// y*width+x, +Inf where there is none: a flow field's integration under the rule of
// [flowfield.Field.SetClearance]. A move costs the entered cell's cost (√2 times it
// diagonally); every cell entered must be [Wide] except a goal, both sides of a diagonal
// must be Wide, and the cell a route starts from needs only be passable. Goals that are not
// passable are left out.
func To(g *grid.Grid, clr uint8, goals ...grid.Cell) []float64 {
	w := g.Width()
	dist := infs(w * g.Height())
	isGoal := map[int]bool{}
	q := &queue{}
	for _, c := range goals {
		if g.Passable(c) {
			i := int(c.Y)*w + int(c.X)
			isGoal[i] = true
			dist[i] = 0
			heap.Push(q, item{0, i})
		}
	}
	for q.Len() > 0 {
		it := heap.Pop(q).(item)
		if it.d > dist[it.i] {
			continue
		}
		v := grid.Cell{X: int32(it.i % w), Y: int32(it.i / w)}
		if !isGoal[it.i] && !Wide(g, v, clr) {
			continue // a route may start here, never pass through
		}
		for dy := int32(-1); dy <= 1; dy++ {
			for dx := int32(-1); dx <= 1; dx++ {
				if dx == 0 && dy == 0 {
					continue
				}
				u := grid.Cell{X: v.X + dx, Y: v.Y + dy} // the move is u → v
				if !g.Passable(u) {
					continue
				}
				c := float64(g.Cost(v))
				if dx != 0 && dy != 0 {
					if !Wide(g, grid.Cell{X: u.X, Y: v.Y}, clr) || !Wide(g, grid.Cell{X: v.X, Y: u.Y}, clr) {
						continue
					}
					c *= math.Sqrt2
				}
				ui := int(u.Y)*w + int(u.X)
				if nd := it.d + c; nd < dist[ui] {
					dist[ui] = nd
					heap.Push(q, item{nd, ui})
				}
			}
		}
	}
	return dist
}

// RandomGrid returns a w×h grid whose cells are blocked with probability density and, when
// maxCost is above 1, one in three of the others cost a whole number drawn from 1 to
// maxCost. The draws come from r in row order, so a seed gives one grid.
func RandomGrid(r *rand.Rand, w, h int, density float64, maxCost int) *grid.Grid {
	g := grid.New(w, h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := grid.Cell{X: int32(x), Y: int32(y)}
			if r.Float64() < density {
				g.SetCost(c, grid.Blocked)
			} else if maxCost > 1 && r.IntN(3) == 0 {
				g.SetCost(c, float32(1+r.IntN(maxCost)))
			}
		}
	}
	return g
}

// Dump draws g as text for a test's failure message, a row a line: '@' for a blocked cell,
// '.' for cost 1, else the cost's last digit.
func Dump(g *grid.Grid) string {
	b := []byte{}
	for y := 0; y < g.Height(); y++ {
		for x := 0; x < g.Width(); x++ {
			c := g.Cost(grid.Cell{X: int32(x), Y: int32(y)})
			switch {
			case math.IsInf(float64(c), 1):
				b = append(b, '@')
			case c == 1:
				b = append(b, '.')
			default:
				b = append(b, byte('0'+int(c)%10))
			}
		}
		b = append(b, '\n')
	}
	return string(b)
}

func infs(n int) []float64 {
	d := make([]float64, n)
	for i := range d {
		d[i] = math.Inf(1)
	}
	return d
}

type item struct {
	d float64
	i int
}

// queue is a binary min-heap of items by d (container/heap).
type queue []item

func (q queue) Len() int           { return len(q) }
func (q queue) Less(i, j int) bool { return q[i].d < q[j].d }
func (q queue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *queue) Push(x any)        { *q = append(*q, x.(item)) }
func (q *queue) Pop() any {
	o := *q
	x := o[len(o)-1]
	*q = o[:len(o)-1]
	return x
}
