package grid

import (
	"math"
	"math/bits"
	"unsafe"
)

// Landmarks (differential heuristics: A. V. Goldberg, C. Harrelson,
// "Computing the Shortest Path: A* Search Meets Graph Theory", SODA 2005;
// N. Sturtevant et al., "Memory-Based Heuristics for Explicit State
// Spaces", IJCAI 2009) for the default jump point query (runJPSExact). For
// each of lmCount landmark cells L the search keeps d(L, n), the integer
// cost of a shortest path from L to every cell n; by the triangle
// inequality |d(L, goal) − d(L, n)| is at most the cost from n to the goal,
// and it changes by at most an edge's cost along an edge, so its largest
// value over the landmarks, and the octile distance, is a consistent
// heuristic: the search stays exact and its f stays monotone. On a map of
// scattered obstacles, where a shortest path is on average 1.16 times the
// octile distance, it makes JPS expand less than half the jump points.
//
// After an edit the distances need not be recomputed whole. The invariant is
// that lm holds the exact distances in a graph G* that contains every move
// the grid now allows (G* only ever gains moves): the heuristic is then
// consistent on the grid, whose moves are a subset of G*'s with the same
// costs. Blocking a cell only removes moves, so nothing changes; opening one
// adds moves within the 3×3 block around it, and a Dijkstra search seeded
// with that block lowers the distances the new moves shorten
// (repairLandmarks), often none. When the grid no longer remembers its
// edits (more than MaxEditLog since), the cells opened are found by
// comparing passability with a bit per cell kept at the last update
// (lmOpened); only past lmMaxOpened of them (another map copied over the
// grid) are the distances measured again in full, about 200 ms of CPU for
// a 1024² map.

// lmCount is the number of landmarks; each costs 4 bytes per cell.
const lmCount = 4

// lmMaxCells bounds the grids given landmarks (width × height): a shortest
// path visits a cell at most once, so its cost stays below
// lmMaxCells·costDiag < 2³². The table has 16 bytes, and the build's
// scratch kept for the next build 4, per cell of the padded grid,
// (width+2)·(height+2): 21 MB for 1024², 63 MB for a 1×2²⁰ corridor.
const lmMaxCells = 1 << 20

// lmInf marks a cell no landmark path reaches.
const lmInf = math.MaxUint32

// lmItem is an entry of the landmarks' Dijkstra heap.
type lmItem struct {
	d uint32
	i int32
}

// syncLandmarks brings the landmark distances up to the grid's version: a
// repair of the cells opened since (repairLandmarks) when the grid
// remembers its edits, else a full computation. Grids above lmMaxCells
// cells get none (lmOn false: the octile heuristic alone).
func (s *Search) syncLandmarks() {
	if s.lmVersion == s.costVersion {
		return
	}
	g := s.g
	if g.w*g.h > lmMaxCells {
		s.lm, s.lmOn = nil, false
		s.lmVersion = s.costVersion
		return
	}
	if s.lmVersion != 0 && s.lmOn {
		var ok bool
		s.editBuf, ok = g.EditsSince(s.lmVersion, s.editBuf[:0])
		if ok && s.lmW == g.w && s.lmH == g.h {
			s.repairLandmarks()
			for _, c := range s.editBuf { // lmNotePass for the cells edited
				i := g.index(c)
				if isBlocked(g.cost[i]) {
					s.lmPass[i>>6] &^= 1 << uint(i&63)
				} else {
					s.lmPass[i>>6] |= 1 << uint(i&63)
				}
			}
			s.lmVersion = s.costVersion
			return
		}
		// the grid forgot some edits (more than MaxEditLog): the cells
		// opened since are those passable now and not then
		if s.editBuf, ok = s.lmOpened(s.editBuf[:0]); ok {
			s.repairLandmarks()
			s.lmNotePass()
			s.lmVersion = s.costVersion
			return
		}
	}
	s.buildLandmarks()
	s.lmNotePass()
	s.lmVersion = s.costVersion
}

// lmMaxOpened is the most cells opened since the landmarks' version that
// syncLandmarks repairs from when the grid no longer remembers its edits
// (and at most a sixteenth of the cells); past it (another map copied over
// the grid, say) it computes them anew, which also forgets the bounds of
// the moves the grid has lost.
const lmMaxOpened = 4096

// lmOpened appends to dst the cells passable now that were not when the
// landmarks were last brought up to date (lmPass), and reports true; or
// false when there are more than lmMaxOpened (or a sixteenth of the
// cells), or lmPass is another grid shape's.
func (s *Search) lmOpened(dst []Cell) ([]Cell, bool) {
	g := s.g
	if s.lmW != g.w || s.lmH != g.h || len(s.lmPass) != (g.w*g.h+63)/64 {
		return dst, false
	}
	limit := min(lmMaxOpened, g.w*g.h/16)
	for i, c := range g.cost {
		if !isBlocked(c) && s.lmPass[i>>6]>>uint(i&63)&1 == 0 {
			if len(dst) >= limit {
				return dst, false
			}
			dst = append(dst, Cell{int32(i % g.w), int32(i / g.w)})
		}
	}
	return dst, true
}

// lmNotePass records which cells are passable as the landmarks are brought
// up to date (lmPass, a bit per cell): lmOpened compares with it.
func (s *Search) lmNotePass() {
	g := s.g
	n := (g.w*g.h + 63) / 64
	if len(s.lmPass) != n {
		s.lmPass = make([]uint64, n)
	}
	s.lmW, s.lmH = g.w, g.h
	p := s.lmPass
	clear(p)
	for i, c := range g.cost {
		if !isBlocked(c) {
			p[i>>6] |= 1 << uint(i&63)
		}
	}
}

// buildLandmarks chooses the landmarks and computes their distances. The
// first is the passable cell of the largest component nearest the grid's
// top-left corner; each next one the cell of that component farthest (by
// path cost) from the landmarks chosen so far.
func (s *Search) buildLandmarks() {
	g := s.g
	n := s.pw * s.ph
	if len(s.lm) != lmCount*n {
		s.lm = make([]uint32, lmCount*n)
	}
	s.lmOn = false
	// the largest component (components are labelled once per grid version)
	if g.compVersion != g.topoVersion {
		g.labelComponents()
	}
	var sizes []int
	for i, c := range g.cost {
		if !isBlocked(c) {
			l := int(g.compAt(i))
			for len(sizes) <= l {
				sizes = append(sizes, 0)
			}
			sizes[l]++
		}
	}
	if len(sizes) == 0 {
		return // nothing passable
	}
	big := 0
	for l, k := range sizes {
		if k > sizes[big] {
			big = l
		}
	}
	first, bestSum := -1, 0
	for i, c := range g.cost {
		x, y := i%g.w, i/g.w
		if !isBlocked(c) && (first < 0 || x+y < bestSum) && int(g.compAt(i)) == big {
			first, bestSum = i, x+y
		}
	}
	if cap(s.lmMin) < n {
		s.lmMin = make([]uint32, n)
	}
	minD := s.lmMin[:n]
	for i := range minD {
		minD[i] = lmInf
	}
	next := int32((first/g.w+1)*s.pw + first%g.w + 1)
	for k := range lmCount {
		for i := range n {
			s.lm[i*lmCount+k] = lmInf
		}
		s.lmFrom(next, k)
		far, fd := next, uint32(0)
		for i := range n {
			d := s.lm[i*lmCount+k]
			if d < minD[i] {
				minD[i] = d
			}
			if m := minD[i]; m != lmInf && m > fd {
				far, fd = int32(i), m
			}
		}
		next = far
	}
	s.lmOn = true
}

// lmFrom computes landmark k's distances from padded cell src (every
// entry lmInf before) by Dinitz's variant of Dijkstra's algorithm: in
// buckets of costStraight (the cheaper move) of distance, the cells of the
// lowest bucket are all final, so each bucket is a stack, and a move leads
// one or two buckets on (costDiag < 2·costStraight): a ring of three.
func (s *Search) lmFrom(src int32, k int) {
	pw := int32(s.pw)
	lm, moves := s.lm, s.moves
	lm[int(src)*lmCount+k] = 0
	var ring [3][]lmItem
	for b := range ring {
		ring[b] = s.lmRing[b][:0]
	}
	ring[0] = append(ring[0], lmItem{0, src})
	for b, empty := 0, 0; empty < 3; b++ {
		cur := ring[b%3]
		if len(cur) == 0 {
			empty++
			continue
		}
		empty = 0
		for len(cur) > 0 {
			it := cur[len(cur)-1]
			cur = cur[:len(cur)-1]
			if it.d != lm[int(it.i)*lmCount+k] {
				continue // stale
			}
			for m := moves[it.i]; m != 0; m &= m - 1 {
				d := bits.TrailingZeros8(m)
				c := uint32(costStraight)
				if d >= 4 {
					c = costDiag
				}
				ni := it.i + moveDY[d]*pw + moveDX[d]
				if nd := it.d + c; nd < lm[int(ni)*lmCount+k] {
					lm[int(ni)*lmCount+k] = nd
					nb := int(nd/costStraight) % 3
					ring[nb] = append(ring[nb], lmItem{nd, ni})
				}
			}
		}
		ring[b%3] = cur
	}
	for b := range ring {
		s.lmRing[b] = ring[b][:0]
	}
}

// repairLandmarks lowers the landmark distances after the edits in
// s.editBuf: every cell now passable seeds, with its 3×3 block, a Dijkstra
// search per landmark that relaxes the grid's moves (the allowed moves are
// up to date) and goes on only through the cells it improves.
func (s *Search) repairLandmarks() {
	pw := int32(s.pw)
	g := s.g
	for k := range lmCount {
		s.lmHeap = s.lmHeap[:0]
		for _, c := range s.editBuf {
			if isBlocked(g.cost[g.index(c)]) {
				continue
			}
			i := (c.Y+1)*pw + c.X + 1
			for dy := int32(-1); dy <= 1; dy++ {
				for dx := int32(-1); dx <= 1; dx++ {
					j := i + dy*pw + dx
					if d := s.lm[int(j)*lmCount+k]; d != lmInf {
						s.lmPush(lmItem{d, j})
					}
				}
			}
		}
		s.lmDijkstra(k)
	}
}

// lmDijkstra runs Dijkstra's algorithm for landmark k from the entries of
// s.lmHeap, whose distances are already in s.lm: it relaxes the allowed
// moves of each cell popped and lowers what they improve.
func (s *Search) lmDijkstra(k int) {
	pw := int32(s.pw)
	lm, moves := s.lm, s.moves
	for len(s.lmHeap) > 0 {
		it := s.lmPop()
		if it.d != lm[int(it.i)*lmCount+k] {
			continue // stale
		}
		for m := moves[it.i]; m != 0; m &= m - 1 {
			d := bits.TrailingZeros8(m)
			c := uint32(costStraight)
			if d >= 4 {
				c = costDiag
			}
			ni := it.i + moveDY[d]*pw + moveDX[d]
			if nd := it.d + c; nd < lm[int(ni)*lmCount+k] {
				lm[int(ni)*lmCount+k] = nd
				s.lmPush(lmItem{nd, ni})
			}
		}
	}
}

func (s *Search) lmPush(it lmItem) {
	h := append(s.lmHeap, it)
	for j := len(h) - 1; j > 0; {
		p := (j - 1) / 2
		if h[p].d <= h[j].d {
			break
		}
		h[p], h[j] = h[j], h[p]
		j = p
	}
	s.lmHeap = h
}

func (s *Search) lmPop() lmItem {
	h := s.lmHeap
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	for j := 0; ; {
		l := 2*j + 1
		if l >= len(h) {
			break
		}
		if r := l + 1; r < len(h) && h[r].d < h[l].d {
			l = r
		}
		if h[j].d <= h[l].d {
			break
		}
		h[j], h[l] = h[l], h[j]
		j = l
	}
	s.lmHeap = h
	return top
}

// lmBegin sets the query's landmark distances of the goal (padded cell
// goal), or turns the landmarks off for the query when there are none.
func (s *Search) lmBegin(goal int32) {
	s.lmq = false
	if !s.lmOn {
		return
	}
	p := (*[lmCount]uint32)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(s.lm)), uintptr(goal)*lmCount*4))
	s.lmg = [lmCount]int64{int64(p[0]), int64(p[1]), int64(p[2]), int64(p[3])}
	s.lmq = true
}

// hLM is the landmarks' bound on the cost from padded cell i to the goal:
// max over the landmarks of |d(L, goal) − d(L, i)|, without branches. The
// cells a query reaches are all reached from the goal in G* (see above), so
// a landmark reaches all of them or none (lmInf everywhere: differences 0).
func (s *Search) hLM(i int32) int64 {
	p := (*[lmCount]uint32)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(s.lm)), uintptr(i)*lmCount*4))
	a := int64(p[0]) - s.lmg[0]
	b := int64(p[1]) - s.lmg[1]
	c := int64(p[2]) - s.lmg[2]
	d := int64(p[3]) - s.lmg[3]
	a = (a ^ a>>63) - a>>63
	b = (b ^ b>>63) - b>>63
	c = (c ^ c>>63) - c>>63
	d = (d ^ d>>63) - d>>63
	a = maxI64(a, b)
	c = maxI64(c, d)
	return maxI64(a, c)
}

// maxI64 is max(a, b) without a branch, for |a − b| < 2⁶³.
func maxI64(a, b int64) int64 {
	t := a - b
	return a - t&(t>>63)
}
