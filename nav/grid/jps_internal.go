package grid

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
// Every edge between a jump point and its parent is a straight or diagonal
// line of uniform-cost cells, so its cost is the octile distance times the
// grid's single cell cost.

// runJPS performs up to budget jump-point expansions.
func (s *Search) runJPS(budget int) {
	nodes, pc := s.nodes, s.pcost
	pw := int32(s.pw)
	for n := 0; n < budget; n++ {
		ci, ok := s.next()
		if !ok {
			return
		}
		p := nodes[ci].parent
		if p == ci { // the start: every direction
			for dy := int32(-1); dy <= 1; dy++ {
				for dx := int32(-1); dx <= 1; dx++ {
					if dx != 0 || dy != 0 {
						s.jumpFrom(ci, dx, dy)
					}
				}
			}
			continue
		}
		dx, dy := sign32(ci%pw-p%pw), sign32(ci/pw-p/pw)
		switch {
		case dx != 0 && dy != 0:
			s.jumpFrom(ci, dx, 0)
			s.jumpFrom(ci, 0, dy)
			s.jumpFrom(ci, dx, dy)
		case dy == 0:
			s.jumpFrom(ci, dx, 0)
			for _, sd := range [2]int32{-1, 1} {
				if !isBlocked(pc[ci+sd*pw]) && isBlocked(pc[ci-dx+sd*pw]) {
					s.jumpFrom(ci, 0, sd)
					s.jumpFrom(ci, dx, sd)
				}
			}
		default:
			s.jumpFrom(ci, 0, dy)
			for _, sd := range [2]int32{-1, 1} {
				if !isBlocked(pc[ci+sd]) && isBlocked(pc[ci+sd-dy*pw]) {
					s.jumpFrom(ci, sd, 0)
					s.jumpFrom(ci, sd, dy)
				}
			}
		}
	}
}

// jumpFrom jumps from ci in direction (dx, dy) and relaxes the jump point
// found, if any.
func (s *Search) jumpFrom(ci, dx, dy int32) {
	pw := int32(s.pw)
	var j int32
	switch {
	case dx != 0 && dy != 0:
		j = s.jumpDiag(ci, dx, dy*pw)
	case dy == 0:
		j = s.jumpStraight(ci, dx, pw)
	default:
		j = s.jumpStraight(ci, dy*pw, 1)
	}
	if j < 0 {
		return
	}
	x, y := int(ci%pw), int(ci/pw)
	jx, jy := int(j%pw), int(j/pw)
	d := octile(float64(absInt(jx-x)), float64(absInt(jy-y))) * float64(s.uniform)
	s.relax(j, jx, jy, ci, s.nodes[ci].g+d)
}

// jumpStraight scans from i by step (±1 along a row, ±pw along a column);
// side is the offset to the cells beside the line (pw for rows, 1 for
// columns). It returns the first jump point (the goal or a cell with a
// forced neighbour), or -1 when the line hits a blocked cell.
func (s *Search) jumpStraight(i, step, side int32) int32 {
	pc := s.pcost
	goal := s.goal
	for {
		i += step
		if isBlocked(pc[i]) {
			return -1
		}
		if i == goal {
			return i
		}
		if (!isBlocked(pc[i-side]) && isBlocked(pc[i-step-side])) ||
			(!isBlocked(pc[i+side]) && isBlocked(pc[i-step+side])) {
			return i
		}
	}
}

// jumpDiag scans diagonally from i by (dx, dyw) (dyw = ±pw), stopping at the
// goal or at a cell from which a straight scan finds a jump point; -1 when
// a diagonal step is blocked or would cut a corner.
func (s *Search) jumpDiag(i, dx, dyw int32) int32 {
	pc := s.pcost
	goal := s.goal
	pw := int32(s.pw)
	for {
		if isBlocked(pc[i+dx]) || isBlocked(pc[i+dyw]) || isBlocked(pc[i+dx+dyw]) {
			return -1
		}
		i += dx + dyw
		if i == goal {
			return i
		}
		if s.jumpStraight(i, dx, pw) >= 0 || s.jumpStraight(i, dyw, 1) >= 0 {
			return i
		}
	}
}
