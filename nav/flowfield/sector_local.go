package flowfield

import (
	"math"

	"github.com/archai-go/archai/nav/grid"
)

// localSolver runs Dijkstra's algorithm inside one sector, backwards from
// seeds, over a padded copy of the sector: the sector's cells plus a ring of
// one cell around it (the boundary cells of the neighbouring sectors, or
// blocked outside the grid), plus an outer layer always blocked, so that
// moves need no bounds checks. Seeds may lie inside the sector or on the ring;
// only cells inside the sector are relaxed, so a ring seed is a way out of
// the sector at a known cost. Moves follow [grid.Search]: orthogonal moves
// cost the entered cell's cost, diagonal ones √2 times it, no corner
// cutting (judged on the real grid, ring included).
//
// With one passable cost in the padded sector (the common case) the open
// list is one FIFO queue per move weight, as in [Field.Step]; otherwise a
// 4-ary heap. A solver is reused from sector to sector and allocates
// nothing once its buffers have grown.
type localSolver struct {
	size   int // the largest sector side
	ls     int // stride: size+4
	x0, y0 int // the sector's first cell
	w, h   int // the sector's size in cells
	cost   []float32
	inside []bool
	d      []float32
	dir    []uint8
	mv     []uint8   // per passable cell of the sector and its ring, the moves out of it a search relaxes (see loadMoves)
	uni    bool      // one passable cost
	q      [3][]item // orthogonal moves, diagonal moves, seeds (sorted by run)
	qh     [3]int
	open   []item
}

func newLocalSolver(size int) *localSolver {
	ls := size + 4
	n := ls * ls
	return &localSolver{size: size, ls: ls, cost: make([]float32, n), inside: make([]bool, n), d: make([]float32, n), dir: make([]uint8, n), mv: make([]uint8, n)}
}

// load copies the costs of the sector at (x0, y0) of w×h cells and its ring.
func (s *localSolver) load(g *grid.Grid, x0, y0, w, h int) {
	s.x0, s.y0, s.w, s.h = x0, y0, w, h
	costs := g.Costs()
	gw, gh := g.Width(), g.Height()
	inf := float32(math.Inf(1))
	s.uni = true
	first := float32(-1)
	for ly := 0; ly < h+4; ly++ {
		y := y0 + ly - 2
		row := s.cost[ly*s.ls:][:w+4]
		in := s.inside[ly*s.ls:][:w+4]
		for lx := range row {
			x := x0 + lx - 2
			c := inf
			if x >= 0 && y >= 0 && x < gw && y < gh && lx > 0 && ly > 0 && lx < w+3 && ly < h+3 {
				c = costs[y*gw+x]
			}
			row[lx] = c
			in[lx] = lx > 1 && ly > 1 && lx <= w+1 && ly <= h+1 && c <= math.MaxFloat32
			if c <= math.MaxFloat32 {
				if first < 0 {
					first = c
				} else if c != first {
					s.uni = false
				}
			}
		}
	}
}

// local returns the padded index of grid cell c (inside or on the ring).
func (s *localSolver) local(c grid.Cell) int {
	return (int(c.Y)-s.y0+2)*s.ls + int(c.X) - s.x0 + 2
}

// reset clears the values of the padded sector.
func (s *localSolver) reset() {
	inf := float32(math.Inf(1))
	for ly := 0; ly < s.h+4; ly++ {
		d := s.d[ly*s.ls:][:s.w+4]
		dir := s.dir[ly*s.ls:][:s.w+4]
		for i := range d {
			d[i], dir[i] = inf, dirNone
		}
	}
	s.q[0], s.q[1], s.q[2] = s.q[0][:0], s.q[1][:0], s.q[2][:0]
	s.qh = [3]int{}
	s.open = s.open[:0]
}

// seed opens padded cell i at value v (ignored unless it improves i and i
// is passable).
func (s *localSolver) seed(i int, v float32) {
	if !(v < s.d[i]) || s.cost[i] > math.MaxFloat32 {
		return
	}
	s.d[i], s.dir[i] = v, dirGoal
	if s.uni {
		s.q[2] = append(s.q[2], item{v, int32(i)}) // seeds are not in order: see run
	} else {
		s.push(item{v, int32(i)})
	}
}

// run completes the search from the seeds.
func (s *localSolver) run() {
	if s.uni {
		// Each FIFO queue must be in order: sort the seeds (a few hundred
		// at most) by value first; the move queues stay sorted, as each
		// receives a popped value plus its fixed weight.
		sortItems(s.q[2])
		s.runQueues()
	} else {
		s.runHeap()
	}
}

func (s *localSolver) runQueues() {
	ls := int32(s.ls)
	offs := [8]int32{-1, 1, -ls, ls, -ls - 1, -ls + 1, ls - 1, ls + 1}
	cost, inside, d, dir := s.cost, s.inside, s.d, s.dir
	// the queues and their heads in locals, not in s (the loop would store
	// a head per pop and a slice per push through s): the lowest head
	// first, ties to the lower queue (orthogonal, diagonal, seeds)
	q0, q1, q2 := s.q[0], s.q[1], s.q[2]
	h0, h1, h2 := s.qh[0], s.qh[1], s.qh[2]
	defer func() {
		s.q[0], s.q[1], s.q[2] = q0, q1, q2
		s.qh = [3]int{h0, h1, h2}
	}()
	for {
		var it item
		switch {
		case h0 < len(q0) && (h1 >= len(q1) || q0[h0].d <= q1[h1].d) && (h2 >= len(q2) || q0[h0].d <= q2[h2].d):
			it = q0[h0]
			h0++
		case h1 < len(q1) && (h2 >= len(q2) || q1[h1].d <= q2[h2].d):
			it = q1[h1]
			h1++
		case h2 < len(q2):
			it = q2[h2]
			h2++
		default:
			return
		}
		p := it.idx
		if it.d > d[p] {
			continue
		}
		enter := cost[p]
		do, dd := it.d+enter, it.d+float32(float32(grid.Sqrt2)*enter)
		if do == it.d { // a cost lost in the sum: see strictSum
			do, dd = strictSum(it.d, do), strictSum(it.d, dd)
		}
		var open uint8
		for k := 0; k < 4; k++ {
			c := p + offs[k]
			if cost[c] > math.MaxFloat32 {
				continue
			}
			open |= 1 << k
			if inside[c] && do < d[c] {
				d[c], dir[c] = do, uint8(k^1)
				q0 = append(q0, item{do, c})
			}
		}
		for k := 4; k < 8; k++ {
			if open&diagNeeds[k-4] != diagNeeds[k-4] {
				continue
			}
			c := p + offs[k]
			if inside[c] && dd < d[c] {
				d[c], dir[c] = dd, uint8(11-k)
				q1 = append(q1, item{dd, c})
			}
		}
	}
}

// loadMoves fills mv for the loaded sector, for runMoves: the moves out of
// each passable cell of the sector and its ring (a seed on the ring relaxes
// its neighbours inside), bit k when the neighbour at offset k is inside
// and, for a diagonal, the two orthogonal neighbours it passes between are
// passable (ring included). It costs about as much as load: worth it for
// several searches of one loaded sector (Sectors' one per node).
func (s *localSolver) loadMoves() {
	ls := s.ls
	offs := [8]int{-1, 1, -ls, ls, -ls - 1, -ls + 1, ls - 1, ls + 1}
	for ly := 1; ly < s.h+3; ly++ {
		for lx := 1; lx < s.w+3; lx++ {
			p := ly*ls + lx
			if s.cost[p] > math.MaxFloat32 {
				s.mv[p] = 0
				continue
			}
			var open, m uint8
			for k := 0; k < 4; k++ {
				if c := p + offs[k]; s.cost[c] <= math.MaxFloat32 {
					open |= 1 << k
					if s.inside[c] {
						m |= 1 << k
					}
				}
			}
			for k := 4; k < 8; k++ {
				if open&diagNeeds[k-4] == diagNeeds[k-4] && s.inside[p+offs[k]] {
					m |= 1 << k
				}
			}
			s.mv[p] = m
		}
	}
}

// runMoves is run for a solver whose moves are loaded (loadMoves): the same
// search, each cell's legal moves read from mv rather than from the costs.
func (s *localSolver) runMoves() {
	if s.uni {
		sortItems(s.q[2])
		s.runQueuesMoves()
	} else {
		s.runHeap()
	}
}

// runQueuesMoves is runQueues reading the moves from mv.
func (s *localSolver) runQueuesMoves() {
	ls := int32(s.ls)
	offs := [8]int32{-1, 1, -ls, ls, -ls - 1, -ls + 1, ls - 1, ls + 1}
	cost, mv, d, dir := s.cost, s.mv, s.d, s.dir
	// the queues and their heads in locals, not in s (the loop would store
	// a head per pop and a slice per push through s): the lowest head
	// first, ties to the lower queue (orthogonal, diagonal, seeds)
	q0, q1, q2 := s.q[0], s.q[1], s.q[2]
	h0, h1, h2 := s.qh[0], s.qh[1], s.qh[2]
	defer func() {
		s.q[0], s.q[1], s.q[2] = q0, q1, q2
		s.qh = [3]int{h0, h1, h2}
	}()
	for {
		var it item
		switch {
		case h0 < len(q0) && (h1 >= len(q1) || q0[h0].d <= q1[h1].d) && (h2 >= len(q2) || q0[h0].d <= q2[h2].d):
			it = q0[h0]
			h0++
		case h1 < len(q1) && (h2 >= len(q2) || q1[h1].d <= q2[h2].d):
			it = q1[h1]
			h1++
		case h2 < len(q2):
			it = q2[h2]
			h2++
		default:
			return
		}
		p := it.idx
		if it.d > d[p] {
			continue
		}
		enter := cost[p]
		do, dd := it.d+enter, it.d+float32(float32(grid.Sqrt2)*enter)
		if do == it.d { // a cost lost in the sum: see strictSum
			do, dd = strictSum(it.d, do), strictSum(it.d, dd)
		}
		m := mv[p]
		for k := 0; k < 4; k++ {
			if c := p + offs[k]; m&(1<<k) != 0 && do < d[c] {
				d[c], dir[c] = do, uint8(k^1)
				q0 = append(q0, item{do, c})
			}
		}
		for k := 4; k < 8; k++ {
			if c := p + offs[k]; m&(1<<k) != 0 && dd < d[c] {
				d[c], dir[c] = dd, uint8(11-k)
				q1 = append(q1, item{dd, c})
			}
		}
	}
}

// strictSum returns sum (a value plus a cost, as float32), or the next
// float32 above the value when the cost was lost in the sum (costs 2^24 or
// more times below the value): a cell's value is then always above its
// parent's, so that the values fall strictly along every step of a walk and
// a walk across sector edges, which trusts them, cannot come back to a cell
// (a 1×10 corridor of costs 1 and 1e-8 with 4-cell sectors cycled across an
// edge whose two cells read the same value). Only called when the orthogonal
// sum (the smaller) was lost; otherwise neither needs it.
func strictSum(v, sum float32) float32 {
	if sum > v {
		return sum
	}
	return math.Nextafter32(v, float32(math.Inf(1)))
}

// diagNeeds lists, for each diagonal of neighbourOffsets (4..7), the bits
// of the two orthogonal neighbours (0..3) it passes between.
var diagNeeds = [4]uint8{1 | 4, 2 | 4, 1 | 8, 2 | 8}

func (s *localSolver) runHeap() {
	ls := int32(s.ls)
	offs := [8]int32{-1, 1, -ls, ls, -ls - 1, -ls + 1, ls - 1, ls + 1}
	cost, inside, d, dir := s.cost, s.inside, s.d, s.dir
	for len(s.open) > 0 {
		var it item
		s.open, it = popItem(s.open)
		p := it.idx
		if it.d > d[p] {
			continue
		}
		enter := cost[p]
		do, dd := it.d+enter, it.d+float32(float32(grid.Sqrt2)*enter)
		if do == it.d { // a cost lost in the sum: see strictSum
			do, dd = strictSum(it.d, do), strictSum(it.d, dd)
		}
		var open uint8
		for k := 0; k < 4; k++ {
			c := p + offs[k]
			if cost[c] > math.MaxFloat32 {
				continue
			}
			open |= 1 << k
			if inside[c] && do < d[c] {
				d[c], dir[c] = do, uint8(k^1)
				s.open = pushItem(s.open, item{do, c})
			}
		}
		for k := 4; k < 8; k++ {
			if open&diagNeeds[k-4] != diagNeeds[k-4] {
				continue
			}
			c := p + offs[k]
			if inside[c] && dd < d[c] {
				d[c], dir[c] = dd, uint8(11-k)
				s.open = pushItem(s.open, item{dd, c})
			}
		}
	}
}

func (s *localSolver) push(it item) { s.open = pushItem(s.open, it) }

// pushItem and popItem are a binary min-heap on item.d with lazy deletion.
func pushItem(h []item, it item) []item {
	h = append(h, it)
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if h[p].d <= it.d {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = it
	return h
}

func popItem(h []item) ([]item, item) {
	top := h[0]
	last := len(h) - 1
	it := h[last]
	h = h[:last]
	n := len(h)
	i := 0
	for n > 0 {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && h[c+1].d < h[c].d {
			c++
		}
		if h[c].d >= it.d {
			break
		}
		h[i] = h[c]
		i = c
	}
	if n > 0 {
		h[i] = it
	}
	return h, top
}

// sortItems sorts a few items by value (insertion sort: seeds arrive
// mostly in order along each portal).
func sortItems(a []item) {
	for i := 1; i < len(a); i++ {
		it := a[i]
		j := i
		for j > 0 && a[j-1].d > it.d {
			a[j] = a[j-1]
			j--
		}
		a[j] = it
	}
}
