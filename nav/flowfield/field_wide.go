package flowfield

import (
	"github.com/archai-go/archai/nav/grid"
	"gonum.org/v1/gonum/spatial/r2"
)

// SetClearance sets the clearance the next [Field.Start] (or [Field.Build])
// builds the field for, in cells: 0 and 1 (the default) mean any passable
// cell; above 1 the field routes an agent of that clearance, as
// [grid.Options.Clearance] does for a path ([grid.ClearanceFor] gives the
// clearance of an agent of radius r).
//
// The rule of a wide field, that of [grid.Search] with Options.Clearance run
// backwards from the goals:
//   - a cell is entered only when its [grid.Grid.Clearance] is at least c;
//   - a diagonal move also needs both orthogonal cells beside it of
//     clearance c or more (no corner cutting);
//   - any passable cell may be left: a cell of smaller clearance (an agent
//     pushed against a wall) gets the direction of its cheapest move into a
//     wide-enough cell, as grid.Search exempts its start;
//   - a goal cell of smaller clearance is exempt too: it may be entered (its
//     neighbours of clearance c step into it), so wide agents still reach a
//     goal next to a wall. grid.Search answers ErrUnreachable for such a goal
//     instead; a field serves a crowd heading to one point, so it leads them
//     as near as they fit.
//
// A cell with no such route (a wide agent sealed off by gaps narrower than
// it) has no direction ([Field.Next] false). [Field.Sample] uses
// [grid.Grid.LineOfSightWide] at c for its shortcuts.
//
// Cost: a wide field computes the clearance of every cell itself (a
// chessboard distance transform of the blocked cells, two raster passes,
// one byte a cell more) and the moves of every cell again after any change
// of passability, where a point field redoes only the changed rows; and its
// build runs the general queue loop (see Step), not the one for uniform
// costs. A field of clearance 1 is built exactly as before clearances
// existed, and as fast.
func (f *Field) SetClearance(c uint8) { f.clearance = max(c, 1) }

// Clearance returns the clearance set by [Field.SetClearance] (1 by default).
func (f *Field) Clearance() uint8 { return max(f.clearance, 1) }

// lineOfSight is the line of sight of the field's clearance.
func (f *Field) lineOfSight(a, b r2.Vec) bool {
	if f.movesClear > 1 {
		return f.g.LineOfSightWide(a, b, f.movesClear)
	}
	return f.g.LineOfSight(a, b)
}

// exemptMove is the moves byte a goal's exemption replaced (see exemptGoal).
type exemptMove struct {
	i int
	m uint8
}

// exemptGoal lets the neighbours of goal cell i, of clearance below the
// field's, step into it (see [Field.SetClearance]), remembering its moves so
// that the next Start puts them back (unexempt).
func (f *Field) exemptGoal(i int) {
	f.exempt = append(f.exempt, exemptMove{i, f.moves[i]})
	f.moves[i] = f.wideMask(i)
}

// unexempt puts back the moves exemptGoal changed.
func (f *Field) unexempt() {
	for k := len(f.exempt) - 1; k >= 0; k-- {
		f.moves[f.exempt[k].i] = f.exempt[k].m
	}
	f.exempt = f.exempt[:0]
}

// computeClearance sets wclr to the clearance of every padded cell as
// [grid.Grid.Clearance] defines it (the Chebyshev distance to the nearest
// blocked cell or the border, capped at 255), from cls: a chessboard
// distance transform, one raster pass forwards and one backwards.
func (f *Field) computeClearance() {
	if len(f.wclr) != len(f.cls) {
		f.wclr = make([]uint8, len(f.cls))
	}
	cl, cls, s := f.wclr, f.cls, f.stride
	inc := func(v uint8) uint8 { return v + uint8(1-v/255) } // v+1, capped at 255
	for y := 1; y <= f.h; y++ {
		for p := y*s + 1; p <= y*s+f.w; p++ {
			if cls[p] == classBlocked {
				cl[p] = 0
				continue
			}
			cl[p] = inc(min(cl[p-1], cl[p-s-1], cl[p-s], cl[p-s+1]))
		}
	}
	for y := f.h; y >= 1; y-- {
		for p := y*s + f.w; p >= y*s+1; p-- {
			if cl[p] != 0 {
				cl[p] = min(cl[p], inc(min(cl[p+1], cl[p+s-1], cl[p+s], cl[p+s+1])))
			}
		}
	}
}

// wideMask returns the moves byte of cell p for the field's clearance,
// whatever p's own clearance: bit k set when the neighbour at
// neighbourOffsets[k] is passable and, for a diagonal, both cells beside the
// move have the clearance.
func (f *Field) wideMask(p int) uint8 {
	cls, cl, s, req := f.cls, f.wclr, f.stride, f.movesClear
	l, r, u, b := cls[p-1] != classBlocked, cls[p+1] != classBlocked, cls[p-s] != classBlocked, cls[p+s] != classBlocked
	wl, wr, wu, wb := cl[p-1] >= req, cl[p+1] >= req, cl[p-s] >= req, cl[p+s] >= req
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
	if wl && wu && cls[p-s-1] != classBlocked {
		m |= 16
	}
	if wr && wu && cls[p-s+1] != classBlocked {
		m |= 32
	}
	if wl && wb && cls[p+s-1] != classBlocked {
		m |= 64
	}
	if wr && wb && cls[p+s+1] != classBlocked {
		m |= 128
	}
	return m
}

// computeMovesWide is computeMoves for a clearance above 1: a cell of
// smaller clearance is not entered (moves 0), but counts as passable.
func (f *Field) computeMovesWide(y int) {
	s := f.stride
	passable, open8 := 0, 0
	for p := y*s + 1; p <= y*s+f.w; p++ {
		if f.cls[p] == classBlocked {
			f.moves[p] = 0
			continue
		}
		passable++
		if f.wclr[p] < f.movesClear {
			f.moves[p] = 0
			continue
		}
		m := f.wideMask(p)
		f.moves[p] = m
		if m == 0xff {
			open8++
		}
	}
	f.rowPassable[y], f.rowOpen[y] = int32(passable), int32(open8)
}

// wideCell reports whether cell c may be entered by the field's clearance
// (tests).
func (f *Field) wideCell(c grid.Cell) bool { return f.wclr[f.index(c)] >= f.movesClear }
