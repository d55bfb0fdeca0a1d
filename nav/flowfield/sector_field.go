package flowfield

import (
	"fmt"
	"github.com/archai-go/archai/internal/detmath"
	"math"
	"slices"

	"github.com/archai-go/archai/nav/grid"
	"gonum.org/v1/gonum/spatial/r2"
)

// SectorField is a flow field towards one goal cell over [Sectors], built
// sector by sector (Emerson, Game AI Pro ch. 23, section 23.4), shared by
// every agent heading to that goal.
//
// [SectorField.SetGoal] searches the portal graph backwards from the goal
// (Dijkstra over the portal nodes, starting from a search inside the goal's
// sector): every node gets its cost to the goal and the next node of its
// route. From then on every cell of the grid has a direction
// ([SectorField.Next]):
//
//   - in a sector whose field is built, the field's: Dijkstra inside the
//     sector, seeded with the costs of the cells just across its portals
//     (each cell of a portal's far side costs its node's cost plus the way
//     along the portal to the node's cell), and with the goal in the goal's
//     sector. Following it leaves the sector through a portal into a cell
//     whose cost (in its own sector's field) is no higher than the seed, so
//     the cost falls at every step and the walk ends at the goal;
//   - in a sector not built yet, towards the exit portal (a node whose route
//     crosses into the next sector) minimising the octile distance to it
//     plus its cost, along the node's direction field: around walls, never
//     through them.
//
// Cost of a goal move (4096² town map, 41,406 nodes; BenchmarkSectorGoalMove):
// SetGoal's search queues only portal crossings (see searchBuckets) and
// reads a compact copy of the graph, about 0.6 to 1 ms of CPU time on a
// shared 2-core machine; after it a direction is a lookup of a few cache
// lines: the sector's lookup line, its exits sorted by cost, and one byte
// of a direction plane, the plane of the exit the cell would choose if it
// reached every exit (the cell's choice wherever it does reach it; the
// exits are scanned again only where it does not), one cache miss per
// agent on a big map. [SectorField.NextAll] looks a batch of cells up with
// those misses overlapping, for many agents at once: 100,000 agents in the
// swarm's tile order have a direction 2.2 to 2.8 ms of CPU time after the
// goal moved, on 2 workers.
//
// Sector fields are built on demand: [SectorField.Request] marks a cell's
// sector as wanted and [SectorField.Update] builds wanted sectors within a
// per-frame budget of cells; [SectorField.BuildRoute] builds every sector on
// the route from a cell at once. The goal's sector is built by SetGoal.
//
// Route quality: a walk along built sector fields costs at most the
// integration value of its start, which is the cost of a path through the
// portal nodes' cells or better; the tests measure walks on every shared
// MovingAI map and on the generated town maps at 0 to a few per cent above
// the optimal cost (see TestSectorRoutesNearOptimal).
//
// Grid edits: [SectorField.Update] refreshes the [Sectors] and, when the
// graph changed, searches it again and rebuilds only the built sectors that
// depend on the edit: those whose costs changed, whose seeds from the
// portal graph changed, or some of whose cells step into a sector rebuilt
// for these reasons (transitively). The goal's sector is rebuilt at once,
// the others as they are requested again.
//
// Important: the values are float32 sums, as in [Field], and a sector's
// field is seeded with its neighbours' values, so a walk crosses sectors
// trusting that the values descend. On a grid whose costs are 2^24 (1.7e7)
// or more times apart, a cheap cell adds nothing to a sum of dear ones, and
// two cells on either side of a sector edge could read the same value and
// step to each other for ever. So: a cell whose cost was lost in the sum gets
// the next float32 above its parent's value (every step inside a sector
// descends); where the smallest cost is lost in a built neighbour's values,
// a sector is seeded with those values rather than with portal costs summed
// in another order; when a sector is built, the built sectors around it some of whose cells would step into it
// at a value no lower than their own are rebuilt (and so on outwards, at most
// 4 times the sectors); and where the smallest cost is lost at a cell's value,
// [SectorField.Next] takes a step across a sector edge into a built sector
// only to a lower value (else to the neighbour of
// lowest value below the cell's, else it reports no path). A walk along built
// sectors thus never comes back to a cell: it reaches the goal or Next
// reports no path. Costs up to 10^6 apart are tested to reach the goal from
// every connected cell (TestSectorWalksOnRandomCostsReachTheGoal); on random
// grids of costs 10^9 to 10^60 apart, 14 of 41,366 walks to a reachable goal
// stopped short, none looped (TestSectorWalksOnCostsFarApartStop). For such
// ratios whole-grid fields ([Field], whose directions are the Dijkstra
// parents) always reach the goal.
//
// A SectorField is not safe for concurrent writes; between writes, any
// number of goroutines may call its read methods (Next, NextAll,
// Integration, Sample, Built).
type SectorField struct {
	s       *Sectors
	goal    grid.Cell
	goalSec int
	target  r2.Vec
	graph   uint64 // the Sectors' graph counter the node costs are for
	layout  uint64 // the Sectors' layout counter the per-sector tables are for (see fitLayout)

	cost  []float32    // per node: cost to the goal, +Inf where none
	next  []int32      // per node: the next node of its route, -1 at the goal's sector exit to the goal, -2 without a route
	nExit []int32      // per sector: its exits are exits[Sectors.secBase[i]:][:nExit[i]], cheapest first
	exits []exitRec    // one per node, by sector
	look  []sectorLook // per sector, see sectorLook

	fields []*sectorField // per sector: nil until built
	pool   []*sectorField // buffers of dropped fields
	wanted []int32        // sectors requested, first come first built
	want   []bool

	ls       *localSolver
	open     []item  // the portal search's heap
	bk       []int32 // or its buckets (see searchBuckets)
	ent      []bucketEntry
	seeds    []seedRec
	route    []int32
	affected []bool
	last     []int32 // sectors built since the last Update began
	order    []int32 // the built sectors, in the order they were built (for State)
	edited   bool    // the field was refreshed after grid edits since SetGoal (State saves the fields' values)
	fix      []int32 // fixNeighbours' queue
	fixing   bool    // fixNeighbours is running (its builds do not start another)
}

// sectorField is one sector's built field.
type sectorField struct {
	d       []float32 // w×h, row-major
	dir     []uint8
	version uint64    // the sector's version it was built for
	est     []seedRec // the seeds it was built from that come from the portal graph (and the goal)
	deps    []int32   // the neighbouring sectors some of its cells step into
}

// sectorLook is what Next reads of a sector to step towards an exit, in one
// cache line (64 bytes): a copy of the sector's geometry and node
// directions, and where its exits are (filled by each portal search).
type sectorLook struct {
	dirs      []byte // the sector's node directions (see sector)
	x0, y0, w int32
	plane     int32
	ex, nEx   int32 // its exits are exits[ex:][:nEx]
	conn      bool  // see sector
	_         [15]byte
}

// exitRec is what choosing an exit, and stepping towards it, reads of its
// node, kept together.
type exitRec struct {
	id     int32
	slot   int32     // its index in its sector's nodes
	cell   grid.Cell // its cell
	across grid.Cell // its partner's cell, across the portal
	cost   float32
}

type seedRec struct {
	c grid.Cell
	v float32
}

// NewSectorField returns a field over s with no goal yet (every cell
// without a path until [SectorField.SetGoal]).
func NewSectorField(s *Sectors) *SectorField {
	n := len(s.secs)
	f := &SectorField{s: s, layout: s.layout, goalSec: -1, fields: make([]*sectorField, n), want: make([]bool, n), nExit: make([]int32, n), look: make([]sectorLook, n), ls: newLocalSolver(s.size)}
	f.target = r2.Vec{X: math.NaN()}
	return f
}

// Sectors returns the sector layer of the field.
func (f *SectorField) Sectors() *Sectors { return f.s }

// Goal returns the goal cell.
func (f *SectorField) Goal() grid.Cell { return f.goal }

// SetGoal makes goal the field's goal: it drops the built sector fields,
// searches the portal graph from goal and builds the goal's sector. After
// it, every cell from which the goal can be reached has a direction. A
// blocked or out-of-bounds goal leaves every cell without a path.
func (f *SectorField) SetGoal(goal grid.Cell) {
	f.last = f.last[:0]
	f.s.Refresh()
	f.fitLayout()
	for i, sf := range f.fields {
		if sf != nil {
			f.pool = append(f.pool, sf)
			f.fields[i] = nil
		}
	}
	for _, i := range f.wanted {
		f.want[i] = false
	}
	f.wanted = f.wanted[:0]
	f.order = f.order[:0]
	f.edited = false
	f.goal = goal
	f.search()
	if f.goalSec >= 0 {
		f.build(f.goalSec)
	}
}

// Request marks the sector of c as wanted, to be built by
// [SectorField.Update]. It is cheap and idempotent; cells outside the grid
// are ignored.
func (f *SectorField) Request(c grid.Cell) {
	i := f.s.SectorOf(c)
	if i < 0 || f.layout != f.s.layout || f.want[i] || f.fields[i] != nil {
		return
	}
	f.want[i] = true
	f.wanted = append(f.wanted, int32(i))
}

// Update refreshes the field after grid edits (see [SectorField]) and then
// builds wanted sectors, first requested first, until the cells of the
// sectors built reach budget (a sector is never split; a budget <= 0 builds
// none). It returns the number of sectors built.
func (f *SectorField) Update(budget int) int {
	f.last = f.last[:0]
	f.refresh()
	used, built := 0, 0
	k := 0
	for ; k < len(f.wanted) && used < budget; k++ {
		i := int(f.wanted[k])
		f.want[i] = false
		if f.fields[i] != nil {
			continue
		}
		f.build(i)
		sec := &f.s.secs[i]
		used += int(sec.w * sec.h)
		built++
	}
	f.wanted = f.wanted[:copy(f.wanted, f.wanted[k:])]
	return built
}

// refresh brings the node costs and built sectors up to date with the grid.
func (f *SectorField) refresh() {
	f.s.Refresh()
	f.fitLayout()
	if f.graph == f.s.graph {
		return
	}
	f.search()
	f.edited = true
	// A built field is affected when its costs or its seeds from the portal
	// graph changed, or when some of its cells step into an affected
	// neighbour; the others keep their values (those come from unaffected
	// inputs only), and affected ones are rebuilt from them.
	if cap(f.affected) < len(f.fields) {
		f.affected = make([]bool, len(f.fields))
	}
	aff := f.affected[:len(f.fields)]
	clear(aff)
	for i, sf := range f.fields {
		if sf == nil {
			continue
		}
		if sf.version != f.s.secs[i].version {
			aff[i] = true
			continue
		}
		f.seeds = f.seedsOf(i, f.seeds[:0], false)
		aff[i] = !sameSeeds(f.seeds, sf.est)
	}
	for changed := true; changed; {
		changed = false
		for i, sf := range f.fields {
			if sf == nil || aff[i] {
				continue
			}
			for _, j := range sf.deps {
				if aff[j] {
					aff[i], changed = true, true
					break
				}
			}
		}
	}
	for i, sf := range f.fields {
		if sf != nil && aff[i] {
			f.pool = append(f.pool, sf)
			f.fields[i] = nil
		}
	}
	f.order = slices.DeleteFunc(f.order, func(i int32) bool { return aff[i] })
	for i := range aff {
		if !aff[i] {
			continue
		}
		if i == f.goalSec {
			f.build(i)
		} else {
			f.Request(f.s.Center(i))
		}
	}
	// The goal's sector is built whenever the goal is passable, also when
	// it was not built before this refresh (dropped while the goal cell was
	// blocked): its cells have no portal route to fall back on.
	if f.goalSec >= 0 && f.fields[f.goalSec] == nil {
		f.build(f.goalSec)
	}
}

// fitLayout gives the field per-sector tables for its Sectors' layout when the
// grid was cut anew since (a map of another size copied over the grid in
// place): every built sector field goes back to the pool (their buffers fit
// any sector of the side) and the requests are dropped, as the sector indices
// changed meaning; the portal search that follows finds the goal's sector.
func (f *SectorField) fitLayout() {
	if f.layout == f.s.layout {
		return
	}
	f.layout = f.s.layout
	for _, sf := range f.fields {
		if sf != nil {
			f.pool = append(f.pool, sf)
		}
	}
	n := len(f.s.secs)
	f.fields, f.want, f.nExit, f.look = make([]*sectorField, n), make([]bool, n), make([]int32, n), make([]sectorLook, n)
	f.wanted, f.order, f.affected = f.wanted[:0], f.order[:0], nil
	f.goalSec = -1
}

func sameSeeds(a, b []seedRec) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Center returns a cell of sector i (its first cell), or the cell (-1, -1), off
// the grid, when i is not a sector index (i < 0, such as [Sectors.SectorOf] of a
// cell off the grid, or i ≥ across·down).
func (s *Sectors) Center(i int) grid.Cell {
	if i < 0 || i >= len(s.secs) {
		return grid.Cell{X: -1, Y: -1}
	}
	return grid.Cell{X: s.secs[i].x0, Y: s.secs[i].y0}
}

// BuildRoute builds the fields of every sector on the route from c to the
// goal: c's sector and the sectors the portal route crosses, from the
// goal's end backwards, so that each is seeded with the values of the
// built sectors around it (then the walk along the route is as short as a
// shortest path kept inside the route's sectors, or shorter). It returns
// the number of sectors built (0 when they were all built, or c has no
// route).
func (f *SectorField) BuildRoute(c grid.Cell) int {
	f.refresh()
	i := f.s.SectorOf(c)
	if i < 0 || f.goalSec < 0 {
		return 0
	}
	route := append(f.route[:0], int32(i))
	for id := f.bestExit(c); id >= 0; id = f.next[id] {
		if j := f.s.nodes[id].sector; j != route[len(route)-1] {
			route = append(route, j)
		}
	}
	f.route = route
	// downstream first, so that each sector is seeded with its built
	// neighbours' values
	built := 0
	for k := len(route) - 1; k >= 0; k-- {
		if j := int(route[k]); f.fields[j] == nil {
			f.build(j)
			built++
		}
	}
	return built
}

// Built reports whether the field of sector i is built.
func (f *SectorField) Built(i int) bool { return i >= 0 && i < len(f.fields) && f.fields[i] != nil }

// seedsOf appends the seeds of sector i: with ring, the cells around it in
// built sectors at their fields' values; the cells across its portals at
// their costs from the portal graph; and the goal in its own sector.
func (f *SectorField) seedsOf(i int, out []seedRec, ring bool) []seedRec {
	s := f.s
	costs := s.g.Costs()
	gw := s.g.Width()
	if ring {
		out = f.ringSeeds(i, out)
	}
	for _, id := range s.secs[i].nodes {
		p := &s.nodes[s.nodes[id].partner]
		base := f.cost[s.nodes[id].partner]
		if math.IsInf(float64(base), 1) || f.next[s.nodes[id].partner] == id {
			continue // no route, or a route back through this very portal
		}
		// the cost at each cell of the partner's run: the node's cost plus
		// the way along the run to the node's cell
		out = append(out, seedRec{p.cell, base})
		for _, step := range [2]int32{-1, 1} {
			v := base
			for k := p.mid + step; k >= 0 && k < p.n; k += step {
				prev := grid.Cell{X: p.first.X + p.along.X*(k-step), Y: p.first.Y + p.along.Y*(k-step)}
				v += costs[int(prev.Y)*gw+int(prev.X)]
				out = append(out, seedRec{grid.Cell{X: p.first.X + p.along.X*k, Y: p.first.Y + p.along.Y*k}, v})
			}
		}
	}
	if i == f.goalSec {
		out = append(out, seedRec{f.goal, 0})
	}
	return out
}

// ringSeeds appends the cells around sector i that lie in built sectors,
// at their fields' values.
func (f *SectorField) ringSeeds(i int, out []seedRec) []seedRec {
	s := f.s
	sec := &s.secs[i]
	ring := func(c grid.Cell) {
		j := s.SectorOf(c)
		if j < 0 || f.fields[j] == nil {
			return
		}
		o := &s.secs[j]
		if v := f.fields[j].d[int(c.Y-o.y0)*int(o.w)+int(c.X-o.x0)]; v <= math.MaxFloat32 {
			out = append(out, seedRec{c, v})
		}
	}
	for x := sec.x0 - 1; x <= sec.x0+sec.w; x++ {
		ring(grid.Cell{X: x, Y: sec.y0 - 1})
		ring(grid.Cell{X: x, Y: sec.y0 + sec.h})
	}
	for y := sec.y0; y < sec.y0+sec.h; y++ {
		ring(grid.Cell{X: sec.x0 - 1, Y: y})
		ring(grid.Cell{X: sec.x0 + sec.w, Y: y})
	}
	return out
}

// build computes the field of sector i.
func (f *SectorField) build(i int) {
	s := f.s
	sec := &s.secs[i]
	if len(f.pool) == 0 {
		f.grow()
	}
	sf := f.pool[len(f.pool)-1]
	f.pool = f.pool[:len(f.pool)-1]
	cells := int(sec.w * sec.h)
	sf.d = resize(sf.d, cells)
	sf.dir = resizeBytes(sf.dir, cells)
	sf.version = sec.version
	sf.est = f.seedsOf(i, sf.est[:0], false)
	f.seeds = f.ringSeeds(i, f.seeds[:0])
	ls := f.ls
	ls.load(s.g, int(sec.x0), int(sec.y0), int(sec.w), int(sec.h))
	ls.reset()
	for _, sd := range f.seeds {
		ls.seed(ls.local(sd.c), sd.v)
	}
	minC := s.minC
	for _, sd := range sf.est {
		// where the smallest cost is lost in a built neighbour's values
		// (float32: costs 2^24 or more below them), its cells are seeded at
		// those values (ringSeeds) only, which a walk stepping there follows:
		// a portal cost below them, summed in another order, would let the
		// walk step to a value no lower than its own (see crossStep)
		if j := s.SectorOf(sd.c); j != i && f.fields[j] != nil {
			if v := f.valueAt(sd.c); v+minC == v {
				continue
			}
		}
		ls.seed(ls.local(sd.c), sd.v)
	}
	ls.run()
	for y := 0; y < int(sec.h); y++ {
		copy(sf.d[y*int(sec.w):][:sec.w], ls.d[(y+2)*ls.ls+2:])
		copy(sf.dir[y*int(sec.w):][:sec.w], ls.dir[(y+2)*ls.ls+2:])
	}
	sf.findDeps(s, i)
	f.fields[i] = sf
	f.last = append(f.last, int32(i))
	f.order = append(f.order, int32(i))
	if f.fixing {
		return
	}
	f.fixing = true
	f.fixNeighbours(i)
	f.fixing = false
}

// fixNeighbours rebuilds the built sectors around sector i (just built)
// some of whose cells step into i at a value no lower than their own, then
// those around each rebuilt one, and so on (at most 4 times the sectors in
// all). Such a step happens where a cell was seeded with a portal's cost
// from the portal graph, float32 sums in another order than i's field,
// which came out higher: with costs 2^24 or more apart (a cheap cell adds
// nothing to a dear sum) the two cells can read the same value, and a walk
// went back and forth across the edge for ever. Rebuilt, the cell is seeded
// with i's own values too (ringSeeds).
// Where steps still do not descend (the limit reached), [SectorField.Next]
// steps to a lower neighbour or reports no path.
func (f *SectorField) fixNeighbours(i int) {
	todo := append(f.fix[:0], int32(i))
	limit := 4 * len(f.fields)
	for head := 0; head < len(todo) && limit > 0; head++ {
		b := int(todo[head])
		if f.fields[b] == nil {
			continue
		}
		bs := &f.s.secs[b]
		for dy := int32(-1); dy <= 1; dy++ {
			for dx := int32(-1); dx <= 1; dx++ {
				a := f.s.SectorOf(grid.Cell{X: bs.x0 + dx*int32(f.s.size), Y: bs.y0 + dy*int32(f.s.size)})
				if a < 0 || a == b || f.fields[a] == nil || !slices.Contains(f.fields[a].deps, int32(b)) || !f.stepsUp(a, b) {
					continue
				}
				limit--
				f.pool = append(f.pool, f.fields[a])
				f.fields[a] = nil
				f.order = slices.DeleteFunc(f.order, func(k int32) bool { return int(k) == a })
				f.build(a)
				todo = append(todo, int32(a))
			}
		}
	}
	f.fix = todo[:0]
}

// stepsUp reports whether a cell of sector a (built) steps into sector b
// (built) at a value no lower than its own.
func (f *SectorField) stepsUp(a, b int) bool {
	sec := &f.s.secs[a]
	sf := f.fields[a]
	w, h := sec.w, sec.h
	for y := int32(0); y < h; y++ {
		for x := int32(0); x < w; x++ {
			if y != 0 && y != h-1 && x != 0 && x != w-1 {
				x = w - 2 // inner cells step inside
				continue
			}
			d := sf.dir[y*w+x]
			if d >= 8 {
				continue
			}
			o := neighbourOffsets[d]
			n := grid.Cell{X: sec.x0 + x + o.X, Y: sec.y0 + y + o.Y}
			if f.s.SectorOf(n) == b && f.valueAt(n) >= sf.d[y*w+x] {
				return true
			}
		}
	}
	return false
}

// fieldSlab is how many sector fields grow makes at once (fewer when the
// grid has fewer sectors).
const fieldSlab = 16

// grow adds fieldSlab new sector fields to the pool, their buffers cut
// from one allocation of each kind (5 allocations for them all, instead
// of 5 each) and at their largest at once, so that a field taken from the
// pool for another sector never grows them: a sector has at most size²
// cells, its seeds from the portal graph lie on the 4 edges around it
// (plus the goal), and it has 8 neighbours.
func (f *SectorField) grow() {
	size, n := f.s.size, min(fieldSlab, len(f.fields))
	cells, seeds := size*size, 4*size+1
	fs := make([]sectorField, n)
	d := make([]float32, n*cells)
	dir := make([]uint8, n*cells)
	est := make([]seedRec, n*seeds)
	deps := make([]int32, n*8)
	for k := range fs {
		sf := &fs[k]
		sf.d = d[k*cells : k*cells : (k+1)*cells]
		sf.dir = dir[k*cells : k*cells : (k+1)*cells]
		sf.est = est[k*seeds : k*seeds : (k+1)*seeds]
		sf.deps = deps[k*8 : k*8 : (k+1)*8]
		f.pool = append(f.pool, sf)
	}
}

// findDeps lists the sectors that the border cells of sf (the field of
// sector i) step into.
func (sf *sectorField) findDeps(s *Sectors, i int) {
	sec := &s.secs[i]
	sf.deps = sf.deps[:0]
	w, h := sec.w, sec.h
	for y := int32(0); y < h; y++ {
		for x := int32(0); x < w; x++ {
			if y != 0 && y != h-1 && x != 0 && x != w-1 {
				x = w - 2 // inner cells step inside
				continue
			}
			d := sf.dir[y*w+x]
			if d >= 8 {
				continue
			}
			o := neighbourOffsets[d]
			nx, ny := x+o.X, y+o.Y
			if nx >= 0 && ny >= 0 && nx < w && ny < h {
				continue
			}
			j := int32(s.SectorOf(grid.Cell{X: sec.x0 + nx, Y: sec.y0 + ny}))
			if j >= 0 && !slices.Contains(sf.deps, j) {
				sf.deps = append(sf.deps, j)
			}
		}
	}
}

// LastBuilt returns the sectors built (or rebuilt) since the last
// [SectorField.Update] or [SectorField.SetGoal] began, by it or by other
// calls since (shared; valid until the next call that builds). Agents in them may want to sample their
// direction again: it now comes from the sector's field.
func (f *SectorField) LastBuilt() []int32 { return f.last }

// bestExit returns the exit node of c's sector that c heads for when its
// sector is not built: the one reachable inside the sector minimising the
// octile distance times the grid's smallest cost plus the node's cost; -1
// when none (or c is in the goal's sector, which heads for the goal).
func (f *SectorField) bestExit(c grid.Cell) int32 {
	i := f.s.SectorOf(c)
	if i < 0 || i == f.goalSec {
		return -1
	}
	e, _ := f.exitOf(c, i)
	if e == nil {
		return -1
	}
	return e.id
}

// exitOf returns the exit c (in sector i, not the goal's) heads for (see
// bestExit) and c's direction code towards it; nil when none.
//
// The exits are sorted by cost: once one costs more than the best value
// so far, no later one can win (the distance term is ≥ 0). Ties go to the
// lowest slot, the sector's node order, as a plain scan of the nodes in
// order would choose. The choice is made first as if c reached every
// exit (connExit), which needs no direction code: when c reaches that
// exit, as it does in most sectors from every passable cell, only its
// code is read; otherwise the exits are scanned again, skipping those c
// does not reach.
func (f *SectorField) exitOf(c grid.Cell, i int) (*exitRec, byte) {
	lk := &f.look[i]
	ci := int(c.Y-lk.y0)*int(lk.w) + int(c.X-lk.x0)
	cb, cs := ci>>1, 4*(ci&1)
	ex := f.exits[lk.ex:][:lk.nEx]
	minC := f.s.minC
	// The exit c would choose if it reached every exit: when c reaches it,
	// it is c's choice (it beats every exit, so every one c reaches). In a
	// sector where every node is reached from every passable cell (conn),
	// it always is, unless c is blocked.
	if e := f.connExit(lk, c); e != nil {
		if nib := lk.dirs[int(e.slot)*int(lk.plane)+cb] >> cs & 15; nib != nibNone {
			return e, nib
		}
	}
	if lk.conn {
		return nil, nibNone
	}
	var best *exitRec
	bestV, bestSlot := float32(math.Inf(1)), int32(math.MaxInt32)
	code := byte(nibNone)
	for k := range ex {
		e := &ex[k]
		if e.cost > bestV {
			break
		}
		nib := lk.dirs[int(e.slot)*int(lk.plane)+cb] >> cs & 15
		if nib == nibNone {
			continue
		}
		if v := float32(octile(c, e.cell)*minC) + e.cost; v < bestV || v == bestV && e.slot < bestSlot {
			best, bestV, bestSlot, code = e, v, e.slot, nib
		}
	}
	return best, code
}

// connExit is exitOf's choice for a cell that reaches every exit of its
// sector (every passable cell of a connected sector, lk.conn), which needs
// no direction code.
func (f *SectorField) connExit(lk *sectorLook, c grid.Cell) *exitRec {
	ex := f.exits[lk.ex:][:lk.nEx]
	minC := f.s.minC
	var best *exitRec
	bestV, bestSlot := float32(math.Inf(1)), int32(math.MaxInt32)
	for k := range ex {
		e := &ex[k]
		if e.cost > bestV {
			break
		}
		if v := float32(octile(c, e.cell)*minC) + e.cost; v < bestV || v == bestV && e.slot < bestSlot {
			best, bestV, bestSlot = e, v, e.slot
		}
	}
	return best
}

// Next returns the neighbour an agent in c steps to, and true; c itself and
// true on the goal; false when c has no path (blocked, outside the grid,
// no route to the goal, or no goal, or the shared [Sectors] were refreshed
// after grid edits by another field and this one has not caught up in its
// [SectorField.Update] yet). See [SectorField] for where the direction
// comes from.
//
// In a sector not built, the direction is a first step towards the exit
// the cell chooses by octile distance, which is not the distance round the
// sector's walls: a walk that only ever follows Next there can go back and
// forth between cells whose choices differ (measured: 1 of 100 queries of
// random512-25-0 with the default sector size, none on the other shared
// maps). Request the sector an agent is in, as systems.FlowField does for
// every agent that enters one, and its built field takes over: such walks
// always reach the goal (TestSectorRoutesNearOptimal).
func (f *SectorField) Next(c grid.Cell) (grid.Cell, bool) {
	i := f.s.SectorOf(c)
	if i < 0 || f.goalSec < 0 || f.graph != f.s.graph {
		return c, false
	}
	lk := &f.look[i]
	if sf := f.fields[i]; sf != nil {
		switch d := sf.dir[int(c.Y-lk.y0)*int(lk.w)+int(c.X-lk.x0)]; d {
		case dirNone: // no way out through the sector's seeds: the portal route's way, if any
		case dirGoal:
			return c, true
		default:
			o := neighbourOffsets[d]
			n := grid.Cell{X: c.X + o.X, Y: c.Y + o.Y}
			if uint32(n.X-lk.x0) >= uint32(lk.w) || f.s.SectorOf(n) != i { // across the sector's edge
				return f.crossStep(c, i, n)
			}
			return n, true
		}
	}
	if i == f.goalSec {
		return c, false
	}
	e, code := f.exitOf(c, i)
	if e == nil {
		return c, false
	}
	if code == nibGoal { // on the exit's cell: cross the portal
		return e.across, true
	}
	o := neighbourOffsets[code]
	return grid.Cell{X: c.X + o.X, Y: c.Y + o.Y}, true
}

// crossStep checks the step of c (in sector i, built) to n across the
// sector's edge, which its field took from the seeds: n's sector not built,
// n's value there below c's, or the smallest cost not lost in a float32 sum
// at c's value, is the step; otherwise (the values, float32
// sums, could not order the two cells: costs 2^24 or more apart, see
// [SectorField]) it is the legal step to the neighbour of lowest value below
// c's in a built sector, and c has no path (false) when no neighbour's value
// is below c's. So along built sectors every step lowers the value and a
// walk never comes back to a cell.
func (f *SectorField) crossStep(c grid.Cell, i int, n grid.Cell) (grid.Cell, bool) {
	if !f.Built(f.s.SectorOf(n)) {
		return n, true
	}
	v := f.valueAt(c)
	if f.valueAt(n) < v || v+f.s.minC > v { // lower, or no cost lost at c's value (the values order the cells)
		return n, true
	}
	g := f.s.g
	best, bestV := c, v
	for k, o := range neighbourOffsets {
		m := grid.Cell{X: c.X + o.X, Y: c.Y + o.Y}
		if !g.Passable(m) || k >= 4 && (!g.Passable(grid.Cell{X: m.X, Y: c.Y}) || !g.Passable(grid.Cell{X: c.X, Y: m.Y})) {
			continue
		}
		if !f.Built(f.s.SectorOf(m)) {
			continue
		}
		if w := f.valueAt(m); w < bestV {
			best, bestV = m, w
		}
	}
	return best, best != c
}

// valueAt returns the value of c in its sector's field, which must be built.
func (f *SectorField) valueAt(c grid.Cell) float32 {
	i := f.s.SectorOf(c)
	sec := &f.s.secs[i]
	return f.fields[i].d[int(c.Y-sec.y0)*int(sec.w)+int(c.X-sec.x0)]
}

// nextBatch is how many cells NextAll looks up together.
const nextBatch = 32

// NextAll sets next[k], ok[k] to [SectorField.Next] of cells[k] for every
// k, faster than calling Next cell by cell when the cells are many and
// spread out: it first finds where each cell of a batch reads its
// direction (its sector's field, or the plane of the exit it heads for),
// then reads them all, so that their cache misses overlap, then steps.
// next and ok must be at least as long as cells. It allocates nothing.
//
// Panics:
//   - when next or ok is shorter than cells (by length: spare capacity is not
//     written, since the caller's slice would not show it).
func (f *SectorField) NextAll(cells, next []grid.Cell, ok []bool) {
	if len(next) < len(cells) || len(ok) < len(cells) {
		panic(fmt.Sprintf("flowfield: NextAll: next has length %d, ok %d, for %d cells (each must be at least as long as cells)",
			len(next), len(ok), len(cells)))
	}
	next, ok = next[:len(cells)], ok[:len(cells)]
	if f.goalSec < 0 || f.graph != f.s.graph {
		for k, c := range cells {
			next[k], ok[k] = c, false
		}
		return
	}
	var (
		src  [nextBatch][]byte // where each cell's code is
		at   [nextBatch]int
		kind [nextBatch]uint8 // 0: done, 1: a field's code, 2: an exit's code (low half), 3: (high half), 4 and 5: the same in a sector not every cell of which reaches every node
		ex   [nextBatch]*exitRec
		code [nextBatch]byte
		sec  [nextBatch]int32
		nEx  [nextBatch]int32
	)
	for base := 0; base < len(cells); base += nextBatch {
		part := cells[base:min(base+nextBatch, len(cells))]
		for j, c := range part { // the sectors' lookup lines, misses overlapping
			i := f.s.SectorOf(c)
			sec[j], nEx[j] = int32(i), 0
			if i >= 0 {
				nEx[j] = f.look[i].nEx
			}
		}
		for j, c := range part {
			kind[j] = 0
			i := int(sec[j])
			if i < 0 {
				next[base+j], ok[base+j] = c, false
				continue
			}
			lk := &f.look[i]
			ci := int(c.Y-lk.y0)*int(lk.w) + int(c.X-lk.x0)
			if sf := f.fields[i]; sf != nil {
				src[j], at[j], kind[j] = sf.dir, ci, 1
				continue
			}
			if i == f.goalSec {
				next[base+j], ok[base+j] = f.Next(c)
				continue
			}
			if nEx[j] == 0 {
				next[base+j], ok[base+j] = c, false
				continue
			}
			// the exit c chooses if it reaches it (see exitOf)
			e := f.connExit(lk, c)
			k := uint8(2)
			if !lk.conn {
				k = 4
			}
			if e == nil {
				next[base+j], ok[base+j] = c, false
				continue
			}
			src[j], at[j], kind[j], ex[j] = lk.dirs, int(e.slot)*int(lk.plane)+ci>>1, k+uint8(ci&1), e
		}
		for j := range part {
			if kind[j] != 0 {
				code[j] = src[j][at[j]] // the reads whose misses overlap
			}
		}
		for j, c := range part {
			switch kind[j] {
			case 1:
				switch d := code[j]; d {
				case dirNone: // the portal route's way, as Next
					next[base+j], ok[base+j] = f.Next(c)
				case dirGoal:
					next[base+j], ok[base+j] = c, true
				default:
					o := neighbourOffsets[d]
					n := grid.Cell{X: c.X + o.X, Y: c.Y + o.Y}
					if f.s.SectorOf(n) != int(sec[j]) { // across the sector's edge: Next's check
						next[base+j], ok[base+j] = f.crossStep(c, int(sec[j]), n)
					} else {
						next[base+j], ok[base+j] = n, true
					}
				}
			case 2, 3, 4, 5:
				switch nib := code[j] >> (4 * (kind[j] & 1)) & 15; nib {
				case nibNone: // blocked (2, 3), or the exit not reached from c (4, 5): Next's scan
					if kind[j] >= 4 {
						next[base+j], ok[base+j] = f.Next(c)
					} else {
						next[base+j], ok[base+j] = c, false
					}
				case nibGoal:
					next[base+j], ok[base+j] = ex[j].across, true
				default:
					o := neighbourOffsets[nib]
					next[base+j], ok[base+j] = grid.Cell{X: c.X + o.X, Y: c.Y + o.Y}, true
				}
			}
			src[j] = nil
		}
	}
}

// Stale reports whether the grid's costs changed since the field was last
// brought up to date ([SectorField.Update]): the grid was edited since its
// Sectors' last Refresh, or the portal graph changed since the field's last
// search. A stale field still answers, from the old costs (but for a grid
// whose size changed: see [Sectors.Refresh]).
func (f *SectorField) Stale() bool {
	return f.s.ver != f.s.g.Version() || f.graph != f.s.graph
}

// Integration returns the cost from c to the goal along the field: the
// sector field's value where c's sector is built; elsewhere an estimate,
// the octile distance to c's exit times the grid's smallest cost plus the
// exit's cost (a lower bound of the walk's cost); +Inf where c has no path.
func (f *SectorField) Integration(c grid.Cell) float64 {
	i := f.s.SectorOf(c)
	if i < 0 || f.goalSec < 0 || f.graph != f.s.graph {
		return math.Inf(1)
	}
	sec := &f.s.secs[i]
	if sf := f.fields[i]; sf != nil {
		return float64(sf.d[int(c.Y-sec.y0)*int(sec.w)+int(c.X-sec.x0)])
	}
	e := f.bestExit(c)
	if e < 0 {
		return math.Inf(1)
	}
	return float64(float32(octile(c, f.s.nodes[e].cell)*f.s.minC) + f.cost[e])
}

// Sample returns the direction (a unit vector) an agent at the continuous
// position p (in cells) should steer along, and true; the zero vector and
// true within 0.05 cells of the goal's centre; the zero vector and false
// where p's cell has no path. The rule is [Field.Sample]'s: straight at the
// goal when it is in line of sight (looked for only within one sector's
// side of it, so that a sample stays cheap on big maps), else at the
// farthest of the next 1+LookAhead cells along the field that p sees.
func (f *SectorField) Sample(p r2.Vec) (r2.Vec, bool) {
	next, ok := f.Next(f.s.g.CellAt(p))
	return f.SampleNext(p, next, ok)
}

// SampleNext is [SectorField.Sample] for a position p whose cell's step is
// known already: next and ok must be [SectorField.Next] of p's cell (as
// [SectorField.NextAll] gives them), which it does not look up again.
func (f *SectorField) SampleNext(p r2.Vec, next grid.Cell, ok bool) (r2.Vec, bool) {
	g := f.s.g
	c := g.CellAt(p)
	if !ok {
		return r2.Vec{}, false
	}
	size := int32(f.s.size)
	if dx, dy := c.X-f.goal.X, c.Y-f.goal.Y; dx <= size && dx >= -size && dy <= size && dy >= -size && g.LineOfSight(p, f.target) {
		d := r2.Sub(f.target, p)
		if detmath.Norm(d) < 0.05 {
			return r2.Vec{}, true
		}
		return detmath.Unit(d), true
	}
	if next == c {
		d := r2.Sub(g.Center(c), p)
		if detmath.Norm(d) < 0.05 {
			return r2.Vec{}, true
		}
		return detmath.Unit(d), true
	}
	aim := next
	for k := 0; k < LookAhead; k++ {
		n, ok := f.Next(aim)
		if !ok || n == aim || !g.LineOfSight(p, g.Center(n)) {
			break
		}
		aim = n
	}
	return detmath.Unit(r2.Sub(g.Center(aim), p)), true
}

// String describes the field for debugging.
func (f *SectorField) String() string {
	built := 0
	for _, sf := range f.fields {
		if sf != nil {
			built++
		}
	}
	return fmt.Sprintf("sector field goal %v: %d of %d sectors built, %d wanted", f.goal, built, len(f.fields), len(f.wanted))
}
