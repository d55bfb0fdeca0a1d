package grid

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/spatial/r2"
)

// Cell is a grid coordinate: X is the column in [0, width), Y the row in
// [0, height); row 0 is the first line of a map file.
type Cell struct{ X, Y int32 }

// Blocked is the cost of an impassable cell (+Inf). Any cell whose cost is
// +Inf is impassable; cells outside the grid report Blocked.
var Blocked float32 = float32(math.Inf(1))

// Grid is a dense, row-major array of per-cell costs. The cost of a cell is the
// cost of entering it: 1 is normal ground, larger is slower, Blocked is
// impassable. Costs must be positive.
//
// Continuous positions are in cells: cell (x, y) covers [x, x+1)×[y, y+1) and
// its centre is (x+0.5, y+0.5).
//
// Important: [Grid.Connected], [Grid.MinCost] and [Search] compute caches
// lazily, so a Grid is not safe for concurrent use unless [Grid.Prepare] was
// called after the last [Grid.SetCost]; after that, concurrent readers (one
// [Search] per goroutine) are safe as long as nobody writes.
type Grid struct {
	w, h int
	cost []float32

	version     uint64 // bumped on every cost change
	topoVersion uint64 // bumped when passability changes

	// the range of the passable costs, valid when !minCostDirty: kept by
	// SetCost in O(1) (trackRange) until the last cell of the cheapest or
	// dearest cost changes, then recomputed by the next reader
	minCost      float32 // smallest passable cost (1 when none is passable)
	maxCost      float32 // largest passable cost (0 when none is passable)
	nMin, nMax   int     // passable cells costing minCost, maxCost
	nPass        int     // passable cells
	minCostDirty bool

	// the component label of each cell (see labelComponentsSizes), in one
	// of three widths (compW: 1, 2 or 4 bytes; 0 before the first
	// labelling): blocked cells hold MaxUint8, MaxUint16 or -1
	comp8       []uint8
	comp16      []uint16
	comp32      []int32
	compW       uint8
	compVersion uint64  // topoVersion the labels were computed for (0 = never)
	stack       []int32 // flood-fill scratch

	// blocked has a bit per cell, set if blocked (cell i = y·w+x is bit i%64
	// of blocked[i/64]): an eighth of the costs' bytes a cell, so the line of
	// sight's walks stay in the caches. Built by Prepare, kept by SetCost;
	// nil until then (the walks read the costs).
	blocked []uint64

	clear        []uint8 // clearance per cell (see Clearance); nil until first asked for
	clearVersion uint64  // version the clearance was computed for
	clearEdits   []Cell  // patchClearance's scratch
	clearWins    []Rect  // patchClearance's scratch

	wide       []wideComp // components by clearance, one per clearance asked for (components_wide.go)
	maxClear   uint8      // the largest clearance of any cell (maxClearance), as of version maxClearAt−1
	maxClearAt uint64     // version+1 maxClear was found for; 0: never

	edits     []edit // recent cost changes, oldest first (edits.go)
	editFloor uint64 // changes up to this version were forgotten
}

// MaxCells is the largest number of cells of a [Grid]: 8192×8192 = 64 Mi
// cells (256 MiB of costs; a [Search] over it needs about 9 bytes per cell
// more, 20 with jump points, 37 on a grid of several costs). Either side may be anything from 1 to MaxCells as long as
// width·height ≤ MaxCells, so a 1×2,000,000 corridor is a valid grid.
const MaxCells = 1 << 26

// Errors of [NewChecked] and of the map readers for a size out of range, and
// of [Grid.TrySetCost] for a cost that is not one; compare with errors.Is.
var (
	// ErrInvalidSize: the width or height is zero or negative.
	ErrInvalidSize = errors.New("grid: width and height must be positive")
	// ErrTooLarge: width·height exceeds [MaxCells].
	ErrTooLarge = errors.New("grid: more than MaxCells cells")
	// ErrInvalidCost: a cell cost is NaN, zero or negative (a cost is > 0, or
	// [Blocked]).
	ErrInvalidCost = errors.New("grid: cost must be > 0 or Blocked")
)

// NewChecked returns a width×height grid in which every cell costs 1, or
// an error wrapping [ErrInvalidSize] when width or height is not positive,
// or [ErrTooLarge] when width·height exceeds [MaxCells]. It checks before
// allocating (4 bytes per cell), so sizes from user data are safe to pass.
func NewChecked(width, height int) (*Grid, error) {
	if err := checkSize(width, height); err != nil {
		return nil, err
	}
	cost := make([]float32, width*height)
	for i := range cost {
		cost[i] = 1
	}
	return newGrid(width, height, cost), nil
}

// New returns a width×height grid in which every cell costs 1. Use it for
// sizes known to be valid, such as literals, and [NewChecked] for sizes from
// user data.
//
// Panics:
//   - when width or height is not positive, or width·height exceeds
//     [MaxCells] (use [NewChecked] for sizes from user data).
func New(width, height int) *Grid {
	g, err := NewChecked(width, height)
	if err != nil {
		panic(err.Error())
	}
	return g
}

// Width returns the number of columns.
func (g *Grid) Width() int { return g.w }

// Height returns the number of rows.
func (g *Grid) Height() int { return g.h }

// Version returns a counter that changes whenever [Grid.SetCost] changes a
// cost. Caches built from the grid (flow fields, paths) can compare it. No two
// grids share a version (each counts from its own base), so a grid whose
// contents were replaced by another's (*g = *other) is seen as a grid the
// cache must rebuild from ([Grid.EditsSince] reports false), not as edits.
// Copy a map you keep with *g = *other.Clone() ([Grid.Clone]).
func (g *Grid) Version() uint64 { return g.version }

// Clone returns a copy of g with costs of its own and versions of its own (a
// base no other grid has, see [Grid.Version]); its caches (components,
// clearance) are worked out again when first read. Copy a map you keep over
// the grid the systems hold with *g = *other.Clone(): *g = *other alone
// leaves the two sharing their costs, edit log and caches, so a door opened
// in g by SetCost opened in other too (its Version unchanged), and copying
// other over g again to close the door left it open.
func (g *Grid) Clone() *Grid { return newGrid(g.w, g.h, slices.Clone(g.cost)) }

// Costs returns the row-major cost array (index y·Width + x), shared with
// the grid for fast read-only loops such as flow-field builds.
//
// Important: do not modify it; use [Grid.SetCost], which keeps
// [Grid.Version] and the caches right.
func (g *Grid) Costs() []float32 { return g.cost }

// InBounds reports whether c lies inside the grid.
func (g *Grid) InBounds(c Cell) bool {
	return c.X >= 0 && c.Y >= 0 && int(c.X) < g.w && int(c.Y) < g.h
}

// Passable reports whether c is inside the grid and not Blocked.
func (g *Grid) Passable(c Cell) bool {
	return g.InBounds(c) && !isBlocked(g.cost[g.index(c)])
}

// Cost returns the cost of entering c, or Blocked when c is out of bounds.
func (g *Grid) Cost(c Cell) float32 {
	if !g.InBounds(c) {
		return Blocked
	}
	return g.cost[g.index(c)]
}

// SetCost sets the cost of entering c: a positive value, or Blocked (+Inf) to
// make the cell impassable. A change bumps [Grid.Version]; connected
// components are recomputed on the next [Grid.Connected] when passability
// changed. The cell is remembered for [Grid.EditedSince] and
// [Grid.EditsSince], so caches can invalidate only what crosses it.
//
// Panics:
//   - when c is out of bounds;
//   - when cost is NaN, zero or negative.
//
// [Grid.TrySetCost] returns an error instead, for cells and costs read from
// level data (doors, bridges, terrain).
func (g *Grid) SetCost(c Cell, cost float32) {
	if err := g.checkSetCost(c, cost); err != nil {
		panic(fmt.Sprintf("grid: SetCost: %s", strings.TrimPrefix(err.Error(), "grid: ")))
	}
	g.setCost(c, cost)
}

// TrySetCost is [Grid.SetCost] for cells and costs read from level data (a
// door's cell, a terrain's cost): it returns an error instead of panicking,
// wrapping [ErrOutOfBounds] when c is outside the grid or [ErrInvalidCost]
// when cost is NaN, zero or negative, and quoting the cell, the grid's size or
// the cost; the grid is then unchanged. On success it does what SetCost does
// (a positive cost, or [Blocked] to close the cell) and returns nil. It
// allocates only when it returns an error.
func (g *Grid) TrySetCost(c Cell, cost float32) error {
	if err := g.checkSetCost(c, cost); err != nil {
		return err
	}
	g.setCost(c, cost)
	return nil
}

// MinCost returns the smallest cost of a passable cell (1 when none is
// passable). A* scales its octile heuristic by it to stay admissible.
func (g *Grid) MinCost() float32 {
	if g.minCostDirty {
		g.recomputeMinCost()
	}
	return g.minCost
}

// costRange returns the smallest and largest passable costs (+Inf and 0
// when no cell is passable). It writes nothing to the grid: with the range
// not known (see trackRange) it scans the costs itself, so that searches on
// several goroutines may call it on a grid not prepared, as before.
func (g *Grid) costRange() (lo, hi float32) {
	if !g.minCostDirty {
		if g.nPass == 0 {
			return float32(math.Inf(1)), 0
		}
		return g.minCost, g.maxCost
	}
	lo, hi = float32(math.Inf(1)), 0
	for _, c := range g.cost {
		if isBlocked(c) {
			continue
		}
		lo = min(lo, c)
		hi = max(hi, c)
	}
	return lo, hi
}

// MaxCost returns the largest cost of a passable cell (0 when none is
// passable). Like [Grid.MinCost] it is kept by [Grid.SetCost] in O(1) and
// recomputed (O(width·height)) only after the last cell of the dearest cost
// changed; [Grid.Prepare] computes it too.
func (g *Grid) MaxCost() float32 {
	if g.minCostDirty {
		g.recomputeMinCost()
	}
	return g.maxCost
}

// CellAt returns the cell containing the continuous position p (in cells):
// (floor(p.X), floor(p.Y)). The result may be out of bounds.
func (g *Grid) CellAt(p r2.Vec) Cell {
	return Cell{X: floorToInt32(p.X), Y: floorToInt32(p.Y)}
}

// Center returns the continuous position of the centre of c: (X+0.5, Y+0.5).
func (g *Grid) Center(c Cell) r2.Vec {
	return r2.Vec{X: float64(c.X) + 0.5, Y: float64(c.Y) + 0.5}
}

// Connected reports whether an agent can walk from a to b under the
// 8-connected no-corner-cutting rule. It is O(1) after a one-off O(W·H)
// labelling of connected components, redone lazily after [Grid.SetCost]
// changes passability, unless the edit provably keeps the components (a
// cell closing whose open neighbours stay linked around it, or opening
// next to one component only; SetCost then patches the labels in O(1)). Blocked or out-of-bounds cells are connected to
// nothing (not even themselves).
//
// Because a diagonal move needs both orthogonal neighbours passable, the
// components equal the 4-connected components of the passable cells.
func (g *Grid) Connected(a, b Cell) bool {
	if !g.Passable(a) || !g.Passable(b) {
		return false
	}
	if g.compVersion != g.topoVersion {
		g.labelComponents()
	}
	return g.compAt(g.index(a)) == g.compAt(g.index(b))
}

// Component returns the connected-component label of c (labels are dense,
// starting at 0, in row-major order of each component's first cell), or -1
// when c is blocked or out of bounds.
func (g *Grid) Component(c Cell) int32 {
	if !g.Passable(c) {
		return -1
	}
	if g.compVersion != g.topoVersion {
		g.labelComponents()
	}
	return g.compAt(g.index(c))
}

// Prepare computes the lazily built caches (connected components, minimum
// cost, a bitmap of the blocked cells that [Grid.LineOfSight] then reads
// instead of the costs, the clearance field once [Grid.Clearance] has
// been asked for, and the components of each clearance [Grid.ComponentWide]
// or [Grid.ConnectedWide] was asked for) now, so that afterwards the grid can be read from several
// goroutines until the next [Grid.SetCost].
func (g *Grid) Prepare() {
	g.MinCost()
	if g.blocked == nil {
		g.buildBlocked()
	}
	if g.compVersion != g.topoVersion {
		g.labelComponents()
	}
	if g.clear != nil && g.clearVersion != g.version {
		g.computeClearance()
	}
	g.prepareWide()
}

// LineOfSight reports whether the straight segment from a to b (continuous
// positions in cells) stays clear of blocked cells. It walks the cells the
// segment crosses (Amanatides & Woo 1987) and returns false when any of them
// is blocked or out of bounds, including:
//   - the cells of both end points, as given by [Grid.CellAt];
//   - both side cells when the segment passes exactly through a grid corner,
//     so it cannot squeeze diagonally between two blocked cells that share a
//     corner (the same rule as A*'s no corner cutting);
//   - the cells on both sides when the segment runs along a grid line.
//
// It allocates nothing.
func (g *Grid) LineOfSight(a, b r2.Vec) bool {
	_, clear := g.LineOfSightBlocker(a, b)
	return clear
}

// LineOfSightBlocker is [Grid.LineOfSight], also returning, when the line is
// not clear, the cell that stopped the walk: a blocked or out-of-bounds cell
// the segment touches, or, for a segment running along a grid line whose
// neighbouring row or column is blocked, its start cell. A caller can keep
// it as a hint: a later segment that passes well inside a cell that is
// still blocked has no line of sight either, without a walk.
func (g *Grid) LineOfSightBlocker(a, b r2.Vec) (Cell, bool) {
	ca, cb := g.CellAt(a), g.CellAt(b)
	if !g.passableAt(ca.X, ca.Y) {
		return ca, false
	}
	if !g.passableAt(cb.X, cb.Y) {
		return cb, false
	}
	dx, dy := b.X-a.X, b.Y-a.Y
	// Segments running along a grid line also touch the cells on the other side.
	if dy == 0 && a.Y == math.Floor(a.Y) && !g.rowClear(ca.Y-1, ca.X, cb.X) {
		return ca, false
	}
	if dx == 0 && a.X == math.Floor(a.X) && !g.colClear(ca.X-1, ca.Y, cb.Y) {
		return ca, false
	}
	if ca == cb {
		return ca, true
	}

	x, y := ca.X, ca.Y
	var stepX, stepY int32
	tMaxX, tMaxY := math.Inf(1), math.Inf(1)
	if dx > 0 {
		stepX = 1
		tMaxX = (float64(x+1) - a.X) / dx
	} else if dx < 0 {
		stepX = -1
		tMaxX = (float64(x) - a.X) / dx
	}
	if dy > 0 {
		stepY = 1
		tMaxY = (float64(y+1) - a.Y) / dy
	} else if dy < 0 {
		stepY = -1
		tMaxY = (float64(y) - a.Y) / dy
	}

	// The loop visits at most one cell per crossed grid line.
	for n := absInt32(cb.X-ca.X) + absInt32(cb.Y-ca.Y) + 2; n > 0; n-- {
		if tMaxX > 1 && tMaxY > 1 {
			break
		}
		switch {
		case tMaxX < tMaxY-losEpsilon:
			x += stepX
			tMaxX = crossing(x, stepX, a.X, dx)
		case tMaxY < tMaxX-losEpsilon:
			y += stepY
			tMaxY = crossing(y, stepY, a.Y, dy)
		default: // through a corner: both side cells must be clear
			if !g.passableAt(x+stepX, y) {
				return Cell{x + stepX, y}, false
			}
			if !g.passableAt(x, y+stepY) {
				return Cell{x, y + stepY}, false
			}
			x += stepX
			y += stepY
			tMaxX = crossing(x, stepX, a.X, dx)
			tMaxY = crossing(y, stepY, a.Y, dy)
		}
		if !g.passableAt(x, y) {
			return Cell{x, y}, false
		}
		if x == cb.X && y == cb.Y {
			break
		}
	}
	return cb, true
}
