package grid

import "math/bits"

// The open lists of the integer search: a bucket queue (Dial 1969) under a
// consistent heuristic, with a 4-ary min-heap of (key, cell) pairs as its
// overflow past the ring and as the open list otherwise.

// openKey is an entry of the integer open list: see Search.key.
type openKey struct {
	key uint64
	idx int32
}

// pushKey adds it to the 4-ary min-heap h.
func pushKey(h []openKey, it openKey) []openKey {
	h = append(h, it)
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) >> 2
		if h[p].key <= it.key {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = it
	return h
}

// popKey removes and returns the smallest entry of the non-empty heap h.
func popKey(h []openKey) (openKey, []openKey) {
	top := h[0]
	last := len(h) - 1
	it := h[last]
	h = h[:last]
	if last == 0 {
		return top, h
	}
	i := 0
	for {
		c := 4*i + 1
		if c >= last {
			break
		}
		best, bk := c, h[c].key
		if c+3 < last {
			if k := h[c+1].key; k < bk {
				best, bk = c+1, k
			}
			if k := h[c+2].key; k < bk {
				best, bk = c+2, k
			}
			if k := h[c+3].key; k < bk {
				best, bk = c+3, k
			}
		} else {
			for j := c + 1; j < last; j++ {
				if k := h[j].key; k < bk {
					best, bk = j, k
				}
			}
		}
		if bk >= it.key {
			break
		}
		h[i] = h[best]
		i = best
	}
	h[i] = it
	return top, h
}

// bucketQueue is the open list of the integer search under a consistent
// heuristic: a bucket per value of f (Dial 1969), kept in a ring of size
// ring (a power of two) that starts at fmin, the f popped last. With a
// consistent heuristic f never decreases along an edge. An A* move raises
// it by at most twice the move's cost (h changes by at most the move's
// cost), so every open entry lies in [fmin, fmin + 2·costDiag], inside a
// ring of aStarRing; a jump point search edge can raise it by more, and
// entries beyond the ring go to an overflow heap (the Search's open), popped
// when its top is below the ring's first bucket. Non-empty buckets are found
// through a two-level bitmap. A bucket is a stack: among entries of equal f
// the latest pushed, usually the deepest, pops first, which on open ground
// walks straight to the goal as a larger-g tie-break does. As with the heap,
// an improved node is pushed again and its stale entry skipped.
type bucketQueue struct {
	head []int32       // top entry of each bucket, 0 when empty
	bits []uint64      // non-empty buckets
	sum  []uint64      // non-zero words of bits
	ent  []bucketEntry // numbered from 1: ent[0] is unused, 0 is no entry
	free int32         // first free entry (linked by next), 0 when none
	cur  int           // bucket of fmin, where the ring starts
	fmin int64
}

// Ring sizes of the bucket queue for A* (> 2·costDiag) and for JPS: f rises
// along an edge by at most twice its cost, so a straight jump of up to 40
// cells or a diagonal one of up to 28 stays in the ring; longer ones go to
// the overflow heap.
const (
	aStarRing = 1 << 13
	jpsRing   = 1 << 15
)

type bucketEntry struct{ idx, next int32 }

func newBucketQueue(ring int) *bucketQueue {
	q := &bucketQueue{
		head: make([]int32, ring),
		bits: make([]uint64, ring/64),
		sum:  make([]uint64, (ring/64+63)/64),
	}
	// 0 marks an empty bucket and the end of a bucket's list, so the
	// zeroed allocation is an empty ring: nothing to fill, which for the
	// ring of JPS (32,768 buckets) would be much of a first search's cost
	q.ent = make([]bucketEntry, 1, 64)
	return q
}

// reset empties the queue, clearing only the buckets and words that hold
// leftovers, and starts the ring at f.
func (q *bucketQueue) reset(f int64) {
	for i, m := range q.sum {
		for ; m != 0; m &= m - 1 {
			w := i<<6 + bits.TrailingZeros64(m)
			for bm := q.bits[w]; bm != 0; bm &= bm - 1 {
				q.head[w<<6+bits.TrailingZeros64(bm)] = 0
			}
			q.bits[w] = 0
		}
		q.sum[i] = 0
	}
	q.ent = q.ent[:1]
	q.free = 0
	q.cur = int(f) & (len(q.head) - 1)
	q.fmin = f
}

// push adds idx with f in [fmin, fmin + ring).
func (q *bucketQueue) push(f int64, idx int32) {
	b := int(f) & (len(q.head) - 1)
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
	q.ent[e] = bucketEntry{idx: idx, next: q.head[b]}
	q.head[b] = e
}

// pop removes and returns an entry of the smallest f, which becomes fmin;
// false when the queue is empty.
func (q *bucketQueue) pop() (int32, bool) {
	b := q.firstFrom(q.cur)
	if b < 0 {
		return 0, false
	}
	q.fmin += int64((b - q.cur) & (len(q.head) - 1))
	q.cur = b
	return q.take(b), true
}

// take removes and returns the top entry of the non-empty bucket b.
func (q *bucketQueue) take(b int) int32 {
	e := q.head[b]
	en := &q.ent[e]
	idx, next := en.idx, en.next
	q.head[b] = next
	if next == 0 {
		q.clearBucket(b)
	}
	en.next = q.free
	q.free = e
	return idx
}

// clearBucket marks bucket b empty in the bitmaps.
func (q *bucketQueue) clearBucket(b int) {
	w := b >> 6
	if q.bits[w] &^= 1 << uint(b&63); q.bits[w] == 0 {
		q.sum[w>>6] &^= 1 << uint(w&63)
	}
}

// firstFrom returns the first non-empty bucket at or after c in ring
// order, or -1 when the queue is empty.
func (q *bucketQueue) firstFrom(c int) int {
	w := c >> 6
	if m := q.bits[w] >> uint(c&63); m != 0 {
		return c + bits.TrailingZeros64(m)
	}
	ww := q.nextWord(w + 1)
	if ww < 0 { // wrap around; word w's low bits are the ring's end
		if ww = q.nextWord(0); ww < 0 {
			return -1
		}
	}
	return ww<<6 + bits.TrailingZeros64(q.bits[ww])
}

// nextWord returns the first non-zero word of bits at or after from, or -1.
func (q *bucketQueue) nextWord(from int) int {
	for s := from >> 6; s < len(q.sum); s++ {
		m := q.sum[s]
		if s == from>>6 {
			m &= ^uint64(0) << uint(from&63)
		}
		if m != 0 {
			return s<<6 + bits.TrailingZeros64(m)
		}
	}
	return -1
}

// pushOpen adds padded cell idx with cost g and heuristic h to the open
// list of JPS and of the heap-based A*: the bucket queue when s.buckets
// (its overflow heap past the ring), else the heap.
func (s *Search) pushOpen(g, h int64, idx int32) {
	if s.buckets {
		if s.wmode == keyShrunk {
			h = int64(s.hScale * float64(h))
		}
		if f := g + h; f-s.bq.fmin < int64(len(s.bq.head)) {
			s.bq.push(f, idx)
			return
		}
	}
	s.open = pushKey(s.open, openKey{key: s.key(g, h), idx: idx})
}

// popOpen removes an entry of the smallest key from the open list of
// pushOpen; false when it is empty.
func (s *Search) popOpen() (int32, bool) {
	b := -1
	if s.buckets {
		b = s.bq.firstFrom(s.bq.cur)
	}
	if b < 0 {
		if len(s.open) == 0 {
			return 0, false
		}
		var top openKey
		top, s.open = popKey(s.open)
		if s.buckets { // the ring restarts at the overflow's f
			q := s.bq
			q.fmin = int64(top.key >> s.tieBits)
			q.cur = int(q.fmin) & (len(q.head) - 1)
		}
		return top.idx, true
	}
	q := s.bq
	f := q.fmin + int64((b-q.cur)&(len(q.head)-1))
	if len(s.open) > 0 {
		if fo := int64(s.open[0].key >> s.tieBits); fo < f {
			var top openKey
			top, s.open = popKey(s.open)
			q.fmin, q.cur = fo, int(fo)&(len(q.head)-1)
			return top.idx, true
		}
	}
	q.fmin, q.cur = f, b
	return q.take(b), true
}

// jpsQueue is the open list of the default jump point query (weight 1, a
// consistent heuristic): a two-level bucket queue (the multi-level buckets
// of E. V. Denardo, B. L. Fox, "Shortest-route methods: 1. Reaching,
// pruning, and buckets", Operations Research 27(1), 1979). A jump point
// search edge raises f by up to twice its cost, far more than an A* move,
// so a ring of one bucket per value of f would be large: bucketQueue's 2^15
// buckets (128 KB) reach only 6.9 straight cells ahead, a push lands on a
// cache line of it (on a search's first query, a page) far from the last,
// and longer jumps go to the overflow heap. Here the values of f from fmin
// on are cut into coarse buckets of 2^jpsShift values, a ring of
// jpsBuckets of them (1 KB) covering 2^21 values of f, jumps of up to 440
// straight cells; the coarse bucket of fmin is spread over 2^jpsShift fine
// buckets, one per value of f (32 KB), and when they run empty the next
// non-empty coarse bucket is spread over them, each entry moved once. Fine
// buckets are stacks, and a coarse bucket is spread oldest entry first, so
// among entries of equal f the latest pushed pops first, as in bucketQueue:
// the expansions are the same as with it, except that an entry leaving the
// overflow heap joins the ring as the latest pushed. The top of fmin's own
// fine bucket, the cells pushed with f = fmin since fmin was set, is a
// plain stack (hot) popped before the bucket: those come after every entry
// the bucket holds, so the order is the same, and about 30% of the pushes
// of a query (on random512-25-0 and rmtst01) skip the entry, the bitmaps
// and the free list.
type jpsQueue struct {
	head  []int32                      // first entry of each coarse bucket's list, 0 when empty
	bits  []uint64                     // non-empty coarse buckets
	fine  [1 << jpsShift]int32         // top entry of each fine bucket, 0 when empty
	fbits [1 << jpsShift / 64]uint64   // non-empty fine buckets
	fsum  [1 << jpsShift / 4096]uint64 // non-zero words of fbits
	ent   []bucketEntry                // numbered from 1: ent[0] is unused, 0 is no entry
	lo    []uint16                     // per entry of a coarse bucket: its f's fine bucket
	free  int32                        // first free entry (linked by next), 0 when none
	cur   int                          // coarse bucket of fmin, spread over fine
	fmin  int64                        // f of the entry popped last
	hot   []int32                      // the top of fmin's fine bucket: cells pushed with f = fmin since fmin was set
}

const (
	jpsShift   = 13
	jpsBuckets = 1 << 8
)

// newJPSQueue returns an empty queue of n coarse buckets (a power of two,
// at least 64): jpsBuckets, or fewer in tests of the overflow heap.
func newJPSQueue(n int) *jpsQueue {
	return &jpsQueue{
		head: make([]int32, n),
		bits: make([]uint64, n/64),
		ent:  make([]bucketEntry, 1, 64),
		lo:   make([]uint16, 1, 64),
	}
}

// reset empties the queue and starts the ring at f.
func (q *jpsQueue) reset(f int64) {
	for w, m := range q.bits {
		for ; m != 0; m &= m - 1 {
			q.head[w<<6+bits.TrailingZeros64(m)] = 0
		}
		q.bits[w] = 0
	}
	for i, sm := range q.fsum[:] {
		for ; sm != 0; sm &= sm - 1 {
			w := i<<6 + bits.TrailingZeros64(sm)
			for m := q.fbits[w]; m != 0; m &= m - 1 {
				q.fine[w<<6+bits.TrailingZeros64(m)] = 0
			}
			q.fbits[w] = 0
		}
		q.fsum[i] = 0
	}
	q.ent = q.ent[:1]
	q.lo = q.lo[:1]
	q.hot = q.hot[:0]
	q.free = 0
	q.fmin = f
	q.cur = q.bucket(f)
}

// bucket returns the coarse bucket of f.
func (q *jpsQueue) bucket(f int64) int { return int(f>>jpsShift) & (len(q.head) - 1) }

// fits reports whether f (≥ fmin) lies in the ring.
func (q *jpsQueue) fits(f int64) bool {
	return f>>jpsShift-q.fmin>>jpsShift < int64(len(q.head))
}

// push adds idx with f ≥ fmin inside the ring (fits).
func (q *jpsQueue) push(f int64, idx int32) {
	if f == q.fmin {
		q.hot = append(q.hot, idx)
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
		q.ent[e] = bucketEntry{idx: idx, next: q.fine[lo]}
		q.fine[lo] = e
		return
	}
	b := q.bucket(f)
	q.bits[b>>6] |= 1 << uint(b&63)
	q.ent[e] = bucketEntry{idx: idx, next: q.head[b]}
	q.lo[e] = uint16(lo)
	q.head[b] = e
}

// pop removes and returns an entry of the smallest f, which becomes fmin;
// false when the queue is empty.
func (q *jpsQueue) pop() (int32, bool) {
	if n := len(q.hot); n > 0 {
		idx := q.hot[n-1]
		q.hot = q.hot[:n-1]
		return idx, true
	}
	w := q.firstFine()
	for w < 0 {
		if !q.spread() {
			return 0, false
		}
		w = q.firstFine()
	}
	m := q.fbits[w]
	b := w<<6 + bits.TrailingZeros64(m)
	e := q.fine[b]
	en := &q.ent[e]
	q.fine[b] = en.next
	if en.next == 0 {
		if m &^= 1 << uint(b&63); m == 0 {
			q.fsum[w>>6] &^= 1 << uint(w&63)
		}
		q.fbits[w] = m
	}
	idx := en.idx
	en.next = q.free
	q.free = e
	q.fmin = q.fmin&^(1<<jpsShift-1) | int64(b)
	return idx, true
}

// firstFine returns the first non-zero word of fbits, or -1: every fine
// entry has f ≥ fmin, so the first non-empty fine bucket holds the
// smallest f.
func (q *jpsQueue) firstFine() int {
	for i, sm := range q.fsum[:] {
		if sm != 0 {
			return i<<6 + bits.TrailingZeros64(sm)
		}
	}
	return -1
}

// spread moves the first non-empty coarse bucket after cur, in ring order,
// to the fine buckets and makes it cur; false when there is none.
func (q *jpsQueue) spread() bool {
	n := len(q.head)
	c := q.cur
	b := -1
	w := c >> 6
	if m := q.bits[w] >> uint(c&63); m != 0 { // cur's own bit is clear
		b = c + bits.TrailingZeros64(m)
	} else {
		for i := 1; i <= len(q.bits); i++ { // wraps round to word w's low bits
			ww := (w + i) & (len(q.bits) - 1)
			if m := q.bits[ww]; m != 0 {
				b = ww<<6 + bits.TrailingZeros64(m)
				break
			}
		}
		if b < 0 {
			return false
		}
	}
	q.fmin = (q.fmin>>jpsShift + int64((b-c)&(n-1))) << jpsShift
	q.cur = b
	q.bits[b>>6] &^= 1 << uint(b&63)
	// the list is newest first: reverse it, then push each onto its stack
	var rev int32
	for e := q.head[b]; e != 0; {
		next := q.ent[e].next
		q.ent[e].next = rev
		rev, e = e, next
	}
	q.head[b] = 0
	for e := rev; e != 0; {
		en := &q.ent[e]
		next := en.next
		fb := int(q.lo[e])
		q.fbits[fb>>6] |= 1 << uint(fb&63)
		q.fsum[fb>>12] |= 1 << uint(fb>>6&63)
		en.next = q.fine[fb]
		q.fine[fb] = e
		e = next
	}
	return true
}
