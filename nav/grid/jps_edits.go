package grid

// Incremental upkeep of jump point search's mirror of the grid after a few
// cell edits (see syncBits). A cell's passability enters:
//
//   - its bit in the row and column bitsets;
//   - the stop bits of its row and the rows above and below (forced
//     neighbours of east/west scans), and of its column and the columns
//     beside (north/south scans);
//   - the jump bits jpE/jpW of every cell of those three rows and jpS/jpN of
//     every cell of those three columns (a scan's first stop anywhere along
//     the line may change);
//   - the allowed moves and diagonal passability bits of its 3×3 block;
//   - the diagonal runs of every cell whose run reads one of the cells
//     above, carried backwards along each diagonal while the run changes.
//
// updateBits recomputes exactly those, so the mirror equals a full rebuild
// (TestIncrementalJPSEqualsRebuild).

// updateBits applies the edits in s.editBuf (grid cells) to the JPS mirror;
// the allowed moves are already up to date.
func (s *Search) updateBits() {
	pw, ph := s.pw, s.ph
	g := s.g
	for _, c := range s.editBuf {
		x, y := int(c.X)+1, int(c.Y)+1
		pass := !isBlocked(g.cost[g.index(c)])
		s.rows.assign(y, x, pass)
		s.cols.assign(x, y, pass)
	}
	for _, c := range s.editBuf {
		x, y := int(c.X)+1, int(c.Y)+1
		for r := y - 1; r <= y+1; r++ {
			if r >= 1 && r < ph-1 {
				s.stopE.stopsOfLine(&s.rows, r, true)
				s.stopW.stopsOfLine(&s.rows, r, false)
			}
		}
		for r := x - 1; r <= x+1; r++ {
			if r >= 1 && r < pw-1 {
				s.stopS.stopsOfLine(&s.cols, r, true)
				s.stopN.stopsOfLine(&s.cols, r, false)
			}
		}
	}
	for _, c := range s.editBuf {
		x, y := int(c.X)+1, int(c.Y)+1
		for r := y - 1; r <= y+1; r++ {
			if r >= 1 && r < ph-1 {
				s.jumpsOfRow(r)
			}
		}
		for r := x - 1; r <= x+1; r++ {
			if r >= 1 && r < pw-1 {
				s.jumpsOfCol(r)
			}
		}
		for yy := y - 1; yy <= y+1; yy++ {
			for xx := x - 1; xx <= x+1; xx++ {
				if yy >= 1 && yy < ph-1 && xx >= 1 && xx < pw-1 {
					s.cellBits(int32(xx), int32(yy))
				}
			}
		}
	}
	// diagonal runs: every cell whose own moves or whose diagonal
	// neighbour's jump bits may have changed
	for _, c := range s.editBuf {
		x, y := int32(c.X)+1, int32(c.Y)+1
		for r := y - 2; r <= y+2; r++ {
			for xx := int32(0); xx < int32(pw); xx++ {
				s.diagFrom(xx, r)
			}
		}
		for r := x - 2; r <= x+2; r++ {
			for yy := int32(0); yy < int32(ph); yy++ {
				s.diagFrom(r, yy)
			}
		}
	}
}

// assign sets cell c of line r to pass.
func (b *bitLines) assign(r, c int, pass bool) {
	k := c + 64
	i := r*b.wpr + k>>6
	if pass {
		b.w[i] |= 1 << uint(k&63)
	} else {
		b.w[i] &^= 1 << uint(k&63)
	}
}

// stopsOfLine is stopsOf for line r only (1 ≤ r < lines−1).
func (b *bitLines) stopsOfLine(pass *bitLines, r int, fwd bool) {
	wpr := b.wpr
	cur := pass.w[r*wpr : (r+1)*wpr]
	up := pass.w[(r-1)*wpr : r*wpr]
	dn := pass.w[(r+1)*wpr : (r+2)*wpr]
	out := b.w[r*wpr : (r+1)*wpr]
	for i := range out {
		var upPred, dnPred uint64
		if fwd {
			upPred, dnPred = up[i]<<1, dn[i]<<1
			if i > 0 {
				upPred |= up[i-1] >> 63
				dnPred |= dn[i-1] >> 63
			}
		} else {
			upPred, dnPred = up[i]>>1, dn[i]>>1
			if i+1 < wpr {
				upPred |= up[i+1] << 63
				dnPred |= dn[i+1] << 63
			}
		}
		out[i] = ^cur[i] | up[i]&^upPred | dn[i]&^dnPred
	}
}

// jumpsOfRow recomputes jpE and jpW of padded row y, as syncJumps does.
func (s *Search) jumpsOfRow(y int) {
	pw := s.pw
	row := s.jcell[y*pw : (y+1)*pw]
	var found uint16
	for x := pw - 2; x >= 1; x-- {
		row[x] = row[x]&^jpE | found*jpE
		if s.stopE.get(int32(y), int32(x)) {
			found = b2u(s.rows.get(int32(y), int32(x)))
		}
	}
	found = 0
	for x := 1; x < pw-1; x++ {
		row[x] = row[x]&^jpW | found*jpW
		if s.stopW.get(int32(y), int32(x)) {
			found = b2u(s.rows.get(int32(y), int32(x)))
		}
	}
}

// jumpsOfCol recomputes jpS and jpN of padded column x.
func (s *Search) jumpsOfCol(x int) {
	pw, ph := s.pw, s.ph
	jp := s.jcell
	var found uint16
	for y := ph - 2; y >= 1; y-- {
		i := y*pw + x
		jp[i] = jp[i]&^jpS | found*jpS
		if s.stopS.get(int32(x), int32(y)) {
			found = b2u(s.cols.get(int32(x), int32(y)))
		}
	}
	found = 0
	for y := 1; y < ph-1; y++ {
		i := y*pw + x
		jp[i] = jp[i]&^jpN | found*jpN
		if s.stopN.get(int32(x), int32(y)) {
			found = b2u(s.cols.get(int32(x), int32(y)))
		}
	}
}

func b2u(b bool) uint16 {
	if b {
		return 1
	}
	return 0
}

// cellBits recomputes bits 4–15 of padded cell (x, y)'s jcell, as
// syncCells does.
func (s *Search) cellBits(x, y int32) {
	i := y*int32(s.pw) + x
	c := uint16(s.moves[i]) << 8
	for k := int32(0); k < 4; k++ {
		if s.rows.get(y+2*(k>>1)-1, x+2*(k&1)-1) {
			c |= 1 << uint(4+k)
		}
	}
	s.jcell[i] = s.jcell[i]&0xf | c
}

// diagFrom recomputes the four diagonal runs of padded cell (x, y) (nothing
// outside the padded grid) and, while a run changes, those of the cells
// behind it along its diagonal.
func (s *Search) diagFrom(x, y int32) {
	pw, ph := int32(s.pw), int32(s.ph)
	if x < 0 || y < 0 || x >= pw || y >= ph {
		return
	}
	for k := int32(0); k < 4; k++ {
		dx, dy := 2*(k&1)-1, 2*(k>>1)-1
		cx, cy := x, y
		for cx >= 0 && cy >= 0 && cx < pw && cy < ph {
			i := cy*pw + cx
			v := s.diagValue(i, k, dx, dy)
			if v == s.diag[4*i+k] {
				break
			}
			s.diag[4*i+k] = v
			cx, cy = cx-dx, cy-dy
		}
	}
}

// diagValue is syncDiagonals's run of padded cell i in direction k.
func (s *Search) diagValue(i, k, dx, dy int32) uint16 {
	if s.moves[i]&(uint8(moveNW)<<uint(k)) == 0 {
		return 0
	}
	j := i + dy*int32(s.pw) + dx
	lines := uint16(jpW)
	if dx > 0 {
		lines = jpE
	}
	if dy > 0 {
		lines |= jpS
	} else {
		lines |= jpN
	}
	if s.jcell[j]&lines != 0 {
		return 1<<1 | diagJump
	}
	nv := s.diag[4*j+k]
	return (nv>>1+1)<<1 | nv&1
}
