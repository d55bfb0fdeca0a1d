package flowfield

import (
	"math"
	"slices"
	"unsafe"

	"github.com/archai-go/archai/nav/grid"
)

// maxClasses is the largest number of distinct passable costs for which a
// build uses one FIFO queue per move weight instead of a heap.
const maxClasses = 8

// classBlocked marks blocked cells (and the border) in Field.cls.
const classBlocked uint8 = 255

func (f *Field) index(c grid.Cell) int { return (int(c.Y)+1)*f.stride + int(c.X) + 1 }

// inBounds reports whether c lies inside the field's own w×h cells: the
// grid's size when the field was made or last started, which differs from
// the grid's after a map of another size was copied over it in place
// (*g = *other.Clone()) until the next Start (see fit). The reads check
// against it, so that such a field answers from its own cells, never past
// its arrays.
func (f *Field) inBounds(c grid.Cell) bool {
	return c.X >= 0 && c.Y >= 0 && int(c.X) < f.w && int(c.Y) < f.h
}

// fit makes the field's arrays those of a new field over its grid when the
// grid's size is no longer the field's (a map of another size copied over
// the grid in place): the build that follows then starts from nothing, as
// a new field's does; the clearance (and the tests' build choices) are kept.
// It allocates only then.
func (f *Field) fit() {
	if f.g.Width() == f.w && f.g.Height() == f.h {
		return
	}
	n := New(f.g)
	n.clearance, n.forceHeap, n.forceBranchy = f.clearance, f.forceHeap, f.forceBranchy
	*f = *n
}

// prepare sorts the grid's cells into cost classes and legal moves, and
// chooses the queue or the heap build. It works once per grid version, and
// then only on the rows whose costs changed since (compared with a copy of
// the costs): after a few [grid.Grid.SetCost] calls it costs a pass
// comparing the costs, not a reclassification of every cell. Classes of
// costs no longer present linger until the classes run out, which starts
// again from scratch.
func (f *Field) prepare() { f.prepareOn(f.g.Costs(), f.g.Version()) }

// prepareOn is prepare for the costs of grid version version (the grid's
// own, or, restoring a stale field, the costs it was built on).
func (f *Field) prepareOn(costs []float32, version uint64) {
	req := max(f.clearance, 1)
	if f.clsValid && f.clsVersion == version && f.clsHeap == f.forceHeap && f.movesClear == req {
		return
	}
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
			f.prepareOn(costs, version)
			return
		}
		copy(old, row)
	}
	if f.useHeap {
		fresh := full || f.pcost == nil || !wasHeap // every row: rows before a switch to the heap were skipped
		if f.pcost == nil {
			f.pcost = make([]float32, len(f.d))
			for i := range f.pcost {
				f.pcost[i] = float32(math.Inf(1))
			}
		}
		for y := 0; y < f.h; y++ {
			if fresh || changed[y+1] {
				copy(f.pcost[(y+1)*f.stride+1:], costs[y*f.w:(y+1)*f.w])
			}
		}
	}
	if f.rowOpen == nil {
		f.rowOpen, f.rowPassable = make([]int32, f.h+2), make([]int32, f.h+2)
	}
	if req > 1 { // a wide field: any change of passability may change clearances far away
		if f.movesClear != req || slices.Contains(changed, true) {
			f.movesClear = req
			f.computeClearance()
			f.open8, f.passable = 0, 0
			for y := 1; y <= f.h; y++ {
				f.computeMovesWide(y)
				f.open8 += int(f.rowOpen[y])
				f.passable += int(f.rowPassable[y])
			}
		}
	} else {
		all := f.movesClear != 1
		f.movesClear = 1
		for y := 1; y <= f.h; y++ {
			if all || changed[y-1] || changed[y] || changed[y+1] {
				f.open8 -= int(f.rowOpen[y])
				f.passable -= int(f.rowPassable[y])
				f.computeMoves(y)
				f.open8 += int(f.rowOpen[y])
				f.passable += int(f.rowPassable[y])
			}
		}
	}
	f.clsValid, f.clsVersion, f.clsHeap = true, version, f.forceHeap
}

// classifyRow sets the cost class of the cells of grid row y (costs row),
// adding classes as new costs appear. Past maxClasses it switches to the
// heap build and reports false.
func (f *Field) classifyRow(y int, row []float32) bool {
	ok := true
	out := f.cls[(y+1)*f.stride+1:][:len(row)]
	n := f.nClasses
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
				f.useHeap, ok = true, false
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
	f.nClasses = n
	return ok
}

// computeMoves sets, on padded row y, bit k of moves[p] when the neighbour
// of passable cell p at neighbourOffsets[k] is passable and may step into p
// (for a diagonal: both orthogonal cells beside it are passable too, no
// corner cutting); moves is 0 on blocked cells. It counts the row's passable
// cells and those with all 8 moves.
func (f *Field) computeMoves(y int) {
	cls := f.cls
	s := f.stride
	passable, open8 := 0, 0
	for p := y*s + 1; p <= y*s+f.w; p++ {
		if cls[p] == classBlocked {
			f.moves[p] = 0
			continue
		}
		passable++
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
		f.moves[p] = m
		if m == 0xff {
			open8++
		}
	}
	f.rowPassable[y], f.rowOpen[y] = int32(passable), int32(open8)
}

// An entry is an open-list entry of the build: the float32 bits of a
// tentative integration value in the high 32 bits, the padded index of the
// cell in the next 28 (a padded grid of at most [grid.MaxCells] cells has
// fewer than 2²⁸), and in the low 4 the direction code the cell gets if the
// value is final. The entry that settles a cell is the only one holding its
// final value (a cell is pushed again only with a smaller one), so its
// direction is that of the first relaxation that reached the final value,
// and it is written to dirs once, when the cell is settled.
type entry = uint64

const (
	entryDirBits = 4
	infBits      = 0x7f800000 // the bits of float32 +Inf
	// noEntry follows the last entry of each queue: its key is above the
	// bits of every value, +Inf included, so it is never taken before a real
	// entry and marks an empty queue.
	noEntry entry = math.MaxUint64
)

func makeEntry(key uint32, i int, dir uint8) entry {
	return entry(key)<<32 | entry(i)<<entryDirBits | entry(dir)
}

// reverse returns the direction code of the move opposite to
// neighbourOffsets[k]: the move of the neighbour at k into the cell.
func reverse(k int) uint8 {
	if k < 4 {
		return uint8(k ^ 1)
	}
	return uint8(11 - k)
}

// illegalMoves[m][k] is all ones when bit k of the move mask m is clear, so
// that a value ORed with it never improves anything (its bits are above
// those of +Inf), and 0 when it is set.
var illegalMoves = func() (t [256][8]uint32) {
	for m := range t {
		for k := range t[m] {
			if m>>k&1 == 0 {
				t[m][k] = math.MaxUint32
			}
		}
	}
	return t
}()

func (f *Field) clear() {
	// +Inf on passable cells, 0 on blocked ones and the border, so that no
	// orthogonal move improves them (see relax)
	d := f.d[:len(f.cls)]
	for i, c := range f.cls {
		d[i] = infBits & uint32(int32(uint32(c)-uint32(classBlocked))>>31)
	}
	fill(f.dirs, dirNone)
	f.open = f.open[:0]
	nq := 2 * f.nClasses
	if f.useHeap {
		nq = 0
	}
	for j := range f.q {
		f.qHead[j], f.qTail[j] = 0, 0
		if j < max(nq, 2) {
			if len(f.q[j]) == 0 {
				f.q[j] = make([]entry, 256)
			}
			f.q[j][0] = noEntry
		}
	}
	f.done = false
	f.settled = 0
}

// fill sets every byte of b to v, by doubling copies.
func fill(b []uint8, v uint8) {
	if len(b) == 0 {
		return
	}
	b[0] = v
	for n := 1; n < len(b); n *= 2 {
		copy(b[n:], b[:n])
	}
}

// seed opens goal cell i at cost 0.
func (f *Field) seed(i int) {
	e := makeEntry(0, i, dirGoal)
	if f.useHeap {
		f.push(e)
		return
	}
	f.q[0] = roomFor(f.q[0], f.qTail[0])
	f.q[0][f.qTail[0]] = e
	f.qTail[0]++
	f.q[0][f.qTail[0]] = noEntry
}

// roomFor returns q, or a copy of q twice as long, with room for 8 entries
// from the tail t (4 pushes and the sentinel, in a window of 8).
//
//go:noinline
func roomFor(q []entry, t int) []entry {
	if t+8 <= len(q) {
		return q
	}
	n := make([]entry, max(2*len(q), t+8))
	copy(n, q[:t+1])
	return n
}

// dropPopped moves the entries of a queue whose head h has passed 1024 and
// half its length to its front, keeping the queue small and in cache, and
// returns the new head and tail.
//
//go:noinline
func dropPopped(q []entry, h, t int) (int, int) {
	copy(q, q[h:t+1])
	return 0, t - h
}

// stepQueues is Step with one FIFO queue per move weight: see stepOne for
// one cost, the common case.
func (f *Field) stepQueues(budget int) {
	if f.nClasses <= 1 {
		f.stepOne(budget)
		return
	}
	f.stepQueuesGeneral(budget)
}

// stepQueuesGeneral is stepQueues for any number of costs.
func (f *Field) stepQueuesGeneral(budget int) {
	dk, dirs, mv, cls := f.d, f.dirs, f.moves, f.cls
	wide := f.movesClear > 1
	nq := 2 * max(f.nClasses, 1)
	n := 0
	for n < budget {
		best, bk := 0, f.q[0][f.qHead[0]]>>32
		for j := 1; j < nq; j++ {
			if k := f.q[j][f.qHead[j]] >> 32; k < bk {
				best, bk = j, k
			}
		}
		it := f.q[best][f.qHead[best]]
		if it == noEntry {
			f.done = true
			break
		}
		f.qHead[best]++
		if h := f.qHead[best]; h >= 1024 && 2*h >= f.qTail[best] {
			f.qHead[best], f.qTail[best] = dropPopped(f.q[best], h, f.qTail[best])
		}
		key, p := uint32(it>>32), int(uint32(it)>>entryDirBits)
		if key > dk[p] { // a stale entry: the cell improved later
			continue
		}
		n++
		dirs[p] = uint8(it) & (1<<entryDirBits - 1) // final: no later relaxation improves a settled cell
		if wide && mv[p] == 0 {
			// a cell too narrow to enter: relax assumes every passable
			// neighbour may step in orthogonally, which is not so here
			continue
		}
		k := int(cls[p])
		v := math.Float32frombits(key)
		oq, dq := &f.q[2*k], &f.q[2*k+1]
		to, td := f.qTail[2*k], f.qTail[2*k+1]
		*oq, *dq = roomFor(*oq, to), roomFor(*dq, td)
		f.qTail[2*k], f.qTail[2*k+1] = relax(dk, p, f.stride, math.Float32bits(v+f.wOrth[k]), math.Float32bits(v+f.wDiag[k]), &illegalMoves[mv[p]], &f.step, *oq, to, *dq, td)
	}
	f.settled += n
	if !f.done {
		f.done = true
		for j := 0; j < nq; j++ {
			if f.q[j][f.qHead[j]] != noEntry {
				f.done = false
			}
		}
	}
}

// relax relaxes, from the cell p just settled, every cell c that can step
// into it: c improves to vo (orthogonal moves) or vd (diagonal ones) when
// the move is legal and the value is below c's. Blocked cells hold 0, so no
// orthogonal move improves them; an illegal diagonal's value is ORed with
// ill[k], all ones, above every value. There is no branch: near walls,
// whether a move is legal and whether it improves a cell are unpredictable,
// and a mispredicted branch costs more than a relaxation. Each c's value is
// written back as the smaller of the two, its entry is written at the
// queue's tail, and the tail advances only when c improved. The queues need
// room for 8 entries past their tails to and td; relax returns the new
// tails, sentinels written. stepOne has the same code inline.
func relax(dk []uint32, p, s int, vo, vd uint32, ill *[8]uint32, step *[8]uint64, oq []entry, to int, dq []entry, td int) (int, int) {
	up, mid, dn := dk[p-s-1:p-s+2], dk[p-1:p+2], dk[p+s-1:p+s+2]
	oq, dq = oq[to:to+8], dq[td:td+8]
	eo, ed := entry(vo)<<32|entry(p)<<entryDirBits, entry(vd)<<32|entry(p)<<entryDirBits
	j, i := 0, 0
	var v, old uint32
	v, old = vo, mid[0]
	oq[j&7] = eo + step[0]
	mid[0] = min(v, old)
	if v < old {
		j++
	}
	v, old = vo, mid[2]
	oq[j&7] = eo + step[1]
	mid[2] = min(v, old)
	if v < old {
		j++
	}
	v, old = vo, up[1]
	oq[j&7] = eo + step[2]
	up[1] = min(v, old)
	if v < old {
		j++
	}
	v, old = vo, dn[1]
	oq[j&7] = eo + step[3]
	dn[1] = min(v, old)
	if v < old {
		j++
	}
	v, old = vd|ill[4], up[0]
	dq[i&7] = ed + step[4]
	up[0] = min(v, old)
	if v < old {
		i++
	}
	v, old = vd|ill[5], up[2]
	dq[i&7] = ed + step[5]
	up[2] = min(v, old)
	if v < old {
		i++
	}
	v, old = vd|ill[6], dn[0]
	dq[i&7] = ed + step[6]
	dn[0] = min(v, old)
	if v < old {
		i++
	}
	v, old = vd|ill[7], dn[2]
	dq[i&7] = ed + step[7]
	dn[2] = min(v, old)
	if v < old {
		i++
	}
	oq[j&7], dq[i&7] = noEntry, noEntry
	return to + j, td + i
}

// stepOne is stepQueues for a grid of one cost: the orthogonal and the
// diagonal queue, with relax inline. It settles cells in batches of at most
// batch cells, after making room in the queues for every entry a batch can
// push, so that the loop over a batch checks no bounds: every entry holds a
// cell inside the border, whose 8 neighbours are in d.
func (f *Field) stepOne(budget int) {
	const batch = 64
	// Relaxing a cell open all round with branches (skipping the stores of
	// the relaxations that improve nothing) is faster when nearly every cell
	// is, so that the wavefront is regular and the branches predict well:
	// 1.4 to 1.6 times faster than without branches on an open 1024² grid
	// or one with a few hundred large blocks (96 % of its cells open all
	// round), but 1.1 to 1.4 times slower on a town map, a maze and grids of
	// 1 to 30 % scattered walls (92 % open all round at 1 %), where the
	// wavefront breaks up behind every wall (measured on this machine, CPU
	// time). Hence branches only when at least 15/16 of the passable cells
	// are open all round.
	branchy := 16*f.open8 >= 15*f.passable
	if f.forceBranchy != 0 {
		branchy = f.forceBranchy > 0
	}
	dk, dirs, mv := f.d, f.dirs, f.moves
	bs := 4 * f.stride // a row of values, in bytes
	wo, wd := f.wOrth[0], f.wDiag[0]
	step := f.step
	h0, h1, t0, t1 := f.qHead[0], f.qHead[1], f.qTail[0], f.qTail[1]
	n := 0
	for n < budget && !f.done {
		if h0 >= 1024 && 2*h0 >= t0 {
			h0, t0 = dropPopped(f.q[0], h0, t0)
		}
		if h1 >= 1024 && 2*h1 >= t1 {
			h1, t1 = dropPopped(f.q[1], h1, t1)
		}
		f.q[0], f.q[1] = roomFor(f.q[0], t0+4*batch), roomFor(f.q[1], t1+4*batch)
		q0, q1 := unsafe.Pointer(&f.q[0][0]), unsafe.Pointer(&f.q[1][0])
		dp, dirp, mvp := unsafe.Pointer(&dk[0]), unsafe.Pointer(&dirs[0]), unsafe.Pointer(&mv[0])
		todo := min(budget-n, batch)
		k := todo
		for k > 0 {
			a, b := *(*entry)(unsafe.Add(q0, h0*8)), *(*entry)(unsafe.Add(q1, h1*8))
			var it entry
			if b>>32 < a>>32 { // ties go to the orthogonal queue
				it = b
				h1++
			} else {
				if a == noEntry {
					f.done = true
					break
				}
				it = a
				h0++
			}
			key, p := uint32(it>>32), int(uint32(it)>>entryDirBits)
			pc := unsafe.Add(dp, p*4)
			if key > *(*uint32)(pc) { // a stale entry: the cell improved later
				continue
			}
			k--
			*(*uint8)(unsafe.Add(dirp, p)) = uint8(it) & (1<<entryDirBits - 1) // final: no later relaxation improves a settled cell
			d := math.Float32frombits(key)
			vo, vd := math.Float32bits(d+wo), math.Float32bits(d+wd)
			m := *(*uint8)(unsafe.Add(mvp, p))
			oq, dq := unsafe.Add(q0, t0*8), unsafe.Add(q1, t1*8)
			eo, ed := entry(vo)<<32|entry(p)<<entryDirBits, entry(vd)<<32|entry(p)<<entryDirBits
			j, i := 0, 0
			var c *uint32
			if branchy && m == 0xff { // open all round: branches, which the wavefront of an open area predicts well
				c = (*uint32)(unsafe.Add(pc, -4))
				if vo < *c {
					*c = vo
					*(*entry)(unsafe.Add(oq, j*8)) = eo + step[0]
					j++
				}
				c = (*uint32)(unsafe.Add(pc, 4))
				if vo < *c {
					*c = vo
					*(*entry)(unsafe.Add(oq, j*8)) = eo + step[1]
					j++
				}
				c = (*uint32)(unsafe.Add(pc, -bs))
				if vo < *c {
					*c = vo
					*(*entry)(unsafe.Add(oq, j*8)) = eo + step[2]
					j++
				}
				c = (*uint32)(unsafe.Add(pc, bs))
				if vo < *c {
					*c = vo
					*(*entry)(unsafe.Add(oq, j*8)) = eo + step[3]
					j++
				}
				c = (*uint32)(unsafe.Add(pc, -bs-4))
				if vd < *c {
					*c = vd
					*(*entry)(unsafe.Add(dq, i*8)) = ed + step[4]
					i++
				}
				c = (*uint32)(unsafe.Add(pc, -bs+4))
				if vd < *c {
					*c = vd
					*(*entry)(unsafe.Add(dq, i*8)) = ed + step[5]
					i++
				}
				c = (*uint32)(unsafe.Add(pc, bs-4))
				if vd < *c {
					*c = vd
					*(*entry)(unsafe.Add(dq, i*8)) = ed + step[6]
					i++
				}
				c = (*uint32)(unsafe.Add(pc, bs+4))
				if vd < *c {
					*c = vd
					*(*entry)(unsafe.Add(dq, i*8)) = ed + step[7]
					i++
				}
			} else {
				ill := &illegalMoves[m]
				var v, old uint32
				c = (*uint32)(unsafe.Add(pc, -4))
				v, old = vo, *c
				*(*entry)(unsafe.Add(oq, j*8)) = eo + step[0]
				*c = min(v, old)
				if v < old {
					j++
				}
				c = (*uint32)(unsafe.Add(pc, 4))
				v, old = vo, *c
				*(*entry)(unsafe.Add(oq, j*8)) = eo + step[1]
				*c = min(v, old)
				if v < old {
					j++
				}
				c = (*uint32)(unsafe.Add(pc, -bs))
				v, old = vo, *c
				*(*entry)(unsafe.Add(oq, j*8)) = eo + step[2]
				*c = min(v, old)
				if v < old {
					j++
				}
				c = (*uint32)(unsafe.Add(pc, bs))
				v, old = vo, *c
				*(*entry)(unsafe.Add(oq, j*8)) = eo + step[3]
				*c = min(v, old)
				if v < old {
					j++
				}
				c = (*uint32)(unsafe.Add(pc, -bs-4))
				v, old = vd|ill[4], *c
				*(*entry)(unsafe.Add(dq, i*8)) = ed + step[4]
				*c = min(v, old)
				if v < old {
					i++
				}
				c = (*uint32)(unsafe.Add(pc, -bs+4))
				v, old = vd|ill[5], *c
				*(*entry)(unsafe.Add(dq, i*8)) = ed + step[5]
				*c = min(v, old)
				if v < old {
					i++
				}
				c = (*uint32)(unsafe.Add(pc, bs-4))
				v, old = vd|ill[6], *c
				*(*entry)(unsafe.Add(dq, i*8)) = ed + step[6]
				*c = min(v, old)
				if v < old {
					i++
				}
				c = (*uint32)(unsafe.Add(pc, bs+4))
				v, old = vd|ill[7], *c
				*(*entry)(unsafe.Add(dq, i*8)) = ed + step[7]
				*c = min(v, old)
				if v < old {
					i++
				}
			}
			*(*entry)(unsafe.Add(oq, j*8)), *(*entry)(unsafe.Add(dq, i*8)) = noEntry, noEntry
			t0, t1 = t0+j, t1+i
		}
		n += todo - k
	}
	f.qHead[0], f.qHead[1], f.qTail[0], f.qTail[1] = h0, h1, t0, t1
	f.settled += n
	if f.q[0][h0] == noEntry && f.q[1][h1] == noEntry {
		f.done = true
	}
}

// stepHeap is Step with a 4-ary heap, for grids of many distinct costs.
func (f *Field) stepHeap(budget int) {
	dk, dirs, mv, costs := f.d, f.dirs, f.moves, f.pcost
	s := f.stride
	offs := [8]int{-1, 1, -s, s, -s - 1, -s + 1, s - 1, s + 1} // neighbourOffsets
	n := 0
	for n < budget {
		if len(f.open) == 0 {
			break
		}
		it := f.pop()
		key, p := uint32(it>>32), int(uint32(it)>>entryDirBits)
		if key > dk[p] { // a stale entry: the cell improved later
			continue
		}
		n++
		dirs[p] = uint8(it) & (1<<entryDirBits - 1) // final: no later relaxation improves a settled cell
		v, enter := math.Float32frombits(key), costs[p]
		vo, vd := math.Float32bits(v+enter), math.Float32bits(v+float32(float32(grid.Sqrt2)*enter))
		m := mv[p]
		for k := 0; k < 8; k++ {
			if m>>k&1 == 0 {
				continue
			}
			c, w := p+offs[k], vo
			if k >= 4 {
				w = vd
			}
			if w < dk[c] {
				dk[c] = w
				f.push(makeEntry(w, c, reverse(k)))
			}
		}
	}
	f.settled += n
	if len(f.open) == 0 {
		f.done = true
	}
}

// The open list is a 4-ary min-heap on the entries' keys with lazy
// deletion: an improved cell is pushed again and its older entry skipped
// when popped.
func (f *Field) push(e entry) {
	f.open = append(f.open, e)
	open := f.open
	i := len(open) - 1
	for i > 0 {
		p := (i - 1) >> 2
		if open[p]>>32 <= e>>32 {
			break
		}
		open[i] = open[p]
		i = p
	}
	open[i] = e
}

func (f *Field) pop() entry {
	open := f.open
	top := open[0]
	last := len(open) - 1
	e := open[last]
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
			if open[k]>>32 < open[best]>>32 {
				best = k
			}
		}
		if open[best]>>32 >= e>>32 {
			break
		}
		open[i] = open[best]
		i = best
	}
	open[i] = e
	return top
}
