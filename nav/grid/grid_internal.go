package grid

import (
	"fmt"
	"math"
	"sync/atomic"
)

// losEpsilon is the tolerance in segment parameter under which two grid-line
// crossings count as one corner crossing.
const losEpsilon = 1e-9

// checkSize reports whether a width×height grid may be made, without
// computing width·height (which can overflow).
func checkSize(width, height int) error {
	switch {
	case width <= 0 || height <= 0:
		return fmt.Errorf("%w: %dx%d", ErrInvalidSize, width, height)
	case width > MaxCells/height:
		return fmt.Errorf("%w: %dx%d (at most %d)", ErrTooLarge, width, height, MaxCells)
	}
	return nil
}

// checkSetCost returns the error of [Grid.TrySetCost] for cell c and cost, or nil.
func (g *Grid) checkSetCost(c Cell, cost float32) error {
	if !g.InBounds(c) {
		return fmt.Errorf("%w: cell %v on a %dx%d grid", ErrOutOfBounds, c, g.w, g.h)
	}
	if !(cost > 0) { // also catches NaN
		return fmt.Errorf("%w: %v for cell %v", ErrInvalidCost, cost, c)
	}
	return nil
}

// setCost is [Grid.SetCost] on a cell and cost already checked.
func (g *Grid) setCost(c Cell, cost float32) {
	i := g.index(c)
	old := g.cost[i]
	if old == cost {
		return
	}
	g.cost[i] = cost
	g.version++
	g.logEdit(c)
	if isBlocked(old) != isBlocked(cost) {
		current := g.compVersion == g.topoVersion
		g.topoVersion++
		if g.blocked != nil {
			g.blocked[i/64] ^= 1 << (uint(i) % 64)
		}
		if current && g.patchComponents(c) { // most doors: no relabelling
			g.compVersion = g.topoVersion
		}
	}
	g.trackRange(old, cost)
}

// newGrid wraps cost (width·height row-major costs, already checked).
func newGrid(width, height int, cost []float32) *Grid {
	base := versionBases.Add(1) << 32
	return &Grid{
		w:            width,
		h:            height,
		cost:         cost,
		version:      base,
		topoVersion:  1,
		minCost:      1,
		minCostDirty: true,
		editFloor:    base,
	}
}

// versionBases counts the grids made. Each grid's versions start at its own
// count times 2³², so no two grids share a version (until one has had 2³² cost
// changes): a cache keyed on a grid pointer and its Version sees a grid whose
// contents were replaced by another's (*g = *other) as a version it cannot
// follow (Grid.EditsSince reports false: rebuild), not as a few edits of the
// grid it knew, which would leave the cells the copy changed stale (agents
// walked through a wall the copy added).
var versionBases atomic.Uint64

func (g *Grid) index(c Cell) int { return int(c.Y)*g.w + int(c.X) }

func isBlocked(cost float32) bool { return cost > math.MaxFloat32 }

// floorToInt32 returns floor(v) as an int32, clamped to the int32 range
// (NaN gives math.MinInt32, far outside any grid). Positions on a grid are
// in [0, 2³¹), where truncation is the floor: that case converts directly,
// without math.Floor (a call, not an instruction, below GOAMD64=v2).
func floorToInt32(v float64) int32 {
	if v >= 0 && v < 1<<31 { // false for NaN
		return int32(v)
	}
	f := math.Floor(v)
	switch {
	case f < math.MinInt32 || v != v: // NaN lands far outside any grid
		return math.MinInt32
	case f > math.MaxInt32:
		return math.MaxInt32
	}
	return int32(f)
}

func absInt32(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}

// passableAt is [Grid.Passable] of cell (x, y), with one unsigned compare
// per axis for the bounds.
func (g *Grid) passableAt(x, y int32) bool {
	if uint32(x) >= uint32(g.w) || uint32(y) >= uint32(g.h) {
		return false
	}
	i := int(y)*g.w + int(x)
	if g.blocked != nil {
		return g.blocked[i/64]&(1<<(uint(i)%64)) == 0
	}
	return !isBlocked(g.cost[i])
}

// buildBlocked builds the bitmap of blocked cells (Grid.blocked).
func (g *Grid) buildBlocked() {
	b := make([]uint64, (len(g.cost)+63)/64)
	for i, c := range g.cost {
		if isBlocked(c) {
			b[i/64] |= 1 << (uint(i) % 64)
		}
	}
	g.blocked = b
}

// crossing returns the segment parameter at which a ray starting at origin
// with direction d leaves cell coordinate c (moving by step).
func crossing(c, step int32, origin, d float64) float64 {
	if step > 0 {
		return (float64(c+1) - origin) / d
	}
	return (float64(c) - origin) / d
}

// rowClear reports whether cells x0..x1 (either order) of row y are passable.
func (g *Grid) rowClear(y, x0, x1 int32) bool {
	if x0 > x1 {
		x0, x1 = x1, x0
	}
	for x := x0; x <= x1; x++ {
		if !g.passableAt(x, y) {
			return false
		}
	}
	return true
}

// colClear reports whether cells y0..y1 (either order) of column x are passable.
func (g *Grid) colClear(x, y0, y1 int32) bool {
	if y0 > y1 {
		y0, y1 = y1, y0
	}
	for y := y0; y <= y1; y++ {
		if !g.passableAt(x, y) {
			return false
		}
	}
	return true
}

// recomputeMinCost scans every cell for the range of the passable costs
// and the number of cells at each end of it (see trackRange).
func (g *Grid) recomputeMinCost() {
	lo, hi := float32(math.Inf(1)), float32(0)
	nLo, nHi, n := 0, 0, 0
	for _, c := range g.cost {
		if isBlocked(c) {
			continue
		}
		n++
		switch {
		case c < lo:
			lo, nLo = c, 1
		case c == lo:
			nLo++
		}
		switch {
		case c > hi:
			hi, nHi = c, 1
		case c == hi:
			nHi++
		}
	}
	if n == 0 {
		lo = 1
	}
	g.minCost, g.maxCost, g.nMin, g.nMax, g.nPass = lo, hi, nLo, nHi, n
	g.minCostDirty = false
}

// trackRange keeps the range of the passable costs exact after one cell's
// cost went from old to cost, in O(1): the counts of the cells at either
// end of the range follow the edit, and only when the last cell of the
// cheapest or dearest cost is gone (the new end is not known without a
// scan) is the range marked for recomputeMinCost.
func (g *Grid) trackRange(old, cost float32) {
	if g.minCostDirty {
		return
	}
	if !isBlocked(old) {
		g.nPass--
		if old == g.minCost {
			g.nMin--
		}
		if old == g.maxCost {
			g.nMax--
		}
	}
	if !isBlocked(cost) {
		if g.nPass == 0 { // the only passable cell: its cost is the range
			g.minCost, g.maxCost, g.nMin, g.nMax = cost, cost, 0, 0
		}
		switch {
		case cost < g.minCost:
			g.minCost, g.nMin = cost, 1
		case cost == g.minCost:
			g.nMin++
		}
		switch {
		case cost > g.maxCost:
			g.maxCost, g.nMax = cost, 1
		case cost == g.maxCost:
			g.nMax++
		}
		g.nPass++
	}
	switch {
	case g.nPass == 0:
		g.minCost, g.maxCost, g.nMin, g.nMax = 1, 0, 0, 0
	case g.nMin == 0 || g.nMax == 0:
		g.minCostDirty = true
	}
}

// labelComponents flood-fills the 4-connected components of passable cells.
func (g *Grid) labelComponents() { g.labelComponentsSizes(nil) }

// labelComponentsSizes labels the components (see fillComponents), in the
// narrowest labels that hold them (compW: 1 byte a cell for up to 255
// components, 2 for up to 65,535, else 4), starting from the width of the
// last labelling so that relabelling a grid of a steady count allocates
// nothing. It appends each component's cell count to sizes when sizes is
// not nil, and returns sizes.
func (g *Grid) labelComponentsSizes(sizes []int) []int {
	n := g.w * g.h
	lo, hi := float32(math.Inf(-1)), float32(math.MaxFloat32)
	start, label := 0, 0
	if g.compW <= 1 {
		g.comp8 = noLabels(g.comp8, n, math.MaxUint8)
		g.compW = 1
		start, label, g.stack, sizes = fillComponents(g.cost, lo, hi, g.w, g.h, g.comp8, math.MaxUint8, 0, 0, g.stack, sizes)
		if start == n {
			g.compVersion = g.topoVersion
			return sizes
		}
		g.comp16 = widenLabels(g.comp16, g.comp8, math.MaxUint8, math.MaxUint16)
		g.comp8, g.compW = nil, 2
	} else if g.compW == 2 {
		g.comp16 = noLabels(g.comp16, n, math.MaxUint16)
	}
	if g.compW == 2 {
		start, label, g.stack, sizes = fillComponents(g.cost, lo, hi, g.w, g.h, g.comp16, math.MaxUint16, start, label, g.stack, sizes)
		if start == n {
			g.compVersion = g.topoVersion
			return sizes
		}
		g.comp32 = widenLabels(g.comp32, g.comp16, math.MaxUint16, -1)
		g.comp16, g.compW = nil, 4
	} else {
		g.comp32 = noLabels(g.comp32, n, -1)
	}
	_, _, g.stack, sizes = fillComponents(g.cost, lo, hi, g.w, g.h, g.comp32, -1, start, label, g.stack, sizes)
	g.compVersion = g.topoVersion
	return sizes
}

// compAt returns the component label of cell i, -1 when blocked.
func (g *Grid) compAt(i int) int32 {
	switch g.compW {
	case 1:
		if l := g.comp8[i]; l != math.MaxUint8 {
			return int32(l)
		}
		return -1
	case 2:
		if l := g.comp16[i]; l != math.MaxUint16 {
			return int32(l)
		}
		return -1
	}
	return g.comp32[i]
}

// setComp sets the label of cell i to l, a label some cell has, or -1.
func (g *Grid) setComp(i int, l int32) {
	switch g.compW {
	case 1:
		g.comp8[i] = uint8(l) // -1: MaxUint8
	case 2:
		g.comp16[i] = uint16(l)
	default:
		g.comp32[i] = l
	}
}

// labelInt is the type of a component label: see labelComponentsSizes.
type labelInt interface{ uint8 | uint16 | int32 }

// noLabels returns b with n labels, each none.
func noLabels[L labelInt](b []L, n int, none L) []L {
	if cap(b) < n {
		b = make([]L, n)
	}
	b = b[:n]
	for i := range b {
		b[i] = none
	}
	return b
}

// widenLabels copies the labels of from into to (grown as needed), none
// becoming none2.
func widenLabels[L, M labelInt](to []M, from []L, none L, none2 M) []M {
	if cap(to) < len(from) {
		to = make([]M, len(from))
	}
	to = to[:len(from)]
	for i, l := range from {
		if l == none {
			to[i] = none2
		} else {
			to[i] = M(l)
		}
	}
	return to
}

// fillComponents labels the 4-connected components of the open cells of a
// w×h grid of values in row-major order (cell i is open when its value is
// neither above hi nor below lo; NaN is open) in comp (len w·h, every cell
// none at first): label, label+1, … in the row-major order of each
// component's first cell from cell from on; the cells that are not open
// stay none. It stops before a component that would take the label none
// (when none is not negative) and returns that component's first cell and
// the next label, or w·h and the number of labels when it labelled every
// component. It appends the cell count of each component to sizes when sizes
// is not nil, and returns the stack (its scratch, grown) and sizes.
//
// It is a scanline fill (Heckbert, "A Seed Fill Algorithm", Graphics Gems,
// 1990): each span (a row's maximal run of open cells) is labelled whole,
// and one cell of each open run next to it in the rows above and below is
// stacked, so the stack holds spans rather than cells (a few thousand
// entries on a 4096² town map, where a cell-by-cell fill stacked millions).
func fillComponents[T float32 | uint8, L labelInt](vals []T, lo, hi T, w, h int, comp []L, none L, from, label int, stack []int32, sizes []int) (int, int, []int32, []int) {
	n := w * h
	comp = comp[:n]
	open := func(i int) bool { v := vals[i]; return !(v > hi) && !(v < lo) }
	// push stacks the first cell of each run of open, unlabelled cells in
	// [a, b] (one row).
	push := func(a, b int) {
		run := false
		for i := a; i <= b; i++ {
			if comp[i] == none && open(i) {
				if !run {
					stack = append(stack, int32(i))
					run = true
				}
			} else {
				run = false
			}
		}
	}
	for start := from; start < n; start++ {
		if comp[start] != none || !open(start) {
			continue
		}
		if none >= 0 && label == int(none) {
			return start, label, stack, sizes
		}
		l := L(label)
		count := 0
		stack = append(stack[:0], int32(start))
		for len(stack) > 0 {
			s := int(stack[len(stack)-1])
			stack = stack[:len(stack)-1]
			if comp[s] != none {
				continue
			}
			row := s - s%w
			a, b := s, s
			for a > row && comp[a-1] == none && open(a-1) {
				a--
			}
			for b+1 < row+w && comp[b+1] == none && open(b+1) {
				b++
			}
			for i := a; i <= b; i++ {
				comp[i] = l
			}
			count += b - a + 1
			if row > 0 {
				push(a-w, b-w)
			}
			if row+w < n {
				push(a+w, b+w)
			}
		}
		if sizes != nil {
			sizes = append(sizes, count)
		}
		label++
	}
	return n, label, stack, sizes
}

// patchComponents updates the component labels, current before cell c's
// passability flipped, when that provably keeps every other cell's label
// and the labels' order (row-major by each component's first cell), and
// reports whether it did; otherwise a full labelling is needed.
//
// Closing c keeps the components when its open orthogonal neighbours are
// linked through the eight cells around it (one arc of open cells holds
// them all): any walk through c can go around it. Opening c keeps them when
// its open orthogonal neighbours all share one label. Either way c must
// have an open neighbour above or to its left, so that c is not (and does
// not become) the first cell of its component.
func (g *Grid) patchComponents(c Cell) bool {
	x, y := c.X, c.Y
	pass := func(dx, dy int32) bool { return g.Passable(Cell{x + dx, y + dy}) }
	// around c from north, clockwise: orthogonal neighbours at even places
	ring := [8]bool{pass(0, -1), pass(1, -1), pass(1, 0), pass(1, 1), pass(0, 1), pass(-1, 1), pass(-1, 0), pass(-1, -1)}
	if !ring[0] && !ring[6] {
		return false
	}
	i := g.index(c)
	if isBlocked(g.cost[i]) { // closed
		arcs := 0
		for k := 0; k < 8; k += 2 {
			if ring[k] && !(ring[(k+6)%8] && ring[(k+7)%8]) {
				arcs++ // not linked to the previous orthogonal neighbour
			}
		}
		if arcs > 1 {
			return false
		}
		g.setComp(i, -1)
		return true
	}
	label := int32(-1)
	for k := 0; k < 8; k += 2 {
		if !ring[k] {
			continue
		}
		d := [4]Cell{{0, -1}, {1, 0}, {0, 1}, {-1, 0}}[k/2]
		l := g.compAt(g.index(Cell{x + d.X, y + d.Y}))
		if label >= 0 && l != label {
			return false
		}
		label = l
	}
	g.setComp(i, label)
	return true
}
