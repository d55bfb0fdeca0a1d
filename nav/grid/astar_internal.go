package grid

import (
	"math"
	"math/bits"
	"unsafe"
)

// The integer search runs A* and jump point search on grids whose passable
// cells all cost the same. Move costs are integers, costStraight and
// costDiag, whose ratio 3363/2378 is a convergent of √2 (1.41421362…, too
// long by 4.4e-8 relative): path lengths a + b√2 (a straight, b diagonal
// moves) compare exactly as 2378a + 3363b unless two paths differ by more
// than about 2,300 diagonal moves, |p − q√2| being at least about 1/(3q)
// for every q. The search keeps no float on its hot path.
//
// Per padded cell it reads one byte of allowed moves (moveW … moveSE, the
// no-corner-cutting rule folded in) and one 8-byte node (inode) stamped
// with the search's generation instead of cleared. The open list is a
// bucket queue (bucketQueue) under a consistent heuristic and a 4-ary
// min-heap of (key, cell) pairs otherwise, both without decrease-key: an
// improved node is pushed again, and the stale entry, which always pops
// later, is skipped because its node is closed by then.
const (
	costStraight = 2378
	costDiag     = 3363
)

// dirStart is the direction the start node was "reached" in: none.
const dirStart = 8

// Allowed moves of a cell, one bit per direction; the bit of a diagonal
// move is set only when both orthogonal cells beside it are passable.
const (
	moveW  = 1 << iota // (−1, 0)
	moveE              // (+1, 0)
	moveN              // (0, −1)
	moveS              // (0, +1)
	moveNW             // (−1, −1)
	moveNE             // (+1, −1)
	moveSW             // (−1, +1)
	moveSE             // (+1, +1)
)

// moveDX, moveDY and moveCost give each move bit's step and integer cost.
var (
	moveDX   = [8]int32{-1, 1, 0, 0, -1, 1, -1, 1}
	moveDY   = [8]int32{0, 0, -1, 1, -1, -1, 1, 1}
	moveCost = [8]int64{costStraight, costStraight, costStraight, costStraight, costDiag, costDiag, costDiag, costDiag}
)

// canonMoves[d][m] is the subset of allowed moves m that A* examines from a
// node reached by move d: the moves to cells the node's parent p (one step
// back along d) could enter at no greater cost than through the node are
// left out. Those are p itself, the cells beside p (a straight move from p,
// when both cells are enterable), and, after a straight move, the cells
// beside the node when p's diagonal move to them is allowed, which is so
// exactly when the node's own diagonal move back past them is (the same
// four cells). When p was expanded it offered each such cell n a cost
// g(p) + c(p, n) ≤ g(p) + c(p, node) + c(node, n), and any cell p itself
// left out had an offer that low from p's parent, so the move from the node
// would be turned down anyway (the search rejects offers that are not
// better). The pruning changes no expansion, no tie and no path; it saves
// the reads and branches of the moves that would be turned down. This is
// the "canonical ordering" of N. Sturtevant and S. Rabin, "Canonical
// Orderings on Grids", IJCAI 2016, in its weakest form: the one that keeps
// every expansion of A*. It holds when expanded nodes are final (a
// consistent heuristic: runBuckets), not when nodes reopen. The start
// (dirStart) has no parent: every move (rows 8 … 15, read only for it).
var canonMoves = func() (t [16][256]uint8) {
	for d := 8; d < 16; d++ {
		for m := 0; m < 256; m++ {
			t[d][m] = uint8(m)
		}
	}
	for d := 0; d < 8; d++ {
		for m := 0; m < 256; m++ {
			keep := uint8(0)
			for o := 0; o < 8; o++ {
				if m>>o&1 == 0 {
					continue
				}
				qx, qy := moveDX[o]+moveDX[d], moveDY[o]+moveDY[d] // from p
				prune := false
				switch {
				case qx < -1 || qx > 1 || qy < -1 || qy > 1: // not beside p
				case qx == 0 || qy == 0: // p itself, or a straight move from p
					prune = true
				default: // p's diagonal move: allowed when the move o − d is
					b := moveIndex[(moveDY[o]-moveDY[d]+1)*3+moveDX[o]-moveDX[d]+1]
					prune = m>>b&1 != 0
				}
				if !prune {
					keep |= 1 << o
				}
			}
			t[d][m] = keep
		}
	}
	return t
}()

// Ways the integer search turns g and h into a heap key.
const (
	keyExact  uint8 = iota // integer f = g + h, tie-break on h
	keyShrunk              // integer f = g + ⌊Weight·h⌋ (0 < Weight < 1)
	keyFloat               // f = g + Weight·h as float64 bits (Weight > 1)
)

// inode is the integer search's state of one padded cell in one word, so
// that eight share a cache line: from the top, the generation of the search
// that wrote it (genBits), the move index of the direction it was reached
// in (4 bits; its parent lies back along that direction, see
// reconstructInt; dirStart for the start, which has none), whether it is
// open (1 bit; 0 once expanded), and g (gBits). It is valid
// when its generation is the search's. With the open bit just above g, a
// node is worth relaxing with cost ng exactly when ng|openBit is below its
// low bits: an open node with a larger g.
type inode uint64

const (
	gBits    = 39 // g < 2³⁹: at most MaxCells cells of costDiag < 2³⁸
	gMask    = 1<<gBits - 1
	openBit  = 1 << gBits
	dirShift = gBits + 1
	dirMask  = 15 << dirShift
	genShift = gBits + 5
	genBits  = 64 - genShift
	genMask  = 1<<genBits - 1
)

func (n inode) g() int64     { return int64(n & gMask) }
func (n inode) dir() int     { return int(n>>dirShift) & 15 }
func (n inode) stamp() int64 { return int64(n >> genShift) }

// mkNode returns the open node of generation stamp reached by move dir with
// cost g.
func mkNode(stamp int64, dir int, g int64) inode {
	return inode(uint64(stamp)<<genShift | uint64(dir)<<dirShift | openBit | uint64(g))
}

// moveIndex[(dy+1)·3 + dx+1] is the move bit index of direction (dx, dy).
var moveIndex = [9]int{4, 2, 5, 0, -1, 1, 6, 3, 7}

// tieBitsFor returns how many low bits of a key hold the tie-break for a
// padded grid of n cells: what f = g + h leaves free. On a shortest path
// tree g ≤ n·costDiag, and h ≤ n·costDiag too.
func tieBitsFor(n int) uint {
	return uint(64 - bits.Len64(uint64(n)*2*costDiag+2*costDiag))
}

// key orders the open list: by f = g + h, ties towards smaller h (larger g:
// deeper nodes first, which on open ground walks straight to the goal). h is
// saturated to the tie bits, which only weakens the tie-break far from the
// goal. With a weight above 1 the key is the float64 bits of g + Weight·h
// (order-preserving for non-negative floats).
func (s *Search) key(g, h int64) uint64 {
	switch s.wmode {
	case keyShrunk:
		h = int64(s.hScale * float64(h))
	case keyFloat:
		return math.Float64bits(float64(g) + float64(s.hScale*float64(h)))
	}
	t := uint64(h)
	if m := uint64(1)<<s.tieBits - 1; t > m {
		t = m
	}
	return uint64(g+h)<<s.tieBits | t
}

// hInt is the integer heuristic for a cell (dx, dy) away from the goal.
// Each is consistent in integer units: octile is the exact integer cost on
// an empty grid, Euclidean rounded down stays below it.
func hInt(kind Heuristic, dx, dy int32) int64 {
	if dx < 0 {
		dx = -dx
	}
	if dy < 0 {
		dy = -dy
	}
	switch kind {
	case OctileHeuristic:
		if dx < dy {
			dx, dy = dy, dx
		}
		return costStraight*int64(dx) + (costDiag-costStraight)*int64(dy)
	case ManhattanHeuristic:
		return costStraight * (int64(dx) + int64(dy))
	case EuclideanHeuristic:
		fx, fy := float64(dx), float64(dy)
		return int64(costStraight * math.Sqrt(float64(fx*fx)+float64(fy*fy)))
	}
	return 0
}

// row returns the padded row of padded index i (exact for i, pw < 2³²:
// the error of the rounded-up reciprocal stays below 1/pw).
func (s *Search) row(i int32) int32 {
	hi, _ := bits.Mul64(uint64(i), s.div)
	return int32(hi)
}

// jps reports whether the query runs jump point search: asked for, and
// no Clearance above 1 (which runs A*).
func (s *Search) jps() bool { return s.opt.JumpPoints && s.opt.Clearance <= 1 }

// incrementalEdits is the largest number of cell edits since the last sync
// that syncMoves applies one by one (nine cells each) instead of rebuilding
// every cell's moves.
const incrementalEdits = 4096

// syncMoves brings the allowed moves of every padded cell up to date: only
// the cells around the edited ones when the grid remembers the edits since
// the last sync (and there are at most incrementalEdits of them), else all.
// With Options.Clearance above 1 a cell can be entered only when its
// clearance is at least Clearance, and a cell may always be left (the start
// is exempt from the clearance; blocked cells are never entered, so their
// moves are never read).
func (s *Search) syncMoves() {
	req := max(s.opt.Clearance, 1)
	if s.movesVersion == s.costVersion && s.movesClear == req {
		return
	}
	if s.movesVersion != 0 && s.movesClear == req {
		var ok bool
		s.editBuf, ok = s.g.EditsSince(s.movesVersion, s.editBuf[:0])
		// with a clearance, an edit changes the clearance test of the cells
		// within req−1 of it, so the moves of those within req
		a := 2*int(req) + 1
		if ok && len(s.editBuf) <= incrementalEdits && (req == 1 || len(s.editBuf)*a*a <= s.g.w*s.g.h/4) {
			if req > 1 {
				s.g.Clearance(Cell{}) // patched near the edits, not rebuilt
			}
			for _, c := range s.editBuf {
				s.updateMovesAround(c, req)
			}
			s.movesVersion = s.costVersion
			return
		}
	}
	s.rebuildMoves(req)
}

// updateMovesAround recomputes, as rebuildMoves does for clearance req, the
// moves of the cells within req (Chebyshev) of grid cell c: with req 1, c
// and its eight neighbours.
func (s *Search) updateMovesAround(c Cell, req uint8) {
	g, pw := s.g, s.pw
	pass := func(x, y int) uint8 { // grid coordinates
		if x < 0 || y < 0 || x >= g.w || y >= g.h {
			return 0
		}
		if req > 1 {
			if g.clear[y*g.w+x] >= req {
				return 1
			}
			return 0
		}
		if isBlocked(g.cost[y*g.w+x]) {
			return 0
		}
		return 1
	}
	own := uint8(0) // with a clearance, every cell may be left
	if req > 1 {
		own = 0xff
	}
	r := int(req)
	for y := max(int(c.Y)-r, 0); y <= min(int(c.Y)+r, g.h-1); y++ {
		for x := max(int(c.X)-r, 0); x <= min(int(c.X)+r, g.w-1); x++ {
			W, E, N, S := pass(x-1, y), pass(x+1, y), pass(x, y-1), pass(x, y+1)
			m := W | E<<1 | N<<2 | S<<3 |
				(N&W&pass(x-1, y-1))<<4 | (N&E&pass(x+1, y-1))<<5 |
				(S&W&pass(x-1, y+1))<<6 | (S&E&pass(x+1, y+1))<<7
			s.moves[(y+1)*pw+x+1] = m & (-pass(x, y) | own)
		}
	}
}

// rebuildMoves rebuilds the allowed moves of every padded cell for
// clearance req (1: any passable cell may be entered).
func (s *Search) rebuildMoves(req uint8) {
	g, pw := s.g, s.pw
	w, h := g.w, g.h
	var cl []uint8
	if req > 1 {
		g.Clearance(Cell{})
		cl = g.clear
	}
	// passability of three padded rows at a time, 0 or 1, rolling down
	if len(s.rowBuf) != 3*pw {
		s.rowBuf = make([]uint8, 3*pw)
	}
	buf := s.rowBuf
	up, cur, dn := buf[:pw], buf[pw:2*pw], buf[2*pw:]
	fill := func(row []uint8, y int) {
		clear(row)
		if y < 0 || y >= h {
			return
		}
		if cl != nil {
			for x, c := range cl[y*w : (y+1)*w] {
				if c >= req {
					row[x+1] = 1
				}
			}
			return
		}
		for x, c := range g.cost[y*w : (y+1)*w] {
			if !isBlocked(c) {
				row[x+1] = 1
			}
		}
	}
	own := uint8(0) // with a clearance, every cell may be left
	if cl != nil {
		own = 0xff
	}
	clear(up) // the row above the grid: rowBuf holds the last rebuild's rows
	fill(cur, 0)
	mv := s.moves
	clear(mv[:pw])
	clear(mv[len(mv)-pw:])
	for y := 0; y < h; y++ {
		fill(dn, y+1)
		row := mv[(y+1)*pw : (y+2)*pw]
		row[0], row[pw-1] = 0, 0
		for x := 1; x < pw-1; x++ {
			W, E, N, S := cur[x-1], cur[x+1], up[x], dn[x]
			m := W | E<<1 | N<<2 | S<<3 |
				(N&W&up[x-1])<<4 | (N&E&up[x+1])<<5 | (S&W&dn[x-1])<<6 | (S&E&dn[x+1])<<7
			row[x] = m & (-cur[x] | own)
		}
		up, cur, dn = cur, dn, up
	}
	s.movesVersion, s.movesClear = s.costVersion, req
}

// beginInt starts the integer search.
func (s *Search) beginInt() {
	s.syncMoves()
	if s.jps() {
		s.syncBits()
	}
	s.gen++
	if s.gen&genMask == 0 { // wrapped: old stamps could alias the new generation
		clear(s.nodes)
		s.gen++
	}
	w := s.opt.Weight
	if w <= 0 {
		w = 1
	}
	s.hScale = w
	switch {
	case w < 1:
		s.wmode = keyShrunk
	case w > 1:
		s.wmode = keyFloat
	default:
		s.wmode = keyExact
	}
	s.hKind = s.opt.Heuristic
	if s.jps() || s.hKind == AutoHeuristic {
		s.hKind = OctileHeuristic
		if s.opt.Moves == Moves4 {
			s.hKind = ManhattanHeuristic
		}
	}
	// A weight above 1, and Manhattan with diagonal moves, make the
	// heuristic inconsistent: closed nodes may improve and are reopened.
	s.reopen = w > 1 || (s.hKind == ManhattanHeuristic && s.opt.Moves == Moves8)
	s.nodes[s.start] = mkNode(int64(s.gen&genMask), dirStart, 0)
	h := hInt(s.hKind, int32(s.startCell.X-s.goalCel.X), int32(s.startCell.Y-s.goalCel.Y))
	// A consistent heuristic (every case but the two above) keeps f
	// monotone, so the search can use the bucket queue.
	s.buckets = !s.reopen && s.wmode != keyFloat
	s.open = s.open[:0]
	s.lmq = false
	if s.buckets && s.wmode == keyExact && s.jps() { // runJPSExact's queue
		if s.lmVersion != s.costVersion {
			s.syncLandmarks()
		}
		if s.lmBegin(s.goal); s.lmq {
			// landmarks that bound the start no better than the octile
			// distance seldom bound the cells on the way better: the
			// query runs without them
			if hl := s.hLM(s.start); hl > h {
				h = hl
			} else {
				s.lmq = false
			}
		}
		s.startH = h
		if s.jq == nil {
			s.jq = newJPSQueue(jpsBuckets)
		}
		s.jq.reset(h)
		s.jq.push(h, s.start)
		return
	}
	s.startH = h
	if s.buckets {
		ring := aStarRing
		if s.jps() { // runJPS, weight below 1
			ring = jpsRing
		}
		if s.bq == nil || len(s.bq.head) != ring {
			s.bq = newBucketQueue(ring)
		}
		f := h
		if s.wmode == keyShrunk {
			f = int64(s.hScale * float64(h))
		}
		s.bq.reset(f)
	}
	s.pushOpen(0, h, s.start)
}

// runBuckets performs up to budget expansions of integer A* on the bucket
// queue. The queue's push and pop are written out here (see bucketQueue)
// with its state in locals, and a node is relaxed with one comparison (see
// relaxable).
func (s *Search) runBuckets(budget int) {
	nodes, moves := s.nodes, s.moves
	genWord := uint64(s.gen&genMask) << genShift
	goal := s.goal
	pw := int32(s.pw)
	gx, gy := int32(s.gx), int32(s.gy)
	off := [8]int32{-1, 1, -pw, pw, -pw - 1, -pw + 1, pw - 1, pw + 1}
	all := uint8(0xff)
	if s.opt.Moves == Moves4 {
		all = moveW | moveE | moveN | moveS
	}
	q := s.bq
	head, qbits, sum, ent := q.head, q.bits, q.sum, q.ent
	free, cur, fmin := q.free, q.cur, q.fmin
	ring := len(head) - 1 // mask
	kind := s.hKind
	shrunk := s.wmode == keyShrunk
	octile := kind == OctileHeuristic
	n := 0
	for n < budget {
		// pop: the first non-empty bucket from cur, in ring order
		b := cur
		if qbits[b>>6]>>uint(b&63)&1 == 0 {
			if b = q.firstFrom(cur); b < 0 {
				s.finish(-1)
				break
			}
			fmin += int64((b - cur) & ring)
			cur = b
		}
		e := head[b]
		en := ent[e]
		head[b] = en.next
		if en.next == 0 {
			w := b >> 6
			qbits[w] &^= 1 << uint(b&63)
			if qbits[w] == 0 {
				sum[w>>6] &^= 1 << uint(w&63)
			}
		}
		ent[e].next = free
		free = e
		ci := en.idx
		cn := nodes[ci]
		if cn&openBit == 0 { // stale entry of a node already closed
			continue
		}
		nodes[ci] = cn &^ openBit
		cg := cn.g()
		n++
		if ci == goal {
			s.finish(ci)
			break
		}
		cy := s.row(ci)
		cdx, cdy := ci-cy*pw-gx, cy-gy
		m := canonMoves[cn.dir()][moves[ci]&all]
		for ; m != 0; m &= m - 1 {
			d := bits.TrailingZeros8(m)
			ni := ci + off[d]
			ng := cg + moveCost[d]
			if !relaxable(nodes[ni], genWord, ng) {
				continue
			}
			nodes[ni] = inode(genWord | uint64(d)<<dirShift | openBit | uint64(ng))
			var h int64
			if octile { // hInt's octile case, inlined
				ax, ay := cdx+moveDX[d], cdy+moveDY[d]
				if ax < 0 {
					ax = -ax
				}
				if ay < 0 {
					ay = -ay
				}
				h = costStraight*int64(max(ax, ay)) + (costDiag-costStraight)*int64(min(ax, ay))
			} else {
				h = hInt(kind, cdx+moveDX[d], cdy+moveDY[d])
			}
			if shrunk {
				h = int64(s.hScale * float64(h))
			}
			// push onto bucket f
			f := int(ng+h) & ring
			e := free
			if e != 0 {
				free = ent[e].next
			} else {
				e = int32(len(ent))
				ent = append(ent, bucketEntry{})
			}
			w := f >> 6
			qbits[w] |= 1 << uint(f&63)
			sum[w>>6] |= 1 << uint(w&63)
			ent[e] = bucketEntry{idx: ni, next: head[f]}
			head[f] = e
		}
	}
	q.ent, q.free, q.cur, q.fmin = ent, free, cur, fmin
	s.expanded += n
}

// relaxable reports whether a node whose word is nn may take cost ng: it
// is of another generation (not reached yet), or open with a larger g.
// XOR with the generation's stamp zeroes the stamp of the search's own
// nodes and leaves those of other generations above every open|g; masking
// the direction out leaves open|g, below which ng|openBit lies exactly when
// the node is open with a larger g.
func relaxable(nn inode, genWord uint64, ng int64) bool {
	return uint64(ng)|openBit < (uint64(nn)^genWord)&^dirMask
}

// runInt performs up to budget expansions of integer A*.
func (s *Search) runInt(budget int) {
	nodes, moves := s.nodes, s.moves
	gen, goal := int64(s.gen&genMask), s.goal
	pw := int32(s.pw)
	gx, gy := int32(s.gx), int32(s.gy)
	off := [8]int32{-1, 1, -pw, pw, -pw - 1, -pw + 1, pw - 1, pw + 1}
	all := uint8(0xff)
	if s.opt.Moves == Moves4 {
		all = moveW | moveE | moveN | moveS
	}
	open := s.open
	kind := s.hKind
	n := 0
	for n < budget {
		if len(open) == 0 {
			s.finish(-1)
			break
		}
		var top openKey
		top, open = popKey(open)
		ci := top.idx
		cn := nodes[ci]
		if cn&openBit == 0 { // stale entry of a node already closed
			continue
		}
		nodes[ci] = cn &^ openBit
		cg := cn.g()
		n++
		if ci == goal {
			s.finish(ci)
			break
		}
		cy := s.row(ci)
		cdx, cdy := ci-cy*pw-gx, cy-gy
		for m := moves[ci] & all; m != 0; m &= m - 1 {
			d := bits.TrailingZeros8(m)
			ni := ci + off[d]
			ng := cg + moveCost[d]
			if nn := nodes[ni]; nn.stamp() == gen && ng|openBit >= int64(nn&(openBit|gMask)) {
				// not better, or closed: reopened only when the
				// heuristic may be inconsistent and the cost improves
				if !s.reopen || nn&openBit != 0 || ng >= nn.g() {
					continue
				}
				s.reopened++
			}
			nodes[ni] = mkNode(gen, d, ng)
			h := hInt(kind, cdx+moveDX[d], cdy+moveDY[d])
			open = pushKey(open, openKey{key: s.key(ng, h), idx: ni})
		}
	}
	s.open = open
	s.expanded += n
}

// relaxInt offers cost ng for reaching padded cell ni at (x, y) by move
// index dir; JPS uses it for jump points. A node already reached takes only
// a smaller cost, even when closed: with a consistent heuristic an expanded
// node's cost is final, and the closed nodes that can improve are the
// diagonal jump points JPS expands without queueing them (see jumpFrom);
// with an inconsistent one (s.reopen) an expanded node may improve and is
// reopened (counted).
func (s *Search) relaxInt(ni, x, y int32, dir int, ng int64) {
	if s.wmode == keyExact && s.buckets {
		s.relaxJPS(ni, x, y, dir, ng)
		return
	}
	gen := int64(s.gen & genMask)
	if nn := s.nodes[ni]; nn.stamp() == gen {
		if ng >= nn.g() {
			return
		}
		if s.reopen && nn&openBit == 0 {
			s.reopened++
		}
	}
	s.nodes[ni] = mkNode(gen, dir, ng)
	s.pushOpen(ng, octileInt(x-int32(s.gx), y-int32(s.gy)), ni) // JPS's heuristic is octile
}

// reconstructFast is reconstructInt for a dst with room for n cells, at
// least the path's. The walk back along a move keeps few values, so that
// they stay in registers: the node's address, the cell as one word (see
// packCell), and what is left of the moving node's g after the steps so
// far, against which a cell's node is tested with one comparison (with
// the search's generation xored out and the direction and open bits
// cleared, a node of this search leaves its g, and one of an older search
// a number above any g).
func (s *Search) reconstructFast(dst []Cell, n int) ([]Cell, float64, error) {
	base := len(dst)
	win := dst[base : base+n]
	np := unsafe.Pointer(unsafe.SliceData(s.nodes))
	genWord := uint64(s.gen&genMask) << genShift
	i := s.found
	pw := int32(s.pw)
	y := s.row(i)
	xy := packCell(i-y*pw-1, y-1)
	p, stop := nodeAt(np, i), nodeAt(np, s.start)
	// the cells go backwards from the window's end: w is the last written
	w0 := unsafe.Pointer(unsafe.SliceData(win))
	w := unsafe.Add(w0, (n-1)*8)
	*(*Cell)(w) = unpackCell(xy)
	diagonal := 0
	for p != stop {
		nd := uint64(*p)
		d := int(nd>>dirShift) & 7
		back := -8 * int(moveDY[d]*pw+moveDX[d])
		dxy := packCell(moveDX[d], moveDY[d])
		lim, c := nd&gMask, uint64(moveCost[d])
		w1 := w
		for {
			// every step costs at least costStraight and leaves lim ≥ 0,
			// so the window of n cells has room for every step
			if lim < c {
				panic("grid: path longer than its cost allows")
			}
			p = (*inode)(unsafe.Add(unsafe.Pointer(p), back))
			xy -= dxy
			lim -= c
			w = unsafe.Add(w, -8)
			*(*Cell)(w) = unpackCell(xy)
			if (uint64(*p)^genWord)&^(dirMask|openBit) <= lim {
				break
			}
		}
		if d >= 4 {
			diagonal += int(uintptr(w1)-uintptr(w)) / 8
		}
	}
	pos := int(uintptr(w)-uintptr(w0)) / 8
	straight := n - 1 - pos - diagonal
	dst = dst[:base+n-pos]
	copy(dst[base:], win[pos:])
	u := float64(s.uniform)
	return dst, float64(u*float64(straight)) + float64(u*Sqrt2*float64(diagonal)), nil
}

// packCell returns (x, y) as one word, y in the high half: the packed
// cells of a move differ by the packed step, for x and y in [0, 2³¹) and
// steps of −1, 0 or 1 (unpackCell).
func packCell(x, y int32) uint64 { return uint64(int64(y)<<32 + int64(x)) }

// unpackCell is the cell of a word of packCell.
func unpackCell(v uint64) Cell { return Cell{X: int32(uint32(v)), Y: int32(v >> 32)} }

// reconstructInt appends the path start..goal of the integer search to
// dst and returns it with its cost, that of the path itself from its counts
// of straight and diagonal moves. From each cell it walks back along the
// direction the cell was reached in, to the first cell whose cost plus the
// moves from it is at most the cell's: the cell that set that cost, or one
// between (a jump point's parent may be far, on a free line). Following
// these gives a path no longer than the goal's cost, even after parents
// improved (reopened nodes).
func (s *Search) reconstructInt(dst []Cell) ([]Cell, float64, error) {
	// Every move costs at least costStraight: a path of cost g has at most
	// g/costStraight + 1 cells. When dst has room for that many, the walk
	// writes them backwards from the end of that window and moves them down
	// once (reconstructFast).
	if n := int(s.nodes[s.found].g()/costStraight) + 1; cap(dst)-len(dst) >= n {
		return s.reconstructFast(dst, n)
	}
	base := len(dst)
	i := s.found
	pw := int32(s.pw)
	y := s.row(i)
	x := i - y*pw
	dst = append(dst, Cell{X: x - 1, Y: y - 1})
	gen := int64(s.gen & genMask)
	nodes := s.nodes
	straight, diagonal := 0, 0
	for i != s.start {
		n := nodes[i]
		d := n.dir()
		dx, dy := moveDX[d], moveDY[d]
		off := dy*pw + dx
		g, c := n.g(), moveCost[d]
		k := int64(1)
		for ; ; k++ {
			i -= off
			x -= dx
			y -= dy
			dst = append(dst, Cell{X: x - 1, Y: y - 1})
			if p := nodes[i]; p.stamp() == gen && p.g()+k*c <= g {
				break
			}
		}
		if d >= 4 {
			diagonal += int(k)
		} else {
			straight += int(k)
		}
	}
	for l, r := base, len(dst)-1; l < r; l, r = l+1, r-1 {
		dst[l], dst[r] = dst[r], dst[l]
	}
	u := float64(s.uniform)
	return dst, float64(u*float64(straight)) + float64(u*Sqrt2*float64(diagonal)), nil
}
