package spatial

import "gonum.org/v1/gonum/spatial/r2"

// Runner runs part(k) for every k in [0, parts) and returns when every call
// has returned. The calls may run at once on different goroutines (a pool of
// workers, one part each); they touch disjoint data.
type Runner func(parts int, part func(k int))

// BuildFrom rebuilds the hash from scratch with item i at pos[i] for every i
// (IDs 0 to len(pos)−1), splitting the work into parts contiguous ranges that
// run may do at once: the same as [Hash.Reset], [Hash.Insert] (int32(i),
// pos[i]) for each i in order and [Hash.Build], with an identical result
// (the same buckets, order and positions) for any parts and any run.
//
// It is a counting sort in four passes (Ericson 2005, 7.1.5; the parallel
// form is the usual radix-sort one): each part finds the buckets of its range
// of items and counts them in its own array of counts; each part sums the
// counts of a range of buckets; the sums' prefix (one number per part, on the
// calling goroutine) gives each range of buckets its first slot, from which
// each part turns its range's counts into per-part cursors (bucket by
// bucket, parts in order, so the sort is stable); each part places its items.
// A part's counts cover every bucket, so parts × [Hash.Buckets] int32 are
// kept; with parts ≤ 1 or run nil it builds on the calling goroutine.
//
// It also records each item's slot (its place in bucket order, see
// [Hash.Slots]).
//
// Once the buffers have grown, BuildFrom allocates nothing. pos is copied;
// the caller may change it afterwards.
func (h *Hash) BuildFrom(pos []r2.Vec, parts int, run Runner) {
	n := len(pos)
	h.ids, h.pos, h.bucket = grow(h.ids, n), grow(h.pos, n), grow(h.bucket, n)
	h.sortedIDs, h.sortedPos = grow(h.sortedIDs, n), grow(h.sortedPos, n)
	h.slots = grow(h.slots, n)
	if parts <= 1 || run == nil {
		parts, run = 1, serial
	}
	b := &h.par
	b.ensure(h, parts)
	b.src = pos
	run(parts, b.count)
	run(parts, b.sum)
	var base int32
	for k, t := range b.rangeSum {
		b.rangeBase[k] = base
		base += t
	}
	run(parts, b.offsets)
	run(parts, b.place)
	b.src = nil
	h.start[len(h.start)-1] = int32(n)
	h.built, h.slotted = true, true
}

// parallelBuild holds the state of [Hash.BuildFrom]: per-part counts and
// the passes as func values made once (so that handing them to a Runner
// allocates nothing).
type parallelBuild struct {
	h              *Hash
	parts          int
	src            []r2.Vec
	counts         [][]int32 // per part, per bucket: items of the part's range, then its cursor
	rangeSum       []int32   // per part: items in its range of buckets
	rangeBase      []int32   // per part: slot of the first item of its range of buckets
	count, sum     func(k int)
	offsets, place func(k int)
}

func (b *parallelBuild) ensure(h *Hash, parts int) {
	if b.h != h {
		*b = parallelBuild{h: h}
		b.count, b.sum, b.offsets, b.place = b.countPart, b.sumPart, b.offsetsPart, b.placePart
	}
	buckets := h.cols * h.rows
	for len(b.counts) < parts {
		b.counts = append(b.counts, make([]int32, buckets))
	}
	if len(b.rangeSum) < parts {
		b.rangeSum, b.rangeBase = make([]int32, parts), make([]int32, parts)
	}
	b.counts, b.rangeSum, b.rangeBase = b.counts[:parts], b.rangeSum[:parts], b.rangeBase[:parts]
	b.parts = parts
}

// span returns the k-th of parts contiguous ranges of [0, n).
func span(k, parts, n int) (int, int) { return k * n / parts, (k + 1) * n / parts }

// countPart copies the positions of part k's items, finds their buckets and
// counts them.
func (b *parallelBuild) countPart(k int) {
	h := b.h
	cnt := b.counts[k]
	clear(cnt)
	lo, hi := span(k, b.parts, len(b.src))
	copy(h.pos[lo:hi], b.src[lo:hi])
	for i := lo; i < hi; i++ {
		bx, by := h.cellOf(h.pos[i])
		c := int32(by*h.cols + bx)
		h.bucket[i] = c
		h.ids[i] = int32(i)
		cnt[c]++
	}
}

// sumPart sums every part's counts over part k's range of buckets.
func (b *parallelBuild) sumPart(k int) {
	lo, hi := span(k, b.parts, len(b.h.start)-1)
	var t int32
	for _, cnt := range b.counts {
		for _, v := range cnt[lo:hi] {
			t += v
		}
	}
	b.rangeSum[k] = t
}

// offsetsPart turns the counts of part k's range of buckets into bucket
// starts and per-part cursors.
func (b *parallelBuild) offsetsPart(k int) {
	lo, hi := span(k, b.parts, len(b.h.start)-1)
	start := b.h.start
	base := b.rangeBase[k]
	for c := lo; c < hi; c++ {
		start[c] = base
		for _, cnt := range b.counts {
			v := cnt[c]
			cnt[c] = base
			base += v
		}
	}
}

// placePart moves part k's items to their sorted slots.
func (b *parallelBuild) placePart(k int) {
	h := b.h
	cnt := b.counts[k]
	lo, hi := span(k, b.parts, len(b.src))
	for i := lo; i < hi; i++ {
		c := h.bucket[i]
		j := cnt[c]
		cnt[c]++
		h.sortedIDs[j] = int32(i)
		h.sortedPos[j] = h.pos[i]
		h.slots[i] = j
	}
}

// serial is the Runner of a build on the calling goroutine.
func serial(parts int, part func(k int)) {
	for k := range parts {
		part(k)
	}
}
