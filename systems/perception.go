package systems

import (
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
// with the think rate. It picks the nearest agent of another team within
// SightRange, inside the field of view (FieldOfView around Heading, which
// follows the agent's last non-zero Velocity) and in line of sight over the
// grid ([grid.Grid.LineOfSight]), and remembers where and when a foe was last
// seen. Of foes at the same distance it picks the one with the lowest entity
// ID, so the choice does not depend on Arche's storage order (which differs
// after a world is loaded).
//
// The search reads Perception's own bucket grid of this frame's
// [Neighbours], split by team (an agent reads only the other teams' agents in
// the buckets within SightRange), and walks lines of sight nearest candidate
// first, stopping at the first clear one; a line of sight inside a rectangle
// of open cells is known clear without walking it (a summed-area table of
// blocked cells, rebuilt when the grid changes). The result is exactly that
// of testing every agent in range (a test holds it to that).
//
// Work is split over Workers goroutines (0: runtime.GOMAXPROCS), each taking
// a contiguous range of the query's agents: it finds those due and perceives
// for them in place; the result does not depend on their number. Needs the
// [Neighbours] resource ([Spatial] must run first). A warm frame allocates
// nothing.
//
// The agent's [components.Blackboard] is optional: when its schema declares
// the well-known keys ([KeyTarget], [KeyTargetVisible], ... see
// [DeclarePerceptionKeys]), each perception also writes those keys, so
// data-driven trees read the facts through ports. A key the schema declares
// with another type is not written and is reported in KeyError.
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
//	Velocity                       opt-out: Heading stays as set          -
//	Blackboard                     opt-out: no keys written               -
//	Think.Frozen                   opt-out (LOD): not perceived           -
type Perception struct {
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
	cols    columns // the query's components, read by the workers
	n       int     // agents in this frame's query
	foes    foeIndex
	indexed bool // Work builds the foe index (else it perceives)
	sight   openCells
	scratch []perceiveScratch // per worker
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

// perceiveScratch is one worker's buffers and counts.
type perceiveScratch struct {
	checked int
	boards  []int32 // query indices of this frame's perceivers with blackboard keys to write
	cands   []foeCandidate
	_       [64]byte
}

// Name implements ecs.Namer.
func (s *Perception) Name() string { return "perception" }

// Initialize finds the resources and starts the workers.
//
// Panics:
//   - if the world has no *ecs.Clock resource: add ecs.NewClockSystem(dt) as
//     the first system;
//   - if the world has no *grid.Grid resource: add one with
//     arche.AddResource before Initialize;
//   - if the world has no *Neighbours resource: add the Spatial system
//     before Perception.
func (s *Perception) Initialize(w *arche.World) {
	s.clock = mustClock(w, "Perception")
	s.grid = mustGrid(w, "Perception")
	s.nb = mustNeighbours(w, "Perception")
	markInstalled(w, sysPerception)
	s.filter = generic.NewFilter6[components.Position, components.Faction, components.Perception, components.Think, components.Velocity,
		components.Blackboard]().
		Optional(generic.T[components.Velocity](), generic.T[components.Blackboard]())
	s.pool = ecs.NewWorkers(s.Workers)
	s.scratch = make([]perceiveScratch, s.pool.N())
	s.foes.resize(s.grid.Width(), s.grid.Height(), s.pool.N())
	s.cols.column(arche.ComponentID[components.Position](w), unsafe.Sizeof(components.Position{}))
	s.cols.column(arche.ComponentID[components.Faction](w), unsafe.Sizeof(components.Faction{}))
	s.cols.column(arche.ComponentID[components.Perception](w), unsafe.Sizeof(components.Perception{}))
	s.cols.column(arche.ComponentID[components.Think](w), unsafe.Sizeof(components.Think{}))
	s.cols.column(arche.ComponentID[components.Velocity](w), unsafe.Sizeof(components.Velocity{}))
	s.cols.column(arche.ComponentID[components.Blackboard](w), unsafe.Sizeof(components.Blackboard{}))
}

// Update perceives for the agents due to think.
func (s *Perception) Update(w *arche.World) {
	q := s.filter.Query(w)
	s.n = q.Count()
	s.cols.scan(&q.Query)
	if s.n == 0 {
		s.Checked = 0
		return
	}
	s.grid.Prepare() // lazy caches built here, not raced over by the workers
	s.sight.update(s.grid)
	s.indexed = true
	s.foes.build(s.nb, s.pool.N(), s.runIndex)
	s.indexed = false
	for k := range s.scratch { // grown once: every foe a candidate, every agent a board
		if sc := &s.scratch[k]; cap(sc.cands) < len(s.foes.items) {
			sc.cands = make([]foeCandidate, 0, len(s.foes.items)+len(s.foes.items)/4)
		}
	}
	s.pool.Run(s, s.n)
	s.Checked = 0
	for k := range s.scratch {
		sc := &s.scratch[k]
		s.Checked += sc.checked
		sc.checked = 0
		// blackboard keys on this goroutine: resolving a schema's keys is not
		// safe on several at once
		for _, i := range sc.boards {
			r := s.cols.run(int(i), 0)
			bb := (*components.Blackboard)(s.cols.at(r, peBlackboard, int(i)))
			per := (*components.Perception)(s.cols.at(r, pePerception, int(i)))
			s.keysOf(bb.Store.Schema()).write(bb.Store, per)
		}
		sc.boards = sc.boards[:0]
	}
}

// runIndex runs the foe index's build phase over [0, n) on the workers.
func (s *Perception) runIndex(n int) { runLight(s.pool, s, n) }

// Work implements ecs.Job: while the foe index is built, its phase over
// hash IDs [lo, hi); then the perceptions of the query's agents [lo, hi)
// that are due.
func (s *Perception) Work(worker, lo, hi int) {
	if s.indexed {
		s.foes.work(s.nb, worker, lo, hi)
		return
	}
	now, dt := s.clock.Time, s.clock.DT
	sc := &s.scratch[worker]
	c := &s.cols
	for r := c.run(lo, 0); r < len(c.runs) && c.runs[r].start < hi; r++ {
		start := c.runs[r].start
		pos := columnOf[components.Position](c, r, pePos, s.n)
		fac := columnOf[components.Faction](c, r, peFaction, s.n)
		pers := columnOf[components.Perception](c, r, pePerception, s.n)
		ths := columnOf[components.Think](c, r, peThink, s.n)
		vel := columnOf[components.Velocity](c, r, peVelocity, s.n)
		bbs := columnOf[components.Blackboard](c, r, peBlackboard, s.n)
		for i := max(lo, start); i < min(hi, c.end(r, s.n)); i++ {
			k := i - start
			per := &pers[k]
			if !Due(&ths[k], now, dt) || per.Fresh {
				continue // not due, or perceived already for a think the budget held back
			}
			per.Time, per.Fresh = now, true
			sc.checked++
			var v r2.Vec
			if vel != nil {
				v = vel[k].Vec
			}
			s.perceive(per, c.ents[i], pos[k].Vec, v, fac[k].Team, now, sc)
			if bbs != nil {
				if bb := &bbs[k]; bb.Store != nil && bb.Store.Schema() != nil { // a zero Store has no keys
					if cap(sc.boards) < hi-lo { // its whole range may have boards: grown once
						sc.boards = make([]int32, 0, hi-lo+(hi-lo)/4)
					}
					sc.boards = append(sc.boards, int32(i))
				}
			}
		}
	}
}

// perceive finds the target of the agent self at pos: the nearest agent of
// another team in range, in the field of view and in line of sight, of
// equals the lowest entity ID (foeIndex.nearest).
func (s *Perception) perceive(per *components.Perception, self arche.Entity, pos, vel r2.Vec, team uint8, now float64, sc *perceiveScratch) {
	if vel.X != 0 || vel.Y != 0 {
		per.Heading = vel
	}
	// cos of half the field of view; -2 accepts every direction
	cosHalf := -2.0
	if fov := per.FieldOfView; fov > 0 && fov < 2*math.Pi && (per.Heading.X != 0 || per.Heading.Y != 0) {
		cosHalf = math.Cos(fov / 2)
	}
	hn := math.Hypot(per.Heading.X, per.Heading.Y)
	var id int32
	var d float64
	id, d, sc.cands = s.foes.nearest(pos, per.SightRange, team, s.nb.ID(self), cosHalf, per.Heading, hn, sc.cands, &s.sight, s.grid)
	if id < 0 {
		per.Visible = false
		per.Target = arche.Entity{}
		return
	}
	per.Visible = true
	per.Target = s.nb.Entities[id]
	per.TargetAt = s.nb.Positions[id]
	per.Distance = d
	per.HasLastSeen = true
	per.LastSeen = per.TargetAt
	per.LastSeenTime = now
}

// Finalize stops the workers.
func (s *Perception) Finalize(w *arche.World) { s.pool.Close() }
