package flowfield

import (
	"math"

	"github.com/archai-go/archai/nav/grid"
)

// refField is the flow-field build as it was before the queue build (issue
// 13): Dijkstra from the goals with a 4-ary heap over the unpadded grid,
// kept as the reference for exactness tests and the side-by-side benchmark.
type refField struct {
	g     *grid.Grid
	w, h  int
	integ []float32
	dir   []uint8
	open  []item
}

func newRef(g *grid.Grid) *refField {
	n := g.Width() * g.Height()
	return &refField{g: g, w: g.Width(), h: g.Height(), integ: make([]float32, n), dir: make([]uint8, n)}
}

func (f *refField) build(goals ...grid.Cell) {
	inf := float32(math.Inf(1))
	for i := range f.integ {
		f.integ[i] = inf
	}
	for i := range f.dir {
		f.dir[i] = dirNone
	}
	f.open = f.open[:0]
	for _, c := range goals {
		if !f.g.Passable(c) {
			continue
		}
		i := int(c.Y)*f.w + int(c.X)
		if f.integ[i] != 0 {
			f.integ[i] = 0
			f.dir[i] = dirGoal
			f.open = heapPush(f.open, item{0, int32(i)})
		}
	}
	costs := f.g.Costs()
	w, h := int32(f.w), int32(f.h)
	for len(f.open) > 0 {
		var it item
		f.open, it = heapPop(f.open)
		ni := it.idx
		if it.d > f.integ[ni] {
			continue
		}
		nx, ny := ni%w, ni/w
		enter := costs[ni]
		var open [4]bool
		for k := 0; k < 4; k++ {
			o := neighbourOffsets[k]
			cx, cy := nx+o.X, ny+o.Y
			if cx < 0 || cy < 0 || cx >= w || cy >= h {
				continue
			}
			ci := cy*w + cx
			if costs[ci] > math.MaxFloat32 {
				continue
			}
			open[k] = true
			f.relax(ci, it.d+enter, uint8(k^1))
		}
		for k := 4; k < 8; k++ {
			o := neighbourOffsets[k]
			if !open[sideX(o.X)] || !open[sideY(o.Y)] {
				continue
			}
			ci := (ny+o.Y)*w + nx + o.X
			if costs[ci] > math.MaxFloat32 {
				continue
			}
			f.relax(ci, it.d+float32(float32(grid.Sqrt2)*enter), uint8(11-k))
		}
	}
}

func (f *refField) relax(i int32, d float32, dir uint8) {
	if d >= f.integ[i] {
		return
	}
	f.integ[i] = d
	f.dir[i] = dir
	f.open = heapPush(f.open, item{d, i})
}

func heapPush(open []item, it item) []item {
	open = append(open, it)
	i := len(open) - 1
	for i > 0 {
		p := (i - 1) >> 2
		if open[p].d <= it.d {
			break
		}
		open[i] = open[p]
		i = p
	}
	open[i] = it
	return open
}

func heapPop(open []item) ([]item, item) {
	top := open[0]
	last := len(open) - 1
	it := open[last]
	open = open[:last]
	n := len(open)
	if n == 0 {
		return open, top
	}
	i := 0
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		best := c
		for k := c + 1; k < min(c+4, n); k++ {
			if open[k].d < open[best].d {
				best = k
			}
		}
		if open[best].d >= it.d {
			break
		}
		open[i] = open[best]
		i = best
	}
	open[i] = it
	return open, top
}

// dijkstra64 is a plain Dijkstra in float64 from the goals (octile moves,
// √2 diagonals, entering cost of the cell moved into, no corner cutting),
// independent of both builds: the cost of each cell to its nearest goal,
// +Inf where none is reachable.
func dijkstra64(g *grid.Grid, goals ...grid.Cell) []float64 {
	w, h := g.Width(), g.Height()
	dist := make([]float64, w*h)
	for i := range dist {
		dist[i] = math.Inf(1)
	}
	type e struct {
		d float64
		i int
	}
	var pq []e
	push := func(x e) {
		pq = append(pq, x)
		for i := len(pq) - 1; i > 0; {
			p := (i - 1) / 2
			if pq[p].d <= pq[i].d {
				break
			}
			pq[p], pq[i] = pq[i], pq[p]
			i = p
		}
	}
	pop := func() e {
		top := pq[0]
		pq[0] = pq[len(pq)-1]
		pq = pq[:len(pq)-1]
		for i := 0; ; {
			l, r, m := 2*i+1, 2*i+2, i
			if l < len(pq) && pq[l].d < pq[m].d {
				m = l
			}
			if r < len(pq) && pq[r].d < pq[m].d {
				m = r
			}
			if m == i {
				break
			}
			pq[m], pq[i] = pq[i], pq[m]
			i = m
		}
		return top
	}
	for _, c := range goals {
		if g.Passable(c) {
			dist[int(c.Y)*w+int(c.X)] = 0
			push(e{0, int(c.Y)*w + int(c.X)})
		}
	}
	for len(pq) > 0 {
		t := pop()
		if t.d > dist[t.i] {
			continue
		}
		x, y := int32(t.i%w), int32(t.i/w)
		enter := float64(g.Cost(grid.Cell{X: x, Y: y}))
		for _, o := range neighbourOffsets {
			c := grid.Cell{X: x + o.X, Y: y + o.Y}
			if !g.Passable(c) {
				continue
			}
			step := enter
			if o.X != 0 && o.Y != 0 {
				if !g.Passable(grid.Cell{X: x + o.X, Y: y}) || !g.Passable(grid.Cell{X: x, Y: y + o.Y}) {
					continue
				}
				step = math.Sqrt2 * enter
			}
			ci := int(c.Y)*w + int(c.X)
			if d := t.d + step; d < dist[ci] {
				dist[ci] = d
				push(e{d, ci})
			}
		}
	}
	return dist
}

// sideX and sideY map a diagonal offset's components to the index (in
// neighbourOffsets) of the orthogonal neighbour in that direction.
func sideX(dx int32) int {
	if dx < 0 {
		return 0
	}
	return 1
}

func sideY(dy int32) int {
	if dy < 0 {
		return 2
	}
	return 3
}
