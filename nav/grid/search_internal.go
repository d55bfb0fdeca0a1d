package grid

import "math"

// node is the per-cell search state, valid only when gen equals the search's
// current generation.
type node struct {
	g       float64 // best known cost from the start
	parent  int32   // index of the predecessor cell
	heapIdx int32   // position in the open heap, or closed when < 0
	gen     uint32
}

const closed = -1

// openItem is an entry of the open list: a binary min-heap ordered by f, ties
// broken towards larger g (deeper nodes first, fewer expansions).
type openItem struct {
	f, g float64
	idx  int32
}

func (a openItem) less(b openItem) bool {
	return a.f < b.f || (a.f == b.f && a.g > b.g)
}

func octile(dx, dy float64) float64 {
	if dx < dy {
		dx, dy = dy, dx
	}
	return dx + (Sqrt2-1)*dy
}

// run performs A* from start to goal (cell indices) and returns the goal
// index, or -1 when the open list empties first.
func (s *Search) run(start, goal int, goalCell Cell, minCost float64) int32 {
	s.gen++
	if s.gen == 0 { // wrapped: old stamps could alias the new generation
		for i := range s.nodes {
			s.nodes[i].gen = 0
		}
		s.gen = 1
	}
	g := s.g
	w, h := g.w, g.h
	costs := g.cost
	nodes := s.nodes
	s.goalX, s.goalY, s.hScale = float64(goalCell.X), float64(goalCell.Y), minCost

	s.open = s.open[:0]
	sx, sy := start%w, start/w
	nodes[start] = node{g: 0, parent: int32(start), gen: s.gen}
	s.push(openItem{f: s.heur(sx, sy), g: 0, idx: int32(start)})

	for len(s.open) > 0 {
		cur := s.pop()
		ci := int(cur.idx)
		nodes[ci].heapIdx = closed
		s.expanded++
		if ci == goal {
			return cur.idx
		}
		cg := nodes[ci].g
		x, y := ci%w, ci/w

		// Orthogonal neighbours first; diagonals need both of theirs.
		var pW, pE, pN, pS bool
		if x > 0 {
			if c := costs[ci-1]; !isBlocked(c) {
				pW = true
				s.relax(ci-1, x-1, y, ci, cg+float64(c))
			}
		}
		if x+1 < w {
			if c := costs[ci+1]; !isBlocked(c) {
				pE = true
				s.relax(ci+1, x+1, y, ci, cg+float64(c))
			}
		}
		if y > 0 {
			if c := costs[ci-w]; !isBlocked(c) {
				pN = true
				s.relax(ci-w, x, y-1, ci, cg+float64(c))
			}
		}
		if y+1 < h {
			if c := costs[ci+w]; !isBlocked(c) {
				pS = true
				s.relax(ci+w, x, y+1, ci, cg+float64(c))
			}
		}
		if pN && pW {
			if c := costs[ci-w-1]; !isBlocked(c) {
				s.relax(ci-w-1, x-1, y-1, ci, cg+Sqrt2*float64(c))
			}
		}
		if pN && pE {
			if c := costs[ci-w+1]; !isBlocked(c) {
				s.relax(ci-w+1, x+1, y-1, ci, cg+Sqrt2*float64(c))
			}
		}
		if pS && pW {
			if c := costs[ci+w-1]; !isBlocked(c) {
				s.relax(ci+w-1, x-1, y+1, ci, cg+Sqrt2*float64(c))
			}
		}
		if pS && pE {
			if c := costs[ci+w+1]; !isBlocked(c) {
				s.relax(ci+w+1, x+1, y+1, ci, cg+Sqrt2*float64(c))
			}
		}
	}
	return -1
}

// heur is the octile distance from (x, y) to the goal, scaled by the minimum
// cell cost so that it never overestimates.
func (s *Search) heur(x, y int) float64 {
	return s.hScale * octile(math.Abs(float64(x)-s.goalX), math.Abs(float64(y)-s.goalY))
}

// relax offers cost ng for reaching cell n (at x, y) from parent.
func (s *Search) relax(n, x, y, parent int, ng float64) {
	nd := &s.nodes[n]
	if nd.gen != s.gen {
		*nd = node{g: ng, parent: int32(parent), gen: s.gen}
		s.push(openItem{f: ng + s.heur(x, y), g: ng, idx: int32(n)})
		return
	}
	if nd.heapIdx == closed || ng >= nd.g {
		return
	}
	nd.g = ng
	nd.parent = int32(parent)
	i := int(nd.heapIdx)
	s.open[i].f = ng + s.heur(x, y)
	s.open[i].g = ng
	s.up(i)
}

func (s *Search) push(it openItem) {
	s.open = append(s.open, it)
	i := len(s.open) - 1
	s.nodes[it.idx].heapIdx = int32(i)
	s.up(i)
}

func (s *Search) pop() openItem {
	open := s.open
	top := open[0]
	last := len(open) - 1
	if last > 0 {
		open[0] = open[last]
		s.nodes[open[0].idx].heapIdx = 0
	}
	s.open = open[:last]
	if last > 1 {
		s.down(0)
	}
	return top
}

func (s *Search) up(i int) {
	open := s.open
	it := open[i]
	for i > 0 {
		p := (i - 1) / 2
		if !it.less(open[p]) {
			break
		}
		open[i] = open[p]
		s.nodes[open[i].idx].heapIdx = int32(i)
		i = p
	}
	open[i] = it
	s.nodes[it.idx].heapIdx = int32(i)
}

func (s *Search) down(i int) {
	open := s.open
	n := len(open)
	it := open[i]
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if r := c + 1; r < n && open[r].less(open[c]) {
			c = r
		}
		if !open[c].less(it) {
			break
		}
		open[i] = open[c]
		s.nodes[open[i].idx].heapIdx = int32(i)
		i = c
	}
	open[i] = it
	s.nodes[it.idx].heapIdx = int32(i)
}

// reconstruct appends the path start..goal to dst by following parents.
func (s *Search) reconstruct(start, goal int32, dst []Cell) []Cell {
	w := int32(s.g.w)
	base := len(dst)
	for i := goal; ; i = s.nodes[i].parent {
		dst = append(dst, Cell{X: i % w, Y: i / w})
		if i == start {
			break
		}
	}
	for l, r := base, len(dst)-1; l < r; l, r = l+1, r-1 {
		dst[l], dst[r] = dst[r], dst[l]
	}
	return dst
}
