package systems

import (
	"github.com/archai-go/archai/internal/detmath"
	"math"
	"unsafe"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// Perception updates the [components.Perception] of each agent about to think
// this frame (see [Due]), once per think: an agent that a decision budget
// holds back is not perceived again while it waits. Decisions read fresh,
// cached facts and agents that are not thinking cost nothing; level of detail throttles perception
// with the think rate. It picks the nearest agent of another team (Faction.Team
// differs; 0 is a team like any other, so agents all left at Team 0 see no foe,
// which Diagnose cannot tell from allies meant) within
// SightRange (an agent with a Faction: one without, a bystander such as a
// crowd member, is nobody's foe and never picked), inside the field of view (FieldOfView around Heading, which
// follows the agent's last non-zero Velocity) and in line of sight over the
// grid ([grid.Grid.LineOfSight]), and remembers where and when a foe was last
// seen. Of foes at the same distance (compared as squared distances dx²+dy²,
// without a square root per foe) it picks the one with the lowest entity
// ID, so the choice does not depend on Arche's storage order (which differs
// after a world is loaded).
//
// Target selection hysteresis: with a TargetMargin m > 0 (a [Combatant]'s is
// [DefaultTargetMargin], 1 cell) the last update's Target is kept while it is
// still a foe the search could pick (the same tests: within SightRange, not
// the agent, of another team, with a Faction, inside the field of view, in
// line of sight), unless a foe at distance dk − m or nearer is visible, dk
// the kept target's distance: then the nearest foe is taken. A kept target
// no longer visible (or removed) is dropped and the nearest taken. The search
// is then bounded by dk − m: a smaller search than one over SightRange. With
// m 0 (the zero value), negative or NaN, the nearest at every update.
//
// The search reads Perception's own bucket grid of this frame's
// [Neighbours], split by team (an agent reads only the other teams' agents in
// the buckets within SightRange), and walks lines of sight nearest candidate
// first, stopping at the first clear one. It searches the agent's own row of
// buckets first: the nearest foe in sight there bounds the other rows (a
// row farther away is not read, a farther agent not kept). A line of sight inside a rectangle
// of open cells is known clear without walking it (a summed-area table of
// blocked cells, rebuilt when the grid changes). A team holding more than
// half of the last frame's agents (the guards among their intruders) is left
// out of that grid and searched in the [Spatial] hash's buckets instead: only
// its foes, the fewer, search it, while counting and placing it cost most of
// the grid's build. The result is exactly that of testing every agent in
// range (a test holds it to that).
//
// The agents due are found in blocks of the query, and their perceptions
// made in blocks of them, that Workers goroutines (0:
// runtime.GOMAXPROCS) claim as they come free (perceptions differ in cost:
// split in halves of the query, the guard scenario's 100,000 agents gave
// one worker a quarter to a third more work than the other);
// the result does not depend on their number. Needs the
// [Neighbours] resource ([Spatial] must run first). A warm frame allocates
// nothing.
//
// Important: place Perception before the decision systems. After one, it finds
// none of that system's agents about to think (the decision has moved their
// Think.Next on) and they never perceive; [Diagnose] counts them as
// [CausePerceptionAfterDecision].
//
// Important: Perception does not read Health. A foe struck down to 0 health or
// below ([Combat.Downed]) is still a foe it sees (and one that a Mover keeps
// walking: nothing in archai stops a downed agent but Combat, which refuses its
// strikes), so a tree that chases what it sees chases the downed foe for good,
// while [Combat] no longer strikes it. Handle the downed in a system of your own
// after Combat: remove them, respawn them ([Spawner.Respawn]), or remove their
// Faction and Perception (an agent without a Faction is nobody's foe; without
// Perception it is no perceiver lacking one), stop their brain (Think.Frozen,
// or remove its component) and clear their Intent. Changing
// their Faction.Team does not hide them: every other team, a "team of the dead"
// included, is a foe, and a tree that chases what it sees keeps chasing the
// corpse. [Diagnose] reports a downed agent that still thinks or asks to move or
// strike ([CauseDownedStillActing]).
//
// The agent's [components.Blackboard] is optional: when its schema declares
// the well-known keys ([KeyTarget], [KeyTargetVisible], ... see
// [DeclarePerceptionKeys]), each perception also writes those keys, so
// data-driven trees read the facts through ports. A key the schema declares
// with another type is not written: it is reported in KeyError, and [Diagnose]
// counts the agents as [CausePerceptionKeyWrongType].
//
// Contract:
//
//	requires   Position, Faction, Perception, Think
//	optional   Velocity (Heading follows it), Blackboard (well-known keys)
//	writes     Perception, Blackboard (the keys its schema declares)
//	resources  *ecs.Clock (ecs.ClockSystem), *grid.Grid,
//	           *Neighbours (the Spatial system, added before Perception)
//
//	absent or unusable             what Perception does                   Diagnose counts
//	Faction, Think or Position     never perceives                        CausePerceptionIncomplete
//	TargetMargin 0, < 0 or NaN     the nearest at every update, no        CauseIntentFlipFlop (a tree
//	                                 target kept                            copying Target in turn)
//	Velocity                       opt-out: Heading stays as set          -
//	Blackboard                     opt-out: no keys written               -
//	a well-known key of another    that key never written (KeyError)      CausePerceptionKeyWrongType
//	  type in the schema
//	Blackboard.Store another       the agents read and write each         CauseBlackboardShared
//	  agent's too (a template's      other's facts (racing with several
//	  copied)                        workers)
//	Faction, on an agent seen      opt-out: a bystander, nobody's foe     -
//	Think.Frozen                   opt-out (LOD): not perceived           -
type Perception struct {
	ran     ecs.Ran // the frame it last ran, for save.Save's check (ecs.Frame.Between)
	Workers int

	Checked int // agents that perceived in the last frame
	// KeyError is the last error met resolving the well-known blackboard keys
	// (a key declared with another type: wraps blackboard.ErrTypeMismatch),
	// nil if none.
	KeyError error

	clock  *ecs.Clock
	grid   *grid.Grid
	nb     *Neighbours
	filter *generic.Filter6[components.Position, components.Faction, components.Perception, components.Think, components.Velocity,
		components.Blackboard]
	keys    []*perceptionKeys // per schema seen
	pool    *ecs.Workers
	cols    columns       // the query's components, read by the workers
	n       int           // agents in this frame's query
	qs      []arche.Query // per worker of the find phase: its query, stepped to its perceivers' entities
	found   []perceivers  // per find block: this frame's perceivers of its range of the query, in query order
	boards  []perceivers  // per find block: those with blackboard keys to write, in query order
	lists   int           // find blocks this frame: found[:lists] and boards[:lists] are in use
	qpos    []int         // per worker: the query index its query stands at (-1: before the first entity)
	counts  int           // the find pass's first items: the foe index's counting chunks (0: none)
	phase   int           // what Work does: pePhaseFind, pePhaseIndex or pePhasePerceive
	blocks  blockRun      // the find and perceive phases, in claimed blocks
	foes    foeIndex
	neutral neutralAgents     // the agents without a Faction: nobody's foe
	sight   *openCells        // the world's table of blocked cells, shared with ORCA (see sharedWalls)
	scratch []perceiveScratch // per worker

	finalized bool // Finalize ran, and Initialize not since (lifecycle.go)
}

// Column indices of Perception's columns.
const (
	pePos = iota
	peFaction
	pePerception
	peThink
	peVelocity
	peBlackboard
)

// The phases of Perception's Work.
const (
	pePhaseFind     = iota // claimed items: the foe index's counting chunks, then find blocks of the query
	pePhaseIndex           // hash-ID range: the foe index's build phase
	pePhasePerceive        // range of this frame's perceivers: perceive
)

// perceiveBlock is the perceivers a worker claims at a time. A perception
// costs a few microseconds, tens of times a path follower's or a steering
// agent's, so blockSize of them (~40 µs at the median, ~150 µs at the 99th
// percentile in the guard scenario) would leave a worker alone on the last
// block for a sizeable part of a pass; at 10,000 agents a frame's perceivers
// made only 7 such blocks for 2 workers.
const perceiveBlock = 64

// perceivers is a worker's list of perceivers on cache lines of its own.
type perceivers struct {
	v []perceiver
	_ [64]byte
}

// perceiveScratch is one worker's buffers.
type perceiveScratch struct {
	cands        []foeCandidate
	fov, cosHalf float64         // the last field of view met and the cosine of its half
	targets      []pendingTarget // targets found, their entities not yet read (setTargets)
	_            [64]byte
}

// pendingTarget is a perception whose Target is the agent of hash ID id.
type pendingTarget struct {
	per *components.Perception
	id  int32
}

// targetBatch is the most perceptions whose Target waits to be read
// (setTargets).
const targetBatch = 32

// perceiver is an agent due to perceive this frame and its components
// (valid within the Update: Perception changes no structure); Velocity and
// Blackboard are nil when absent.
type perceiver struct {
	e   arche.Entity
	pos *components.Position
	fac *components.Faction
	per *components.Perception
	vel *components.Velocity
	bb  *components.Blackboard
}

// Name implements ecs.Namer.
func (s *Perception) Name() string { return "perception" }

// Initialize finds the resources and starts the workers.
//
// Panics:
//   - if the world has no *ecs.Clock resource: add ecs.NewClockSystem(dt) as
//     the first system;
//   - if the world has no *grid.Grid resource: add one with
//     arche.AddResource before Initialize, or one of no cells (a zero
//     grid.Grid{}): make it with grid.New or grid.NewChecked;
//   - if the world has no *Neighbours resource: add the Spatial system
//     before Perception.
func (s *Perception) Initialize(w *arche.World) {
	s.clock = mustClock(w, "Perception")
	s.grid = mustGrid(w, "Perception")
	s.sight = sharedWalls(w)
	s.nb = mustNeighbours(w, "Perception")
	markInstalled(w, sysPerception)
	s.ran.Join(w, s)
	s.filter = generic.NewFilter6[components.Position, components.Faction, components.Perception, components.Think, components.Velocity,
		components.Blackboard]().
		Optional(generic.T[components.Velocity](), generic.T[components.Blackboard]())
	s.pool = reopenPool(s.pool, s.Workers)
	s.scratch = make([]perceiveScratch, s.pool.N())
	s.foes.resize(s.grid.Width(), s.grid.Height(), s.pool.N())
	s.neutral.init()
	s.found, s.boards, s.lists = nil, nil, 0
	s.qpos = make([]int, s.pool.N())
	s.cols.reset() // a second world (a level restart) registers its own columns
	s.cols.column(arche.ComponentID[components.Position](w), unsafe.Sizeof(components.Position{}))
	s.cols.column(arche.ComponentID[components.Faction](w), unsafe.Sizeof(components.Faction{}))
	s.cols.column(arche.ComponentID[components.Perception](w), unsafe.Sizeof(components.Perception{}))
	s.cols.column(arche.ComponentID[components.Think](w), unsafe.Sizeof(components.Think{}))
	s.cols.column(arche.ComponentID[components.Velocity](w), unsafe.Sizeof(components.Velocity{}))
	s.cols.column(arche.ComponentID[components.Blackboard](w), unsafe.Sizeof(components.Blackboard{}))
}

// Update perceives for the agents due to think.
//
// Three passes on the workers. In the first, the workers claim the foe
// index's counting chunks (contiguous ranges of hash IDs, one per worker:
// the index is the same for any number of workers) and then blocks of
// findBlock agents of the query, whose due agents they note (the calling
// goroutine records the query's archetypes first; each worker steps a
// query of its own to its due agents' entities, forward only, as its claims
// come in query order): one hand-off for both jobs, and whoever is free
// takes the next item, so a worker that starts late or runs slower does not
// hold the pass up. Then the index is built, and the workers claim blocks of
// the perceivers (blockRun). Nothing runs per agent on the calling
// goroutine but the blackboard keys.
func (s *Perception) Update(w *arche.World) {
	s.ran.Mark(w)
	mustInitialized(s.filter, s.finalized, "Perception")
	q := s.filter.Query(w)
	s.cols.scanRuns(w, &q.Query) // closes q; no entity read here
	s.n = s.cols.count
	// the find phase runs on the workers from lightParallelMin agents on,
	// else on this goroutine: one query per worker that may run
	k := 1
	if s.n >= lightParallelMin {
		k = s.pool.N()
	}
	s.qs = openQueries(s.qs, w, s.filter.Filter(w), k)
	// with the find pass on the workers, the foe index is counted in it too
	// (its first items)
	counted := k > 1 && len(s.nb.Positions) >= lightParallelMin
	s.phase = pePhaseFind
	if k == 1 {
		s.useLists(1)
		s.qpos[0] = -1
		s.find(0, 0, 0, s.n)
	} else {
		s.counts = 0
		if counted {
			s.foes.begin(s.nb, s.pool.N())
			s.counts = s.pool.N()
		}
		s.useLists((s.n + findBlock - 1) / findBlock)
		for i := range s.qpos {
			s.qpos[i] = -1
		}
		s.blocks.runOrdered(s.pool, s, s.counts+s.lists, 1)
	}
	s.qs = closeQueries(s.qs)
	total := 0
	for i := range s.found[:s.lists] {
		total += len(s.found[i].v)
	}
	s.Checked = total
	if total == 0 {
		if counted {
			s.foes.drop() // nobody to perceive: the index is not finished
		}
		return
	}
	s.grid.Prepare() // lazy caches built here, not raced over by the workers
	s.sight.update(s.grid)
	s.phase = pePhaseIndex
	if !counted {
		s.foes.begin(s.nb, s.pool.N())
	}
	s.foes.finish(s.nb, s.pool.N(), s.runIndex, counted)
	s.foes.neutral = s.neutral.mark(w, s.nb)
	for k := range s.scratch { // grown once: every foe a candidate
		if sc := &s.scratch[k]; cap(sc.cands) < len(s.foes.items) {
			sc.cands = make([]foeCandidate, 0, len(s.foes.items)+len(s.foes.items)/4)
		}
	}
	s.phase = pePhasePerceive
	s.blocks.runOrdered(s.pool, s, total, perceiveBlock)
	// blackboard keys on this goroutine, in query order: resolving a
	// schema's keys is not safe on several at once
	for i := range s.boards[:s.lists] {
		for _, p := range s.boards[i].v {
			s.keysOf(p.bb.Store.Schema()).write(p.bb.Store, p.per)
		}
	}
	for i := range s.found[:s.lists] { // keep no component pointer past the Update (found: cleared by Work)
		s.found[i].v = s.found[i].v[:0]
		clear(s.boards[i].v)
		s.boards[i].v = s.boards[i].v[:0]
	}
}

// findBlock is the agents of the query a worker claims at a time in the
// find pass: a few tens of microseconds of work. A variable only so tests
// can make many blocks of a small crowd.
var findBlock = 4096

// useLists readies found and boards for n find blocks (grown once).
func (s *Perception) useLists(n int) {
	for len(s.found) < n {
		s.found = append(s.found, perceivers{})
		s.boards = append(s.boards, perceivers{})
	}
	s.lists = n
}

// runIndex runs the foe index's build phase over [0, n) on the workers.
func (s *Perception) runIndex(n int) { runLight(s.pool, s, n) }

// Work implements ecs.Job: in the find phase, item lo (a counting chunk of
// the foe index, or a find block); while the foe index is built, its phase
// over hash IDs [lo, hi); then the perceptions of this frame's perceivers
// [lo, hi), a claimed block (the find blocks' lists one after another, in
// query order).
func (s *Perception) Work(worker, lo, hi int) {
	switch s.phase {
	case pePhaseFind: // one claimed item: a counting chunk, or a find block
		if lo < s.counts {
			s.foes.countChunk(s.nb, lo, s.counts)
			return
		}
		b := lo - s.counts
		s.find(worker, b, b*findBlock, min((b+1)*findBlock, s.n))
		return
	case pePhaseIndex:
		s.foes.work(s.nb, worker, lo, hi)
		return
	}
	now := s.clock.Time
	sc := &s.scratch[worker]
	if cap(sc.targets) < targetBatch {
		sc.targets = make([]pendingTarget, 0, targetBatch) // once per worker
	}
	off := 0
	for i := range s.found[:s.lists] {
		list := s.found[i].v
		a, b := max(lo, off), min(hi, off+len(list))
		for k := a; k < b; k++ {
			p := &list[k-off]
			var v r2.Vec
			if p.vel != nil {
				v = p.vel.Vec
			}
			s.perceive(p.per, p.e, p.pos.Vec, v, p.fac.Team, now, sc)
			*p = perceiver{} // keep no component pointer past the Update (cleared here, on the workers)
			if len(sc.targets) == targetBatch {
				s.setTargets(sc)
			}
		}
		off += len(list)
		if off >= hi {
			break
		}
	}
	s.setTargets(sc)
}

// find notes the agents of the query's [lo, hi) due to perceive (see
// Update) in the found list of find block list, marks their Perception
// fresh, and reads their entities by stepping worker's query from one to
// the next (forward: a worker's blocks come in query order).
func (s *Perception) find(worker, list, lo, hi int) {
	c := &s.cols
	now, dt := s.clock.Time, s.clock.DT
	found, boards := s.found[list].v[:0], s.boards[list].v[:0]
	if cap(found) < hi-lo { // its whole range may be due: grown once
		found = make([]perceiver, 0, hi-lo+(hi-lo)/4)
	}
	q := &s.qs[worker]
	prev := s.qpos[worker]
	limit := dueLimit(now, dt)
	for r := c.run(lo, 0); r < len(c.runs) && c.runs[r].start < hi; r++ {
		// the run's columns cut to [lo, hi): element k is query index a+k
		start := c.runs[r].start
		a, b := max(lo, start)-start, min(hi, c.end(r, s.n))-start
		ths := columnOf[components.Think](c, r, peThink, s.n)[a:b]
		pers := columnOf[components.Perception](c, r, pePerception, s.n)[a:b]
		pers = pers[:len(ths)]
		pos := columnOf[components.Position](c, r, pePos, s.n)[a:b]
		facs := columnOf[components.Faction](c, r, peFaction, s.n)[a:b]
		vels := cut(columnOf[components.Velocity](c, r, peVelocity, s.n), a, b)
		bbs := cut(columnOf[components.Blackboard](c, r, peBlackboard, s.n), a, b)
		for k := nextDue(ths, 0, now, limit); k < len(ths); k = nextDue(ths, k+1, now, limit) {
			per := &pers[k]
			if per.Fresh {
				continue // perceived already for a think the budget held back
			}
			per.Time, per.Fresh = now, true
			i := start + a + k
			q.Step(i - prev)
			prev = i
			p := perceiver{e: q.Entity(), per: per, pos: &pos[k], fac: &facs[k]}
			if vels != nil {
				p.vel = &vels[k]
			}
			if bbs != nil {
				p.bb = &bbs[k]
			}
			found = append(found, p)
			if p.bb != nil && p.bb.Store != nil && p.bb.Store.Schema() != nil { // a zero Store has no keys
				if cap(boards) < hi-lo {
					boards = append(make([]perceiver, 0, hi-lo+(hi-lo)/4), boards...) // grown once
				}
				boards = append(boards, p)
			}
		}
	}
	s.found[list].v, s.boards[list].v = found, boards
	s.qpos[worker] = prev
}

// setTargets writes the Target entity of the perceptions pending in sc. A
// target's entry in Neighbours.Entities is anywhere in it, a cache miss;
// read one after another, with nothing depending on them, the misses
// overlap instead of stalling each perception in turn.
func (s *Perception) setTargets(sc *perceiveScratch) {
	for _, t := range sc.targets {
		t.per.Target = s.nb.Entities[t.id]
	}
	clear(sc.targets) // keep no component pointer
	sc.targets = sc.targets[:0]
}

// perceive finds the target of the agent self at pos: the nearest agent of
// another team in range, in the field of view and in line of sight, of
// equals (squared distances) the lowest entity ID (foeIndex.nearest); with a
// TargetMargin m > 0, the last target while it is visible (foeIndex.sees) at
// distance dk, unless a visible foe is within dk − m (the nearest of them).
func (s *Perception) perceive(per *components.Perception, self arche.Entity, pos, vel r2.Vec, team uint8, now float64, sc *perceiveScratch) {
	if vel.X != 0 || vel.Y != 0 {
		per.Heading = vel
	}
	// cos of half the field of view; -2 accepts every direction
	cosHalf := -2.0
	if fov := per.FieldOfView; fov > 0 && fov < 2*math.Pi && (per.Heading.X != 0 || per.Heading.Y != 0) {
		if !sameBits(fov, sc.fov) { // agents mostly share a field of view: one Cos per worker and value
			sc.fov, sc.cosHalf = fov, detmath.Cos(fov/2)
		}
		cosHalf = sc.cosHalf
	}
	hn := -1.0 // the heading's norm: found by nearest if a field of view test needs it
	var id int32
	var d float64
	var at r2.Vec
	selfID := s.nb.ID(self)
	if m := per.TargetMargin; m > 0 && per.Visible && per.Target != (arche.Entity{}) {
		// target selection hysteresis: the last target, if still visible, is
		// kept unless a foe within its distance less the margin is visible (the
		// nearest search bounded so: a smaller search than over SightRange)
		if kid, kd2, kat := s.foes.sees(s.nb, s.nb.ID(per.Target), pos, per.SightRange, team, selfID, cosHalf, per.Heading, s.sight, s.grid); kid >= 0 {
			kd := math.Sqrt(kd2)
			id = -1
			if r := kd - m; r >= 0 {
				id, d, at, sc.cands = s.foes.nearest(pos, r, team, selfID, cosHalf, per.Heading, hn, sc.cands, s.sight, s.grid)
			}
			// a margin below half an ulp of kd leaves r = kd: a foe at kd
			// itself (of a lower ID) is not nearer, and the target is kept
			if id < 0 || !(d < kd) {
				id, d, at = kid, kd, kat
			}
			s.seen(per, id, d, at, now, sc)
			return
		}
	}
	id, d, at, sc.cands = s.foes.nearest(pos, per.SightRange, team, selfID, cosHalf, per.Heading, hn, sc.cands, s.sight, s.grid)
	if id < 0 {
		per.Visible = false
		per.Target = arche.Entity{}
		return
	}
	s.seen(per, id, d, at, now, sc)
}

// seen records that the perceiver per sees the agent of hash ID id at at,
// distance d.
func (s *Perception) seen(per *components.Perception, id int32, d float64, at r2.Vec, now float64, sc *perceiveScratch) {
	per.Visible = true
	// per.Target = s.nb.Entities[id], written by setTargets
	sc.targets = append(sc.targets, pendingTarget{per: per, id: id})
	per.TargetAt = at // s.nb.Positions[id], read from the index
	per.Distance = d
	per.HasLastSeen = true
	per.LastSeen = per.TargetAt
	per.LastSeenTime = now
}

// Finalize releases the workers and the filters; Update panics until the next
// Initialize (see lifecycle.go).
func (s *Perception) Finalize(w *arche.World) {
	if s.filter != nil { // not if never initialized, or finalized already
		s.pool.Close()
		s.filter, s.finalized = nil, true
	}
	s.ran.Leave()
	markFinalized(w, sysPerception)
}
