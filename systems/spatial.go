package systems

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"
	"unsafe"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/internal/balance"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/nav/spatial"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// Neighbours is the world resource that [Spatial] rebuilds every frame: a
// spatial hash over every agent (an entity with a Position and a Velocity),
// and, per hash ID, the agent's entity, position, velocity and team (0 for
// agents without a Faction; [Perception] takes none of those for a foe, see
// [components.Faction]). Hash IDs are dense and follow entity IDs (the
// smallest entity ID has hash ID 0), so the hash's order, and any neighbour
// list read from it, does not depend on how Arche stores the agents.
type Neighbours struct {
	Hash       *spatial.Hash
	Entities   []arche.Entity
	byEntity   []int32 // hash ID by entity ID; -1 for every entity not in this frame's hash
	Positions  []r2.Vec
	Velocities []r2.Vec
	Teams      []uint8

	Skipped int // agents left out of this frame's hash: NaN or infinite Position
}

// ID returns e's hash ID in this frame's hash, or -1 if e is not in it: an
// agent spawned after [Spatial] ran (even one that reuses the entity ID of an
// agent removed since), or removed since, is not.
func (r *Neighbours) ID(e arche.Entity) int32 {
	if i := uint(e.ID()); i < uint(len(r.byEntity)) { // uint: an ID over 2³¹ is not negative on 32-bit
		// byEntity holds only this frame's agents (Spatial clears the last
		// frame's), so id indexes Entities; the entity check tells a reused
		// entity ID apart.
		if id := r.byEntity[i]; id >= 0 && int(id) < len(r.Entities) && r.Entities[id] == e {
			return id
		}
	}
	return -1
}

// Spatial rebuilds the [Neighbours] resource at the start of each frame.
//
// Hash IDs follow entity IDs: the agent with the smallest entity ID has hash
// ID 0, and so on, so the hash's order within a bucket, and with it every
// neighbour list and every sum over neighbours, does not depend on the order
// in which Arche stores the agents (which differs after a save and load, or
// after agents change archetype).
//
// It works over Workers goroutines (0: runtime.GOMAXPROCS): the workers
// mark the usable agents of contiguous ranges of the query by entity ID (the
// calling goroutine records the query's archetypes first, and the workers
// read their ranges' entities), rank the
// marks over ranges of entity IDs (a prefix sum), and copy each agent to its
// rank; then [spatial.Hash.BuildFrom] sorts them into the hash's buckets, a
// counting sort with per-worker counts over contiguous ranges of agents (or,
// with about as many buckets as agents, each worker sorting a range of
// buckets). In a
// frame whose usable agents are the last frame's (the common case), one pass
// over the query checks that and copies them, and the marking, ranking and
// copying are skipped: the hash IDs are unchanged. The hash is the same for any number of workers,
// and a warm rebuild allocates nothing.
//
// Contract:
//
//	requires   Position, Velocity (an agent without a Velocity is not in the hash)
//	optional   Faction (team 0 without one)
//	writes     the Neighbours resource (added at Initialize)
//	resources  *grid.Grid (sizes the hash)
//
//	absent or unusable             what Spatial does                      Diagnose counts
//	Velocity                       not in the hash: no neighbour sees it  - (not a moving agent)
//	Faction                        listed as team 0 (nobody's foe)        -
//	Position NaN/Inf               left out of the hash (Skipped)         CausePosition
//	Velocity NaN/Inf               recorded as zero                       CauseVelocity
type Spatial struct {
	ran      ecs.Ran // the frame it last ran, for save.Save's check (ecs.Frame.Between)
	CellSize float64 // hash bucket side in cells; DefaultHashCell (2) if zero; Initialize panics on one < 0, NaN, Inf or too small for the map
	Workers  int     // goroutines for the counting sort; 0 means runtime.GOMAXPROCS

	res    *Neighbours
	filter *generic.Filter3[components.Position, components.Velocity, components.Faction]
	pool   *ecs.Workers
	parts  partJob
	run    spatial.Runner // s.runParts, made once

	cols     columns // the query's components, read by the workers
	count    []int32 // per worker: usable agents in its range (of entity IDs, or of the query in spCheck), then its first hash ID
	changed  []bool  // per worker, spCheck: a usable agent of its range was not in last frame's hash
	counted  []bool  // per worker, spCheck: it counted its range for the hash (Hash.CountFrom)
	counting bool    // spCheck counts for the hash: Hash.BeginFromSplit accepted last frame's positions
	// spCheck: each worker's share of the query, following the time each
	// took last frame (see Update), and the bounds of their ranges
	shares balance.Shares
	bounds []int
	job    spatialJob
	noFast bool // tests: spCheck copies every agent in its general loop (see check)

	finalized bool // Finalize ran, and Initialize not since (lifecycle.go)
}

// DefaultHashCell is the side, in cells, of the buckets of [Spatial]'s hash
// when its CellSize is zero: twice the bundles' separation radius
// (3·DefaultRadius, 0.9 cells; a FlowFollower's 0.75), rounded up to whole
// cells. A query of radius r reads the buckets that the square of side 2r
// around the agent touches, so Steer's separation, the query every moving
// agent makes each frame, reads at most 2×2 buckets of 2×2 cells. Larger
// buckets give it more candidates to test for the same neighbours (at the
// guard scenario's density, 4-cell buckets give about 12 candidates an agent
// for 3.3 within 0.9 cells, 2-cell buckets 8); smaller ones give it more
// bucket rows to read and the rebuild more buckets to sort (1-cell buckets,
// 3 bucket rows a query and 7 buckets an agent, are slower than 2-cell
// ones). Queries of a larger radius (flocking's DefaultNeighbourRadius, an
// Avoider's NeighbourDist) read more buckets of this size; a world whose
// agents mostly make those can set CellSize near that radius.
const DefaultHashCell = 2.0

// Column indices of Spatial's columns.
const (
	spPos = iota
	spVel
	spFaction
)

// The phases of [spatialJob].
const (
	spCheck = iota // query range: count usable agents, note any not in last frame's hash, copy those that were
	spMark         // query range: byEntity[e] = 0 for a usable agent (finite Position)
	spCount        // entity-ID range: count the marks
	spRank         // entity-ID range: each mark becomes the agent's hash ID
	spFill         // query range: copy each usable agent to its hash ID
)

// spatialJob is one phase of Spatial's rebuild, split over the workers.
type spatialJob struct {
	s     *Spatial
	phase int
}

// Work implements ecs.Job.
func (j *spatialJob) Work(worker, lo, hi int) {
	s := j.s
	res := s.res
	switch j.phase {
	case spCheck: // one chunk per worker: its range of the query is in bounds
		t0 := time.Now()
		s.check(worker, s.bounds[worker], s.bounds[worker+1])
		s.shares.Took(worker, int64(time.Since(t0)))
		return
	case spCount:
		var k int32
		for _, v := range res.byEntity[lo:hi] {
			if v >= 0 {
				k++
			}
		}
		s.count[worker] = k
		return
	case spRank:
		id := s.count[worker]
		for e, v := range res.byEntity[lo:hi] {
			if v >= 0 {
				res.byEntity[lo+e] = id
				id++
			}
		}
		return
	}
	c := &s.cols
	n := len(c.ents)
	for r := c.run(lo, 0); r < len(c.runs) && c.runs[r].start < hi; r++ {
		start := c.runs[r].start
		pos := columnOf[components.Position](c, r, spPos, n)
		if j.phase == spMark {
			for i := max(lo, start); i < min(hi, c.end(r, n)); i++ {
				if finiteVec(pos[i-start].Vec) {
					// otherwise nobody can be near it: left out, so it never
					// poisons a neighbour's forces
					res.byEntity[c.ents[i].ID()] = 0
				}
			}
			continue
		}
		vel := columnOf[components.Velocity](c, r, spVel, n)
		fac := columnOf[components.Faction](c, r, spFaction, n)
		for i := max(lo, start); i < min(hi, c.end(r, n)); i++ {
			e := c.ents[i]
			id := res.byEntity[e.ID()]
			if id < 0 {
				continue
			}
			v := vel[i-start].Vec
			if !finiteVec(v) {
				v = r2.Vec{} // as Movement will make it
			}
			var team uint8
			if fac != nil {
				team = fac[i-start].Team
			}
			res.Entities[id], res.Positions[id], res.Velocities[id], res.Teams[id] = e, pos[i-start].Vec, v, team
		}
	}
}

// check counts the usable agents of query range [lo, hi) into
// s.count[worker], and sets s.changed[worker] if one of them was not in last
// frame's hash; it copies each agent that was to its hash ID, as spFill
// does, so that a frame whose agents are last frame's needs no other pass.
// When s.counting and every agent of the range is usable and has its query
// index as hash ID, it has written the positions of the hash's part worker
// (Hash.BeginFromSplit's parts are the workers' ranges), and counts them
// for the hash (s.counted[worker]).
func (s *Spatial) check(worker, lo, hi int) {
	res := s.res
	c := &s.cols
	c.readShared(worker, lo, hi)
	n := len(c.ents)
	var k int32
	changed := false
	off := 0 // nonzero if an agent's hash ID is not its query index (or'd xors: no branch)
	for r := c.run(lo, 0); r < len(c.runs) && c.runs[r].start < hi; r++ {
		start := c.runs[r].start
		a, b := max(lo, start), min(hi, c.end(r, n))
		pos := columnOf[components.Position](c, r, spPos, n)[a-start : b-start]
		vel := columnOf[components.Velocity](c, r, spVel, n)[a-start : b-start]
		vel = vel[:len(pos)]
		fac := columnOf[components.Faction](c, r, spFaction, n)
		ents := c.ents[a:b]
		ents = ents[:len(pos)]
		// the agents from a that are last frame's at their query index (the
		// hash ID res.ID gives when Entities holds the agent there), with a
		// finite position: copied in a loop of their own, on slices of the
		// run's length (no per-agent index checks)
		i0 := 0
		if b <= len(res.Entities) && !s.noFast {
			last := res.Entities[a:b]
			ps, vs, ts := res.Positions[a:b], res.Velocities[a:b], res.Teams[a:b]
			last, ps, vs, ts = last[:len(pos)], ps[:len(pos)], vs[:len(pos)], ts[:len(pos)]
			var facs []components.Faction
			if fac != nil {
				facs = fac[a-start : b-start]
			}
			for ; i0 < len(pos); i0++ {
				p := pos[i0].Vec
				if ents[i0] != last[i0] || !finiteVec(p) {
					break
				}
				v := vel[i0].Vec
				if !finiteVec(v) {
					v = r2.Vec{} // as Movement will make it
				}
				var team uint8
				if facs != nil {
					team = facs[i0].Team
				}
				ps[i0], vs[i0], ts[i0] = p, v, team
			}
			k += int32(i0)
		}
		// the others (all of them when the query's order is not the hash's:
		// the guards, whose storage order is not entity-ID order, and any
		// crowd visited in spatial order): each looked up by Neighbours.ID,
		// written out over locals cut to one length, so the lookup and the
		// three stores at its hash ID need no bounds checks (Update keeps
		// Entities, Positions, Velocities and Teams one length)
		if i0 < len(pos) {
			// from agent i0 on: query index a+i0+i is agent i of these
			pos, vel, ents := pos[i0:], vel[i0:], ents[i0:]
			vel, ents = vel[:len(pos)], ents[:len(pos)]
			var facs []components.Faction
			if fac != nil {
				facs = fac[a-start+i0 : b-start]
				facs = facs[:len(pos)]
			}
			byEnt, last := res.byEntity, res.Entities
			m := min(len(last), len(res.Positions), len(res.Velocities), len(res.Teams))
			last = last[:m]
			ps, vs, ts := res.Positions[:m], res.Velocities[:m], res.Teams[:m]
			for i := range pos {
				p := pos[i].Vec
				if !finiteVec(p) {
					continue
				}
				k++
				e := ents[i]
				id := int32(-1) // res.ID(e), over the locals
				if j := int(e.ID()); j < len(byEnt) {
					if x := byEnt[j]; x >= 0 && int(x) < len(last) && last[x] == e {
						id = x
					}
				}
				if id < 0 {
					changed = true // spFill copies them all once ranked
					continue
				}
				off |= int(id) ^ (a + i0 + i)
				v := vel[i].Vec
				if !finiteVec(v) {
					v = r2.Vec{} // as Movement will make it
				}
				var team uint8
				if facs != nil {
					team = facs[i].Team
				}
				ps[id], vs[id], ts[id] = p, v, team
			}
		}
	}
	s.count[worker], s.changed[worker] = k, changed
	// every agent of the range usable (k of them), none new, each at its
	// query index's hash ID
	if s.counting && int(k) == hi-lo && !changed && off == 0 {
		res.Hash.CountFrom(worker)
		s.counted[worker] = true
	}
}

// partJob runs one part of a spatial.Runner's work per item.
type partJob struct{ part func(k int) }

// Work implements ecs.Job.
func (j *partJob) Work(_, lo, hi int) {
	for k := lo; k < hi; k++ {
		j.part(k)
	}
}

// runParts is a spatial.Runner on the system's workers: part k on worker k.
func (s *Spatial) runParts(parts int, part func(k int)) {
	s.parts.part = part
	s.pool.Run(&s.parts, parts)
	s.parts.part = nil
}

// Name implements ecs.Namer.
func (s *Spatial) Name() string { return "spatial" }

// Initialize creates the Neighbours resource sized to the grid resource, or
// takes over the world's one (a world resumed under a new schedule), with a
// hash sized to the grid.
//
// Panics:
//   - if the world has no *grid.Grid resource: add one with
//     arche.AddResource before Initialize, or one of no cells (a zero
//     grid.Grid{}): make it with grid.New or grid.NewChecked;
//   - if CellSize is negative, NaN or infinite, or so small that the hash would have
//     more than spatial.MaxBuckets buckets on the grid: the message names
//     Spatial.CellSize, its value and the least side the map allows.
func (s *Spatial) Initialize(w *arche.World) {
	if s.CellSize == 0 {
		s.CellSize = DefaultHashCell
	}
	g := mustGrid(w, "Spatial")
	checkHashCell(s.CellSize, g.Width(), g.Height())
	markInstalled(w, sysSpatial)
	s.ran.Join(w, s)
	hash := spatial.NewHash(s.CellSize, float64(g.Width()), float64(g.Height()))
	if nb := ecs.Resource[Neighbours](w); nb != nil {
		// a world resumed under a new schedule, or a second Spatial: share the resource
		s.res = nb
		nb.Hash = hash
	} else {
		s.res = &Neighbours{Hash: hash}
		arche.AddResource(w, s.res)
	}
	s.filter = generic.NewFilter3[components.Position, components.Velocity, components.Faction]().
		Optional(generic.T[components.Faction]())
	s.pool = reopenPool(s.pool, s.Workers)
	s.run = s.runParts
	s.cols.reset() // a second world (a level restart) registers its own columns
	s.cols.column(arche.ComponentID[components.Position](w), unsafe.Sizeof(components.Position{}))
	s.cols.column(arche.ComponentID[components.Velocity](w), unsafe.Sizeof(components.Velocity{}))
	s.cols.column(arche.ComponentID[components.Faction](w), unsafe.Sizeof(components.Faction{}))
	s.job.s = s
	s.count = make([]int32, s.pool.N())
	s.changed = make([]bool, s.pool.N())
	s.counted = make([]bool, s.pool.N())
}

// checkHashCell panics, naming Spatial.CellSize and its value, unless c is a bucket side
// spatial.NewHash accepts for a w×h map: finite, > 0, and not so small that the hash
// would have more than spatial.MaxBuckets buckets (nav/spatial's own message names
// neither the system nor the field).
func checkHashCell(c float64, w, h int) {
	if !(c > 0) || math.IsInf(c, 1) {
		panic(setupFault("Spatial", ecs.ErrSettings, fmt.Sprintf("systems: Spatial.CellSize is %v; set it to the hash bucket side in cells "+
			"(finite and > 0; about the most common query radius), or 0 for DefaultHashCell (%v)", c, DefaultHashCell)))
	}
	buckets := func(c float64) float64 { return math.Ceil(float64(w)/c) * math.Ceil(float64(h)/c) }
	if buckets(c) > spatial.MaxBuckets {
		least := math.Sqrt(float64(w) * float64(h) / spatial.MaxBuckets)
		for buckets(least) > spatial.MaxBuckets { // the ceilings: a few steps at most
			least *= 1.01
		}
		// the side recommended, in thousandths of a cell, printed in full (a
		// rounding to fewer digits could recommend a side that panics too)
		rec := math.Ceil(least*1000) / 1000
		for buckets(rec) > spatial.MaxBuckets {
			rec += 0.001
		}
		orDefault := ""
		if buckets(DefaultHashCell) <= spatial.MaxBuckets {
			orDefault = fmt.Sprintf(", or 0 for DefaultHashCell (%v)", DefaultHashCell)
		}
		panic(setupFault("Spatial", ecs.ErrSettings, fmt.Sprintf("systems: Spatial.CellSize is %v: on the %d×%d map that makes %v buckets, over "+
			"spatial.MaxBuckets (%d); set a bucket side of at least %s cells (about the most common "+
			"query radius)%s", c, w, h, buckets(c), spatial.MaxBuckets,
			strconv.FormatFloat(rec, 'f', -1, 64), orDefault)))
	}
}

// Update rebuilds the hash.
//
// When the usable agents are those of the last frame (no agent spawned,
// removed, or with a Position turned NaN or back), their hash IDs are the
// same, and it only copies them: one pass over the query checks it and
// copies them on the way.
func (s *Spatial) Update(w *arche.World) {
	s.ran.Mark(w)
	mustInitialized(s.filter, s.finalized, "Spatial")
	r := s.res
	// entities read on the workers, by spCheck (which looks them up with
	// Neighbours.ID: no byEntity entry is needed for a new one yet)
	s.cols.beginShared(w, s.filter.Filter(w), s.pool)
	n := s.cols.count
	clear(s.count) // (no worker runs when there is no entity)
	clear(s.changed)
	clear(s.counted)
	// the workers' ranges of the query: the shares adapted to the time each
	// worker took last frame. Their two CPUs are virtual, and for minutes at
	// a time one runs 15–80% slower than the other on the shared host; the
	// calling goroutine runs range 0 and a helper range 1 frame after frame
	// (ecs.Workers), so the faster one gets the longer range, and the
	// ranges end together. Any split gives the same result.
	if s.shares.Parts() != s.pool.N() {
		s.shares.Reset(s.pool.N())
	} else {
		s.shares.Adapt()
	}
	s.bounds = s.shares.Bounds(n, s.bounds)
	// when the agents are last frame's, each in the query at its hash ID,
	// spCheck writes each worker's range of hash IDs and counts it for the
	// hash's counting sort at once (its first pass, a hand-off spared)
	s.counting = n > 0 && n == len(r.Entities) && r.Hash.BeginFromSplit(r.Positions[:n], s.bounds)
	s.job.phase = spCheck
	if n > 0 {
		s.pool.Run(&s.job, s.pool.N()) // chunk k: worker k's range, bounds[k] to bounds[k+1]
	}
	s.cols.endShared()
	for s.cols.top >= len(r.byEntity) {
		r.byEntity = append(r.byEntity, -1)
	}
	var kept int32
	same := true
	for k, c := range s.count {
		kept += c
		same = same && !s.changed[k]
	}
	// every usable agent was in last frame's hash, and as many: the same
	// set, with the same hash IDs, and spCheck has copied them
	if !same || int(kept) != len(r.Entities) {
		kept = s.rank(n)
		r.Entities, r.Positions = grow(r.Entities, int(kept)), grow(r.Positions, int(kept))
		r.Velocities, r.Teams = grow(r.Velocities, int(kept)), grow(r.Teams, int(kept))
		s.job.phase = spFill
		s.pool.Run(&s.job, n)
	}
	r.Skipped = n - int(kept)
	// hash ID i is Positions[i]
	if s.counting && same && int(kept) == n && !slices.Contains(s.counted, false) {
		r.Hash.FinishFrom(s.run)
	} else {
		r.Hash.BuildFrom(r.Positions, s.pool.N(), s.run)
	}
}

// rank gives the usable agents of the query (of n entities, scanned) their
// hash IDs in entity-ID order in byEntity, and returns their number.
func (s *Spatial) rank(n int) int32 {
	r := s.res
	for _, e := range r.Entities { // forget last frame's agents, some of them gone
		r.byEntity[e.ID()] = -1
	}
	ids := s.cols.top + 1 // entity IDs to rank
	s.job.phase = spMark
	s.pool.Run(&s.job, n)
	clear(s.count) // (no worker runs when there is no entity)
	s.job.phase = spCount
	s.pool.Run(&s.job, ids)
	var kept int32
	for k, c := range s.count {
		s.count[k] = kept
		kept += c
	}
	s.job.phase = spRank
	s.pool.Run(&s.job, ids)
	return kept
}

// Finalize releases the workers and the filters; Update panics until the next
// Initialize (see lifecycle.go).
func (s *Spatial) Finalize(w *arche.World) {
	if s.filter != nil { // not if never initialized, or finalized already
		s.pool.Close()
		s.filter, s.finalized = nil, true
	}
	s.ran.Leave()
	markFinalized(w, sysSpatial)
}

// mustGrid returns the world's *grid.Grid resource for the system named sys.
//
// Panics with a *ecs.SetupError (ErrMissingResource) if there is none, or if it
// has no cells (a zero grid.Grid{}, not made by grid.New or NewChecked).
func mustGrid(w *arche.World, sys string) *grid.Grid {
	g := ecs.Resource[grid.Grid](w)
	if g == nil {
		panic(setupFault(sys, ecs.ErrMissingResource, "systems: "+sys+" needs the map: the world has no *grid.Grid resource; add one with arche.AddResource(w, g) before Initialize"))
	}
	if g.Width() <= 0 || g.Height() <= 0 {
		panic(setupFault(sys, ecs.ErrMissingResource, fmt.Sprintf("systems: %s needs the map: the world's *grid.Grid resource is %d×%d, a map of no cells (a zero grid.Grid{}?); make it with grid.New(width, height) or grid.NewChecked", sys, g.Width(), g.Height())))
	}
	return g
}

// mustClock returns the world's *ecs.Clock resource for the system named sys.
//
// Panics if there is none: without a clock that advances, agents would think
// once and never again, and nothing would move.
func mustClock(w *arche.World, sys string) *ecs.Clock {
	c := ecs.Resource[ecs.Clock](w)
	if c == nil {
		panic(setupFault(sys, ecs.ErrMissingResource, "systems: "+sys+" needs the simulation clock: the world has no *ecs.Clock resource; add ecs.NewClockSystem(dt) as the first system (or add an *ecs.Clock resource that you advance each frame)"))
	}
	return c
}

// mustNeighbours returns the world's *Neighbours resource for the system named sys.
//
// Panics if there is none.
func mustNeighbours(w *arche.World, sys string) *Neighbours {
	nb := ecs.Resource[Neighbours](w)
	if nb == nil {
		panic(setupFault(sys, ecs.ErrMissingResource, "systems: "+sys+" needs the Neighbours resource: add the Spatial system before "+sys))
	}
	return nb
}

// finiteVec reports whether neither coordinate of v is NaN or infinite: x−x
// is 0 for a finite x and NaN for ±Inf and NaN.
func finiteVec(v r2.Vec) bool {
	return v.X-v.X == 0 && v.Y-v.Y == 0
}
