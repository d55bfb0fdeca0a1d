package orca

import (
	"cmp"
	"math"
	"math/bits"
	"slices"

	"gonum.org/v1/gonum/spatial/r2"
)

// Blocked reports whether the grid cell (x, y) is a wall: a static obstacle.
// Cell (x, y) covers [x, x+1)×[y, y+1) in cells. Cells off the grid are never
// asked for: [Solver.GridSegments] counts them as walls itself.
type Blocked func(x, y int32) bool

// GridSegments returns the obstacle segments near pos (cells) on a grid of
// width×height cells: the boundary edges between the open cells and the
// blocked ones (or the grid's border) that pass within reach cells of pos,
// oriented with the blocked side on the left (see [Segment]) and with
// collinear edges of neighbouring cells joined into one segment. They come
// nearest first, ready for [Solver.Velocity]. RVO2 looks for obstacles within
// ObstacleHorizon·MaxSpeed + Radius cells; that is the reach to give.
//
// The segments are in s's buffer, valid until the next call on s. The cells
// read are those within reach of pos, clipped to the grid, so a huge reach
// costs at most a scan of the grid, never more. A NaN or infinite pos, or a
// reach that is not ≥ 0 (or NaN), returns no segment.
func (s *Solver) GridSegments(pos r2.Vec, reach float64, width, height int, blocked Blocked) []Segment {
	return s.gridSegments(pos, reach, width, height, func(y, x0 int32, dst []uint64) {
		clear(dst)
		for i := range int32(64 * len(dst)) {
			if int(x0+i) >= width {
				return
			}
			if blocked(x0+i, y) {
				dst[i/64] |= 1 << (i % 64)
			}
		}
	})
}

// BlockedBits writes the walls of row y from column x0 on into dst: bit i of
// dst[k] is cell (x0 + 64k + i, y), set for a wall. Bits of cells past the
// grid's last column are not read. [Solver.GridSegmentsBits] asks only for
// rows on the grid and x0 on it.
type BlockedBits func(y, x0 int32, dst []uint64)

// GridSegmentsBits is [Solver.GridSegments] reading the walls a row of cells
// at a time from a bitmap (64 cells a word) instead of a call per cell: the
// same segments in the same order.
func (s *Solver) GridSegmentsBits(pos r2.Vec, reach float64, width, height int, rows BlockedBits) []Segment {
	return s.gridSegments(pos, reach, width, height, rows)
}

func (s *Solver) gridSegments(pos r2.Vec, reach float64, width, height int, rows BlockedBits) []Segment {
	s.segs, s.dist = s.segs[:0], s.dist[:0]
	if !finite(pos) || !(reach >= 0) || width <= 0 || height <= 0 {
		return s.segs
	}
	// the open cells whose edges may be within reach, clipped to the grid
	x0 := clampCell(math.Floor(pos.X-reach), width)
	x1 := clampCell(math.Floor(pos.X+reach), width)
	y0 := clampCell(math.Floor(pos.Y-reach), height)
	y1 := clampCell(math.Floor(pos.Y+reach), height)
	if pos.X+reach < 0 || pos.Y+reach < 0 || pos.X-reach >= float64(width) || pos.Y-reach >= float64(height) {
		return s.segs // the whole window is off the grid
	}
	if x1-x0+3 <= 64 && !s.wideOnly {
		s.narrowSegments(pos, reach, x0, x1, y0, y1, width, height, rows)
		s.sortSegments()
		return s.segs
	}
	w := s.wallMap(x0, x1, y0, y1, width, height, rows)
	// Horizontal edges, row by row: the bottom edge (y) of an open cell over a
	// wall runs from x+1 to x (wall on the left of −x), its top edge (y+1)
	// under a wall from x to x+1.
	for y := y0; y <= y1; y++ {
		j := y - y0 + 1
		for _, below := range [2]bool{true, false} {
			next := j + 1
			if below {
				next = j - 1
			}
			e := w.edges(w.row(j), w.row(next))
			for a, b := nextRun(e, 0); a >= 0; a, b = nextRun(e, b) {
				xa, xb := float64(x0-1+a), float64(x0-1+b)
				if below {
					s.add(pos, reach, r2.Vec{X: xb, Y: float64(y)}, r2.Vec{X: xa, Y: float64(y)})
				} else {
					s.add(pos, reach, r2.Vec{X: xa, Y: float64(y + 1)}, r2.Vec{X: xb, Y: float64(y + 1)})
				}
			}
		}
	}
	// Vertical edges, column by column: the left edge (x) of an open cell
	// beside a wall runs from y to y+1, its right edge (x+1) from y+1 to y.
	w.sides()
	for i := nextBit(w.any, 0, false); i >= 0; i = nextBit(w.any, i+1, false) {
		x := x0 - 1 + i
		for _, left := range [2]bool{true, false} {
			start := -1
			for j := 1; j <= w.ny-1; j++ {
				edge := j < w.ny-1 && w.side(left, j, i)
				switch {
				case edge && start < 0:
					start = j
				case !edge && start >= 0:
					a, b := float64(y0-1+start), float64(y0-1+j)
					if left {
						s.add(pos, reach, r2.Vec{X: float64(x), Y: a}, r2.Vec{X: float64(x), Y: b})
					} else {
						s.add(pos, reach, r2.Vec{X: float64(x + 1), Y: b}, r2.Vec{X: float64(x + 1), Y: a})
					}
					start = -1
				}
			}
		}
	}
	s.sortSegments()
	return s.segs
}

// narrowSegments is gridSegments' scan for a window whose columns and the
// ring round them fit in one word (up to 62 columns: any reach under 30
// cells): the wall map is a word a row, and runs are found with bit
// arithmetic. It finds the same segments in the same order as the
// general scan (TestGridSegmentsBitsMatchCellByCell).
func (s *Solver) narrowSegments(pos r2.Vec, reach float64, x0, x1, y0, y1, width, height int, rows BlockedBits) {
	m := &s.walls
	nx, ny := x1-x0+3, y1-y0+3
	all := ^uint64(0) >> (64 - nx) // the nx columns of the map
	inner := all >> 1 &^ 1         // the window's columns: bits 1 to nx−2
	m.bits = resize(m.bits, ny)
	m.edge = resize(m.edge, 1)
	buf := m.edge[:1]
	bitsW := m.bits[:ny]
	// the grid's columns max(x0−1, 0)..min(x1+1, width−1), at bit off
	lo, off := x0-1, 1
	if lo < 0 {
		lo, off = 0, 0
	}
	hi := min(x1+1, width-1)
	n := hi - lo + 1
	for j := range bitsW {
		y := y0 - 1 + j
		if y < 0 || y >= height {
			bitsW[j] = all
			continue
		}
		rows(int32(y), int32(lo), buf)
		v := buf[0]
		if n < 64 {
			v &= 1<<n - 1
		}
		row := v << (1 - off)
		if off == 0 {
			row |= 1 // column x0−1 = −1, off the grid
		}
		if x1+1 >= width {
			row |= 1 << (nx - 1)
		}
		bitsW[j] = row
	}
	// horizontal edges, as gridSegments
	for y := y0; y <= y1; y++ {
		j := y - y0 + 1
		r := bitsW[j]
		for below := 0; below < 2; below++ {
			next := bitsW[j+1]
			if below == 0 {
				next = bitsW[j-1]
			}
			e := ^r & next & inner
			for e != 0 {
				a := bits.TrailingZeros64(e)
				b := a + bits.TrailingZeros64(^(e >> a))
				e &^= 1<<b - 1
				xa, xb := float64(x0-1+a), float64(x0-1+b)
				if below == 0 {
					s.add(pos, reach, r2.Vec{X: xb, Y: float64(y)}, r2.Vec{X: xa, Y: float64(y)})
				} else {
					s.add(pos, reach, r2.Vec{X: xa, Y: float64(y + 1)}, r2.Vec{X: xb, Y: float64(y + 1)})
				}
			}
		}
	}
	// vertical edges, column by column: open cells of the window's rows
	// with a wall on their left or right
	m.left, m.right = resize(m.left, ny), resize(m.right, ny)
	left, right := m.left[:ny], m.right[:ny]
	var any uint64
	for j := 1; j < ny-1; j++ {
		r := bitsW[j]
		open := ^r & inner
		l, rt := open&(r<<1), open&(r>>1)
		left[j], right[j] = l, rt
		any |= l | rt
	}
	for any != 0 {
		i := bits.TrailingZeros64(any)
		any &= any - 1
		x := x0 - 1 + i
		for side := 0; side < 2; side++ {
			col := left
			if side == 1 {
				col = right
			}
			start := -1
			for j := 1; j <= ny-1; j++ {
				edge := j < ny-1 && col[j]>>i&1 != 0
				switch {
				case edge && start < 0:
					start = j
				case !edge && start >= 0:
					a, b := float64(y0-1+start), float64(y0-1+j)
					if side == 0 {
						s.add(pos, reach, r2.Vec{X: float64(x), Y: a}, r2.Vec{X: float64(x), Y: b})
					} else {
						s.add(pos, reach, r2.Vec{X: float64(x + 1), Y: b}, r2.Vec{X: float64(x + 1), Y: a})
					}
					start = -1
				}
			}
		}
	}
}

// wallMap is the walls of a window of cells and the ring round it as bit
// rows: bit i of row j is cell (x0−1+i, y0−1+j), set for a wall (cells off
// the grid are walls); nw words a row.
type wallMap struct {
	bits       []uint64 // ny rows of nw words
	inner      []uint64 // the window's columns: bits 1 to nx−2
	edge       []uint64 // edges' scratch, one row
	left       []uint64 // ny rows: open cells with a wall on their left
	right      []uint64 // ny rows: open cells with a wall on their right
	any        []uint64 // the columns with a cell of left or right
	nx, ny, nw int
}

// wallMap fills s's wall map for the open cells x0..x1 × y0..y1 (on the
// grid) and the ring round them.
func (s *Solver) wallMap(x0, x1, y0, y1, width, height int, rows BlockedBits) *wallMap {
	m := &s.walls
	m.nx, m.ny = x1-x0+3, y1-y0+3
	m.nw = (m.nx + 63) / 64
	m.bits = resize(m.bits, m.ny*m.nw)
	m.inner = resize(m.inner, m.nw)
	m.edge = resize(m.edge, m.nw+1)
	clear(m.inner)
	setRange(m.inner, 1, m.nx-1)
	for j := range m.ny {
		row := m.row(j)
		y := y0 - 1 + j
		clear(row)
		if y < 0 || y >= height {
			setRange(row, 0, m.nx)
			continue
		}
		// the grid's columns max(x0−1, 0)..min(x1+1, width−1), at bit off
		lo, off := x0-1, 1
		if lo < 0 {
			lo, off = 0, 0
		}
		hi := min(x1+1, width-1)
		n := hi - lo + 1
		buf := m.edge[:(n+63)/64]
		rows(int32(y), int32(lo), buf)
		for k := range buf {
			v := buf[k]
			if rest := n - 64*k; rest < 64 {
				v &= 1<<rest - 1
			}
			b := 64*k + 1 - off // bit of the word's first cell
			row[b/64] |= v << (b % 64)
			if b%64 != 0 && b/64+1 < len(row) {
				row[b/64+1] |= v >> (64 - b%64)
			}
		}
		if off == 0 {
			row[0] |= 1 // column x0−1 = −1, off the grid
		}
		if x1+1 >= width {
			setRange(row, m.nx-1, m.nx)
		}
	}
	return m
}

// row is row j of the wall map.
func (m *wallMap) row(j int) []uint64 { return m.bits[j*m.nw : (j+1)*m.nw] }

// edges returns the open cells of the window in row r whose neighbour in row
// next (the row below or above) is a wall.
func (m *wallMap) edges(r, next []uint64) []uint64 {
	e := m.edge[:m.nw]
	for k := range e {
		e[k] = ^r[k] & next[k] & m.inner[k]
	}
	return e
}

// sides fills left and right (open cells of the window's rows with a wall on
// that side) and any.
func (m *wallMap) sides() {
	m.left, m.right = resize(m.left, m.ny*m.nw), resize(m.right, m.ny*m.nw)
	m.any = resize(m.any, m.nw)
	clear(m.any)
	for j := 1; j < m.ny-1; j++ {
		r := m.row(j)
		for k := range m.nw {
			var fromLeft, fromRight uint64 // the walls shifted by one column
			fromLeft = r[k] << 1
			if k > 0 {
				fromLeft |= r[k-1] >> 63
			}
			fromRight = r[k] >> 1
			if k+1 < m.nw {
				fromRight |= r[k+1] << 63
			}
			open := ^r[k] & m.inner[k]
			l, rt := open&fromLeft, open&fromRight
			m.left[j*m.nw+k], m.right[j*m.nw+k] = l, rt
			m.any[k] |= l | rt
		}
	}
}

// side reports whether cell (column bit i, row j) is open with a wall on its
// left (left) or right.
func (m *wallMap) side(left bool, j, i int) bool {
	b := m.right
	if left {
		b = m.left
	}
	return b[j*m.nw+i/64]>>(i%64)&1 != 0
}

// nextRun returns the first run of set bits of mask at or after bit from:
// bits a to b−1, or a = −1 when there is none.
func nextRun(mask []uint64, from int) (a, b int) {
	a = nextBit(mask, from, false)
	if a < 0 {
		return -1, -1
	}
	b = nextBit(mask, a, true)
	if b < 0 {
		b = 64 * len(mask)
	}
	return a, b
}

// nextBit returns the first bit at or after from that is set (or clear, for
// clearBit), or −1.
func nextBit(mask []uint64, from int, clearBit bool) int {
	for k := from / 64; k < len(mask); k++ {
		v := mask[k]
		if clearBit {
			v = ^v
		}
		if k == from/64 {
			v &^= 1<<(from%64) - 1
		}
		if v != 0 {
			return 64*k + bits.TrailingZeros64(v)
		}
	}
	return -1
}

// setRange sets bits lo to hi−1 of b.
func setRange(b []uint64, lo, hi int) {
	for i := lo; i < hi; i++ {
		b[i/64] |= 1 << (i % 64)
	}
}

// resize returns b with length n, reusing its array when it can.
func resize(b []uint64, n int) []uint64 {
	if cap(b) < n {
		return make([]uint64, n)
	}
	return b[:n]
}

// sortSegments sorts the segments found nearest first; stable, so ties keep the
// scan's order (deterministic). A few segments (the usual reach) are sorted in
// place by insertion; more (a huge reach over a maze finds tens of thousands,
// which an insertion sort took 1.4 s for one agent to sort on a 128×128
// checkerboard of walls) by slices.SortStableFunc.
func (s *Solver) sortSegments() {
	if len(s.segs) <= 32 {
		for i := 1; i < len(s.segs); i++ {
			for j := i; j > 0 && s.dist[j] < s.dist[j-1]; j-- {
				s.segs[j], s.segs[j-1] = s.segs[j-1], s.segs[j]
				s.dist[j], s.dist[j-1] = s.dist[j-1], s.dist[j]
			}
		}
		return
	}
	s.found = s.found[:0]
	for i, sg := range s.segs {
		s.found = append(s.found, foundSegment{distSq: s.dist[i], seg: sg})
	}
	slices.SortStableFunc(s.found, func(a, b foundSegment) int { return cmp.Compare(a.distSq, b.distSq) })
	for i, f := range s.found {
		s.segs[i], s.dist[i] = f.seg, f.distSq
	}
}

// foundSegment is a segment within reach and its squared distance to the agent.
type foundSegment struct {
	distSq float64
	seg    Segment
}

// add keeps segment a→b if it passes within reach of pos.
func (s *Solver) add(pos r2.Vec, reach float64, a, b r2.Vec) {
	d := segmentDistSq(pos, a, b)
	if d > reach*reach {
		return
	}
	s.segs = append(s.segs, Segment{A: a, B: b})
	s.dist = append(s.dist, d)
}

// segmentDistSq is the squared distance from p to the segment a–b.
func segmentDistSq(p, a, b r2.Vec) float64 {
	ab := r2.Sub(b, a)
	t := dot(r2.Sub(p, a), ab) / dot(ab, ab)
	t = min(max(t, 0), 1)
	return distSq(p, addScaled(a, t, ab))
}

// clampCell returns the cell index of coordinate v clipped to [0, n).
func clampCell(v float64, n int) int {
	if !(v >= 0) {
		return 0
	}
	if v >= float64(n-1) {
		return n - 1
	}
	return int(v)
}
