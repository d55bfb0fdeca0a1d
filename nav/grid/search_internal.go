package grid

import "math"

type searchState uint8

const (
	stateIdle searchState = iota
	stateRunning
	stateDone
)

// customHeuristic is the internal heuristic kind of Options.HeuristicFunc.
const customHeuristic Heuristic = 255

// node is the per-cell search state, valid only when gen equals the search's
// current generation. Indices are into the padded grid.
type node struct {
	g       float64 // best known cost from the start
	parent  int32   // index of the predecessor (a jump point for JPS)
	heapIdx int32   // position in the open heap, or closed when < 0
	gen     uint32
}

const closed = -1

// reopenTolerance is the relative improvement below which a closed node is
// not reopened (far below the 1e-4 of the MovingAI checks).
const reopenTolerance = 1e-12

// openItem is an entry of the open list: a 4-ary min-heap ordered by f, ties
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
	return dx + float64((Sqrt2-1)*dy) // rounded: no multiply-add on any build
}

func absInt(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// sync notices a grid change: it sizes the buffers to the padded grid and
// finds whether the passable cells all cost the same. The mirrors of the
// grid each search mode reads (moves, bits, pcost) are rebuilt on demand
// when their version lags costVersion.
func (s *Search) sync() {
	g := s.g
	if s.costVersion == g.version && s.nodes != nil {
		return
	}
	pw, ph := g.w+2, g.h+2
	n := pw * ph
	if len(s.nodes) != n {
		s.nodes = make([]inode, n)
		s.moves = make([]uint8, n)
		s.gen = 0
		s.pcost, s.fnodes, s.fgen = nil, nil, 0
		s.rows, s.cols = bitLines{}, bitLines{}
		s.stopE, s.stopW, s.stopS, s.stopN = bitLines{}, bitLines{}, bitLines{}, bitLines{}
		s.movesVersion, s.bitsVersion, s.pcostVersion, s.lmVersion = 0, 0, 0, 0
		s.lm, s.lmOn = nil, false
	}
	s.pw, s.ph = pw, ph
	s.div = ^uint64(0)/uint64(pw) + 1
	s.tieBits = tieBitsFor(n)
	if s.stillUniform() {
		s.costVersion = g.version
		return
	}
	lo, hi := g.costRange()
	s.isUniform = hi == 0 || lo == hi
	s.uniform = lo
	s.costVersion = g.version
}

// prepare builds, on a uniform-cost grid and for valid options, what a
// query with the Search's options reads and would otherwise build on its
// first run: the allowed moves, the jump point tables (syncBits) with
// JumpPoints, and the bucket queue of an unweighted query. A game then pays
// for them when it makes the Search, not on the first path it asks for.
func (s *Search) prepare() {
	s.sync() // the grid may have changed since the last query (SetOptions)
	if s.optErr != nil || !s.isUniform || isBlocked(s.uniform) {
		return
	}
	s.syncMoves()
	if s.opt.Weight != 0 && s.opt.Weight != 1 {
		if s.jps() {
			s.syncBits()
		}
		return
	}
	switch {
	case s.jps():
		s.syncBits()
		s.syncLandmarks()
		if s.jq == nil {
			s.jq = newJPSQueue(jpsBuckets)
		}
	case s.opt.HeuristicFunc == nil && !(s.opt.Heuristic == ManhattanHeuristic && s.opt.Moves == Moves8):
		if s.bq == nil || len(s.bq.head) != aStarRing {
			s.bq = newBucketQueue(aStarRing)
		}
	}
}

// stillUniform reports whether the grid, uniform with a finite cost at
// the last sync, still is: every cell edited since (as far as the grid
// remembers) was blocked or set to that cost. It saves sync's scan of every
// cell after a door opens or closes.
func (s *Search) stillUniform() bool {
	if s.costVersion == 0 || !s.isUniform || isBlocked(s.uniform) {
		return false
	}
	var ok bool
	s.editBuf, ok = s.g.EditsSince(s.costVersion, s.editBuf[:0])
	if !ok {
		return false
	}
	for _, c := range s.editBuf {
		if v := s.g.cost[s.g.index(c)]; !isBlocked(v) && v != s.uniform {
			return false
		}
	}
	return true
}

// syncFloat mirrors the grid's costs into the padded copy the float search
// reads, and sizes its nodes.
func (s *Search) syncFloat() {
	req := s.opt.Clearance
	if s.pcostVersion == s.costVersion && s.pcostClear == req {
		return
	}
	g, pw := s.g, s.pw
	n := pw * s.ph
	if len(s.pcost) == n && s.pcostVersion != 0 && s.pcostClear == req && s.patchFloat(req) {
		s.pcostVersion = s.costVersion
		return
	}
	if len(s.pcost) != n {
		s.pcost = make([]float32, n)
		for i := range s.pcost {
			s.pcost[i] = Blocked
		}
		s.fnodes = make([]node, n)
		s.fgen = 0
	}
	for y := 0; y < g.h; y++ {
		copy(s.pcost[(y+1)*pw+1:], g.cost[y*g.w:(y+1)*g.w])
	}
	if req > 1 { // cells too narrow for the agent count as blocked
		g.Clearance(Cell{})
		for i, c := range g.clear {
			if c < req {
				s.pcost[(i/g.w+1)*pw+i%g.w+1] = Blocked
			}
		}
	}
	s.pcostVersion, s.pcostClear = s.costVersion, req
}

// patchFloat brings pcost up to date by copying only the cells edited since
// pcostVersion (with Clearance above 1, the cells within Clearance−1 of
// each edit, whose clearance may have crossed it), and reports whether it
// did; false (nothing written) when the grid no longer remembers the edits
// or they are too many to beat a full copy.
func (s *Search) patchFloat(req uint8) bool {
	g := s.g
	var ok bool
	s.editBuf, ok = g.EditsSince(s.pcostVersion, s.editBuf[:0])
	if !ok || len(s.editBuf) > incrementalEdits {
		return false
	}
	r := int32(0)
	if req > 1 {
		r = int32(req) - 1
		if a := 2*int(r) + 1; len(s.editBuf)*a*a > g.w*g.h/4 {
			return false
		}
		g.Clearance(Cell{}) // patched near the edits, not rebuilt
	}
	pw := s.pw
	for _, e := range s.editBuf {
		x0, x1 := max(e.X-r, 0), min(e.X+r, int32(g.w-1))
		y0, y1 := max(e.Y-r, 0), min(e.Y+r, int32(g.h-1))
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				i := int(y)*g.w + int(x)
				c := g.cost[i]
				if req > 1 && g.clear[i] < req {
					c = Blocked
				}
				s.pcost[(int(y)+1)*pw+int(x)+1] = c
			}
		}
	}
	return true
}

// begin resets the buffers and pushes the start node.
func (s *Search) begin() {
	pw := s.pw
	s.start = int32((int(s.startCell.Y)+1)*pw + int(s.startCell.X) + 1)
	s.goal = int32((int(s.goalCel.Y)+1)*pw + int(s.goalCel.X) + 1)
	s.gx, s.gy = int(s.goalCel.X)+1, int(s.goalCel.Y)+1
	s.err = nil
	s.intMode = s.isUniform && (s.opt.JumpPoints || s.opt.HeuristicFunc == nil)
	s.buckets = false
	if s.start == s.goal {
		s.found, s.state = s.start, stateDone
		return
	}
	if s.intMode {
		s.beginInt()
	} else {
		s.beginFloat()
	}
	s.state = stateRunning
}

// beginFloat starts the float search.
func (s *Search) beginFloat() {
	s.syncFloat()
	s.fgen++
	if s.fgen == 0 { // wrapped: old stamps could alias the new generation
		for i := range s.fnodes {
			s.fnodes[i].gen = 0
		}
		s.fgen = 1
	}
	w := s.opt.Weight
	if w <= 0 {
		w = 1
	}
	switch {
	case s.opt.HeuristicFunc != nil:
		s.hKind, s.hScale = customHeuristic, w
	default:
		s.hKind, s.hScale = s.opt.Heuristic, w*float64(s.g.MinCost())
		if s.hKind == AutoHeuristic {
			s.hKind = OctileHeuristic
			if s.opt.Moves == Moves4 {
				s.hKind = ManhattanHeuristic
			}
		}
	}
	s.fopen = s.fopen[:0]
	s.fnodes[s.start] = node{g: 0, parent: s.start, gen: s.fgen}
	x, y := int(s.start)%s.pw, int(s.start)/s.pw
	s.push(openItem{f: s.h(x, y), g: 0, idx: s.start})
}

// h is the weighted heuristic estimate from padded (x, y) to the goal.
func (s *Search) h(x, y int) float64 {
	dx, dy := float64(absInt(x-s.gx)), float64(absInt(y-s.gy))
	switch s.hKind {
	case OctileHeuristic:
		if dx < dy {
			dx, dy = dy, dx
		}
		return s.hScale * (dx + float64((Sqrt2-1)*dy))
	case ManhattanHeuristic:
		return s.hScale * (dx + dy)
	case EuclideanHeuristic:
		return s.hScale * math.Sqrt(float64(dx*dx)+float64(dy*dy))
	case customHeuristic:
		h := s.opt.HeuristicFunc(Cell{int32(x - 1), int32(y - 1)}, s.goalCel)
		v := s.hScale * h
		if !(h >= 0) || math.IsInf(v, 1) { // NaN, negative or infinite: 0 is always admissible
			s.badH++
			return 0
		}
		return v
	}
	return 0
}

// finish ends the search; found < 0 means the open list ran empty.
func (s *Search) finish(found int32) {
	s.state = stateDone
	s.found = found
	if found < 0 {
		s.err = ErrUnreachable // cannot happen when components are right
	}
}

// run performs up to budget expansions of the float search.
func (s *Search) run(budget int) {
	nodes, pc := s.fnodes, s.pcost
	pw := s.pw
	ipw := int32(pw)
	moves8 := s.opt.Moves == Moves8
	for n := 0; n < budget; n++ {
		ci, ok := s.fnext()
		if !ok {
			return
		}
		cg := nodes[ci].g
		x, y := int(ci)%pw, int(ci)/pw

		// Orthogonal neighbours first; diagonals need both of theirs.
		cW, cE, cN, cS := pc[ci-1], pc[ci+1], pc[ci-ipw], pc[ci+ipw]
		oW, oE, oN, oS := !isBlocked(cW), !isBlocked(cE), !isBlocked(cN), !isBlocked(cS)
		if oW {
			s.relax(ci-1, x-1, y, ci, cg+float64(cW))
		}
		if oE {
			s.relax(ci+1, x+1, y, ci, cg+float64(cE))
		}
		if oN {
			s.relax(ci-ipw, x, y-1, ci, cg+float64(cN))
		}
		if oS {
			s.relax(ci+ipw, x, y+1, ci, cg+float64(cS))
		}
		if !moves8 {
			continue
		}
		if oN && oW {
			if c := pc[ci-ipw-1]; !isBlocked(c) {
				s.relax(ci-ipw-1, x-1, y-1, ci, cg+float64(Sqrt2*float64(c)))
			}
		}
		if oN && oE {
			if c := pc[ci-ipw+1]; !isBlocked(c) {
				s.relax(ci-ipw+1, x+1, y-1, ci, cg+float64(Sqrt2*float64(c)))
			}
		}
		if oS && oW {
			if c := pc[ci+ipw-1]; !isBlocked(c) {
				s.relax(ci+ipw-1, x-1, y+1, ci, cg+float64(Sqrt2*float64(c)))
			}
		}
		if oS && oE {
			if c := pc[ci+ipw+1]; !isBlocked(c) {
				s.relax(ci+ipw+1, x+1, y+1, ci, cg+float64(Sqrt2*float64(c)))
			}
		}
	}
}

// relax offers cost ng for reaching cell n (at padded x, y) from parent. A
// closed node whose cost improves is reopened, which keeps A* exact under
// admissible but inconsistent heuristics.
func (s *Search) relax(n int32, x, y int, parent int32, ng float64) {
	nd := &s.fnodes[n]
	if nd.gen != s.fgen {
		*nd = node{g: ng, parent: parent, gen: s.fgen}
		s.push(openItem{f: ng + s.h(x, y), g: ng, idx: n})
		return
	}
	if ng >= nd.g {
		return
	}
	if nd.heapIdx == closed {
		// Sums of √2 taken in another order differ in the last bits; such
		// "improvements" are rounding, not a better path, and reopening for
		// them would cascade.
		if ng >= nd.g-float64(reopenTolerance*nd.g) {
			return
		}
		nd.g = ng
		nd.parent = parent
		s.reopened++
		s.push(openItem{f: ng + s.h(x, y), g: ng, idx: n})
		return
	}
	nd.g = ng
	nd.parent = parent
	i := int(nd.heapIdx)
	s.fopen[i].f = ng + s.h(x, y)
	s.fopen[i].g = ng
	s.up(i)
}

func (s *Search) push(it openItem) {
	s.fopen = append(s.fopen, it)
	s.up(len(s.fopen) - 1)
}

func (s *Search) pop() openItem {
	open := s.fopen
	top := open[0]
	last := len(open) - 1
	if last > 0 {
		open[0] = open[last]
	}
	s.fopen = open[:last]
	if last > 0 {
		s.down(0)
	}
	return top
}

// The open list is a 4-ary heap: shallower than a binary one, and the four
// children of a node share a cache line or two.
func (s *Search) up(i int) {
	open := s.fopen
	nodes := s.fnodes
	it := open[i]
	for i > 0 {
		p := (i - 1) >> 2
		if !it.less(open[p]) {
			break
		}
		open[i] = open[p]
		nodes[open[i].idx].heapIdx = int32(i)
		i = p
	}
	open[i] = it
	nodes[it.idx].heapIdx = int32(i)
}

func (s *Search) down(i int) {
	open := s.fopen
	nodes := s.fnodes
	n := len(open)
	it := open[i]
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		best := c
		end := min(c+4, n)
		for k := c + 1; k < end; k++ {
			if open[k].less(open[best]) {
				best = k
			}
		}
		if !open[best].less(it) {
			break
		}
		open[i] = open[best]
		nodes[open[i].idx].heapIdx = int32(i)
		i = best
	}
	open[i] = it
	nodes[it.idx].heapIdx = int32(i)
}

// reconstruct appends the path start..goal to dst by following parents and
// returns it with its cost.
func (s *Search) reconstruct(dst []Cell) ([]Cell, float64, error) {
	if s.intMode {
		return s.reconstructInt(dst)
	}
	pw := int32(s.pw)
	base := len(dst)
	i := s.found
	x, y := i%pw, i/pw
	dst = append(dst, Cell{X: x - 1, Y: y - 1})
	for i != s.start {
		p := s.fnodes[i].parent
		px, py := p%pw, p/pw
		sx, sy := sign32(px-x), sign32(py-y)
		for x != px || y != py {
			x += sx
			y += sy
			dst = append(dst, Cell{X: x - 1, Y: y - 1})
		}
		i = p
	}
	for l, r := base, len(dst)-1; l < r; l, r = l+1, r-1 {
		dst[l], dst[r] = dst[r], dst[l]
	}
	if s.found == s.start {
		return dst, 0, nil
	}
	return dst, s.fnodes[s.found].g, nil
}

func sign32(v int32) int32 {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// fnext pops the best open node of the float search and closes it, for one
// expansion. It reports false, having finished the search, when the open
// list is empty (unreachable) or the node popped is the goal.
func (s *Search) fnext() (int32, bool) {
	if len(s.fopen) == 0 {
		s.finish(-1)
		return 0, false
	}
	ci := s.pop().idx
	s.fnodes[ci].heapIdx = closed
	s.expanded++
	if ci == s.goal {
		s.finish(ci)
		return 0, false
	}
	return ci, true
}
