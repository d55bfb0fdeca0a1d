package flowfield

import (
	"math"
	"math/bits"

	"github.com/archai-go/archai/nav/grid"
)

// maxClasses is the largest number of distinct passable costs for which a
// build uses one FIFO queue per move weight instead of a heap.
const maxClasses = 8

// reverse[k] is the direction from the neighbour at neighbourOffsets[k]
// back to the cell.
var reverse = [8]uint8{1, 0, 3, 2, 7, 6, 5, 4}

// classBlocked marks blocked cells (and the border) in Field.cls.
const classBlocked uint8 = 255

func (f *Field) index(c grid.Cell) int { return (int(c.Y)+1)*f.stride + int(c.X) + 1 }

// prepare sorts the grid's cells into cost classes (once per grid version)
// and chooses the queue or the heap build.
func (f *Field) prepare() {
	if f.clsValid && f.clsVersion == f.g.Version() && f.clsHeap == f.forceHeap {
		return
	}
	costs := f.g.Costs()
	heap := f.forceHeap
	n := 0
	for y := 0; y < f.h; y++ {
		row := costs[y*f.w : (y+1)*f.w]
		out := f.cls[(y+1)*f.stride+1:][:len(row)]
		last, lastK := float32(-1), uint8(0)
		for x, c := range row {
			if c == last {
				out[x] = lastK
				continue
			}
			if c > math.MaxFloat32 {
				out[x] = classBlocked
				continue
			}
			k := 0
			for k < n && f.wOrth[k] != c {
				k++
			}
			if k == n {
				if n == maxClasses {
					heap = true
					k = 0
				} else {
					f.wOrth[n] = c
					f.wDiag[n] = float32(grid.Sqrt2) * c
					n++
				}
			}
			out[x] = uint8(k)
			last, lastK = c, uint8(k)
		}
	}
	f.nClasses = n
	f.useHeap = heap
	if !heap {
		f.computeMoves()
	}
	if heap {
		if f.pcost == nil {
			f.pcost = make([]float32, len(f.cls))
			for i := range f.pcost {
				f.pcost[i] = float32(math.Inf(1))
			}
		}
		for y := 0; y < f.h; y++ {
			copy(f.pcost[(y+1)*f.stride+1:], costs[y*f.w:(y+1)*f.w])
		}
	}
	f.clsValid, f.clsVersion, f.clsHeap = true, f.g.Version(), f.forceHeap
}

// computeMoves sets bit k of moves[p] when the neighbour of passable cell p
// at neighbourOffsets[k] is passable and may step into p (for a diagonal:
// both orthogonal cells beside it are passable too, no corner cutting).
func (f *Field) computeMoves() {
	if f.moves == nil {
		f.moves = make([]uint8, len(f.cls)) // the border stays 0
	}
	cls, moves := f.cls, f.moves
	s := f.stride
	for y := 1; y <= f.h; y++ {
		for p := y*s + 1; p <= y*s+f.w; p++ {
			if cls[p] == classBlocked {
				moves[p] = 0
				continue
			}
			l, r, u, b := cls[p-1] != classBlocked, cls[p+1] != classBlocked, cls[p-s] != classBlocked, cls[p+s] != classBlocked
			var m uint8
			if l {
				m |= 1
			}
			if r {
				m |= 2
			}
			if u {
				m |= 4
			}
			if b {
				m |= 8
			}
			if l && u && cls[p-s-1] != classBlocked {
				m |= 16
			}
			if r && u && cls[p-s+1] != classBlocked {
				m |= 32
			}
			if l && b && cls[p+s-1] != classBlocked {
				m |= 64
			}
			if r && b && cls[p+s+1] != classBlocked {
				m |= 128
			}
			moves[p] = m
		}
	}
}

func (f *Field) clear() {
	inf := float32(math.Inf(1))
	for i := range f.integ {
		f.integ[i] = inf
	}
	for i := range f.dir {
		f.dir[i] = dirNone
	}
	f.open = f.open[:0]
	for j := range f.q {
		f.q[j] = f.q[j][:0]
		f.qHead[j] = 0
	}
	f.done = false
	f.settled = 0
}

// seed opens goal cell i at cost 0.
func (f *Field) seed(i int32) {
	if f.useHeap {
		f.push(item{0, i})
	} else {
		f.q[0] = append(f.q[0], item{0, i})
	}
}

// stepQueues is Step with one FIFO queue per move weight.
func (f *Field) stepQueues(budget int) {
	integ, dir, cls, moves := f.integ, f.dir, f.cls, f.moves
	s := int32(f.stride)
	offs := [8]int32{-1, 1, -s, s, -s - 1, -s + 1, s - 1, s + 1} // neighbourOffsets
	nq := 2 * f.nClasses
	for n := 0; n < budget; {
		best := -1
		var bd float32
		for j := 0; j < nq; j++ {
			if h := f.qHead[j]; h < len(f.q[j]) {
				if d := f.q[j][h].d; best < 0 || d < bd {
					best, bd = j, d
				}
			}
		}
		if best < 0 {
			f.done = true
			return
		}
		it := f.q[best][f.qHead[best]]
		f.qHead[best]++
		if h := f.qHead[best]; h >= 1024 && 2*h >= len(f.q[best]) { // drop the popped half, keeping the queue small and cached
			f.q[best] = f.q[best][:copy(f.q[best], f.q[best][h:])]
			f.qHead[best] = 0
		}
		p, d := it.idx, it.d
		if d > integ[p] { // a stale entry: the cell improved later
			continue
		}
		n++
		f.settled++
		k := int(cls[p])
		do, dd := d+f.wOrth[k], d+f.wDiag[k]
		qo, qd := &f.q[2*k], &f.q[2*k+1]
		// Relax every cell c that can step into p; dir is c's move to p.
		m := moves[p]
		if m == 0xff { // open all round: the common case, unrolled
			if do < integ[p-1] {
				integ[p-1], dir[p-1] = do, 1
				*qo = append(*qo, item{do, p - 1})
			}
			if do < integ[p+1] {
				integ[p+1], dir[p+1] = do, 0
				*qo = append(*qo, item{do, p + 1})
			}
			if do < integ[p-s] {
				integ[p-s], dir[p-s] = do, 3
				*qo = append(*qo, item{do, p - s})
			}
			if do < integ[p+s] {
				integ[p+s], dir[p+s] = do, 2
				*qo = append(*qo, item{do, p + s})
			}
			if dd < integ[p-s-1] {
				integ[p-s-1], dir[p-s-1] = dd, 7
				*qd = append(*qd, item{dd, p - s - 1})
			}
			if dd < integ[p-s+1] {
				integ[p-s+1], dir[p-s+1] = dd, 6
				*qd = append(*qd, item{dd, p - s + 1})
			}
			if dd < integ[p+s-1] {
				integ[p+s-1], dir[p+s-1] = dd, 5
				*qd = append(*qd, item{dd, p + s - 1})
			}
			if dd < integ[p+s+1] {
				integ[p+s+1], dir[p+s+1] = dd, 4
				*qd = append(*qd, item{dd, p + s + 1})
			}
			continue
		}
		for ; m&0x0f != 0; m &= m - 1 {
			j := bits.TrailingZeros8(m) & 3
			if c := p + offs[j]; do < integ[c] {
				integ[c], dir[c] = do, reverse[j]
				*qo = append(*qo, item{do, c})
			}
		}
		for ; m != 0; m &= m - 1 {
			j := bits.TrailingZeros8(m) & 7
			if c := p + offs[j]; dd < integ[c] {
				integ[c], dir[c] = dd, reverse[j]
				*qd = append(*qd, item{dd, c})
			}
		}
	}
	for j := 0; j < nq; j++ {
		if f.qHead[j] < len(f.q[j]) {
			return
		}
	}
	f.done = true
}

// stepHeap is Step with a 4-ary heap, for grids of many distinct costs.
func (f *Field) stepHeap(budget int) {
	integ, dir, cls, costs := f.integ, f.dir, f.cls, f.pcost
	s := int32(f.stride)
	offs := [8]int32{-1, 1, -s, s, -s - 1, -s + 1, s - 1, s + 1} // neighbourOffsets
	for n := 0; n < budget; {
		if len(f.open) == 0 {
			f.done = true
			return
		}
		it := f.pop()
		p := it.idx
		if it.d > integ[p] { // a stale entry: the cell improved later
			continue
		}
		n++
		f.settled++
		enter := costs[p]
		do, dd := it.d+enter, it.d+float32(grid.Sqrt2)*enter
		var open [4]bool
		for k := 0; k < 4; k++ {
			c := p + offs[k]
			if cls[c] == classBlocked {
				continue
			}
			open[k] = true
			if do < integ[c] {
				integ[c], dir[c] = do, uint8(k^1) // k^1 reverses an orthogonal direction
				f.push(item{do, c})
			}
		}
		for k := 4; k < 8; k++ {
			o := neighbourOffsets[k]
			// the orthogonal cells beside the diagonal between p and c
			if !open[sideX(o.X)] || !open[sideY(o.Y)] {
				continue
			}
			c := p + offs[k]
			if cls[c] == classBlocked {
				continue
			}
			if dd < integ[c] {
				integ[c], dir[c] = dd, uint8(11-k) // 11-k reverses a diagonal
				f.push(item{dd, c})
			}
		}
	}
	if len(f.open) == 0 {
		f.done = true
	}
}

// sideX and sideY map a diagonal offset's components to the index (in
// neighbourOffsets) of the orthogonal neighbour in that direction.
func sideX(dx int32) int {
	if dx < 0 {
		return 0
	}
	return 1
}

func sideY(dy int32) int {
	if dy < 0 {
		return 2
	}
	return 3
}

// The open list is a 4-ary min-heap with lazy deletion: an improved cell is
// pushed again and its older entry skipped when popped.
func (f *Field) push(it item) {
	f.open = append(f.open, it)
	open := f.open
	i := len(open) - 1
	for i > 0 {
		p := (i - 1) >> 2
		if open[p].d <= it.d {
			break
		}
		open[i] = open[p]
		i = p
	}
	open[i] = it
}

func (f *Field) pop() item {
	open := f.open
	top := open[0]
	last := len(open) - 1
	it := open[last]
	open = open[:last]
	f.open = open
	n := len(open)
	if n == 0 {
		return top
	}
	i := 0
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		best := c
		for k := c + 1; k < min(c+4, n); k++ {
			if open[k].d < open[best].d {
				best = k
			}
		}
		if open[best].d >= it.d {
			break
		}
		open[i] = open[best]
		i = best
	}
	open[i] = it
	return top
}
