package grid

import (
	"math"
	"math/bits"
)

// Jump point search (D. Harabor, A. Grastien, "Online Graph Pruning for
// Pathfinding on Grid Maps", AAAI 2011) under the no-corner-cutting rule,
// as in D. Harabor, A. Grastien, "Improving Jump Point Search", ICAPS 2014:
//
//   - a diagonal step needs both orthogonal cells beside it passable, so a
//     node reached diagonally has no forced neighbours: its successors are
//     the two straight directions and the diagonal;
//   - a node reached by a straight step (dx, 0) has a forced neighbour on
//     side s when the cell beside it, (x, y+s), is passable but the cell
//     behind that one, (x−dx, y+s), is blocked: nothing could have reached
//     (x, y+s) diagonally. The node is then a jump point whose successors
//     add the directions (0, s) and (dx, s).
//
// Straight jumps scan 64 cells at a time on bitsets of passable cells, one
// by rows and one by columns, as in the block-based jumps of the ICAPS 2014
// paper: a word of the line and words of the lines beside it give every
// cell where the scan must stop (blocked, or a forced neighbour) at once.
//
// Every edge between a jump point and its parent is a straight or diagonal
// line of uniform-cost cells, so its integer cost is the number of steps
// times costStraight or costDiag.

// bitLines holds one bit per cell (1 = passable) of a set of lines (rows
// or columns of the padded grid). Cell c of line r is bit c+64 of the
// line's words, so windows starting up to 64 cells before the line read
// zeros (blocked) instead of another line.
type bitLines struct {
	w   []uint64
	wpr int // words per line
}

func (b *bitLines) reset(lines, length int) {
	b.wpr = (length+64+63)/64 + 1
	n := lines * b.wpr
	if cap(b.w) < n {
		b.w = make([]uint64, n)
	}
	b.w = b.w[:n]
	clear(b.w)
}

func (b *bitLines) set(r, c int) {
	k := c + 64
	b.w[r*b.wpr+k>>6] |= 1 << uint(k&63)
}

func (b *bitLines) get(r, c int32) bool {
	k := int(c) + 64
	return b.w[int(r)*b.wpr+k>>6]>>uint(k&63)&1 != 0
}

// nextSet returns the first set cell of line r at or after from (≥ −64);
// the line must have one. It reads the aligned word holding from, shifted,
// then whole words: on a map of scattered obstacles the cell is nearly
// always in that first word.
func (b *bitLines) nextSet(r, from int32) int32 {
	k := int(from) + 64
	base := int(r) * b.wpr
	i := base + k>>6
	if w := b.w[i] >> uint(k&63); w != 0 {
		return from + int32(bits.TrailingZeros64(w))
	}
	for {
		i++
		if w := b.w[i]; w != 0 {
			return int32((i-base)<<6+bits.TrailingZeros64(w)) - 64
		}
	}
}

// prevSet returns the last set cell of line r at or before from (≥ 0); the
// line must have one at or after cell −64. Like nextSet it reads the
// aligned word holding from, masked, then whole words.
func (b *bitLines) prevSet(r, from int32) int32 {
	k := int(from) + 64
	base := int(r) * b.wpr
	i := base + k>>6
	w := b.w[i] & (2<<uint(k&63) - 1)
	for w == 0 {
		i--
		w = b.w[i]
	}
	return int32((i-base)<<6+63-bits.LeadingZeros64(w)) - 64
}

// stopsOf sets b to the cells where a scan along the lines of pass must
// stop: blocked cells, and cells with a forced neighbour, that is a
// passable cell on a line beside whose predecessor along the scan (the
// cell before it when fwd, after it otherwise) is blocked. Border lines
// are never scanned and stay empty.
func (b *bitLines) stopsOf(pass *bitLines, lines int, fwd bool) {
	b.wpr = pass.wpr
	if cap(b.w) < len(pass.w) {
		b.w = make([]uint64, len(pass.w))
	}
	b.w = b.w[:len(pass.w)]
	clear(b.w)
	wpr := b.wpr
	for r := 1; r < lines-1; r++ {
		cur := pass.w[r*wpr : (r+1)*wpr]
		up := pass.w[(r-1)*wpr : r*wpr]
		dn := pass.w[(r+1)*wpr : (r+2)*wpr]
		out := b.w[r*wpr : (r+1)*wpr]
		for i := range out {
			var upPred, dnPred uint64
			if fwd { // predecessor of bit k is bit k−1
				upPred, dnPred = up[i]<<1, dn[i]<<1
				if i > 0 {
					upPred |= up[i-1] >> 63
					dnPred |= dn[i-1] >> 63
				}
			} else { // predecessor of bit k is bit k+1
				upPred, dnPred = up[i]>>1, dn[i]>>1
				if i+1 < wpr {
					upPred |= up[i+1] << 63
					dnPred |= dn[i+1] << 63
				}
			}
			out[i] = ^cur[i] | up[i]&^upPred | dn[i]&^dnPred
		}
	}
}

// jumpRow looks along padded row y from x in direction dx (±1) for the
// first jump point: the first cell with a forced neighbour, or the goal. It
// returns its column and true, or false when a blocked cell comes first.
// Off the goal's row, the jump bits answer whether there is one at all.
func (s *Search) jumpRow(x, y, dx int32) (int32, bool) {
	gx := int32(s.gx)
	if dx > 0 {
		if int32(s.gy) != y {
			if s.jcell[y*int32(s.pw)+x]&jpE == 0 {
				return 0, false
			}
			return s.stopE.nextSet(y, x+1), true
		}
		p := s.stopE.nextSet(y, x+1)
		if gx > x && gx <= p {
			return gx, true
		}
		return p, s.rows.get(y, p)
	}
	if int32(s.gy) != y {
		if s.jcell[y*int32(s.pw)+x]&jpW == 0 {
			return 0, false
		}
		return s.stopW.prevSet(y, x-1), true
	}
	p := s.stopW.prevSet(y, x-1)
	if gx < x && gx >= p {
		return gx, true
	}
	return p, s.rows.get(y, p)
}

// jumpCol is jumpRow along padded column x in direction dy; it returns the
// jump point's row.
func (s *Search) jumpCol(x, y, dy int32) (int32, bool) {
	gy := int32(s.gy)
	if dy > 0 {
		if int32(s.gx) != x {
			if s.jcell[y*int32(s.pw)+x]&jpS == 0 {
				return 0, false
			}
			return s.stopS.nextSet(x, y+1), true
		}
		p := s.stopS.nextSet(x, y+1)
		if gy > y && gy <= p {
			return gy, true
		}
		return p, s.rows.get(p, x)
	}
	if int32(s.gx) != x {
		if s.jcell[y*int32(s.pw)+x]&jpN == 0 {
			return 0, false
		}
		return s.stopN.prevSet(x, y-1), true
	}
	p := s.stopN.prevSet(x, y-1)
	if gy < y && gy >= p {
		return gy, true
	}
	return p, s.rows.get(p, x)
}

// syncBits rebuilds the bitsets of passable cells (by row) and of the
// cells where straight scans stop, in each of the four directions, and the
// jump bits and diagonal runs; after at most 64 edits the grid remembers, it
// updates only what the edited cells reach (updateBits).
func (s *Search) syncBits() {
	if s.bitsVersion == s.costVersion {
		return
	}
	if s.bitsVersion != 0 && s.jcell != nil { // a few edits: see updateBits
		var ok bool
		s.editBuf, ok = s.g.EditsSince(s.bitsVersion, s.editBuf[:0])
		if ok && len(s.editBuf) <= incrementalEdits/64 {
			s.updateBits()
			s.bitsVersion = s.costVersion
			return
		}
	}
	g, pw, ph := s.g, s.pw, s.ph
	cols := &s.cols
	s.rows.reset(ph, pw)
	cols.reset(pw, ph)
	for y := 0; y < g.h; y++ {
		for x, c := range g.cost[y*g.w : (y+1)*g.w] {
			if !isBlocked(c) {
				s.rows.set(y+1, x+1)
				cols.set(x+1, y+1)
			}
		}
	}
	s.stopE.stopsOf(&s.rows, ph, true)
	s.stopW.stopsOf(&s.rows, ph, false)
	s.stopS.stopsOf(cols, pw, true)
	s.stopN.stopsOf(cols, pw, false)
	s.syncJumps()
	s.syncCells()
	s.syncDiagonals()
	s.bitsVersion = s.costVersion
}

// runJPS performs up to budget jump-point expansions.
func (s *Search) runJPS(budget int) {
	pw := int32(s.pw)
	jcell := s.jcell
	n := 0
	for n < budget {
		ci, ok := s.popOpen()
		if !ok {
			s.finish(-1)
			break
		}
		cn := s.nodes[ci]
		if cn&openBit == 0 { // stale entry of a node already closed
			continue
		}
		s.nodes[ci] = cn &^ openBit
		cg := cn.g()
		n++
		if ci == s.goal {
			s.finish(ci)
			break
		}
		cy := s.row(ci)
		cx := ci - cy*pw
		c := jcell[ci]
		for dirs := jpsDirs(c, cn.dir()); dirs != 0; dirs &= dirs - 1 {
			if d := bits.TrailingZeros8(dirs); d < 4 {
				s.jumpStraight(c, cx, cy, d, cg)
			} else {
				s.jumpDiagonal(cx, cy, d, cg)
			}
		}
	}
	s.expanded += n
}

// jpsDirs returns the move bits of the directions JPS scans from a node
// whose jcell is c, reached by move d: after a diagonal move, its two
// straight components and itself; after a straight move (dx, 0), itself,
// and for each side s with a forced neighbour ((x, y+s) passable and
// (x−dx, y+s) blocked) the directions (0, s) and (dx, s); likewise for
// (0, dy); from the start (dirStart), every direction. Only allowed first
// steps are kept. The bits of c read are constants per case: a side's
// straight move (bits 8–15) and the diagonal passability behind it (bits
// 4–7).
func jpsDirs(c uint16, d int) uint8 {
	var m uint8
	switch d {
	case 0: // W: sides N and S, behind them NE and SE
		m = moveW | forced(c, 8+2, 4+1, moveN|moveNW) | forced(c, 8+3, 4+3, moveS|moveSW)
	case 1: // E: behind N and S lie NW and SW
		m = moveE | forced(c, 8+2, 4+0, moveN|moveNE) | forced(c, 8+3, 4+2, moveS|moveSE)
	case 2: // N: sides W and E, behind them SW and SE
		m = moveN | forced(c, 8+0, 4+2, moveW|moveNW) | forced(c, 8+1, 4+3, moveE|moveNE)
	case 3: // S: behind W and E lie NW and NE
		m = moveS | forced(c, 8+0, 4+0, moveW|moveSW) | forced(c, 8+1, 4+1, moveE|moveSE)
	case 4: // NW
		m = moveW | moveN | moveNW
	case 5: // NE
		m = moveE | moveN | moveNE
	case 6: // SW
		m = moveW | moveS | moveSW
	case 7: // SE
		m = moveE | moveS | moveSE
	default: // dirStart
		m = 0xff
	}
	return m & uint8(c>>8)
}

// jpsDirTab[d][c>>4&0xff] & uint8(c>>8) is jpsDirs(c, d), without a call
// or a switch (runJPSExact): jpsDirs reads only bits 4–11 of c before its
// final mask with the allowed moves (the diagonal neighbours' passability
// and the straight moves). Rows 9–15 are empty; 4 KB.
var jpsDirTab = func() (t [16][256]uint8) {
	for d := 0; d <= dirStart; d++ {
		for b := range 256 {
			t[d][b] = jpsDirs(uint16(b)<<4|0xf000, d)
		}
	}
	return t
}()

// forced returns add when bit mv of c is set and bit pass is not, else 0.
func forced(c uint16, mv, pass uint, add uint8) uint8 {
	return add & -uint8(c>>mv&^(c>>pass)&1)
}

// jumpStraight scans from padded (x, y), whose jcell is c and cost g, along
// straight move d (moveW … moveS as 0 … 3) and relaxes the jump point found,
// if any. Off the goal's row (column) the cell's jump bit tells whether
// there is one at all, without reading the stop bitsets.
func (s *Search) jumpStraight(c uint16, x, y int32, d int, g int64) {
	pw := int32(s.pw)
	switch d {
	case 0, 1: // W, E
		if y != int32(s.gy) && c&jpOf[d&3] == 0 {
			return
		}
		dx := int32(2*d - 1)
		if j, ok := s.jumpRow(x, y, dx); ok {
			s.relaxInt(y*pw+j, j, y, d, g+costStraight*int64(absInt32(j-x)))
		}
	default: // N, S
		if x != int32(s.gx) && c&jpOf[d&3] == 0 {
			return
		}
		dy := int32(2*d - 5)
		if j, ok := s.jumpCol(x, y, dy); ok {
			s.relaxInt(j*pw+x, x, j, d, g+costStraight*int64(absInt32(j-y)))
		}
	}
}

// jpOf is the jump bit of each straight move index (W, E, N, S).
var jpOf = [4]uint16{jpW, jpE, jpN, jpS}

// jpMoves[c&15] is the set of straight moves (moveW … moveS) whose jump
// bit (jpW … jpS, in another order) is set in jcell c: the directions in
// which a straight scan from the cell finds a jump point off the goal's
// lines (runJPSExact).
var jpMoves = func() (t [16]uint8) {
	for b := range 16 {
		for d, jb := range jpOf {
			if b&int(jb) != 0 {
				t[b] |= 1 << uint(d)
			}
		}
	}
	return t
}()

// jumpDiagonal jumps from padded (x, y), whose cost is g, along diagonal
// move d and relaxes the jump point found, if any (runJPS; runJPSExact has
// its own, jumpDiagonalExact).
func (s *Search) jumpDiagonal(x, y int32, d int, g int64) {
	dx, dy := moveDX[d], moveDY[d]
	if jx, jy, ok := s.jumpDiag(x, y, dx, dy); ok {
		s.relaxInt(jy*int32(s.pw)+jx, jx, jy, d, g+costDiag*int64(absInt32(jx-x)))
	}
}

// octileInt is hInt's octile case, without branches (on a map of
// scattered obstacles the signs and the larger of dx and dy change from one
// jump point to the next, and branches on them mispredict): with
// m = min(|dx|, |dy|), costStraight·max + (costDiag − costStraight)·m is
// costStraight·(|dx| + |dy|) + (costDiag − 2·costStraight)·m.
func octileInt(dx, dy int32) int64 {
	sx, sy := dx>>31, dy>>31
	dx, dy = (dx^sx)-sx, (dy^sy)-sy
	d := dx - dy
	m := dy + d&(d>>31)
	return costStraight*int64(dx+dy) + (costDiag-2*costStraight)*int64(m)
}

// jumpDiag steps diagonally from padded (x, y) by (dx, dy), stopping at the
// goal or at a cell from which a straight scan along dx or dy finds a jump
// point; false when a diagonal step is blocked or would cut a corner. After
// a few single steps it moves by the precomputed diagonal runs (see
// syncDiagonals), stopping on the goal's row and column, where the goal may
// end a scan.
func (s *Search) jumpDiag(x, y, dx, dy int32) (int32, int32, bool) {
	pw := int32(s.pw)
	gx, gy := int32(s.gx), int32(s.gy)
	k := (dy+1)&2 + (dx+1)>>1 // 0 NW, 1 NE, 2 SW, 3 SE
	i := y*pw + x
	step := dy*pw + dx
	// Most runs are short: the first steps one by one, on the move and
	// jump bytes, before the run table's wider entries.
	bit := uint16(moveNW) << uint(8+k&3)
	lines := diagLines[k&3]
	c := s.jcell[i]
	for n := 0; n < 8; n++ {
		if c&bit == 0 {
			return 0, 0, false
		}
		i += step
		x += dx
		y += dy
		if x == gx || y == gy { // the goal may end a scan: scan
			if x == gx && y == gy {
				return x, y, true
			}
			if _, ok := s.jumpRow(x, y, dx); ok {
				return x, y, true
			}
			if _, ok := s.jumpCol(x, y, dy); ok {
				return x, y, true
			}
			c = s.jcell[i]
			continue
		}
		c = s.jcell[i]
		if c&lines != 0 {
			return x, y, true
		}
	}
	x, y, _, ok := s.diagRuns(x, y, i, dx, dy)
	return x, y, ok
}

// diagRuns is jumpDiag past its single steps: from padded (x, y), cell i,
// it moves by the diagonal runs of Search.diag, stopping on the goal's row
// and column, and returns the jump point and its cell, or false.
func (s *Search) diagRuns(x, y, i, dx, dy int32) (int32, int32, int32, bool) {
	pw := int32(s.pw)
	gx, gy := int32(s.gx), int32(s.gy)
	k := (dy+1)&2 + (dx+1)>>1 // 0 NW, 1 NE, 2 SW, 3 SE
	step := dy*pw + dx
	for {
		// steps to the goal's row or column ahead, if any
		kg := int32(math.MaxInt32)
		if t := (gy - y) * dy; t > 0 {
			kg = t
		}
		if t := (gx - x) * dx; t > 0 {
			kg = min(kg, t)
		}
		v := s.diag[4*i+k]
		n, state := int32(v>>1), v&1
		if kg <= n {
			i += kg * step
			x += kg * dx
			y += kg * dy
			if x == gx && y == gy {
				return x, y, i, true
			}
			if _, ok := s.jumpRow(x, y, dx); ok {
				return x, y, i, true
			}
			if _, ok := s.jumpCol(x, y, dy); ok {
				return x, y, i, true
			}
			continue
		}
		i += n * step
		x += n * dx
		y += n * dy
		if state == diagJump {
			return x, y, i, true
		}
		return 0, 0, 0, false
	}
}

// diagLines holds, per diagonal (NW, NE, SW, SE), the jump bits of its two
// straight components.
var diagLines = [4]uint16{jpW | jpN, jpE | jpN, jpW | jpS, jpE | jpS}

// States of a diagonal run in Search.diag. A run is shorter than the
// grid's smaller side, at most 8192 cells (MaxCells), so steps<<1 fits.
const (
	diagWall uint16 = iota // the run's steps are free, the next is not allowed
	diagJump               // the run's last cell has a straight jump point
)

// syncDiagonals computes Search.diag: for each padded cell and diagonal
// direction (NW, NE, SW, SE), the run from the cell along it, as
// steps<<1 | state: the number of allowed steps up to and including the
// first cell whose jump bits (jp) show a straight jump point along the
// direction's two components (diagJump), or before the first step that is
// not allowed (diagWall). A cell's run continues the run of the cell
// diagonally ahead, one row up for NW and NE, one row down for SW and SE,
// so one pass down and one pass up the rows compute them all.
func (s *Search) syncDiagonals() {
	pw, ph := s.pw, s.ph
	if len(s.diag) != 4*len(s.moves) {
		s.diag = make([]uint16, 4*len(s.moves))
	}
	diag, moves, jp := s.diag, s.moves, s.jcell
	clear(diag[:4*pw]) // the border rows allow no move
	clear(diag[4*(ph-1)*pw:])
	// NW and NE (k = 0, 1) read the row above: rows top-down; SW and SE
	// (k = 2, 3) the row below: rows bottom-up. Each pass writes a cell's
	// two runs side by side, without branches (on a map of scattered
	// obstacles a branch per move would mispredict often).
	for pass := 0; pass < 2; pass++ {
		k0 := 2 * pass
		dy := 2*pass - 1
		linesW, linesE := diagLines[k0], diagLines[k0+1]
		shW, shE := uint(4+k0), uint(5+k0) // bits of the two moves
		for yy := 1; yy < ph-1; yy++ {
			y := yy
			if dy > 0 {
				y = ph - 1 - yy
			}
			base := y * pw
			ahead := base + dy*pw // the row the moves enter
			mrow := moves[base : base+pw]
			jrow := jp[ahead : ahead+pw]
			drow := diag[4*base : 4*(base+pw)]
			dnext := diag[4*ahead : 4*(ahead+pw)]
			drow[k0], drow[k0+1] = 0, 0 // border columns
			drow[4*(pw-1)+k0], drow[4*(pw-1)+k0+1] = 0, 0
			for x := 1; x < pw-1 && x+1 < len(jrow) && 4*x+k0+5 < len(dnext) && 4*x+k0+1 < len(drow) && x < len(mrow); x++ {
				m := uint16(mrow[x])
				// W run: 1<<1|diagJump when the cell ahead has a jump
				// point, else that cell's run one step longer; 0 when
				// the move is not allowed
				vw := dnext[4*(x-1)+k0] + 1<<1
				if uint16(jrow[x-1])&linesW != 0 {
					vw = 1<<1 | diagJump
				}
				ve := dnext[4*(x+1)+k0+1] + 1<<1
				if jrow[x+1]&linesE != 0 {
					ve = 1<<1 | diagJump
				}
				drow[4*x+k0] = vw & -(m >> shW & 1)
				drow[4*x+k0+1] = ve & -(m >> shE & 1)
			}
		}
	}
}

// Bits of Search.jcell, one uint16 per padded cell, so that a JPS step
// reads one array: jpE … jpN (a straight scan from the cell in that
// direction finds a cell with a forced neighbour before a blocked one), the
// passability of the four diagonal neighbours (bits 4–7, in the order of
// moveNW … moveSE, without the corner rule) and the allowed moves (bits
// 8–15, the cell's byte of Search.moves).
const (
	jpE = 1 << iota
	jpW
	jpS
	jpN
)

// syncJumps computes Search.jp from the bitsets: a scan from a cell finds
// a jump point when the first stop after it is passable (a forced
// neighbour, not a wall). Along a row that is one pass per direction,
// carrying the passability of the nearest stop; down and up the columns it
// is one word-parallel pass over the rows, carrying per column whether the
// first stop seen so far is passable.
func (s *Search) syncJumps() {
	pw, ph := s.pw, s.ph
	if len(s.jcell) != len(s.moves) {
		s.jcell = make([]uint16, len(s.moves))
	}
	jp := s.jcell
	clear(jp)
	wpr := s.rows.wpr
	line := func(b *bitLines, r int) []uint64 { return b.w[r*wpr : (r+1)*wpr] }
	// Along each row, cell by cell without branches (on a map of scattered
	// obstacles the stops are dense and unpredictable): east from the row's
	// end, carrying the passability of the first stop after the cell, and
	// west from its start, that of the last stop before it.
	for y := 1; y < ph-1; y++ {
		row := jp[y*pw : (y+1)*pw]
		pass, stE, stW := line(&s.rows, y), line(&s.stopE, y), line(&s.stopW, y)
		var found uint16
		for x := pw - 2; x >= 1 && x < len(row); x-- {
			row[x] |= found * jpE
			k := uint(x + 64)
			w, sh := k>>6, k&63
			if w >= uint(len(pass)) {
				break
			}
			st := uint16(stE[w] >> sh & 1)
			found ^= (found ^ uint16(pass[w]>>sh&1)) & -st
		}
		found = 0
		for x := 1; x < pw-1 && x < len(row); x++ {
			row[x] |= found * jpW
			k := uint(x + 64)
			w, sh := k>>6, k&63
			if w >= uint(len(pass)) {
				break
			}
			st := uint16(stW[w] >> sh & 1)
			found ^= (found ^ uint16(pass[w]>>sh&1)) & -st
		}
	}
	// Down (S) and up (N) the columns. A scan south stops at (x, y) when it
	// is blocked or (x±1, y) is passable and (x±1, y−1) is not; north, the
	// same with y+1.
	if cap(s.colScratch) < 2*wpr {
		s.colScratch = make([]uint64, 2*wpr)
	}
	found, stop := s.colScratch[:wpr], s.colScratch[wpr:2*wpr]
	for dir := 0; dir < 2; dir++ {
		clear(found)
		flag := uint16(jpS)
		if dir == 1 {
			flag = jpN
		}
		for yy := 1; yy < ph-1; yy++ {
			y, prev := ph-1-yy, ph-2-yy // south: rows bottom-up, forced test on y−1
			if dir == 1 {
				y, prev = yy, yy+1 // north: rows top-down, forced test on y+1
			}
			// cells of row y with a jump point along the direction
			base := y * pw
			for w, m := range found {
				for ; m != 0; m &= m - 1 {
					if x := w<<6 + bits.TrailingZeros64(m) - 64; x >= 1 && x < pw-1 {
						jp[base+x] |= flag
					}
				}
			}
			// add row y's stops
			p, q := line(&s.rows, y), line(&s.rows, prev)
			for w := range stop {
				var pl, ql, pr, qr uint64 // bit x: cell x−1 (l) and x+1 (r)
				pl, ql = p[w]<<1, q[w]<<1
				if w > 0 {
					pl |= p[w-1] >> 63
					ql |= q[w-1] >> 63
				}
				pr, qr = p[w]>>1, q[w]>>1
				if w+1 < wpr {
					pr |= p[w+1] << 63
					qr |= q[w+1] << 63
				}
				st := ^p[w] | pl&^ql | pr&^qr
				found[w] = found[w]&^st | st&p[w]
			}
		}
	}
}

// beside returns the bit of Search.jcell that holds whether the neighbour
// at (dx, dy) is passable: the allowed straight move for an orthogonal one,
// the diagonal passability bit for a diagonal one.
func beside(dx, dy int32) uint16 {
	d := moveIndex[(dy+1)*3+dx+1]
	if dx != 0 && dy != 0 {
		return 1 << uint(d) // bits 4–7
	}
	return 1 << uint(8+d)
}

// syncCells adds the allowed moves and the diagonal neighbours'
// passability to the jump bits of Search.jcell. The passability of the
// cells at x−1 and x+1 of the rows above and below is read straight from
// the row bitsets' words.
func (s *Search) syncCells() {
	pw, ph := s.pw, s.ph
	wpr := s.rows.wpr
	rw := s.rows.w
	for y := 1; y < ph-1; y++ {
		up := rw[(y-1)*wpr : y*wpr]
		dn := rw[(y+1)*wpr : (y+2)*wpr]
		moves := s.moves[y*pw : (y+1)*pw]
		jc := s.jcell[y*pw : (y+1)*pw]
		for x := 1; x < pw-1 && x < len(moves) && x < len(jc); x++ {
			kl, kr := uint(x+63), uint(x+65) // bits of cells x−1 and x+1
			if kl>>6 >= uint(len(up)) || kr>>6 >= uint(len(up)) || kr>>6 >= uint(len(dn)) {
				break
			}
			c := uint16(moves[x])<<8 |
				uint16(up[kl>>6]>>(kl&63)&1)<<4 | // NW
				uint16(up[kr>>6]>>(kr&63)&1)<<5 | // NE
				uint16(dn[kl>>6]>>(kl&63)&1)<<6 | // SW
				uint16(dn[kr>>6]>>(kr&63)&1)<<7 // SE
			jc[x] |= c
		}
	}
}
