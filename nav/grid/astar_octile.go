package grid

import (
	"math/bits"
	"unsafe"
)

// runOctile is runBuckets for the default query (Moves8, the octile
// heuristic, no weight), the case worth its own loop: the heuristic is
// computed inline, and the padded grid's arrays and the bucket queue's are
// read through pointers without bounds checks, which frees the registers
// their lengths held. Every index is in range by construction: a padded
// cell's allowed moves never leave the padded grid (its border cells allow
// none and are never entered), bucket numbers are masked to the ring, and
// entries come from the free list or were just appended.
func (s *Search) runOctile(budget int) {
	np := unsafe.Pointer(unsafe.SliceData(s.nodes))
	mp := unsafe.Pointer(unsafe.SliceData(s.moves))
	genWord := uint64(s.gen&genMask) << genShift
	goal := s.goal
	pw := int32(s.pw)
	gx, gy := int32(s.gx), int32(s.gy)
	off := [8]int32{-1, 1, -pw, pw, -pw - 1, -pw + 1, pw - 1, pw + 1}
	q := s.bq
	hp := unsafe.Pointer(unsafe.SliceData(q.head))
	bp := unsafe.Pointer(unsafe.SliceData(q.bits))
	sp := unsafe.Pointer(unsafe.SliceData(q.sum))
	ep := unsafe.Pointer(unsafe.SliceData(q.ent))
	free, cur := q.free, q.cur
	const ring = aStarRing - 1 // mask; beginInt sized the queue so
	left := budget
	for left > 0 {
		// pop: the first non-empty bucket from cur, in ring order
		b := cur
		if *u64At(bp, b>>6)>>uint(b&63)&1 == 0 {
			if b = q.firstFrom(cur); b < 0 {
				s.finish(-1)
				break
			}
			q.fmin += int64((b - cur) & ring)
			cur = b
		}
		hb := i32At(hp, b)
		e := *hb
		en := entAt(ep, e)
		ci, next := en.idx, en.next
		*hb = next
		if next == 0 {
			w := b >> 6
			wp := u64At(bp, w)
			if *wp &^= 1 << uint(b&63); *wp == 0 {
				*u64At(sp, w>>6) &^= 1 << uint(w&63)
			}
		}
		en.next = free
		free = e
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
		cdx, cdy := ci-cy*pw-gx, cy-gy
		m := canonMoves[cn.dir()][*(*uint8)(unsafe.Add(mp, ci))]
		for ; m != 0; m &= m - 1 {
			d := bits.TrailingZeros8(m) & 7
			ni := ci + off[d]
			ng := cg + moveCost[d]
			p := nodeAt(np, ni)
			if !relaxable(*p, genWord, ng) {
				continue
			}
			*p = inode(genWord | uint64(d)<<dirShift | openBit | uint64(ng))
			ax, ay := absInt32(cdx+moveDX[d]), absInt32(cdy+moveDY[d])
			f := int(ng+costStraight*int64(max(ax, ay))+(costDiag-costStraight)*int64(min(ax, ay))) & ring
			// push onto bucket f
			e := free
			if e != 0 {
				free = entAt(ep, e).next
			} else {
				e = int32(len(q.ent))
				q.ent = append(q.ent, bucketEntry{})
				ep = unsafe.Pointer(unsafe.SliceData(q.ent))
			}
			w := f >> 6
			*u64At(bp, w) |= 1 << uint(f&63)
			*u64At(sp, w>>6) |= 1 << uint(w&63)
			hf := i32At(hp, f)
			*entAt(ep, e) = bucketEntry{idx: ni, next: *hf}
			*hf = e
		}
	}
	q.free, q.cur = free, cur
	s.expanded += budget - left
}

// Unchecked element pointers for runOctile (see there for why every index
// is in range).
func nodeAt(p unsafe.Pointer, i int32) *inode { return (*inode)(unsafe.Add(p, uintptr(i)*8)) }
func u64At(p unsafe.Pointer, i int) *uint64   { return (*uint64)(unsafe.Add(p, uintptr(i)*8)) }
func i32At(p unsafe.Pointer, i int) *int32    { return (*int32)(unsafe.Add(p, uintptr(i)*4)) }
func entAt(p unsafe.Pointer, i int32) *bucketEntry {
	return (*bucketEntry)(unsafe.Add(p, uintptr(i)*unsafe.Sizeof(bucketEntry{})))
}
