package spatial

import (
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// goRunner runs the parts on goroutines, as a worker pool would.
func goRunner(parts int, part func(k int)) {
	var wg sync.WaitGroup
	for k := 1; k < parts; k++ {
		wg.Add(1)
		go func() { defer wg.Done(); part(k) }()
	}
	part(0)
	wg.Wait()
}

// serialRunner runs the parts one after the other.
func serialRunner(parts int, part func(k int)) {
	for k := range parts {
		part(k)
	}
}

// TestBuildFromIdenticalToBuild: for any number of parts the parallel build
// gives the serial build's buckets, order and positions, with items outside
// the area and at NaN positions among them, and rebuilding a hash (fewer,
// then more items) leaves nothing of the last build behind.
func TestBuildFromIdenticalToBuild(t *testing.T) {
	t.Run("serialSort", testBuildFromIdenticalToBuild)
	t.Run("rangeSort", func(t *testing.T) { lowerRangeSortMin(t, 0); testBuildFromIdenticalToBuild(t) })
}

func testBuildFromIdenticalToBuild(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	par := NewHash(2, 40, 30)
	for _, n := range []int{0, 2, 7, 500, 120, 3000} {
		pts := randomPoints(rng, n, 40, 30, 3) // some outside, clamped to the border buckets
		for i := 0; i < n; i += 97 {
			pts[i] = r2.Vec{X: math.NaN(), Y: 5}
		}
		for i := 5; i < n; i += 13 { // many items in the same bucket
			pts[i] = r2.Vec{X: 10.5, Y: 10.5}
		}
		ser := NewHash(2, 40, 30)
		for i, p := range pts {
			ser.Insert(int32(i), p)
		}
		ser.Build()
		for _, parts := range []int{1, 2, 3, 5} {
			par.BuildFrom(pts, parts, goRunner)
			require.Equal(t, bucketStarts(ser), bucketStarts(par), "n %d, %d parts: bucket starts", n, parts)
			require.Equal(t, ser.sortedIDs, par.sortedIDs, "n %d, %d parts: order", n, parts)
			require.Equal(t, len(ser.sortedPos), len(par.sortedPos))
			for i := range ser.sortedPos { // NaN != NaN: compare bits
				assert.Equal(t, math.Float64bits(ser.sortedPos[i].X), math.Float64bits(par.sortedPos[i].X))
				assert.Equal(t, ser.sortedPos[i].Y, par.sortedPos[i].Y)
			}
			assert.Equal(t, n, par.Len())
			if n > 0 {
				c := r2.Vec{X: 10, Y: 10}
				assert.Equal(t, ser.Query(c, 4, nil), par.Query(c, 4, nil))
				p, ok := par.Position(1)
				assert.True(t, ok)
				assert.Equal(t, pts[1], p)
			}
		}
	}
}

// bucketStarts returns the first slot of every bucket and the item count,
// as the hash finds them (a sparse build keeps only its blocks' starts).
func bucketStarts(h *Hash) []int {
	s := make([]int, h.Buckets()+1)
	for c := range s {
		s[c] = h.first(c)
	}
	return s
}

// TestSparseBuildFromIdenticalToBuild: on an area with many more buckets
// than items, BuildFrom sorts by blocks of buckets; the buckets, order,
// queries and rows are still the serial build's, however crowded a block.
func TestSparseBuildFromIdenticalToBuild(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	par := NewHash(2, 1000, 600)
	for _, n := range []int{1, 3, 40, 900, 200} {
		pts := randomPoints(rng, n, 1000, 600, 30)
		for i := 2; i < n; i += 5 { // a crowd in a few buckets of one block
			pts[i] = r2.Vec{X: 500 + float64(i%7), Y: 301}
		}
		ser := NewHash(2, 1000, 600)
		for i, p := range pts {
			ser.Insert(int32(i), p)
		}
		ser.Build()
		for _, parts := range []int{1, 2, 3} {
			par.BuildFrom(pts, parts, goRunner)
			require.NotZero(t, par.shift, "n %d: a sparse build", n)
			require.Equal(t, bucketStarts(ser), bucketStarts(par), "n %d, %d parts: bucket starts", n, parts)
			require.Equal(t, ser.sortedIDs, par.sortedIDs, "n %d, %d parts: order", n, parts)
			require.Equal(t, ser.sortedPos, par.sortedPos, "n %d, %d parts: positions", n, parts)
			for _, c := range []r2.Vec{{X: 503, Y: 301}, pts[0], {X: 0, Y: 0}, {X: 999, Y: 599}} {
				assert.Equal(t, ser.Query(c, 4.5, nil), par.Query(c, 4.5, nil))
				assert.Equal(t, ser.Count(c, 3), par.Count(c, 3))
				all := func(int32, r2.Vec, float64) bool { return true }
				si, sd, sok := ser.Nearest(c, 50, all)
				pi, pd, pok := par.Nearest(c, 50, all)
				assert.Equal(t, []any{si, sd, sok}, []any{pi, pd, pok})
			}
		}
	}
	pts0 := randomPoints(rng, 300, 1000, 600, 0)
	par.BuildFrom(pts0, 2, serialRunner)
	assert.Zero(t, testing.AllocsPerRun(5, func() { par.BuildFrom(pts0, 2, serialRunner) }), "a warm sparse build allocates")
	// dense again: the serial layout
	pts := randomPoints(rng, 100_000, 1000, 600, 0)
	par.BuildFrom(pts, 2, goRunner)
	assert.Zero(t, par.shift)
	assert.Equal(t, int32(len(pts)), par.start[par.Buckets()])
}

// TestBuildFromAfterInsert: a hash filled with Insert and then rebuilt with
// BuildFrom (and back) answers for the latest build only.
func TestBuildFromAfterInsert(t *testing.T) {
	h := NewHash(1, 10, 10)
	h.Insert(42, r2.Vec{X: 1, Y: 1})
	h.Build()
	h.BuildFrom([]r2.Vec{{X: 5, Y: 5}, {X: 5.2, Y: 5}}, 2, goRunner)
	assert.Equal(t, []int32{0, 1}, h.Query(r2.Vec{X: 5, Y: 5}, 1, nil))
	assert.Empty(t, h.Query(r2.Vec{X: 1, Y: 1}, 0.5, nil))
	h.Reset()
	h.Insert(7, r2.Vec{X: 1, Y: 1})
	h.Build()
	assert.Equal(t, []int32{7}, h.Query(r2.Vec{X: 1, Y: 1}, 0.5, nil))
	assert.Empty(t, h.Query(r2.Vec{X: 5, Y: 5}, 1, nil))
}

func TestBuildFromAllocatesNothingWarm(t *testing.T) {
	pts := randomPoints(rand.New(rand.NewPCG(1, 2)), 2000, 64, 64, 0)
	h := NewHash(2, 64, 64)
	h.BuildFrom(pts, 2, serialRunner)
	assert.Zero(t, testing.AllocsPerRun(20, func() { h.BuildFrom(pts, 2, serialRunner) }))
}

// TestSortedSlotsRows checks the accessors of the sorted arrays against
// Query: the items a scan of Rows and RowSpan finds within radius are the
// query's, in its order, and Slots inverts the sorted IDs.
func TestSortedSlotsRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	pts := randomPoints(rng, 2000, 40, 30, 2)
	h := NewHash(1.5, 40, 30)
	h.BuildFrom(pts, 3, goRunner)
	ids, pos := h.Sorted()
	slots := h.Slots()
	require.Len(t, slots, len(pts))
	for i := range pts {
		require.Equal(t, int32(i), ids[slots[i]])
		require.Equal(t, pts[i], pos[slots[i]])
	}
	for k := 0; k < 200; k++ {
		c, r := pts[k], 0.4+float64(k%7)*0.5
		want := h.Query(c, r, nil)
		var got []int32
		x0, x1, y0, y1, ok := h.Rows(c, r)
		require.True(t, ok)
		for y := y0; y <= y1; y++ {
			lo, hi := h.RowSpan(y, x0, x1)
			for j := lo; j < hi; j++ {
				dx, dy := pos[j].X-c.X, pos[j].Y-c.Y
				if float64(dx*dx)+float64(dy*dy) <= r*r {
					got = append(got, ids[j])
				}
			}
		}
		require.Equal(t, want, got)
		require.Equal(t, len(want), h.Count(c, r))
	}
	h.Reset()
	h.Insert(5, pts[0])
	h.Build()
	assert.Nil(t, h.Slots(), "Build's IDs are the caller's: no slots")
	_, _, _, _, ok := h.Rows(pts[0], math.NaN())
	assert.False(t, ok)
}

// A dense build with many buckets sums the counts and makes the cursors on
// the parts (above serialKeys), one with few on the calling goroutine: both
// give the serial build's buckets and order. Items inserted after a
// BuildFrom join the ones it holds.
func TestBuildFromManyBucketsAndInsertAfter(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	const side = 300 // 90,000 buckets of 1 cell: dense for 30,000 items
	pts := randomPoints(rng, 30000, side, side, 0)
	ser := NewHash(1, side, side)
	for i, p := range pts {
		ser.Insert(int32(i), p)
	}
	ser.Build()
	par := NewHash(1, side, side)
	for _, parts := range []int{1, 2, 3} {
		require.Greater(t, par.Buckets()*parts, serialKeys/2)
		par.BuildFrom(pts, parts, goRunner)
		require.Zero(t, par.shift, "dense")
		require.Equal(t, bucketStarts(ser), bucketStarts(par), "%d parts: bucket starts", parts)
		require.Equal(t, ser.sortedIDs, par.sortedIDs, "%d parts: order", parts)
		require.Equal(t, ser.sortedPos, par.sortedPos, "%d parts: positions", parts)
	}
	extra := r2.Vec{X: 7.5, Y: 3.25}
	par.Insert(int32(len(pts)), extra)
	par.Build()
	ser.Insert(int32(len(pts)), extra)
	ser.Build()
	assert.Equal(t, ser.sortedIDs, par.sortedIDs, "an Insert after BuildFrom keeps its items")
	assert.Equal(t, ser.sortedPos, par.sortedPos)
	p, ok := par.Position(12345)
	assert.True(t, ok)
	assert.Equal(t, pts[12345], p)
}

// TestBeginFromIdenticalToBuildFrom: a build whose first pass the caller runs
// part by part (BeginFrom, CountFrom on goroutines of its own, FinishFrom)
// gives BuildFrom's buckets, order, positions and slots; a sparse build is
// refused (BeginFrom false) and BuildFrom then still builds it right.
func TestBeginFromIdenticalToBuildFrom(t *testing.T) {
	t.Run("serialSort", testBeginFromIdenticalToBuildFrom)
	t.Run("rangeSort", func(t *testing.T) { lowerRangeSortMin(t, 0); testBeginFromIdenticalToBuildFrom(t) })
}

func testBeginFromIdenticalToBuildFrom(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	ref, h := NewHash(2, 40, 30), NewHash(2, 40, 30)
	for _, n := range []int{0, 3, 500, 3000, 40, 75} { // 300 buckets: sparse below 75 items
		pts := randomPoints(rng, n, 40, 30, 3)
		for i := 5; i < n; i += 13 {
			pts[i] = r2.Vec{X: 10.5, Y: 10.5}
		}
		for _, parts := range []int{1, 2, 3} {
			ref.BuildFrom(pts, parts, goRunner)
			sparse := n < 75
			if !h.BeginFrom(pts, parts) {
				require.True(t, sparse, "n %d: only a sparse build is refused", n)
				require.NotZero(t, h.shift)
				h.BuildFrom(pts, parts, goRunner)
			} else {
				require.False(t, sparse, "n %d: a sparse build is refused", n)
				var wg sync.WaitGroup
				for k := range parts {
					wg.Add(1)
					go func() { defer wg.Done(); h.CountFrom(k) }()
				}
				wg.Wait()
				h.FinishFrom(goRunner)
			}
			require.Equal(t, bucketStarts(ref), bucketStarts(h), "n %d, %d parts: bucket starts", n, parts)
			require.Equal(t, ref.sortedIDs, h.sortedIDs, "n %d, %d parts: order", n, parts)
			require.Equal(t, ref.sortedPos, h.sortedPos, "n %d, %d parts: positions", n, parts)
			require.Equal(t, ref.Slots(), h.Slots(), "n %d, %d parts: slots", n, parts)
		}
	}
}

// TestBeginFromSplitAnyRanges: parts of unequal ranges of items (a caller
// whose workers run at unequal speeds), empty ones included, build the hash
// BuildFrom builds, in each way of a dense build: counted and placed per
// part (many items per bucket), rangeSort and serialSort (about as many
// buckets as items); malformed bounds panic.
func TestBeginFromSplitAnyRanges(t *testing.T) {
	lowerRangeSortMin(t, 1000)
	rng := rand.New(rand.NewPCG(6, 6))
	ref, h := NewHash(2, 40, 30), NewHash(2, 40, 30) // 300 buckets
	for _, n := range []int{3000, 500, 1200} {
		pts := randomPoints(rng, n, 40, 30, 3)
		ref.BuildFrom(pts, 1, nil)
		for _, bounds := range [][]int{{0, n / 5, n}, {0, n - 1, n}, {0, 0, n}, {0, n, n}, {0, 7, n / 2, n}} {
			require.True(t, h.BeginFromSplit(pts, bounds))
			var wg sync.WaitGroup
			for k := range len(bounds) - 1 {
				wg.Add(1)
				go func() { defer wg.Done(); h.CountFrom(k) }()
			}
			wg.Wait()
			h.FinishFrom(goRunner)
			require.Equal(t, bucketStarts(ref), bucketStarts(h), "n %d, bounds %v: bucket starts", n, bounds)
			require.Equal(t, ref.sortedIDs, h.sortedIDs, "n %d, bounds %v: order", n, bounds)
			require.Equal(t, ref.sortedPos, h.sortedPos, "n %d, bounds %v: positions", n, bounds)
			require.Equal(t, ref.Slots(), h.Slots(), "n %d, bounds %v: slots", n, bounds)
		}
	}
	pts := randomPoints(rng, 10, 40, 30, 0)
	for _, bad := range [][]int{nil, {0}, {1, 10}, {0, 9}, {0, 6, 4, 10}} {
		assert.Panics(t, func() { h.BeginFromSplit(pts, bad) }, "bounds %v", bad)
	}
}

// TestBeginFromSplitAllocatesNothingWarm: a warm range sort (as many items
// as the last build, their moves tracked) whose parts' ranges change from
// build to build allocates nothing.
func TestBeginFromSplitAllocatesNothingWarm(t *testing.T) {
	lowerRangeSortMin(t, 0)
	rng := rand.New(rand.NewPCG(9, 9))
	const n = 3000
	pts := randomPoints(rng, n, 120, 100, 0) // 3000 buckets of 2 cells
	h := NewHash(2, 120, 100)
	build := func(cut int) {
		require.True(t, h.BeginFromSplit(pts, []int{0, cut, n}))
		require.True(t, h.par.rangeSort)
		h.CountFrom(0)
		h.CountFrom(1)
		h.FinishFrom(serialRunner)
		for i := range pts {
			pts[i].X = math.Mod(pts[i].X+0.3, 120)
		}
	}
	build(n / 2)
	build(n / 2)
	require.True(t, h.par.warm)
	cuts := []int{100, n - 100, n / 3, 2 * n / 3}
	i := 0
	assert.Zero(t, testing.AllocsPerRun(20, func() { build(cuts[i%len(cuts)]); i++ }))
}

// TestBuildFromBalancesItsFirstPass: BuildFrom in parts cuts its first
// pass's items by the shares the last one's times left: a part that took
// twice as long as the other gets 0.4583 of the items next (see
// balance.Shares), and the hash is the same.
func TestBuildFromBalancesItsFirstPass(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	pts := randomPoints(rng, 4000, 40, 30, 0)
	ref, h := NewHash(2, 40, 30), NewHash(2, 40, 30)
	ref.BuildFrom(pts, 1, nil)
	h.BuildFrom(pts, 2, goRunner)
	h.par.countShares.Reset(2)
	h.par.countShares.Took(0, 2000)
	h.par.countShares.Took(1, 1000)
	h.BuildFrom(pts, 2, serialRunner)
	assert.Equal(t, []int{0, 1833, 4000}, h.par.bounds)
	require.Equal(t, ref.sortedIDs, h.sortedIDs)
	require.Equal(t, ref.Slots(), h.Slots())
}

// TestBuildFromRangeSortChoice: the tests above cover the ways of a dense
// build in parts (they compare with the serial build): with fewer items than
// buckets × parts the parts find the buckets, then each sorts a range of
// buckets (rangeSort), or with fewer than rangeSortMin items the calling
// goroutine sorts them (serialSort); with more items they count and place
// their items.
func TestBuildFromRangeSortChoice(t *testing.T) {
	h := NewHash(2, 40, 30) // 300 buckets
	for _, min := range []int{rangeSortMin, 0} {
		lowerRangeSortMin(t, min)
		for _, c := range []struct {
			n, parts  int
			byBuckets bool
		}{{500, 2, true}, {3000, 2, false}, {500, 1, false}, {800, 3, true}, {1000, 3, false}} {
			pts := randomPoints(rand.New(rand.NewPCG(6, 6)), c.n, 40, 30, 0)
			require.True(t, h.BeginFrom(pts, c.parts))
			assert.Equal(t, c.byBuckets && min > 0, h.par.serialSort, "n %d, %d parts, min %d", c.n, c.parts, min)
			assert.Equal(t, c.byBuckets && min == 0, h.par.rangeSort, "n %d, %d parts, min %d", c.n, c.parts, min)
			for k := range c.parts {
				h.CountFrom(k)
			}
			h.FinishFrom(nil)
			assert.False(t, h.par.rangeSort || h.par.serialSort)
		}
	}
}

// lowerRangeSortMin sets rangeSortMin to min until the test ends, so that
// small builds sort by ranges of buckets on their parts.
func lowerRangeSortMin(t *testing.T, min int) {
	old := rangeSortMin
	rangeSortMin = min
	t.Cleanup(func() { rangeSortMin = old })
}

// TestRangeSortSplits: a rangeSort's parts sort ranges of buckets that held
// about as many items each in the last dense build; whatever the split
// (equal ranges of buckets at first, a crowd moving from one corner to the
// other, a range with no item, more parts than crowded buckets), the build
// is the serial one, slots included.
func TestRangeSortSplits(t *testing.T) {
	lowerRangeSortMin(t, 0)
	rng := rand.New(rand.NewPCG(8, 8))
	const side = 60 // 900 buckets of 2 cells
	h := NewHash(2, side, side)
	for frame, corner := range []float64{0, 0, 30, 55, 55} {
		pts := randomPoints(rng, 600, side, side, 0)
		for i := range pts { // most of them crowded into a few buckets near the corner
			if i%4 != 0 {
				pts[i] = r2.Vec{X: corner + rng.Float64()*4, Y: corner + rng.Float64()*4}
			}
		}
		ser := NewHash(2, side, side)
		for i, p := range pts {
			ser.Insert(int32(i), p)
		}
		ser.Build()
		for _, parts := range []int{2, 3, 7} {
			require.True(t, h.BeginFrom(pts, parts))
			require.True(t, h.par.rangeSort, "600 items, 900 buckets")
			split := h.par.split
			require.Len(t, split, parts+1)
			for k := range parts {
				require.LessOrEqual(t, split[k], split[k+1], "frame %d, %d parts: splits %v", frame, parts, split)
			}
			for k := range parts {
				h.CountFrom(k)
			}
			h.FinishFrom(goRunner)
			require.Equal(t, bucketStarts(ser), bucketStarts(h), "frame %d, %d parts: bucket starts", frame, parts)
			require.Equal(t, ser.sortedIDs, h.sortedIDs, "frame %d, %d parts: order", frame, parts)
			require.Equal(t, ser.sortedPos, h.sortedPos, "frame %d, %d parts: positions", frame, parts)
			for i := range pts {
				require.Equal(t, int32(i), h.sortedIDs[h.Slots()[i]])
			}
		}
	}
	// a split from the last build: the parts' ranges held about as many items
	// (equal shares: the times the parts took are forgotten)
	pts := randomPoints(rng, 600, side, side, 0)
	h.BuildFrom(pts, 2, goRunner)
	h.par.shares.Reset(2)
	require.True(t, h.BeginFrom(pts, 2))
	mid := h.start[h.par.split[1]]
	assert.InDelta(t, 300, mid, 10, "the first range held half the items")
	h.CountFrom(0)
	h.CountFrom(1)
	h.FinishFrom(nil)
	// part 0 took twice as long as part 1 in the last build: its share
	// falls by a quarter of the way to the share that would have evened them
	// (1/3 of the items: 0.5 + 0.25·(1/3 − 0.5) = 0.4583, 275 of 600)
	h.par.shares.Reset(2)
	h.par.shares.Took(0, 2000)
	h.par.shares.Took(1, 1000)
	require.True(t, h.BeginFrom(pts, 2))
	mid = h.start[h.par.split[1]]
	assert.InDelta(t, 275, mid, 10, "the slower part's range holds fewer items")
	h.CountFrom(0)
	h.CountFrom(1)
	h.FinishFrom(nil)
	ser := NewHash(2, side, side)
	for i, p := range pts {
		ser.Insert(int32(i), p)
	}
	ser.Build()
	require.Equal(t, bucketStarts(ser), bucketStarts(h), "any split sorts the same")
	require.Equal(t, ser.sortedIDs, h.sortedIDs, "any split sorts the same")
	assert.Zero(t, testing.AllocsPerRun(5, func() { h.BuildFrom(pts, 2, serialRunner) }), "a warm rangeSort allocates")
}

// TestRangeSortFromLastBuild: a rangeSort of as many items as the last
// dense build takes its counts from that build's starts and the items that
// changed bucket (rangePart); frame after frame of moving items (a few
// changing bucket, none, most, some leaving the area or turning NaN), with
// the parts changing, a sparse build, an Insert/Build of fewer items and an abandoned
// BeginFrom in between, the build is the serial one, slots included, and
// the counts came that way in the frames they could.
func TestRangeSortFromLastBuild(t *testing.T) {
	lowerRangeSortMin(t, 0)
	rng := rand.New(rand.NewPCG(9, 9))
	const side = 60 // 900 buckets of 2 cells
	h := NewHash(2, side, side)
	pts := randomPoints(rng, 700, side, side, 0)
	tracked := 0
	for frame := range 60 {
		step := 0.1 // some items change bucket (about 5%)
		switch {
		case frame%11 == 5:
			step = 0 // none
		case frame%13 == 7:
			step = 6 // most: more than movedShare allows
		}
		for i := range pts {
			pts[i].X += step * (rng.Float64()*2 - 1)
			pts[i].Y += step * (rng.Float64()*2 - 1)
		}
		if frame == 20 {
			pts[3] = r2.Vec{X: math.NaN(), Y: 1}
			pts[4] = r2.Vec{X: -5, Y: side + 9}
		}
		if frame == 21 {
			pts[3], pts[4] = r2.Vec{X: 1, Y: 1}, r2.Vec{X: side / 2, Y: side / 2}
		}
		parts := 2 + frame%3
		switch frame {
		case 30: // a sparse build in between: too few items
			h.BuildFrom(pts[:50], parts, goRunner)
		case 35: // an Insert and Build of fewer items in between
			h.Reset()
			for i, p := range pts[:600] {
				h.Insert(int32(i), p)
			}
			h.Build()
		case 40: // a BeginFrom abandoned after counting some parts
			require.True(t, h.BeginFrom(pts, parts))
			h.CountFrom(0)
		case 45: // fewer items, then as many again
			h.BuildFrom(pts[:600], parts, goRunner)
		}
		ser := NewHash(2, side, side)
		for i, p := range pts {
			ser.Insert(int32(i), p)
		}
		ser.Build()
		if frame%2 == 0 {
			h.BuildFrom(pts, parts, goRunner)
		} else {
			require.True(t, h.BeginFrom(pts, parts))
			require.True(t, h.par.rangeSort)
			if h.par.track {
				tracked++
			}
			for k := range parts {
				h.CountFrom(k)
			}
			h.FinishFrom(goRunner)
		}
		require.Equal(t, bucketStarts(ser), bucketStarts(h), "frame %d, %d parts: bucket starts", frame, parts)
		require.Equal(t, ser.sortedIDs, h.sortedIDs, "frame %d, %d parts: order", frame, parts)
		for i := range ser.sortedPos { // NaN != NaN: compare bits
			require.Equal(t, math.Float64bits(ser.sortedPos[i].X), math.Float64bits(h.sortedPos[i].X), "frame %d", frame)
			require.Equal(t, ser.sortedPos[i].Y, h.sortedPos[i].Y, "frame %d", frame)
		}
		for i := range pts {
			require.Equal(t, int32(i), h.sortedIDs[h.Slots()[i]], "frame %d", frame)
		}
	}
	assert.Greater(t, tracked, 15, "builds that took their counts from the last one")
	assert.Zero(t, testing.AllocsPerRun(5, func() { h.BuildFrom(pts, 2, serialRunner) }), "a warm tracked rangeSort allocates")
}
