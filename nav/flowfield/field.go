package flowfield

import (
	"fmt"
	"math"

	"github.com/archai-go/archai/nav/grid"
	"gonum.org/v1/gonum/spatial/r2"
)

// Direction codes of the direction field: 0..7 index neighbourOffsets.
const (
	dirGoal uint8 = 8   // a goal cell
	dirNone uint8 = 255 // blocked, unreachable or not yet settled
)

// neighbourOffsets lists the 8 neighbours: orthogonal first (0..3), then
// diagonals (4..7).
var neighbourOffsets = [8]grid.Cell{
	{X: -1, Y: 0}, {X: 1, Y: 0}, {X: 0, Y: -1}, {X: 0, Y: 1},
	{X: -1, Y: -1}, {X: 1, Y: -1}, {X: -1, Y: 1}, {X: 1, Y: 1},
}

// Field is a flow field over one grid: an integration field (cost to the
// nearest goal cell, in the grid's cost units) and a direction field (the
// next cell towards it). Positions are in cells, as in package grid.
//
// The zero value is not usable; call [New]. A Field is not safe for
// concurrent writes; once built, any number of goroutines may read it while
// nobody builds.
type Field struct {
	g     *grid.Grid
	w, h  int
	integ []float32 // +Inf where no goal is reachable
	dir   []uint8
	open  []item

	goals   []grid.Cell
	target  r2.Vec // where agents in line of sight head: the centre of the first goal
	version uint64 // grid version of the build
	done    bool
	settled int
}

type item struct {
	d   float32
	idx int32
}

// New returns an empty field over g (about 5 bytes per cell), not yet built.
func New(g *grid.Grid) *Field {
	n := g.Width() * g.Height()
	f := &Field{g: g, w: g.Width(), h: g.Height(), integ: make([]float32, n), dir: make([]uint8, n)}
	f.clear()
	return f
}

// Build computes the field for the goal cells at once. Blocked or
// out-of-bounds goals are ignored; with none left, every cell is
// unreachable.
func (f *Field) Build(goals ...grid.Cell) {
	f.Start(goals...)
	f.Step(math.MaxInt)
}

// Start begins building the field for the goal cells; [Field.Step] does the
// work. The goals are copied.
func (f *Field) Start(goals ...grid.Cell) {
	f.clear()
	f.goals = append(f.goals[:0], goals...)
	f.version = f.g.Version()
	f.target = r2.Vec{X: math.NaN()}
	for _, c := range goals {
		if !f.g.Passable(c) {
			continue
		}
		if math.IsNaN(f.target.X) {
			f.target = f.g.Center(c)
		}
		i := f.index(c)
		if f.integ[i] != 0 {
			f.integ[i] = 0
			f.dir[i] = dirGoal
			f.push(item{0, int32(i)})
		}
	}
}

// Step settles at most budget cells of the build begun with [Field.Start]
// and reports whether the build is complete. Until it is, cells not yet
// settled read as unreachable. A budget <= 0 settles nothing (a build with
// no reachable goal is complete at once).
func (f *Field) Step(budget int) (done bool) {
	if f.done {
		return true
	}
	costs := f.g.Costs()
	w, h := int32(f.w), int32(f.h)
	for n := 0; n < budget; n++ {
		if len(f.open) == 0 {
			f.done = true
			return true
		}
		it := f.pop()
		ni := it.idx
		if it.d > f.integ[ni] { // a stale entry: the cell improved later
			n--
			continue
		}
		f.settled++
		nx, ny := ni%w, ni/w
		enter := costs[ni]
		// Relax every cell c that can step into n: cost(c) = cost(n) + len·cost(n).
		var open [4]bool
		for k := 0; k < 4; k++ {
			o := neighbourOffsets[k]
			cx, cy := nx+o.X, ny+o.Y
			if cx < 0 || cy < 0 || cx >= w || cy >= h {
				continue
			}
			ci := cy*w + cx
			if costs[ci] > math.MaxFloat32 {
				continue
			}
			open[k] = true
			f.relax(ci, it.d+enter, uint8(k^1)) // k^1 reverses an orthogonal direction
		}
		for k := 4; k < 8; k++ {
			o := neighbourOffsets[k]
			// the orthogonal cells beside the diagonal between n and c
			if !open[sideX(o.X)] || !open[sideY(o.Y)] {
				continue
			}
			ci := (ny+o.Y)*w + nx + o.X // in bounds: both orthogonal cells are
			if costs[ci] > math.MaxFloat32 {
				continue
			}
			f.relax(ci, it.d+float32(grid.Sqrt2)*enter, uint8(11-k)) // 11-k reverses a diagonal
		}
	}
	if len(f.open) == 0 {
		f.done = true
	}
	return f.done
}

// Done reports whether the build is complete.
func (f *Field) Done() bool { return f.done }

// Stale reports whether the grid's costs changed since the field was built
// (or started); a stale field still answers, from the old costs.
func (f *Field) Stale() bool { return f.version != f.g.Version() }

// Goals returns the goal cells the field was built for (shared; do not
// modify).
func (f *Field) Goals() []grid.Cell { return f.goals }

// Grid returns the grid of the field.
func (f *Field) Grid() *grid.Grid { return f.g }

// Settled returns the number of cells the build has settled so far.
func (f *Field) Settled() int { return f.settled }

// Integration returns the cost of the cheapest path from c to the nearest
// goal (0 on a goal), or +Inf when c is blocked, unreachable, outside the
// grid, or not settled yet.
func (f *Field) Integration(c grid.Cell) float64 {
	if !f.g.InBounds(c) {
		return math.Inf(1)
	}
	return float64(f.integ[f.index(c)])
}

// Next returns the neighbour a shortest path from c continues to, and true;
// c itself and true on a goal cell; false when c has no path.
func (f *Field) Next(c grid.Cell) (grid.Cell, bool) {
	if !f.g.InBounds(c) {
		return c, false
	}
	switch d := f.dir[f.index(c)]; d {
	case dirNone:
		return c, false
	case dirGoal:
		return c, true
	default:
		o := neighbourOffsets[d]
		return grid.Cell{X: c.X + o.X, Y: c.Y + o.Y}, true
	}
}

// Direction returns the unit vector from the centre of c to the centre of
// [Field.Next] (c), or the zero vector on a goal cell or a cell without a
// path.
func (f *Field) Direction(c grid.Cell) r2.Vec {
	n, ok := f.Next(c)
	if !ok || n == c {
		return r2.Vec{}
	}
	return r2.Unit(r2.Vec{X: float64(n.X - c.X), Y: float64(n.Y - c.Y)})
}

// LookAhead is the number of cells beyond the next one that [Field.Sample]
// tries to aim at directly when it can see them.
const LookAhead = 3

// Sample returns the direction (a unit vector) an agent at the continuous
// position p (in cells) should steer along, and true; the zero vector and
// true once p is within 0.05 cells of the target on a goal cell; the zero
// vector and false when p's cell has no path.
//
// The rule, chosen so that steering neither oscillates nor stalls:
//   - an agent in line of sight of the goal ([grid.Grid.LineOfSight] to the
//     centre of the first goal cell) heads straight for it;
//   - otherwise it aims at the farthest of the next 1+LookAhead cells along
//     the direction field that it can see, starting from the next cell. The
//     aim point is the centre of a cell other than p's own, so the direction
//     never vanishes, and its integration value is below that of p's cell,
//     so an agent following it keeps descending and cannot swing back and
//     forth between two cells.
func (f *Field) Sample(p r2.Vec) (r2.Vec, bool) {
	c := f.g.CellAt(p)
	next, ok := f.Next(c)
	if !ok {
		return r2.Vec{}, false
	}
	if !math.IsNaN(f.target.X) && f.g.LineOfSight(p, f.target) {
		d := r2.Sub(f.target, p)
		if r2.Norm(d) < 0.05 {
			return r2.Vec{}, true
		}
		return r2.Unit(d), true
	}
	if next == c { // a goal cell other than the target's, or target hidden
		d := r2.Sub(f.g.Center(c), p)
		if r2.Norm(d) < 0.05 {
			return r2.Vec{}, true
		}
		return r2.Unit(d), true
	}
	aim := next
	for k := 0; k < LookAhead; k++ {
		n, ok := f.Next(aim)
		if !ok || n == aim || !f.g.LineOfSight(p, f.g.Center(n)) {
			break
		}
		aim = n
	}
	return r2.Unit(r2.Sub(f.g.Center(aim), p)), true
}

// String describes the field for debugging.
func (f *Field) String() string {
	return fmt.Sprintf("flowfield %dx%d goals %v done %v settled %d", f.w, f.h, f.goals, f.done, f.settled)
}
