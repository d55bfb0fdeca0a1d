package flowfield

import (
	"fmt"
	"github.com/archai-go/archai/internal/detmath"
	"math"
	"unsafe"

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
// Important: the integration values are float32 sums of the grid's costs, so a
// cell whose cheapest route to the goal costs more than math.MaxFloat32 (3.4e38:
// two cells of cost math.MaxFloat32 on the only way) reads as unreachable (+Inf,
// no direction), where grid A*, summing in float64, finds the route. Costs are
// float32 and any one of them fits; only such sums overflow. Below that, sums
// round to float32 (a step of cost 1 after a cell of cost 1e8 adds nothing to the
// value), but directions still follow the cheapest route.
//
// A map of another size copied over the grid in place (*g = *other.Clone(),
// see [grid.Grid.Clone]) leaves the field [Field.Stale]: until its next
// [Field.Start] (or Build) it answers from its old build, for the cells
// within its old size only (every other cell has no path), and that Start
// allocates the arrays of the new size, as [New] would.
//
// The zero value is not usable; call [New]. A Field is not safe for
// concurrent writes; once built, any number of goroutines may read it while
// nobody builds.
type Field struct {
	g      *grid.Grid
	w, h   int
	stride int // w+2: the per-cell arrays have a one-cell border, blocked, so moves need no bounds checks
	// d is the integration value of each cell (index (y+1)·stride + x+1) as
	// the bits of a float32: +Inf on passable cells not reached yet, 0 on
	// blocked cells and the border (so that no move improves them; a cell
	// without a direction reads as unreachable whatever its value). The
	// values are never negative, and the bits of non-negative floats order
	// as the floats, so the build compares them as integers (see entry).
	d []uint32
	// dirs is the direction code of each settled cell (dirNone elsewhere),
	// 1 byte a cell, written once when the cell is settled: sampling a field
	// (Next, Sample) reads this compact array, which stays in cache.
	dirs  []uint8
	cls   []uint8 // cost class of each cell (index into wOrth), classBlocked on blocked cells and the border
	moves []uint8 // bit k set when the neighbour at neighbourOffsets[k] may step into the cell (see computeMoves)

	// cost classes of the grid version clsVersion (see prepare)
	clsValid   bool
	clsVersion uint64
	clsHeap    bool // forceHeap when the classes were computed
	nClasses   int
	wOrth      [maxClasses]float32 // the cost of entering a cell of each class orthogonally
	wDiag      [maxClasses]float32 // and diagonally (√2 times)
	useHeap    bool                // more than maxClasses distinct costs: the heap build
	forceHeap  bool                // tests and benchmarks: always use the heap build
	pcost      []float32           // heap build only: the costs, with the border
	snap       []float32           // the grid's costs at clsVersion
	rowChanged []bool              // prepare's scratch: padded rows whose costs changed
	// the passable cells, and those with all 8 moves legal, in all and per padded row
	passable, open8      int
	rowPassable, rowOpen []int32
	forceBranchy         int // tests and benchmarks: 1 forces relaxing cells open all round with branches (see stepOne), -1 without

	// wide fields (see [Field.SetClearance])
	clearance  uint8        // the clearance the next Start builds for (0 and 1: any passable cell)
	movesClear uint8        // the clearance moves was computed for (0: not yet)
	wclr       []uint8      // clearance of each padded cell at clsVersion (wide fields only; 0 on blocked cells and the border)
	exempt     []exemptMove // goal cells of clearance below movesClear whose moves Start set (see exemptGoal)

	// step[k] is what an entry for the neighbour at neighbourOffsets[k] adds
	// to the index and direction bits of an entry for the cell it steps into
	// (see entry).
	step [8]uint64

	open  []entry                 // heap build: 4-ary min-heap
	q     [2 * maxClasses][]entry // queue build: one FIFO per move weight (2·class + diagonal)
	qHead [2 * maxClasses]int     // the first entry of each queue
	qTail [2 * maxClasses]int     // one past its last entry, where a sentinel sits

	goals   []grid.Cell
	target  r2.Vec // where agents in line of sight head: the centre of the first goal
	version uint64 // grid version of the build
	done    bool
	settled int
}

// item is an open-list entry of the sector searches: a cost and an index.
type item struct {
	d   float32
	idx int32
}

// New returns an empty field over g (about 11 bytes per cell, plus open
// lists of the size of the search frontier; 15 bytes per cell when the grid
// holds more than 8 distinct costs), not yet built. The cells counted are
// those of the grid padded with a blocked border, (width+2)·(height+2): on a
// corridor one cell wide, three per cell of the grid.
func New(g *grid.Grid) *Field {
	w, h := g.Width(), g.Height()
	n := (w + 2) * (h + 2)
	f := &Field{g: g, w: w, h: h, stride: w + 2,
		d: make([]uint32, n), dirs: make([]uint8, n), cls: make([]uint8, n), moves: make([]uint8, n)}
	for i := range f.cls {
		f.cls[i] = classBlocked
	}
	for k, o := range neighbourOffsets {
		f.step[k] = uint64(int64(int(o.Y)*f.stride+int(o.X))<<entryDirBits) + uint64(reverse(k))
	}
	// One cost (the common case) uses the first two queues: their frontier
	// on an open grid stays within twice its perimeter, and the build keeps
	// up to 2048 popped entries before it drops them.
	qcap := 4*(w+h) + 2048
	f.q[0], f.q[1] = make([]entry, qcap), make([]entry, qcap)
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
// work. The goals are copied. Start itself takes time proportional to the
// number of cells: it resets them (about 1 ms for 1024²), and when the
// grid's costs changed since the last build it compares them with a copy
// and reclassifies the changed rows (about 1.5 ms more for 1024² after a
// few [grid.Grid.SetCost] calls; the first build of a field classifies
// every cell, about 15 ms).
func (f *Field) Start(goals ...grid.Cell) {
	f.startOn(f.g.Costs(), f.g.Version(), goals)
}

// startOn is Start on costs, the costs of grid version version (the grid's
// own, or, restoring a stale field, those it was built on: see
// [Cache.Restore]).
func (f *Field) startOn(costs []float32, version uint64, goals []grid.Cell) {
	f.fit()
	f.unexempt()
	f.prepareOn(costs, version)
	f.clear()
	f.goals = append(f.goals[:0], goals...)
	f.version = version
	f.target = r2.Vec{X: math.NaN()}
	for _, c := range goals {
		if !f.g.InBounds(c) || costs[int(c.Y)*f.w+int(c.X)] > math.MaxFloat32 {
			continue
		}
		if math.IsNaN(f.target.X) {
			f.target = f.g.Center(c)
		}
		if i := f.index(c); f.d[i] != 0 {
			f.d[i] = 0
			f.seed(i)
			if f.movesClear > 1 && f.wclr[i] < f.movesClear {
				f.exemptGoal(i)
			}
		}
	}
}

// Step settles at most budget cells of the build begun with [Field.Start]
// and reports whether the build is complete. Until it is, cells not yet
// settled read as unreachable. A budget <= 0 settles nothing (a build with
// no reachable goal is complete at once).
//
// The build is Dijkstra's algorithm from the goals over the grid's 8-connected
// moves (orthogonal moves cost the entered cell's cost, diagonal ones √2
// times it, no corner cutting), run backwards: a settled cell relaxes every
// cell that can step into it. When the grid holds at most [maxClasses]
// distinct passable costs (the common case: uniform or few terrain types),
// the open list is one FIFO queue per move weight (orthogonal and diagonal
// per cost), which is exact: a queue receives d+w for a fixed w and
// non-decreasing popped d, so each queue stays sorted and the smallest head
// is the global minimum (the "k FIFO queues" form of Dial's bucket queue,
// for k distinct edge weights). The float32 sums are the same as with a
// heap, so integration values equal those of the heap build up to the
// order of ties. With more distinct costs a 4-ary heap is used.
//
// Ties: a cell's direction is that of the first relaxation that gave it its
// final value (a later one must be strictly lower to replace it); cells of
// equal value are settled orthogonal queue first, then in the order they
// were reached.
//
// Layout (issue 13): the search reads and writes only the values, 4 bytes a
// cell, compared as integers (the bits of non-negative floats order as the
// floats); each cell's legal moves are a byte computed when the grid's
// costs change; an open-list entry carries the direction its cell gets, so
// the direction array is written once per cell, when it is settled. The 8
// relaxations of a settled cell run without branches (see relax), but on
// nearly open grids (see stepOne); the values, directions and the order of
// settling are the same either way, and the same as before issue 13.
func (f *Field) Step(budget int) (done bool) {
	if f.done {
		return true
	}
	if f.useHeap {
		f.stepHeap(budget)
	} else if f.movesClear > 1 {
		f.stepQueuesGeneral(budget)
	} else {
		f.stepQueues(budget)
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
// grid, or not settled yet, or when that cost overflows float32 (see [Field]).
func (f *Field) Integration(c grid.Cell) float64 {
	if !f.inBounds(c) {
		return math.Inf(1)
	}
	i := f.index(c)
	if f.dirs[i] == dirNone {
		return math.Inf(1)
	}
	return float64(math.Float32frombits(f.d[i]))
}

// Next returns the neighbour a shortest path from c continues to, and true;
// c itself and true on a goal cell; false when c has no path, or has not
// been settled yet during a build. It reads the compact direction array (1
// byte a cell).
func (f *Field) Next(c grid.Cell) (grid.Cell, bool) {
	if !f.inBounds(c) {
		return c, false
	}
	switch d := f.dirs[f.index(c)]; d {
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
	return detmath.Unit(r2.Vec{X: float64(n.X - c.X), Y: float64(n.Y - c.Y)})
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
//     centre of the first goal cell; for a wide field, [grid.Grid.LineOfSightWide]
//     at its clearance) heads straight for it;
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
	if !math.IsNaN(f.target.X) && f.lineOfSight(p, f.target) {
		d := r2.Sub(f.target, p)
		if detmath.Norm(d) < 0.05 {
			return r2.Vec{}, true
		}
		return detmath.Unit(d), true
	}
	if next == c { // a goal cell other than the target's, or target hidden
		d := r2.Sub(f.g.Center(c), p)
		if detmath.Norm(d) < 0.05 {
			return r2.Vec{}, true
		}
		return detmath.Unit(d), true
	}
	aim := next
	for k := 0; k < LookAhead; k++ {
		n, ok := f.Next(aim)
		if !ok || n == aim || !f.lineOfSight(p, f.g.Center(n)) {
			break
		}
		aim = n
	}
	return detmath.Unit(r2.Sub(f.g.Center(aim), p)), true
}

// String describes the field for debugging.
func (f *Field) String() string {
	return fmt.Sprintf("flowfield %dx%d goals %v done %v settled %d", f.w, f.h, f.goals, f.done, f.settled)
}

// Prefetch asks the processor to bring what [Field.Next] and
// [Field.Integration] read for c into its caches without waiting for it (on
// amd64; elsewhere it does nothing): a caller that will sample c a little
// later, after other work, finds it there. It changes nothing.
func (f *Field) Prefetch(c grid.Cell) {
	if !f.inBounds(c) {
		return
	}
	i := f.index(c)
	if i >= len(f.dirs) || i >= len(f.d) {
		return
	}
	prefetch(unsafe.Pointer(&f.dirs[i]), unsafe.Pointer(&f.d[i]))
}

// PrefetchAlong is [Field.Prefetch], and also asks for the direction bytes
// of the LookAhead+1 cells from c in the direction (dx, dy), each −1, 0 or 1:
// where a walk along the field from c ([Field.Walk]) most likely reads, for
// a caller that knows roughly which way the field leads from c (an agent's
// last heading). Rows of the direction array are a cache line or more apart,
// so a walk that leaves c's row reads lines Prefetch does not bring. It
// changes nothing; with (dx, dy) = (0, 0) it is Prefetch.
func (f *Field) PrefetchAlong(c grid.Cell, dx, dy int) {
	if !f.inBounds(c) {
		return
	}
	i := f.index(c)
	if i >= len(f.dirs) || i >= len(f.d) {
		return
	}
	prefetch(unsafe.Pointer(&f.dirs[i]), unsafe.Pointer(&f.d[i]))
	step := dy*f.stride + dx
	if step == 0 {
		return
	}
	for k := 1; k <= LookAhead+1; k += 2 { // LookAhead+1 is even: two a call
		a, b := i+k*step, i+(k+1)*step
		if a >= 0 && b >= 0 && a < len(f.dirs) && b < len(f.dirs) {
			prefetch(unsafe.Pointer(&f.dirs[a]), unsafe.Pointer(&f.dirs[b]))
		}
	}
}

// Walk writes to path the cells a shortest path from c runs through after
// c, in order ([Field.Next] of c, then of that cell, and so on), up to
// len(path) of them, and returns how many it wrote: it stops before a cell
// without a path and after a goal cell (whose Next is itself), so it
// returns 0 when c is outside the grid, has no path or is a goal. It is
// that chain of Next calls in one pass over the direction array.
func (f *Field) Walk(c grid.Cell, path []grid.Cell) int {
	if !f.inBounds(c) {
		return 0
	}
	i := f.index(c)
	for k := range path {
		d := f.dirs[i]
		if d >= dirGoal { // dirGoal or dirNone
			return k
		}
		o := neighbourOffsets[d]
		c.X += o.X
		c.Y += o.Y
		i += int(o.Y)*f.stride + int(o.X)
		path[k] = c
	}
	return len(path)
}
