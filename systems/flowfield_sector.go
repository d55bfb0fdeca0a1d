package systems

import (
	"cmp"
	"fmt"
	"github.com/archai-go/archai/internal/detmath"
	"math"
	"slices"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/flowfield"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// Sector flow fields: FlowField with Sectors > 0 serves sector flow fields
// ([flowfield.SectorField] over a [flowfield.Sectors], Emerson's flow field
// tiles) instead of whole-grid fields, for maps too big for a field per goal
// (a 4096² map needs 16M cells per whole-grid field, hundreds of
// milliseconds to build).
//
//   - A goal new this frame gets its field at once: the portal graph is
//     searched and the goal's sector built (about a millisecond on 4096²),
//     and every follower switches to it in the same frame, walking along the
//     portal route where its sector is not built yet.
//   - Each frame every follower asks for its own sector, and the sectors
//     asked for are built, first asked first, within Budget cells per frame
//     (SectorBudget when Budget is 0); followers in a sector just built
//     sample again.
//   - Sampling is split over the workers a chunk of followers at a time:
//     the directions of the chunk's followers that sample again are looked
//     up together first ([flowfield.SectorField.NextAll]), so that their
//     cache misses on a big map overlap, then each samples from the step
//     found ([flowfield.SectorField.SampleNext]).
//   - Fields are kept for at most Capacity goals (8 if zero), the least
//     recently used one reused for a new goal.
//   - Arrival is FlowField's rule (the packed disk around the goal) without
//     its cap by the open ground around the goal: the distance along the way
//     is read from the sector field ([flowfield.SectorField.Integration]).
//
// The sector layer is built at Initialize (about 11 s for a 4096² town map
// on 2 cores, see [flowfield.Sectors]) and refreshed after grid edits; the
// flowfield.Cache resource is still added, empty (Reserve allocates no field
// in this mode). Memory: the sector layer (about 5 bytes per cell: the
// per-node directions), and per goal about 5 bytes per cell of each built
// sector. Agents whose goal is one more than
// Capacity goals in use in the same frame get no direction (Steer false)
// until a field is free; FlowField.Waiting counts them, and Diagnose reports
// them after FlowBehindLong (Report.FlowGoalsOver, against Capacity: sector
// mode does not grow to MaxFields).
//
// Contract (sector mode; the table of [FlowField] holds as well):
//
//	requires   Position, FlowFollower
//	writes     FlowFollower (Active, Has, Cell, Aim, Direct, Steer, Arrived;
//	           ProgressCost and ProgressCheck, as with whole-grid fields);
//	           adds the *flowfield.Sectors and *flowfield.Cache resources
//	resources  *grid.Grid
//
// Panics (at Initialize):
//   - when Sectors is below 4 or above 256: set a sector side in cells
//     (64 is the usual), or 0 for whole-grid fields.

// SectorBudget is the cells of sector fields a FlowField in sector mode
// builds per frame when its Budget is 0: 16 sectors of 64² cells, about
// 2 ms.
const SectorBudget = 16 * 64 * 64

// sectorFlow is FlowField's state in sector mode.
type sectorFlow struct {
	s       *FlowField
	grid    *grid.Grid
	sectors *flowfield.Sectors
	goals   []sectorGoal
	frame   uint64
	filter  *generic.Filter2[components.Position, components.FlowFollower]
	jobs    []sectorJob
	hist    []int32
	scratch []sectorScratch // per worker
	// progress: this frame's progress check (check 0: none), for Diagnose
	// (FlowFollower.ProgressCost; flowfield_progress.go)
	progress flowProgress
	refused  []grid.Cell // this frame's goals beyond Capacity, one per follower, for Report.FlowGoalsOver
}

type sectorGoal struct {
	goal    grid.Cell
	field   *flowfield.SectorField
	used    uint64 // the frame it was last asked for
	fresh   []bool // per sector: built this frame
	freshed []int32

	// arrival bookkeeping of this frame
	followers int
	lo, hi    int
	arrive    int32 // the agents on steps below it have arrived: the step after the last that joined the disk
}

type sectorJob struct {
	pos  r2.Vec
	ff   *components.FlowFollower
	goal int32 // index in goals; -1 without a field
	step int32 // distance step; -1 out of reach
}

// initSectors sets FlowField up for sector mode.
func (s *FlowField) initSectors(w *arche.World) {
	if s.Sectors < 4 || s.Sectors > 256 {
		panic(setupFault("FlowField", ecs.ErrSettings, fmt.Sprintf("systems: FlowField.Sectors is %d; set a sector side of 4 to 256 cells (64 is the usual), or 0 for whole-grid fields", s.Sectors)))
	}
	sectors, err := flowfield.NewSectors(s.grid, s.Sectors)
	if err != nil {
		panic(&ecs.SetupError{System: "FlowField", Kind: ecs.ErrSettings, Msg: "systems: FlowField: " + err.Error(), Err: err})
	}
	if old := arche.ResourceID[flowfield.Sectors](w); w.Resources().Has(old) {
		w.Resources().Remove(old)
	}
	arche.AddResource(w, sectors)
	s.sector = &sectorFlow{s: s, grid: s.grid, sectors: sectors,
		filter:  generic.NewFilter2[components.Position, components.FlowFollower](),
		scratch: make([]sectorScratch, s.pool.N())}
}

// fieldFor returns the index of goal's field, setting one up (at once) for
// a new goal.
func (sf *sectorFlow) fieldFor(goal grid.Cell) int {
	for i := range sf.goals {
		if sf.goals[i].goal == goal {
			sf.goals[i].used = sf.frame
			return i
		}
	}
	i := -1
	if len(sf.goals) < sf.s.Capacity {
		across, down := sf.sectors.Count()
		sf.goals = append(sf.goals, sectorGoal{field: flowfield.NewSectorField(sf.sectors), fresh: make([]bool, across*down)})
		i = len(sf.goals) - 1
	} else {
		for k := range sf.goals {
			if sf.goals[k].used != sf.frame && (i < 0 || sf.goals[k].used < sf.goals[i].used) {
				i = k
			}
		}
		if i < 0 {
			return -1 // more goals this frame than Capacity
		}
	}
	g := &sf.goals[i]
	g.goal, g.used = goal, sf.frame
	g.field.SetGoal(goal)
	for _, k := range g.freshed {
		g.fresh[k] = false
	}
	g.freshed = g.freshed[:0]
	return i
}

// update is FlowField.Update in sector mode.
func (sf *sectorFlow) update(w *arche.World) {
	s := sf.s
	sf.frame++
	// the sector layer catches up with grid edits every frame, even one in which no
	// goal is in use (a field's Update would do it otherwise), so that a save after
	// this Update finds it current (see flowfield.SectorField.State)
	sf.sectors.Refresh()
	if across, down := sf.sectors.Count(); len(sf.goals) > 0 && len(sf.goals[0].fresh) != across*down {
		// a map of another size copied over the grid in place: the sectors were cut
		// anew (their fields catch up at their Update), so the marks are per new sector
		for i := range sf.goals {
			sf.goals[i].fresh, sf.goals[i].freshed = make([]bool, across*down), sf.goals[i].freshed[:0]
		}
	}
	for i := range sf.goals {
		g := &sf.goals[i]
		for _, k := range g.freshed {
			g.fresh[k] = false
		}
		g.freshed = g.freshed[:0]
		g.followers = 0
	}
	q := sf.filter.Query(w)
	sf.jobs = grow(sf.jobs, q.Count())
	n := 0
	for q.Next() {
		p, ff := q.Get()
		gi := sf.fieldFor(ff.Goal)
		if gi >= 0 && (!ff.Has || ff.Active != ff.Goal) {
			ff.Active, ff.Has, ff.Cell, ff.Arrived, ff.Held = ff.Goal, true, noCell, false, false
			ff.ProgressCost, ff.ProgressCheck = 0, 0 // another field: its run, if any, ends
		}
		j := &sf.jobs[n]
		n++
		*j = sectorJob{pos: p.Vec, ff: ff, goal: int32(gi), step: -1}
		if gi >= 0 {
			sf.goals[gi].field.Request(sf.grid.CellAt(p.Vec))
			sf.goals[gi].followers++
		} else {
			s.Waiting++ // beyond Capacity goals this frame: no field
			sf.refused = append(sf.refused, ff.Goal)
		}
	}
	served, refused := 0, 0
	for i := range sf.goals {
		if sf.goals[i].used == sf.frame {
			served++
		}
	}
	slices.SortFunc(sf.refused, func(a, b grid.Cell) int { return cmp.Or(cmp.Compare(a.Y, b.Y), cmp.Compare(a.X, b.X)) })
	for i, c := range sf.refused {
		if i == 0 || c != sf.refused[i-1] {
			refused++ // distinct goals refused
		}
	}
	sf.refused = sf.refused[:0]
	s.over.update(served, refused) // Diagnose: Report.FlowGoalsOver, against Capacity
	budget := s.Budget
	if budget <= 0 {
		budget = SectorBudget
	}
	for i := range sf.goals {
		g := &sf.goals[i]
		if g.used != sf.frame {
			continue
		}
		g.field.Update(budget)
		for _, k := range g.field.LastBuilt() {
			if !g.fresh[k] {
				g.fresh[k] = true
				g.freshed = append(g.freshed, k)
			}
		}
	}
	sf.gather()
	s.grid.Prepare()
	sf.progress = flowProgress{}
	if k := progressCheck(ecs.Resource[ecs.Clock](w)); k > 0 {
		stale := false
		for i := range sf.goals {
			stale = stale || sf.goals[i].used == sf.frame && sf.goals[i].field.Stale()
		}
		sf.progress = newFlowProgress(k, sf.grid.MinCost(), s.progressEdits.rebase(sf.grid.Version(), stale))
	}
	s.pool.Run(sf, n)
}

// gather decides arrival per goal: FlowField's disk rule on counts by
// distance step (see [FlowField]), without the open-ground cap.
func (sf *sectorFlow) gather() {
	s := sf.s
	step := s.Spacing / arrivalSteps
	total := 0
	for i := range sf.goals {
		g := &sf.goals[i]
		g.lo = total
		// no agent joins beyond the rim of a disk holding all the followers;
		// an agent at rest is kept up to arrivalKeepSteps beyond the disk's
		// (see Work), so those steps are counted too (their agents fail)
		total += int(s.edge(g.followers)/step) + 1 + arrivalKeepSteps
		g.hi = total
	}
	sf.hist = grow(sf.hist, total)
	clear(sf.hist)
	minC := float64(sf.grid.MinCost())
	for i := range sf.jobs {
		j := &sf.jobs[i]
		if j.goal < 0 {
			continue
		}
		g := &sf.goals[j.goal]
		reach, hold := float64(float64(g.hi-g.lo)*step), 0.0
		if j.ff.Arrived {
			hold = s.Spacing * arrivalHold
		}
		c := sf.grid.Center(g.goal)
		d := detmath.Hypot(j.pos.X-c.X, j.pos.Y-c.Y)
		if !(d < reach+hold) {
			continue
		}
		if along := g.field.Integration(sf.grid.CellAt(j.pos))/minC/octileStretch - math.Sqrt2/2; along > d {
			d = along
		}
		d -= hold
		if !(d < reach) {
			continue
		}
		k := min(int(max(d, 0)/step), g.hi-g.lo-1)
		j.step = int32(k)
		sf.hist[g.lo+k]++
	}
	for i := range sf.goals {
		g := &sf.goals[i]
		g.arrive = 0
		if g.followers == 0 {
			continue
		}
		// arrive is the step after the last that joined (as diskSteps), not
		// the first that failed: the same agents have arrived, and the arrival
		// keep holds an agent at rest up to a Spacing beyond the crowd, not
		// beyond the nearest agent that failed (one at rest pushed far out)
		gathered := 0
		for k, c := range sf.hist[g.lo:g.hi] {
			if c == 0 {
				continue
			}
			if float64(k+1)*step > s.edge(gathered) {
				break
			}
			gathered += int(c)
			g.arrive = int32(k + 1)
		}
	}
}

// sectorChunk is how many followers Work looks at together.
const sectorChunk = 64

// sectorScratch is one worker's buffers for Work.
type sectorScratch struct {
	idx   [sectorChunk]int32 // jobs to sample again
	cells [sectorChunk]grid.Cell
	next  [sectorChunk]grid.Cell
	ok    [sectorChunk]bool
	sink  float32 // keeps the cost reads that warm the cache
	_     [64]byte
}

// sectorWarm makes Work look the directions of a chunk's followers up
// together first ([flowfield.SectorField.NextAll]), so that their cache
// misses overlap, before sampling each; false only to measure it.
var sectorWarm = true

// Work implements ecs.Job: arrival and sampling of jobs [lo, hi), a chunk
// at a time: arrival, then the followers whose cell changed or whose
// sector was just built are sampled again, then, in a frame of a progress
// check, every follower's progress is checked (FlowFollower.ProgressCost).
func (sf *sectorFlow) Work(worker, lo, hi int) {
	sc := &sf.scratch[worker]
	s := sf.s
	costs := sf.grid.Costs()
	gw := sf.grid.Width()
	var sink float32
	for b := lo; b < hi; b += sectorChunk {
		n := 0
		for i := b; i < min(b+sectorChunk, hi); i++ {
			j := &sf.jobs[i]
			ff := j.ff
			if j.goal < 0 {
				ff.Steer, ff.Cell, ff.Arrived, ff.Held, ff.Following = false, noCell, false, false, false
				continue
			}
			g := &sf.goals[j.goal]
			// an agent at rest stays so up to arrivalKeep Spacings beyond the
			// rim; sector mode follows no walking goal (followGoal)
			ff.Arrived = j.step >= 0 && (j.step < g.arrive || ff.Arrived && j.step < g.arrive+arrivalKeepSteps)
			ff.Following = false
			c := sf.grid.CellAt(j.pos)
			if k := sf.sectors.SectorOf(c); c != ff.Cell || (k >= 0 && g.fresh[k]) || s.edits.expires || aimBlocked(sf.grid, ff, j.pos, c) {
				sc.idx[n], sc.cells[n] = int32(i), c
				n++
				if k >= 0 {
					sink += costs[int(c.Y)*gw+int(c.X)] // sampling reads it (line of sight)
				}
			}
		}
		if sectorWarm {
			// runs of one goal (usually the whole chunk)
			for r := 0; r < n; {
				gi := sf.jobs[sc.idx[r]].goal
				e := r + 1
				for e < n && sf.jobs[sc.idx[e]].goal == gi {
					e++
				}
				sf.goals[gi].field.NextAll(sc.cells[r:e], sc.next[r:e], sc.ok[r:e])
				r = e
			}
		}
		for k, i := range sc.idx[:n] {
			j := &sf.jobs[i]
			ff := j.ff
			f := sf.goals[j.goal].field
			var aim r2.Vec
			var direct, steer bool
			if sectorWarm { // the step NextAll found, not looked up again
				aim, direct, steer = sectorAimFrom(f, sf.grid, j.pos, sc.next[k], sc.ok[k])
			} else {
				aim, direct, steer = sectorAim(f, sf.grid, j.pos)
			}
			s.edits.set(ff, sf.grid.CellAt(j.pos), aim, direct, steer) // Hold (flowfield_hold.go)
		}
		for i := b; i < min(b+sectorChunk, hi); i++ {
			j := &sf.jobs[i]
			if sf.progress.check > 0 {
				v := 0.0
				if j.goal >= 0 {
					v = sf.goals[j.goal].field.Integration(sf.grid.CellAt(j.pos))
				}
				sf.progress.follow(j.ff, v, j.goal >= 0)
			}
			j.ff = nil // drop the frame's pointer
		}
	}
	sc.sink += sink
}

// sectorAim is aim for a sector field.
func sectorAim(f *flowfield.SectorField, g *grid.Grid, p r2.Vec) (r2.Vec, bool, bool) {
	next, ok := f.Next(g.CellAt(p))
	return sectorAimFrom(f, g, p, next, ok)
}

// sectorAimFrom is sectorAim given the step of p's cell (f.Next of it).
func sectorAimFrom(f *flowfield.SectorField, g *grid.Grid, p r2.Vec, next grid.Cell, has bool) (r2.Vec, bool, bool) {
	dir, ok := f.SampleNext(p, next, has)
	c := g.CellAt(p)
	if !ok && g.InBounds(c) && !g.Passable(c) { // inside a wall (a door closed on it): walk out
		if out, found := escapeCell(f, g, p); found {
			return g.Center(out), false, true
		}
	}
	if !ok || (dir.X == 0 && dir.Y == 0) {
		return r2.Vec{}, false, false
	}
	goal := f.Goal()
	size := int32(f.Sectors().Size())
	if dx, dy := c.X-goal.X, c.Y-goal.Y; dx <= size && dx >= -size && dy <= size && dy >= -size {
		if t := g.Center(goal); g.LineOfSight(p, t) {
			return t, true, true
		}
	}
	return addScaled(p, flowfield.LookAhead+1, dir), false, true
}

// aimBlocked reports whether an agent at p, in cell c, that has not left
// the cell it sampled in heads straight into a wall: the first eighth of
// the way from p to its Aim (about half a cell) leaves c across a blocked
// cell. The Aim is sampled once per cell, from where the agent entered it;
// one pushed sideways within the cell by its crowd (against the wall at a
// corridor's mouth) can have that Aim hidden behind the wall's corner, and
// it pressed into the wall, its move along the face too weak against the
// crowd, for as long as the crowd streamed past (measured: 20–42 s on a
// 1024² town map with 3,000 followers). Such an agent samples again from
// where it is. Most agents' short segment stays in their own cell (open),
// and is not walked.
func aimBlocked(g *grid.Grid, ff *components.FlowFollower, p r2.Vec, c grid.Cell) bool {
	q, leaves := aimLeaves(ff, p, c)
	return leaves && !g.LineOfSight(p, q)
}

// aimLeaves returns the end q of the first eighth of the way from p to ff's
// Aim and whether it leaves cell c (false without an Aim): aimBlocked walks
// the line from p to q then.
func aimLeaves(ff *components.FlowFollower, p r2.Vec, c grid.Cell) (r2.Vec, bool) {
	if !ff.Steer {
		return r2.Vec{}, false
	}
	q := r2.Vec{X: p.X + float64((ff.Aim.X-p.X)*0.125), Y: p.Y + float64((ff.Aim.Y-p.Y)*0.125)}
	if !(q.X >= 0 && q.Y >= 0 && q.X < 1<<31 && q.Y < 1<<31) {
		return q, false
	}
	return q, int32(q.X) != c.X || int32(q.Y) != c.Y
}

// aimBlockedOn is aimBlocked on the grid of sight, whose bitmap shows most
// such lines clear without a walk: the 2×2 cells or fewer from c to q's
// cell all open (as openCells.clear, for a short segment off the grid
// lines), else openCells.clear, else the walk.
func aimBlockedOn(sight *openCells, ff *components.FlowFollower, p r2.Vec, c grid.Cell) bool {
	q, leaves := aimLeaves(ff, p, c)
	if !leaves {
		return false
	}
	qx, qy := int32(q.X), int32(q.Y) // q ≥ 0 (aimLeaves)
	if qx-c.X <= 1 && c.X-qx <= 1 && qy-c.Y <= 1 && c.Y-qy <= 1 && int(qx) < sight.w && int(qy) < sight.h && c.X >= 0 && c.Y >= 0 && int(c.X) < sight.w && int(c.Y) < sight.h {
		// off the grid lines by clear's margins (p is in c)
		mx, my := float64(4e-9*math.Abs(q.X-p.X))+1e-12, float64(4e-9*math.Abs(q.Y-p.Y))+1e-12
		if !nearLine(p.X, float64(c.X), mx) && !nearLine(q.X, float64(qx), mx) && !nearLine(p.Y, float64(c.Y), my) && !nearLine(q.Y, float64(qy), my) &&
			!sight.blocked(c) && !sight.blocked(grid.Cell{X: qx, Y: c.Y}) && !sight.blocked(grid.Cell{X: c.X, Y: qy}) && !sight.blocked(grid.Cell{X: qx, Y: qy}) {
			return false
		}
	}
	return !sight.clear(p, q) && !sight.g.LineOfSight(p, q)
}
