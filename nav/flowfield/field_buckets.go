package flowfield

import (
	"math"
)

// The bucket build (issue 13): Dial's bucket queue with buckets as wide as
// the cheapest move of the grid (an orthogonal move into a cell of the
// smallest cost), kept in a ring of a power-of-two number of buckets that
// spans the dearest move. It is exact: settling an entry of bucket j (values
// in [jW, (j+1)W]) pushes values of at least (j+1)W, into later buckets, so
// when bucket j is taken up every cell with an entry in it already holds its
// smallest pushed value, which is final; entries of a bucket may be settled
// in any order, and an entry above its cell's value is stale and skipped. It
// replaces the k FIFO queues' choice of the smallest head per settled cell
// (an unpredictable branch) by a walk along the bucket being settled.

// bucketRing sets the bucket build up for the grid's classes: width, ring
// size; it reports false (use the FIFO queues) when the dearest move is more
// than 1,000 times the cheapest.
func (f *Field) bucketRing() bool {
	minW, maxW := float32(math.Inf(1)), float32(0)
	for k := 0; k < f.nClasses; k++ {
		minW, maxW = min(minW, f.wOrth[k]), max(maxW, f.wDiag[k])
	}
	if f.nClasses == 0 || !(minW > 0) || float64(maxW)/float64(minW) > 1000 {
		return false
	}
	n := 1
	for float64(n) < float64(maxW)/float64(minW)+3 {
		n <<= 1
	}
	if len(f.bk) != n {
		f.bk = make([][]item, n)
	}
	f.bkMask, f.bkInv = n-1, 1/float64(minW)
	return true
}

// bucketOf returns the (absolute) bucket of value v pushed while bucket cur
// is settled: at least cur+1, which it is anyway but for rounding.
func (f *Field) bucketOf(v float32, cur int) int {
	return max(int(float64(v)*f.bkInv), cur+1)
}

// stepBuckets is Step with the bucket queue.
func (f *Field) stepBuckets(budget int) {
	cs := f.cells
	s := int32(f.stride)
	cur := f.bkCur
	// Open all round is a branch worth taking where most cells are (on a
	// map of scattered walls it is unpredictable, and the general
	// relaxation below is as fast).
	fast := f.open8 >= 2*f.w*f.h/3
	lastD, lastK := float32(-1), -1
	var qo, qd *[]item
	for n := 0; n < budget; {
		b := &f.bk[cur&f.bkMask]
		if f.bkHead >= len(*b) {
			*b, f.bkHead = (*b)[:0], 0
			if f.bucketsEmpty(cur) {
				f.bkCur = cur
				f.done = true
				return
			}
			cur++
			lastD = -1
			continue
		}
		it := (*b)[f.bkHead]
		f.bkHead++
		p, d := it.idx, it.d
		if d > cs[p].d { // a stale entry: the cell improved later
			continue
		}
		n++
		f.settled++
		k := int(cs[p].cls)
		do, dd := d+f.wOrth[k], d+f.wDiag[k]
		if d != lastD || k != lastK { // cells of equal value come in runs
			lastD, lastK = d, k
			qo, qd = &f.bk[f.bucketOf(do, cur)&f.bkMask], &f.bk[f.bucketOf(dd, cur)&f.bkMask]
		}
		// Relax every cell c that can step into p; dir is c's move to p.
		m := cs[p].moves
		if fast && m == 0xff { // open all round: the common case on open maps, unrolled
			if do < cs[p-1].d {
				cs[p-1].d, cs[p-1].dir = do, 1
				*qo = append(*qo, item{do, p - 1})
			}
			if do < cs[p+1].d {
				cs[p+1].d, cs[p+1].dir = do, 0
				*qo = append(*qo, item{do, p + 1})
			}
			if do < cs[p-s].d {
				cs[p-s].d, cs[p-s].dir = do, 3
				*qo = append(*qo, item{do, p - s})
			}
			if do < cs[p+s].d {
				cs[p+s].d, cs[p+s].dir = do, 2
				*qo = append(*qo, item{do, p + s})
			}
			if dd < cs[p-s-1].d {
				cs[p-s-1].d, cs[p-s-1].dir = dd, 7
				*qd = append(*qd, item{dd, p - s - 1})
			}
			if dd < cs[p-s+1].d {
				cs[p-s+1].d, cs[p-s+1].dir = dd, 6
				*qd = append(*qd, item{dd, p - s + 1})
			}
			if dd < cs[p+s-1].d {
				cs[p+s-1].d, cs[p+s-1].dir = dd, 5
				*qd = append(*qd, item{dd, p + s - 1})
			}
			if dd < cs[p+s+1].d {
				cs[p+s+1].d, cs[p+s+1].dir = dd, 4
				*qd = append(*qd, item{dd, p + s + 1})
			}
			continue
		}
		// Near obstacles, a move's legality (its bit of m) is unpredictable:
		// rather than branch on it, an illegal move's value is made a NaN
		// (all exponent bits set on top of the value's), which improves
		// nothing, and only the improvement is a branch (seldom taken).
		bo, bd := math.Float32bits(do), math.Float32bits(dd)
		mm := uint32(m)
		if v := math.Float32frombits(bo | (mm>>0&1-1)&nanBits); v < cs[p-1].d {
			cs[p-1].d, cs[p-1].dir = v, 1
			*qo = append(*qo, item{v, p - 1})
		}
		if v := math.Float32frombits(bo | (mm>>1&1-1)&nanBits); v < cs[p+1].d {
			cs[p+1].d, cs[p+1].dir = v, 0
			*qo = append(*qo, item{v, p + 1})
		}
		if v := math.Float32frombits(bo | (mm>>2&1-1)&nanBits); v < cs[p-s].d {
			cs[p-s].d, cs[p-s].dir = v, 3
			*qo = append(*qo, item{v, p - s})
		}
		if v := math.Float32frombits(bo | (mm>>3&1-1)&nanBits); v < cs[p+s].d {
			cs[p+s].d, cs[p+s].dir = v, 2
			*qo = append(*qo, item{v, p + s})
		}
		if v := math.Float32frombits(bd | (mm>>4&1-1)&nanBits); v < cs[p-s-1].d {
			cs[p-s-1].d, cs[p-s-1].dir = v, 7
			*qd = append(*qd, item{v, p - s - 1})
		}
		if v := math.Float32frombits(bd | (mm>>5&1-1)&nanBits); v < cs[p-s+1].d {
			cs[p-s+1].d, cs[p-s+1].dir = v, 6
			*qd = append(*qd, item{v, p - s + 1})
		}
		if v := math.Float32frombits(bd | (mm>>6&1-1)&nanBits); v < cs[p+s-1].d {
			cs[p+s-1].d, cs[p+s-1].dir = v, 5
			*qd = append(*qd, item{v, p + s - 1})
		}
		if v := math.Float32frombits(bd | (mm>>7&1-1)&nanBits); v < cs[p+s+1].d {
			cs[p+s+1].d, cs[p+s+1].dir = v, 4
			*qd = append(*qd, item{v, p + s + 1})
		}
	}
	f.bkCur = cur
	if f.bkHead >= len(f.bk[cur&f.bkMask]) && f.bucketsEmpty(cur) {
		f.done = true
	}
}

// bucketsEmpty reports whether every bucket but the one being settled (whose
// entries are all taken) is empty.
func (f *Field) bucketsEmpty(cur int) bool {
	for j := range f.bk {
		if j != cur&f.bkMask && len(f.bk[j]) > 0 {
			return false
		}
	}
	return true
}

// revDir[k] is the direction code of the move from p's neighbour k (bit k of
// a moves mask) into p.
var revDir = [8]uint8{1, 0, 3, 2, 7, 6, 5, 4}
