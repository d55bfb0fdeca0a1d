package flowfield

import (
	"math"
	"slices"

	"github.com/archai-go/archai/nav/grid"
)

// maxClasses is the largest number of distinct passable costs for which a
// build uses one FIFO queue per move weight instead of a heap.
const maxClasses = 8

// classBlocked marks blocked cells (and the border) in Field.cls.
const classBlocked uint8 = 255

func (f *Field) index(c grid.Cell) int { return (int(c.Y)+1)*f.stride + int(c.X) + 1 }

// prepare sorts the grid's cells into cost classes and legal moves, and
// chooses the queue or the heap build. It works once per grid version, and
// then only on the rows whose costs changed since (compared with a copy of
// the costs): after a few [grid.Grid.SetCost] calls it costs a pass
// comparing the costs, not a reclassification of every cell. Classes of
// costs no longer present linger until the classes run out, which starts
// again from scratch.
func (f *Field) prepare() {
	if f.clsValid && f.clsVersion == f.g.Version() && f.clsHeap == f.forceHeap {
		return
	}
	costs := f.g.Costs()
	// A heap build (not forced) reclassifies every cell, so that a grid back
	// to few costs gets the queue build again; it is the slow build anyway.
	full := !f.clsValid || f.clsHeap != f.forceHeap || (f.useHeap && !f.forceHeap)
	if full {
		f.nClasses = 0
		f.useHeap = f.forceHeap
	}
	if f.snap == nil {
		f.snap = make([]float32, len(costs))
		f.rowChanged = make([]bool, f.h+2)
	}
	changed := f.rowChanged
	wasHeap := f.useHeap
	for y := 0; y < f.h; y++ {
		row, old := costs[y*f.w:(y+1)*f.w], f.snap[y*f.w:(y+1)*f.w]
		changed[y+1] = full || !slices.Equal(row, old)
		if !changed[y+1] {
			continue
		}
		if !f.classifyRow(y, row) && !full { // a new cost beyond maxClasses: start again, for the heap build
			f.clsValid = false
			f.prepare()
			return
		}
		copy(old, row)
	}
	if f.useHeap {
		fresh := full || f.pcost == nil || !wasHeap // every row: rows before a switch to the heap were skipped
		if f.pcost == nil {
			f.pcost = make([]float32, len(f.cells))
			for i := range f.pcost {
				f.pcost[i] = float32(math.Inf(1))
			}
		}
		for y := 0; y < f.h; y++ {
			if fresh || changed[y+1] {
				copy(f.pcost[(y+1)*f.stride+1:], costs[y*f.w:(y+1)*f.w])
			}
		}
	} else {
		for y := 1; y <= f.h; y++ {
			if changed[y-1] || changed[y] || changed[y+1] {
				f.computeMoves(y)
			}
		}
	}
	f.clsValid, f.clsVersion, f.clsHeap = true, f.g.Version(), f.forceHeap
}

// classifyRow sets the cost class of the cells of grid row y (costs row),
// adding classes as new costs appear. Past maxClasses it switches to the
// heap build and reports false.
func (f *Field) classifyRow(y int, row []float32) bool {
	ok := true
	out := f.cells[(y+1)*f.stride+1:][:len(row)]
	n := f.nClasses
	last, lastK := float32(-1), uint8(0)
	for x, c := range row {
		if c == last {
			out[x].cls = lastK
			continue
		}
		if c > math.MaxFloat32 {
			out[x].cls = classBlocked
			continue
		}
		k := 0
		for k < n && f.wOrth[k] != c {
			k++
		}
		if k == n {
			if n == maxClasses {
				f.useHeap, ok = true, false
				k = 0
			} else {
				f.wOrth[n] = c
				f.wDiag[n] = float32(grid.Sqrt2) * c
				n++
			}
		}
		out[x].cls = uint8(k)
		last, lastK = c, uint8(k)
	}
	f.nClasses = n
	return ok
}

// computeMoves sets, on padded row y, bit k of cs[p].moves when the
// neighbour of passable cell p at neighbourOffsets[k] is passable and may
// step into p (for a diagonal: both orthogonal cells beside it are
// passable too, no corner cutting).
func (f *Field) computeMoves(y int) {
	cs := f.cells
	s := f.stride
	for p := y*s + 1; p <= y*s+f.w; p++ {
		if cs[p].cls == classBlocked {
			cs[p].moves = 0
			continue
		}
		l, r, u, b := cs[p-1].cls != classBlocked, cs[p+1].cls != classBlocked, cs[p-s].cls != classBlocked, cs[p+s].cls != classBlocked
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
		if l && u && cs[p-s-1].cls != classBlocked {
			m |= 16
		}
		if r && u && cs[p-s+1].cls != classBlocked {
			m |= 32
		}
		if l && b && cs[p+s-1].cls != classBlocked {
			m |= 64
		}
		if r && b && cs[p+s+1].cls != classBlocked {
			m |= 128
		}
		cs[p].moves = m
	}
}

func (f *Field) clear() {
	inf := float32(math.Inf(1))
	for i := range f.cells {
		f.cells[i].d, f.cells[i].dir = inf, dirNone
	}
	for i := range f.dirs {
		f.dirs[i] = dirNone
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
	cs := f.cells
	s := int32(f.stride)
	nq := 2 * f.nClasses
	for n := 0; n < budget; {
		best := -1
		if nq == 2 { // one cost: the orthogonal and the diagonal queue
			h0, h1 := f.qHead[0], f.qHead[1]
			switch {
			case h0 < len(f.q[0]) && (h1 >= len(f.q[1]) || f.q[0][h0].d <= f.q[1][h1].d):
				best = 0
			case h1 < len(f.q[1]):
				best = 1
			}
		} else {
			var bestD float32
			for j := 0; j < nq; j++ {
				if h := f.qHead[j]; h < len(f.q[j]) {
					if d := f.q[j][h].d; best < 0 || d < bestD {
						best, bestD = j, d
					}
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
		if d > cs[p].d { // a stale entry: the cell improved later
			continue
		}
		n++
		f.settled++
		f.dirs[p] = cs[p].dir // final: no later relaxation improves a settled cell
		k := int(cs[p].cls)
		do, dd := d+f.wOrth[k], d+f.wDiag[k]
		qo, qd := &f.q[2*k], &f.q[2*k+1]
		// Relax every cell c that can step into p; dir is c's move to p.
		m := cs[p].moves
		if m == 0xff { // open all round: the common case, unrolled
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
		// Near obstacles, relax without branches: whether a move is legal
		// and whether it improves a cell are unpredictable there, and a
		// mispredicted branch costs more than a relaxation. Cell c improves
		// when the move is legal (its bit of m) and v is below its value;
		// its entry is written at the queue's tail either way, and the tail
		// advances only when it improves.
		mm := uint32(m)
		oq, dq := slices.Grow(*qo, 4), slices.Grow(*qd, 4)
		to, td := len(oq), len(dq)
		oq, dq = oq[:to+4], dq[:td+4]
		bo, bd := math.Float32bits(do), math.Float32bits(dd)
		{
			c := p - 1
			old := cs[c].d
			var lt uint32
			if do < old {
				lt = 1
			}
			mask := -(lt & (mm & 1))
			ob := math.Float32bits(old)
			cs[c].d = math.Float32frombits(ob ^ ((ob ^ bo) & mask))
			od := cs[c].dir
			cs[c].dir = od ^ ((od ^ 1) & uint8(mask))
			oq[to] = item{do, c}
			to += int(mask & 1)
		}
		{
			c := p + 1
			old := cs[c].d
			var lt uint32
			if do < old {
				lt = 1
			}
			mask := -(lt & (mm >> 1 & 1))
			ob := math.Float32bits(old)
			cs[c].d = math.Float32frombits(ob ^ ((ob ^ bo) & mask))
			od := cs[c].dir
			cs[c].dir = od ^ ((od ^ 0) & uint8(mask))
			oq[to] = item{do, c}
			to += int(mask & 1)
		}
		{
			c := p - s
			old := cs[c].d
			var lt uint32
			if do < old {
				lt = 1
			}
			mask := -(lt & (mm >> 2 & 1))
			ob := math.Float32bits(old)
			cs[c].d = math.Float32frombits(ob ^ ((ob ^ bo) & mask))
			od := cs[c].dir
			cs[c].dir = od ^ ((od ^ 3) & uint8(mask))
			oq[to] = item{do, c}
			to += int(mask & 1)
		}
		{
			c := p + s
			old := cs[c].d
			var lt uint32
			if do < old {
				lt = 1
			}
			mask := -(lt & (mm >> 3 & 1))
			ob := math.Float32bits(old)
			cs[c].d = math.Float32frombits(ob ^ ((ob ^ bo) & mask))
			od := cs[c].dir
			cs[c].dir = od ^ ((od ^ 2) & uint8(mask))
			oq[to] = item{do, c}
			to += int(mask & 1)
		}
		{
			c := p - s - 1
			old := cs[c].d
			var lt uint32
			if dd < old {
				lt = 1
			}
			mask := -(lt & (mm >> 4 & 1))
			ob := math.Float32bits(old)
			cs[c].d = math.Float32frombits(ob ^ ((ob ^ bd) & mask))
			od := cs[c].dir
			cs[c].dir = od ^ ((od ^ 7) & uint8(mask))
			dq[td] = item{dd, c}
			td += int(mask & 1)
		}
		{
			c := p - s + 1
			old := cs[c].d
			var lt uint32
			if dd < old {
				lt = 1
			}
			mask := -(lt & (mm >> 5 & 1))
			ob := math.Float32bits(old)
			cs[c].d = math.Float32frombits(ob ^ ((ob ^ bd) & mask))
			od := cs[c].dir
			cs[c].dir = od ^ ((od ^ 6) & uint8(mask))
			dq[td] = item{dd, c}
			td += int(mask & 1)
		}
		{
			c := p + s - 1
			old := cs[c].d
			var lt uint32
			if dd < old {
				lt = 1
			}
			mask := -(lt & (mm >> 6 & 1))
			ob := math.Float32bits(old)
			cs[c].d = math.Float32frombits(ob ^ ((ob ^ bd) & mask))
			od := cs[c].dir
			cs[c].dir = od ^ ((od ^ 5) & uint8(mask))
			dq[td] = item{dd, c}
			td += int(mask & 1)
		}
		{
			c := p + s + 1
			old := cs[c].d
			var lt uint32
			if dd < old {
				lt = 1
			}
			mask := -(lt & (mm >> 7 & 1))
			ob := math.Float32bits(old)
			cs[c].d = math.Float32frombits(ob ^ ((ob ^ bd) & mask))
			od := cs[c].dir
			cs[c].dir = od ^ ((od ^ 4) & uint8(mask))
			dq[td] = item{dd, c}
			td += int(mask & 1)
		}
		*qo, *qd = oq[:to], dq[:td]
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
	cs, costs := f.cells, f.pcost
	s := int32(f.stride)
	offs := [8]int32{-1, 1, -s, s, -s - 1, -s + 1, s - 1, s + 1} // neighbourOffsets
	for n := 0; n < budget; {
		if len(f.open) == 0 {
			f.done = true
			return
		}
		it := f.pop()
		p := it.idx
		if it.d > cs[p].d { // a stale entry: the cell improved later
			continue
		}
		n++
		f.settled++
		f.dirs[p] = cs[p].dir // final: no later relaxation improves a settled cell
		enter := costs[p]
		do, dd := it.d+enter, it.d+float32(grid.Sqrt2)*enter
		var open [4]bool
		for k := 0; k < 4; k++ {
			c := p + offs[k]
			if cs[c].cls == classBlocked {
				continue
			}
			open[k] = true
			if do < cs[c].d {
				cs[c].d, cs[c].dir = do, uint8(k^1) // k^1 reverses an orthogonal direction
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
			if cs[c].cls == classBlocked {
				continue
			}
			if dd < cs[c].d {
				cs[c].d, cs[c].dir = dd, uint8(11-k) // 11-k reverses a diagonal
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
