package spatial

import (
	"fmt"
	"slices"
	"time"

	"github.com/archai-go/archai/internal/balance"
	"gonum.org/v1/gonum/spatial/r2"
)

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
// It is a counting sort (Ericson 2005, 7.1.5; the parallel form is the usual
// radix-sort one) in four passes: each part finds the buckets of its range
// of items and counts them in its own array of counts; each part sums the
// counts of a range of keys; the sums' prefix (one number per part, on the
// calling goroutine) gives each range of keys its first slot, from which each
// part turns its range's counts into per-part cursors (key by key, parts in
// order, so the sort is stable); each part places its items. With few
// keys (keys × parts ≤ serialKeys) the second and third passes are one pass
// on the calling goroutine, cheaper than handing them out. With about as
// many buckets as items (buckets × parts > items) the parts find the
// items' buckets, then each sorts a range of buckets, in one more pass (see
// rangeSortRatio), or with fewer than rangeSortMin items the calling
// goroutine sorts them.
//
// Its cost follows the items, not the area: when the hash has more than
// sparseRatio buckets per item (a big map with few agents), the buckets are
// grouped in blocks of 2^s consecutive buckets, the smallest s giving at
// most sparseRatio blocks per item, and the sort is a two-digit radix sort (the bucket within its block,
// then the block), so no pass walks every bucket; a block's start is kept,
// and a bucket's start is found among its block's items (see
// [Hash.RowSpan]). Otherwise it is one counting sort over the buckets. The
// result is the same either way; the per-part counts hold parts × the
// number of keys of a pass as int32.
//
// It also records each item's slot (its place in bucket order, see
// [Hash.Slots]).
//
// Once the buffers have grown, BuildFrom allocates nothing. pos is read
// only while BuildFrom runs (the sorted positions are a copy); the caller may
// change it afterwards.
func (h *Hash) BuildFrom(pos []r2.Vec, parts int, run Runner) {
	if parts <= 1 || run == nil {
		parts, run = 1, serial
	}
	b := &h.par
	b.ensure(h, parts)
	if h.beginFrom(pos, parts, b.countSplit(len(pos))) {
		// the first pass's parts timed, to split the next build's (dense
		// ones: the sparse build's first pass is cut in equal ranges)
		b.timeCount = parts > 1
		run(parts, b.count)
		b.timeCount = false
		h.FinishFrom(run)
		return
	}
	// a sparse build
	n, shift := len(pos), h.shift
	b.tmp, h.sortedKeys = grow(b.tmp, n), grow(h.sortedKeys, n)
	blocks := (h.cols*h.rows-1)>>shift + 1
	b.pass(run, nil, 0, 1<<shift, true, false)              // by the bucket within its block
	b.pass(run, b.tmp, shift, blocks, false, true)          // then by block, stable
	h.start[blocks], h.start[blocks+1] = int32(n), int32(n) // blocks+2 ≤ buckets+1: buckets > 4
	h.endFrom(n)
}

// BeginFrom starts a [Hash.BuildFrom] (pos, parts, run) whose first pass
// the caller runs itself, in a pass of its own over the items: when it
// returns true, the caller calls [Hash.CountFrom] (k) once for each part k
// in [0, parts), at once on different goroutines if it likes (part k reads
// pos[k·n/parts : (k+1)·n/parts], n = len(pos)), then [Hash.FinishFrom]
// (run); the result is BuildFrom's. So a caller that writes pos on its
// workers, in those same ranges, can count each range just after writing it
// and spare the build's first hand-off to them. It returns false (and
// changes nothing the hash answers) when the build sorts by blocks of
// buckets (a sparse build, see BuildFrom), whose first pass is not split
// so: the caller then calls BuildFrom.
//
// pos must not change from BeginFrom to FinishFrom. Between them the hash
// answers no query.
func (h *Hash) BeginFrom(pos []r2.Vec, parts int) bool {
	return h.beginFrom(pos, max(parts, 1), nil)
}

// BeginFromSplit is [Hash.BeginFrom] with the parts' ranges of items
// chosen by the caller: there are len(bounds)−1 parts, and part k reads
// pos[bounds[k] : bounds[k+1]]. A caller whose workers run at unequal
// speeds gives the faster ones longer ranges; the result is BuildFrom's
// whatever the ranges. bounds is read only during the call.
//
// Panics: unless bounds has at least 2 entries, starts at 0, ends at
// len(pos) and never decreases.
func (h *Hash) BeginFromSplit(pos []r2.Vec, bounds []int) bool {
	if len(bounds) < 2 || bounds[0] != 0 || bounds[len(bounds)-1] != len(pos) || !slices.IsSorted(bounds) {
		// a copy in the message: bounds itself does not escape (a caller's
		// slice on its stack stays there)
		panic(fmt.Sprintf("spatial: BeginFromSplit: bounds %v must rise from 0 to len(pos) = %d, one range per part", slices.Clone(bounds), len(pos)))
	}
	return h.beginFrom(pos, len(bounds)-1, bounds)
}

// beginFrom is BeginFrom in parts ranges of items: bounds' (parts+1
// entries), or equal ranges if nil.
func (h *Hash) beginFrom(pos []r2.Vec, parts int, bounds []int) bool {
	n := len(pos)
	buckets := h.cols * h.rows
	shift := uint(0)
	for (buckets>>shift) > sparseRatio*max(n, 1) && shift < 30 {
		shift++
	}
	// ids and pos are left unwritten (lazy): the sorted arrays and the slots
	// hold the same, and materialize writes them if Insert or Position needs them
	h.ids, h.pos, h.bucket = grow(h.ids, n), grow(h.pos, n), grow(h.bucket, n)
	h.sortedIDs, h.sortedPos = grow(h.sortedIDs, n), grow(h.sortedPos, n)
	h.slots = grow(h.slots, n)
	h.shift = shift
	b := &h.par
	b.ensure(h, parts)
	b.src = pos
	b.bounds = grow(b.bounds, parts+1)
	if bounds != nil {
		copy(b.bounds, bounds)
	} else {
		for k := range b.bounds {
			b.bounds[k] = k * n / parts
		}
	}
	if shift != 0 {
		b.dense = false
		return false
	}
	byBuckets := parts > 1 && buckets*parts > rangeSortRatio*n
	if byBuckets && n >= rangeSortMin {
		b.splitKeys(buckets)
	}
	b.begin(nil, 0, buckets, true, true)
	b.rangeSort, b.serialSort = byBuckets && n >= rangeSortMin, byBuckets && n < rangeSortMin
	b.dense = true
	// a rangeSort of as many items as the last dense build: its parts note
	// the items whose bucket changed (see rangePart)
	// (then no longer warm until this build ends: a build begun again
	// before would find some of the new buckets in h.bucket already)
	b.track, b.warm = b.rangeSort && b.warm && b.warmN == n, false
	if b.track {
		for k := range b.moved {
			// room for 1/movedShare of the part's items, in a buffer with
			// room for any part's (the parts' ranges change from build to
			// build, BeginFromSplit): no warm build allocates
			if room := n/movedShare + 1; cap(b.movedBuf[k]) < room {
				b.movedBuf[k] = make([]moved, 0, room)
			}
			m := (b.bounds[k+1]-b.bounds[k])/movedShare + 1
			b.moved[k] = b.movedBuf[k][:0:m]
		}
	}
	return true
}

// CountFrom runs part k of the first pass of the build [Hash.BeginFrom]
// started (it reports true): it finds the buckets of part k's items and
// counts them.
func (h *Hash) CountFrom(k int) { h.par.countPart(k) }

// FinishFrom ends the build [Hash.BeginFrom] started (it reported true),
// once [Hash.CountFrom] has run for every part: it places the items, the
// passes after the first split into parts that run may do at once, as
// [Hash.BuildFrom] does (nil: on the calling goroutine).
func (h *Hash) FinishFrom(run Runner) {
	if h.par.parts <= 1 || run == nil {
		run = serial
	}
	h.par.finish(run)
	h.endFrom(len(h.par.src))
}

// endFrom marks the result of a BuildFrom of n items built.
func (h *Hash) endFrom(n int) {
	// a dense build leaves every item's bucket in h.bucket and every
	// bucket's start in h.start, for the next build to compare with
	h.par.warm, h.par.warmN = h.par.dense, n
	h.par.src = nil
	h.start[len(h.start)-1] = int32(n)
	h.built, h.slotted, h.lazy = true, true, true
}

// serialKeys is the most keys × parts for which [Hash.BuildFrom] sums the
// counts and turns them into cursors on the calling goroutine: below it, a
// hand-off to the workers costs more than the pass.
const serialKeys = 1 << 15

// rangeSortRatio is the number of items per bucket (times parts) below
// which a dense [Hash.BuildFrom] in several parts has its parts find the
// items' buckets only, then sort by ranges of buckets (rangePart): with
// about as many buckets as items, per-part counts over every bucket (parts
// × buckets) cost more to clear, sum and turn into cursors than the items
// to count, and with items in no spatial order parts that each place a
// range of items would place theirs next to each other's in the sorted
// arrays (a stable sort puts part 0's items of a bucket just before part
// 1's), the cores writing the same cache lines. A part that sorts a range
// of buckets counts only those, and writes a contiguous range of slots.
const rangeSortRatio = 1

// rangeSortMin is the fewest items a rangeSort sorts on the parts: with
// fewer, the parts only find the buckets and the calling goroutine counts and
// places the items (serialSort), sparing a hand-off. The 10,000 agents of a
// 256² map sort on the parts: with 2 workers, whose helper is still spinning
// from the pass before (ecs.Workers), Spatial's wall time fell by 7–25%
// against the serial sort's 40–90 µs (alternated runs). (A variable, so that
// tests can lower it.)
var rangeSortMin = 1 << 13

// sparseRatio is the number of buckets per item above which
// [Hash.BuildFrom] sorts by blocks of buckets.
const sparseRatio = 4

// parallelBuild holds the state of [Hash.BuildFrom]: per-part counts and
// the phases as func values made once (so that handing them to a Runner
// allocates nothing).
type parallelBuild struct {
	h         *Hash
	parts     int
	src       []r2.Vec
	bounds    []int     // part k's items are src[bounds[k]:bounds[k+1]]
	counts    [][]int32 // per part, per key: items of the part's range, then its cursor
	rangeSum  []int32   // per part: items in its range of keys
	rangeBase []int32   // per part: slot of the first item of its range of keys
	tmp       []int32   // a sparse build's order after its first digit

	// the pass under way
	order       []int32 // the items in the order to sort them (nil: by ID)
	shift       uint    // key = bucket >> shift, within keys
	keys        int
	first, last bool // first pass: find the buckets; last pass: fill the hash
	// the parts only find the buckets, then sort by ranges of buckets (a
	// dense build with many buckets, see rangeSortRatio)
	rangeSort  bool
	serialSort bool    // as rangeSort, but the calling goroutine sorts (fewer than rangeSortMin items)
	split      []int32 // rangeSort: part k sorts buckets split[k] to split[k+1]−1
	// rangeSort: each part's share of the items, adapted to the time each
	// part's sort took (see splitKeys)
	shares balance.Shares
	// a BuildFrom's first pass: each part's share of the items, adapted to
	// the time each part took in the last BuildFrom that timed them
	// (timeCount)
	countShares balance.Shares
	countBounds []int
	timeCount   bool
	dense       bool // the last build begun was dense: h.start holds every bucket's start

	// warm: the last build was a dense BuildFrom of warmN items, whose
	// buckets h.bucket[:warmN] and starts h.start still hold. A rangeSort of
	// as many items (track) has its parts note, in moved, each item whose
	// bucket changed (its old and new bucket; at most cap(moved[k]), else
	// over[k]), and its ranges' counts follow from the old starts and those
	// (see rangePart)
	warm, track bool
	warmN       int
	moved       [][]moved
	movedBuf    [][]moved // per part, the buffer moved[k] is cut from
	over        []bool

	count, sum     func(k int)
	offsets, place func(k int)
	ranged         func(k int)
}

func (b *parallelBuild) ensure(h *Hash, parts int) {
	if b.h != h {
		*b = parallelBuild{h: h}
		b.count, b.sum, b.offsets, b.place = b.countPart, b.sumPart, b.offsetsPart, b.placePart
		b.ranged = b.rangePart
	}
	for cap(b.counts) < parts {
		b.counts = append(b.counts[:cap(b.counts)], nil)
	}
	if len(b.rangeSum) < parts {
		b.rangeSum, b.rangeBase = make([]int32, parts), make([]int32, parts)
	}
	b.counts, b.rangeSum, b.rangeBase = b.counts[:parts], b.rangeSum[:parts], b.rangeBase[:parts]
	for len(b.moved) < parts {
		b.moved = append(b.moved, nil)
	}
	for len(b.movedBuf) < parts {
		b.movedBuf = append(b.movedBuf, nil)
	}
	if len(b.over) < parts {
		b.over = make([]bool, parts)
	}
	b.moved, b.over = b.moved[:parts], b.over[:parts]
	b.parts = parts
}

// pass runs one stable counting sort of the items (in the given order, nil
// for by ID) by the key bucket>>shift, or bucket mod keys in a first pass
// of a sparse build (shift 0, keys < buckets); the last pass fills the
// hash's sorted arrays and starts, an earlier one b.tmp.
func (b *parallelBuild) pass(run Runner, order []int32, shift uint, keys int, first, last bool) {
	b.begin(order, shift, keys, first, last)
	run(b.parts, b.count)
	b.finish(run)
}

// begin sets up a pass (see pass) up to its counting.
func (b *parallelBuild) begin(order []int32, shift uint, keys int, first, last bool) {
	b.order, b.shift, b.keys, b.first, b.last = order, shift, keys, first, last
	b.rangeSort, b.serialSort, b.track = false, false, false
	for k := range b.counts {
		if cap(b.counts[k]) < keys {
			b.counts[k] = make([]int32, keys)
		}
		b.counts[k] = b.counts[k][:keys]
	}
}

// finish runs the rest of a pass once its counting has run.
func (b *parallelBuild) finish(run Runner) {
	keys := b.keys
	if b.rangeSort {
		// the parts found the buckets: each sorts a range of them
		run(b.parts, b.ranged)
		b.rangeSort, b.track = false, false
		b.order = nil
		return
	}
	if b.serialSort {
		// the parts found the buckets: count them and place the items here,
		// as one part
		b.serialSort = false
		b.parts, b.counts = 1, b.counts[:1]
		b.bounds = append(b.bounds[:1], len(b.src))
		cnt := b.counts[0]
		clear(cnt)
		for _, c := range b.h.bucket[:len(b.src)] {
			cnt[c]++
		}
		b.offsetsRange(0, keys, 0)
		b.placePart(0)
		b.order = nil
		return
	}
	if keys*b.parts <= serialKeys {
		// one range of keys: its base is 0, and its sum is not needed
		b.rangeBase[0] = 0
		b.offsetsRange(0, keys, 0)
	} else {
		run(b.parts, b.sum)
		var base int32
		for k, t := range b.rangeSum {
			b.rangeBase[k] = base
			base += t
		}
		run(b.parts, b.offsets)
	}
	run(b.parts, b.place)
	b.order = nil
}

// span returns the k-th of parts contiguous ranges of [0, n).
func span(k, parts, n int) (int, int) { return k * n / parts, (k + 1) * n / parts }

// key returns the key of the pass under way of the item with bucket c.
func (b *parallelBuild) key(c int32) int32 {
	if b.first && !b.last {
		return c & int32(b.keys-1)
	}
	return c >> b.shift
}

// countPart counts the keys of part k's items; in the first pass it also
// copies their positions and finds their buckets.
func (b *parallelBuild) countPart(k int) {
	if b.timeCount {
		t0 := time.Now()
		defer b.tookCount(k, t0)
	}
	h := b.h
	lo, hi := b.bounds[k], b.bounds[k+1]
	if b.track { // a rangeSort's buckets, noting the items that changed bucket
		b.moved[k], b.over[k] = trackBuckets(h, b.src[lo:hi], h.bucket[lo:hi], b.moved[k][:0])
		return
	}
	if b.rangeSort || b.serialSort { // the buckets only
		bucket := b.h.bucket[lo:hi]
		for i, p := range b.src[lo:hi] {
			bx, by := h.cellOf(p)
			bucket[i] = int32(by*h.cols + bx)
		}
		return
	}
	cnt := b.counts[k]
	clear(cnt)
	if b.first {
		mask := int32(-1) // a dense build's key is the bucket
		if !b.last {
			mask = int32(b.keys - 1)
		}
		// the hash's fields in locals: stores to the buckets and counts
		// would otherwise have the compiler read them again each item
		inv, cols, rows := h.invCell, h.cols, h.rows
		src := b.src[lo:hi]
		bucket := h.bucket[lo:hi]
		bucket = bucket[:len(src)]
		for i, p := range src {
			c := int32(clampIndex(p.Y*inv, rows)*cols + clampIndex(p.X*inv, cols))
			bucket[i] = c
			cnt[c&mask]++
		}
		return
	}
	for _, i := range b.order[lo:hi] {
		cnt[b.key(h.bucket[i])]++
	}
}

// sumPart sums every part's counts over part k's range of keys.
func (b *parallelBuild) sumPart(k int) {
	lo, hi := span(k, b.parts, b.keys)
	var t int32
	for _, cnt := range b.counts {
		for _, v := range cnt[lo:hi] {
			t += v
		}
	}
	b.rangeSum[k] = t
}

// offsetsPart turns the counts of part k's range of keys into per-part
// cursors, and in the last pass into the keys' starts.
func (b *parallelBuild) offsetsPart(k int) {
	lo, hi := span(k, b.parts, b.keys)
	b.offsetsRange(lo, hi, b.rangeBase[k])
}

// offsetsRange turns the counts of keys [lo, hi) into per-part cursors (and
// in the last pass into the keys' starts), the first at base.
func (b *parallelBuild) offsetsRange(lo, hi int, base int32) {
	start := b.h.start
	if len(b.counts) <= 2 && len(b.counts) > 0 { // one or two parts, the usual: their counts read directly
		c0 := b.counts[0][lo:hi]
		var c1 []int32
		if len(b.counts) == 2 {
			c1 = b.counts[1][lo:hi]
			c1 = c1[:len(c0)]
		}
		var st []int32
		if b.last {
			st = start[lo:hi]
			st = st[:len(c0)]
		}
		for c, v := range c0 {
			if st != nil {
				st[c] = base
			}
			c0[c] = base
			base += v
			if c1 != nil {
				v := c1[c]
				c1[c] = base
				base += v
			}
		}
		return
	}
	for c := lo; c < hi; c++ {
		if b.last {
			start[c] = base
		}
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
	lo, hi := b.bounds[k], b.bounds[k+1]
	if !b.last {
		for i := lo; i < hi; i++ {
			c := b.key(h.bucket[i])
			j := cnt[c]
			cnt[c]++
			b.tmp[j] = int32(i)
		}
		return
	}
	if b.order == nil { // a dense build: the key is the bucket, sortedKeys unused
		src, slots := b.src[lo:hi], h.slots[lo:hi]
		ids, sorted := h.sortedIDs, h.sortedPos // locals: not read again after each store
		for i, c := range h.bucket[lo:hi] {
			j := cnt[c]
			cnt[c]++
			ids[j] = int32(lo + i)
			sorted[j] = src[i]
			slots[i] = j
		}
		return
	}
	for _, i := range b.order[lo:hi] {
		c := h.bucket[i]
		kc := c >> b.shift
		j := cnt[kc]
		cnt[kc]++
		h.sortedIDs[j] = i
		h.sortedPos[j] = b.src[i]
		h.sortedKeys[j] = c
		h.slots[i] = j
	}
}

// splitKeys sets b.split to parts ranges of the buckets [0, buckets) for a
// rangeSort: ranges that held about each part's share of the items in the
// last dense build (agents move little from one frame to the next), or
// equal ranges of buckets without one. Any split gives the same result.
//
// The shares start equal and follow the time each part's sort took in the
// last rangeSort (balance.Shares): part k runs on the same worker frame
// after frame, and a worker whose CPU runs slower (a virtual CPU that the
// host shares out unequally) gets fewer items, so that the parts end
// together.
func (b *parallelBuild) splitKeys(buckets int) {
	h := b.h
	if b.shares.Parts() != b.parts {
		b.shares.Reset(b.parts)
	} else {
		b.shares.Adapt()
	}
	b.split = grow(b.split, b.parts+1)
	b.split[0], b.split[b.parts] = 0, int32(buckets)
	last := int(h.start[buckets]) // the last dense build's items
	if !b.dense || !h.built || last <= 0 {
		for k := 1; k < b.parts; k++ {
			b.split[k] = int32(k * buckets / b.parts)
		}
		return
	}
	for k := 1; k < b.parts; k++ {
		// the first bucket whose start is at least the share of the items
		// of the parts before k
		want := int32(float64(b.shares.Cut(k)*float64(last)) + 0.5) // product rounded: no fused multiply-add
		lo, hi := int(b.split[k-1]), buckets
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			if h.start[m] < want {
				lo = m + 1
			} else {
				hi = m
			}
		}
		b.split[k] = int32(lo)
	}
}

// rangePart sorts the items of part k's range of buckets (a rangeSort,
// whose parts have found every item's bucket): one scan of every item's
// bucket counts the range's items per bucket and the items of earlier
// buckets (the range's first slot), the counts become the buckets' starts
// and cursors, and a second scan places the range's items, in a contiguous
// range of slots. When the parts noted the items that changed bucket since
// the last build (track; in a crowd that moves a little each frame, a few
// per cent of them), the first scan is not needed: each bucket's start is
// the last build's, moved by the items that left or joined it and the
// buckets before it.
func (b *parallelBuild) rangePart(k int) {
	t0 := time.Now()
	defer b.took(k, t0)
	h := b.h
	klo, khi := b.split[k], b.split[k+1]
	width := uint32(khi - klo)
	cnt := b.counts[k][:width]
	clear(cnt)
	n := len(b.src)
	bucket := h.bucket[:n]
	start := h.start[klo:khi]
	start = start[:len(cnt)]
	if b.track && !slices.Contains(b.over, true) {
		// the last build's starts, moved by the items that changed bucket:
		// cnt first holds each bucket's arrivals less departures, d the
		// same summed over the buckets before the one at hand
		var d int32
		for _, mv := range b.moved {
			for _, m := range mv {
				if u := uint32(m.from - klo); u < width {
					cnt[u]--
				} else if m.from < klo {
					d--
				}
				if u := uint32(m.to - klo); u < width {
					cnt[u]++
				} else if m.to < klo {
					d++
				}
			}
		}
		for c, v := range cnt {
			s := start[c] + d
			start[c], cnt[c] = s, s
			d += v
		}
	} else {
		var base int32 // items in buckets before klo
		for _, c := range bucket {
			if u := uint32(c - klo); u < width {
				cnt[u]++
			} else if c < klo {
				base++
			}
		}
		for c, v := range cnt {
			start[c], cnt[c] = base, base
			base += v
		}
	}
	src, slots := b.src[:n], h.slots[:n]
	ids, sorted := h.sortedIDs, h.sortedPos // locals: not read again after each store
	for i, c := range bucket {
		if u := uint32(c - klo); u < width {
			j := cnt[u]
			cnt[u]++
			ids[j] = int32(i)
			sorted[j] = src[i]
			slots[i] = j
		}
	}
}

// countSplit returns the bounds of the parts' ranges of n items for the
// first pass of a BuildFrom, from the shares its last timed first pass
// left (see rangePart's, splitKeys), or nil (equal ranges) for one part.
func (b *parallelBuild) countSplit(n int) []int {
	if b.parts <= 1 {
		return nil
	}
	if b.countShares.Parts() != b.parts {
		b.countShares.Reset(b.parts)
	} else {
		b.countShares.Adapt()
	}
	b.countBounds = b.countShares.Bounds(n, b.countBounds)
	return b.countBounds
}

// tookCount records the time part k's countPart took since t0.
func (b *parallelBuild) tookCount(k int, t0 time.Time) {
	b.countShares.Took(k, int64(time.Since(t0)))
}

// took records the time part k's rangePart took since t0.
func (b *parallelBuild) took(k int, t0 time.Time) { b.shares.Took(k, int64(time.Since(t0))) }

// moved is an item whose bucket changed since the last build.
type moved struct{ from, to int32 }

// movedShare is the share of a part's items (1/movedShare) that may change
// bucket for a rangeSort to take its counts from the last build (see
// rangePart); with more it counts them.
const movedShare = 8

// trackBuckets writes the bucket of each item at src into bucket, which
// holds the last build's, appends each item whose bucket changed to mv up
// to its capacity, and reports whether more changed.
func trackBuckets(h *Hash, src []r2.Vec, bucket []int32, mv []moved) ([]moved, bool) {
	inv, cols, rows := h.invCell, h.cols, h.rows // locals: not read again after each store
	bucket = bucket[:len(src)]
	over := false
	for i, p := range src {
		c := int32(clampIndex(p.Y*inv, rows)*cols + clampIndex(p.X*inv, cols))
		if old := bucket[i]; old != c {
			if len(mv) < cap(mv) {
				mv = append(mv, moved{from: old, to: c})
			} else {
				over = true
			}
			bucket[i] = c
		}
	}
	return mv, over
}

// serial is the Runner of a build on the calling goroutine.
func serial(parts int, part func(k int)) {
	for k := range parts {
		part(k)
	}
}
