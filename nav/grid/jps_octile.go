package grid

import (
	"math/bits"
	"unsafe"
)

// runJPSExact is runJPS for the default jump point query (weight 1, the
// jpsQueue), written as one loop: the pop, the choice of directions and
// the straight scans off the goal's row and column run inline, on
// unchecked element pointers where they index the grid (see runOctile), and a
// jump point is relaxed by relaxJPS. What it finds is what runJPS finds: the
// same scans in the same order; in addition it takes some diagonal jump
// points at once instead of queueing them (see jumpDiagonalExact).
func (s *Search) runJPSExact(budget int) {
	np := unsafe.Pointer(unsafe.SliceData(s.nodes))
	jp := unsafe.Pointer(unsafe.SliceData(s.jcell))
	genWord := uint64(s.gen&genMask) << genShift
	goal := s.goal
	pw := int32(s.pw)
	gx, gy := int32(s.gx), int32(s.gy)
	q := s.jq
	left := budget
	for left > 0 {
		// overflow entries that fit the ring now join it; when the ring
		// is empty the overflow's top comes next
		for len(s.open) > 0 && q.fits(int64(s.open[0].key>>s.tieBits)) {
			var top openKey
			top, s.open = popKey(s.open)
			q.push(int64(top.key>>s.tieBits), top.idx)
		}
		var ci int32
		var w, b int
		if n := len(q.hot); n > 0 { // the top of fmin's own bucket
			ci = q.hot[n-1]
			q.hot = q.hot[:n-1]
			goto popped
		}
		w, b = -1, int(q.fmin)&(len(q.fine)-1)
		if m := q.fbits[b>>6&(len(q.fbits)-1)]; m>>uint(b&63)&1 != 0 { // fmin's own bucket
			w = b >> 6
		} else if w = q.firstFine(); w >= 0 {
			b = w<<6 + bits.TrailingZeros64(q.fbits[w&(len(q.fbits)-1)])
		}
		if w >= 0 { // q.pop's common case, inline
			m := q.fbits[w&(len(q.fbits)-1)]
			e := q.fine[b&(len(q.fine)-1)]
			en := &q.ent[e]
			q.fine[b&(len(q.fine)-1)] = en.next
			if en.next == 0 {
				if m &^= 1 << uint(b&63); m == 0 {
					q.fsum[w>>6&(len(q.fsum)-1)] &^= 1 << uint(w&63)
				}
				q.fbits[w&(len(q.fbits)-1)] = m
			}
			ci = en.idx
			en.next = q.free
			q.free = e
			q.fmin = q.fmin&^(1<<jpsShift-1) | int64(b)
		} else if c, ok := q.pop(); ok {
			ci = c
		} else {
			if len(s.open) == 0 {
				s.finish(-1)
				break
			}
			var top openKey
			top, s.open = popKey(s.open)
			q.fmin = int64(top.key >> s.tieBits)
			q.cur = q.bucket(q.fmin)
			ci = top.idx
		}
	popped:
		cp := nodeAt(np, ci)
		cn := *cp
		if cn&openBit == 0 { // stale entry of a node already closed
			continue
		}
		*cp = cn &^ openBit
		left--
		if ci == goal {
			s.finish(ci)
			break
		}
		cg := cn.g()
		cy := s.row(ci)
		cx := ci - cy*pw
		c := *(*uint16)(unsafe.Add(jp, uintptr(ci)*2))
		dirs := jpsDirTab[cn.dir()&15][c>>4&0xff] & uint8(c>>8) // jpsDirs(c, cn.dir())
		// the straight scans, in move order and inline: off the goal's row
		// (column) the jump bit decides and the stop bitset gives the jump
		// point; on it, jumpStraight also looks for the goal. One test per
		// direction: sj holds the directions scanned off the goal's lines
		// that have a jump point, on holds those on the goal's lines.
		var on uint8
		if cy == gy {
			on = moveW | moveE
		}
		if cx == gx {
			on |= moveN | moveS
		}
		on &= dirs
		sj := dirs &^ on & jpMoves[c&15]
		if sj&moveW != 0 {
			j := s.stopW.prevSet(cy, cx-1)
			if ni, ng := ci-cx+j, cg+costStraight*int64(cx-j); improves(*nodeAt(np, ni), genWord, ng) {
				s.pushJPS(ni, j, cy, 0, ng)
			}
		} else if on&moveW != 0 {
			s.jumpStraight(c, cx, cy, 0, cg)
		}
		if sj&moveE != 0 {
			j := s.stopE.nextSet(cy, cx+1)
			if ni, ng := ci-cx+j, cg+costStraight*int64(j-cx); improves(*nodeAt(np, ni), genWord, ng) {
				s.pushJPS(ni, j, cy, 1, ng)
			}
		} else if on&moveE != 0 {
			s.jumpStraight(c, cx, cy, 1, cg)
		}
		if sj&moveN != 0 {
			j := s.stopN.prevSet(cx, cy-1)
			if ni, ng := j*pw+cx, cg+costStraight*int64(cy-j); improves(*nodeAt(np, ni), genWord, ng) {
				s.pushJPS(ni, cx, j, 2, ng)
			}
		} else if on&moveN != 0 {
			s.jumpStraight(c, cx, cy, 2, cg)
		}
		if sj&moveS != 0 {
			j := s.stopS.nextSet(cx, cy+1)
			if ni, ng := j*pw+cx, cg+costStraight*int64(j-cy); improves(*nodeAt(np, ni), genWord, ng) {
				s.pushJPS(ni, cx, j, 3, ng)
			}
		} else if on&moveS != 0 {
			s.jumpStraight(c, cx, cy, 3, cg)
		}
		// the node popped has f = fmin (an entry of a larger f is stale:
		// its node was closed by the entry of its smaller f)
		fmax := 2*q.fmin - s.startH // the start's f is its h
		for dirs >>= 4; dirs != 0; dirs &= dirs - 1 {
			s.jumpDiagonalExact(cx, cy, 4+bits.TrailingZeros8(dirs), cg, fmax)
		}
	}
	s.expanded += budget - left
}

// jumpDiagonalExact is jumpDiagonal for runJPSExact: it jumps from padded
// (x, y), whose cost is g, along diagonal move d and relaxes the jump point
// found, if any, with jumpDiag's steps written out (on a map of scattered
// obstacles most diagonal jumps take one or two steps, and a call per jump
// cost more than its steps).
//
// A jump point reached diagonally has no forced neighbour: its successors
// are the two straight jumps and the diagonal one. Such a point is often
// taken at once instead of queued: its straight jumps are made and the
// diagonal jump goes on from it, and its node is closed with its cost (the
// intermediate-node pruning of Harabor & Grastien 2014). A later, cheaper
// arrival reopens it through relaxJPS; the goal is always queued. It is
// taken at once when its f is at most fmax = f + (f − f0), f being its
// parent's (the node runJPSExact popped) and f0 the start's: by as much as
// f has already risen above the start's estimate. On open ground, where f
// stays near f0, that keeps to the points of the parent's own f, which the
// search would expand next; in a maze, where f rises far above f0, a
// turning point of a larger f is one the search will most likely reach
// anyway, and taking it at once saves its push and its pop (and counts no
// expansion).
func (s *Search) jumpDiagonalExact(x, y int32, d int, g, fmax int64) {
	pw := int32(s.pw)
	dd := &diagDirs[(d-4)&3]
	dx, dy := dd.dx, dd.dy
	gx, gy := int32(s.gx), int32(s.gy)
	genWord := uint64(s.gen&genMask) << genShift
	np := unsafe.Pointer(unsafe.SliceData(s.nodes))
	jp := unsafe.Pointer(unsafe.SliceData(s.jcell))
	bit, lines := dd.bit, dd.lines
	step := dy*pw + dx
	dh, dv := dd.dh, dd.dv // its straight components
	i := y*pw + x
	c := *(*uint16)(unsafe.Add(jp, uintptr(i)*2))
	for {
		// jumpDiag from i, whose jcell is c: single steps first, then
		// the runs
		x0 := x
		for n := 0; ; n++ {
			if n == 8 {
				var ok bool
				if x, y, i, ok = s.diagRuns(x, y, i, dx, dy); !ok {
					return
				}
				c = *(*uint16)(unsafe.Add(jp, uintptr(i)*2))
				break
			}
			if c&bit == 0 {
				return
			}
			i += step
			x += dx
			y += dy
			c = *(*uint16)(unsafe.Add(jp, uintptr(i)*2))
			if x == gx || y == gy { // the goal may end a scan: scan
				if x == gx && y == gy {
					break
				}
				if _, ok := s.jumpRow(x, y, dx); ok {
					break
				}
				if _, ok := s.jumpCol(x, y, dy); ok {
					break
				}
				continue
			}
			if c&lines != 0 {
				break
			}
		}
		g += costDiag * int64((x-x0)*dx)
		h := octileInt(x-gx, y-gy)
		if s.lmq {
			h = maxI64(h, s.hLM(i))
		}
		if i == s.goal || g+h > fmax {
			if improves(*nodeAt(np, i), genWord, g) {
				s.pushJPS(i, x, y, d, g)
			}
			return
		}
		p := nodeAt(np, i)
		if !improves(*p, genWord, g) {
			return // reached as cheaply before (see relaxJPS)
		}
		*p = inode(genWord | uint64(d)<<dirShift | uint64(g)) // closed
		// its straight jumps, along dx then dy (see runJPSExact)
		if y == gy {
			s.jumpStraight(c, x, y, dh, g)
		} else if c&jpOf[dh] != 0 {
			var j int32
			if dx < 0 {
				j = s.stopW.prevSet(y, x-1)
			} else {
				j = s.stopE.nextSet(y, x+1)
			}
			if ni, ng := i-x+j, g+costStraight*int64((j-x)*dx); improves(*nodeAt(np, ni), genWord, ng) {
				s.pushJPS(ni, j, y, dh, ng)
			}
		}
		if x == gx {
			s.jumpStraight(c, x, y, dv, g)
		} else if c&jpOf[dv] != 0 {
			var j int32
			if dy < 0 {
				j = s.stopN.prevSet(x, y-1)
			} else {
				j = s.stopS.nextSet(x, y+1)
			}
			if ni, ng := j*pw+x, g+costStraight*int64((j-y)*dy); improves(*nodeAt(np, ni), genWord, ng) {
				s.pushJPS(ni, x, j, dv, ng)
			}
		}
	}
}

// diagDir holds what jumpDiagonalExact needs of a diagonal move.
type diagDir struct {
	dx, dy int32
	bit    uint16 // the move's bit in jcell (the allowed moves, bits 8–15)
	lines  uint16 // the jump bits of its two straight components
	dh, dv int    // the move indices of its components along x and along y
}

// diagDirs is diagDir of moveNW, moveNE, moveSW and moveSE.
var diagDirs = [4]diagDir{
	{-1, -1, moveNW << 8, jpW | jpN, 0, 2},
	{1, -1, moveNE << 8, jpE | jpN, 1, 2},
	{-1, 1, moveSW << 8, jpW | jpS, 0, 3},
	{1, 1, moveSE << 8, jpE | jpS, 1, 3},
}

// relaxJPS is relaxInt for runJPSExact (weight 1, the jpsQueue): a node
// already reached takes only a smaller cost (see relaxInt); it is pushed
// onto the jpsQueue, inline, or past its ring onto the overflow heap.
func (s *Search) relaxJPS(ni, x, y int32, d int, ng int64) {
	genWord := uint64(s.gen&genMask) << genShift
	if improves(s.nodes[ni], genWord, ng) {
		s.pushJPS(ni, x, y, d, ng)
	}
}

// improves reports whether cost ng improves node n, given the search's
// generation word (its generation shifted to genShift), with one
// comparison: with the search's generation xored out, and the direction
// and open bits cleared, a node of this search leaves its g and one of an
// older search a number above any g. Inlined, it lets runJPSExact and
// jumpDiagonalExact call pushJPS only for a node they improve, so that
// their loop state stays in registers when they do not (a call spills it).
func improves(n inode, genWord uint64, ng int64) bool {
	return uint64(ng) < (uint64(n)^genWord)&^(dirMask|openBit)
}

// pushJPS sets the node of padded cell ni at (x, y) open with cost ng,
// reached by move d, and pushes it onto the jpsQueue, inline, or past its
// ring onto the overflow heap.
func (s *Search) pushJPS(ni, x, y int32, d int, ng int64) {
	genWord := uint64(s.gen&genMask) << genShift
	*nodeAt(unsafe.Pointer(unsafe.SliceData(s.nodes)), ni) = inode(genWord | uint64(d)<<dirShift | openBit | uint64(ng))
	h := octileInt(x-int32(s.gx), y-int32(s.gy))
	if s.lmq {
		h = maxI64(h, s.hLM(ni))
	}
	q := s.jq
	f := ng + h
	if !q.fits(f) {
		s.open = pushKey(s.open, openKey{key: s.key(ng, h), idx: ni})
		return
	}
	// q.push, inline
	if f == q.fmin {
		q.hot = append(q.hot, ni)
		return
	}
	e := q.free
	if e != 0 {
		q.free = q.ent[e].next
	} else {
		e = int32(len(q.ent))
		q.ent = append(q.ent, bucketEntry{})
		q.lo = append(q.lo, 0)
	}
	lo := int(f) & (1<<jpsShift - 1)
	if f>>jpsShift == q.fmin>>jpsShift {
		q.fbits[lo>>6] |= 1 << uint(lo&63)
		q.fsum[lo>>12] |= 1 << uint(lo>>6&63)
		q.ent[e] = bucketEntry{idx: ni, next: q.fine[lo]}
		q.fine[lo] = e
		return
	}
	b := q.bucket(f)
	q.bits[b>>6] |= 1 << uint(b&63)
	q.ent[e] = bucketEntry{idx: ni, next: q.head[b]}
	q.lo[e] = uint16(lo)
	q.head[b] = e
}
