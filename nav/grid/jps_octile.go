package grid

import (
	"math/bits"
	"unsafe"
)

// runJPSExact is runJPS for the default jump point query (weight 1, the
// bucket queue), written as one loop: the pop, the choice of directions and
// the straight scans off the goal's row and column run inline, on
// unchecked element pointers where they index the grid (see runOctile), and a
// jump point is relaxed by relaxJPS. What it finds is what runJPS finds: the
// same scans in the same order, the same eager diagonal jump points (see
// jumpDiagonal).
func (s *Search) runJPSExact(budget int) {
	np := unsafe.Pointer(unsafe.SliceData(s.nodes))
	jp := unsafe.Pointer(unsafe.SliceData(s.jcell))
	goal := s.goal
	pw := int32(s.pw)
	gx, gy := int32(s.gx), int32(s.gy)
	q := s.bq
	left := budget
	for left > 0 {
		var ci int32
		if b := q.cur; q.bits[b>>6]>>uint(b&63)&1 != 0 {
			// fmin's bucket is not empty: it comes first, even with an
			// overflow, whose entries all have f ≥ fmin (popOpen takes
			// them before the ring moves past them)
			ci = q.take(b)
		} else if len(s.open) == 0 { // no overflow: the bucket queue alone, inline
			if b = q.firstFrom(b); b < 0 {
				s.finish(-1)
				break
			}
			q.fmin += int64((b - q.cur) & (jpsRing - 1))
			q.cur = b
			ci = q.take(b)
		} else {
			var ok bool
			if ci, ok = s.popOpen(); !ok {
				s.finish(-1)
				break
			}
		}
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
		dirs := jpsDirs(c, cn.dir())
		// the straight scans, in move order and inline: off the goal's row
		// (column) the jump bit decides and the stop bitset gives the jump
		// point; on it, jumpStraight also looks for the goal
		if dirs&moveW != 0 {
			if cy == gy {
				s.jumpStraight(c, cx, cy, 0, cg)
			} else if c&jpW != 0 {
				j := s.stopW.prevSet(cy, cx-1)
				s.relaxJPS(ci-cx+j, j, cy, 0, cg+costStraight*int64(cx-j))
			}
		}
		if dirs&moveE != 0 {
			if cy == gy {
				s.jumpStraight(c, cx, cy, 1, cg)
			} else if c&jpE != 0 {
				j := s.stopE.nextSet(cy, cx+1)
				s.relaxJPS(ci-cx+j, j, cy, 1, cg+costStraight*int64(j-cx))
			}
		}
		if dirs&moveN != 0 {
			if cx == gx {
				s.jumpStraight(c, cx, cy, 2, cg)
			} else if c&jpN != 0 {
				j := s.stopN.prevSet(cx, cy-1)
				s.relaxJPS(j*pw+cx, cx, j, 2, cg+costStraight*int64(cy-j))
			}
		}
		if dirs&moveS != 0 {
			if cx == gx {
				s.jumpStraight(c, cx, cy, 3, cg)
			} else if c&jpS != 0 {
				j := s.stopS.nextSet(cx, cy+1)
				s.relaxJPS(j*pw+cx, cx, j, 3, cg+costStraight*int64(j-cy))
			}
		}
		for dirs >>= 4; dirs != 0; dirs &= dirs - 1 {
			s.jumpDiagonal(cx, cy, 4+bits.TrailingZeros8(dirs), cg)
		}
	}
	s.expanded += budget - left
}

// scanStraight is jumpStraight for runJPSExact: off the goal's line the
// jump bit decides and the stop bitset gives the jump point at once.
func (s *Search) scanStraight(c uint16, x, y int32, d int, g int64) {
	pw := int32(s.pw)
	switch d {
	case 0: // W
		if y == int32(s.gy) {
			break
		}
		if c&jpW != 0 {
			j := s.stopW.prevSet(y, x-1)
			s.relaxJPS(y*pw+j, j, y, d, g+costStraight*int64(x-j))
		}
		return
	case 1: // E
		if y == int32(s.gy) {
			break
		}
		if c&jpE != 0 {
			j := s.stopE.nextSet(y, x+1)
			s.relaxJPS(y*pw+j, j, y, d, g+costStraight*int64(j-x))
		}
		return
	case 2: // N
		if x == int32(s.gx) {
			break
		}
		if c&jpN != 0 {
			j := s.stopN.prevSet(x, y-1)
			s.relaxJPS(j*pw+x, x, j, d, g+costStraight*int64(y-j))
		}
		return
	default: // S
		if x == int32(s.gx) {
			break
		}
		if c&jpS != 0 {
			j := s.stopS.nextSet(x, y+1)
			s.relaxJPS(j*pw+x, x, j, d, g+costStraight*int64(j-y))
		}
		return
	}
	s.jumpStraight(c, x, y, d, g) // on the goal's line
}

// relaxJPS is relaxInt for runJPSExact (weight 1, the bucket queue): a
// node already reached takes only a smaller cost (see relaxInt); it is
// pushed onto the bucket of its f, inline, or past the ring onto the
// overflow heap.
func (s *Search) relaxJPS(ni, x, y int32, d int, ng int64) {
	p := nodeAt(unsafe.Pointer(unsafe.SliceData(s.nodes)), ni)
	genWord := uint64(s.gen&genMask) << genShift
	if nn := uint64(*p); (nn^genWord)>>genShift == 0 && ng >= int64(nn&gMask) {
		return
	}
	*p = inode(genWord | uint64(d)<<dirShift | openBit | uint64(ng))
	h := octileInt(x-int32(s.gx), y-int32(s.gy))
	q := s.bq
	f := ng + h
	if f-q.fmin >= jpsRing {
		s.open = pushKey(s.open, openKey{key: s.key(ng, h), idx: ni})
		return
	}
	b := int(f) & (jpsRing - 1)
	e := q.free
	if e != 0 {
		q.free = q.ent[e].next
	} else {
		e = int32(len(q.ent))
		q.ent = append(q.ent, bucketEntry{})
	}
	w := b >> 6
	q.bits[w] |= 1 << uint(b&63)
	q.sum[w>>6] |= 1 << uint(w&63)
	q.ent[e] = bucketEntry{idx: ni, next: q.head[b]}
	q.head[b] = e
}
