package systems

import (
	"math"

	"github.com/archai-go/archai/ai/blackboard"
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
// seen.
//
// Work is split over Workers goroutines (0: runtime.GOMAXPROCS); the result
// does not depend on their number. Needs the [Neighbours] resource ([Spatial]
// must run first).
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
	jobs    []perceiveJob
	scratch [][]int32
	order   spatialOrder
	visit   []int32 // jobs in spatial order
}

type perceiveJob struct {
	self arche.Entity
	pos  r2.Vec
	vel  r2.Vec
	team uint8
	per  *components.Perception

	store *blackboard.Store // nil without a Blackboard
	keys  *perceptionKeys
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
	s.filter = generic.NewFilter6[components.Position, components.Faction, components.Perception, components.Think, components.Velocity,
		components.Blackboard]().
		Optional(generic.T[components.Velocity](), generic.T[components.Blackboard]())
	s.pool = ecs.NewWorkers(s.Workers)
	s.scratch = make([][]int32, s.pool.N())
}

// Update perceives for the agents due to think.
func (s *Perception) Update(w *arche.World) {
	now, dt := s.clock.Time, s.clock.DT
	s.jobs = s.jobs[:0]
	q := s.filter.Query(w)
	for q.Next() {
		pos, fac, per, th, vel, bb := q.Get()
		if !Due(th, now, dt) || per.Fresh {
			continue // not due, or perceived already for a think the budget held back
		}
		per.Time, per.Fresh = now, true
		j := perceiveJob{self: q.Entity(), pos: pos.Vec, team: fac.Team, per: per}
		if vel != nil {
			j.vel = vel.Vec
		}
		if bb != nil && bb.Store != nil && bb.Store.Schema() != nil { // a zero Store has no keys
			j.store, j.keys = bb.Store, s.keysOf(bb.Store.Schema())
		}
		s.jobs = append(s.jobs, j)
	}
	s.Checked = len(s.jobs)
	s.grid.Prepare() // lazy caches built here, not raced over by the workers
	s.visit = nil
	if s.nb.Hash.Len() >= spatialOrderMin {
		s.visit = s.order.sort(s.nb.Hash, len(s.jobs), func(i int) r2.Vec { return s.jobs[i].pos })
	}
	s.pool.Run(s, len(s.jobs))
}

// Work implements ecs.Job.
func (s *Perception) Work(worker, lo, hi int) {
	now := s.clock.Time
	buf := s.scratch[worker]
	for k := lo; k < hi; k++ {
		i := k
		if s.visit != nil {
			i = int(s.visit[k])
		}
		j := &s.jobs[i]
		buf = s.perceive(j, now, buf)
		if j.store != nil {
			j.keys.write(j.store, j.per)
		}
	}
	s.scratch[worker] = buf
}

func (s *Perception) perceive(j *perceiveJob, now float64, buf []int32) []int32 {
	nb, per := s.nb, j.per
	if j.vel.X != 0 || j.vel.Y != 0 {
		per.Heading = j.vel
	}
	// cos of half the field of view; -2 accepts every direction
	cosHalf := -2.0
	if fov := per.FieldOfView; fov > 0 && fov < 2*math.Pi && (per.Heading.X != 0 || per.Heading.Y != 0) {
		cosHalf = math.Cos(fov / 2)
	}
	hn := math.Hypot(per.Heading.X, per.Heading.Y)
	buf = nb.Hash.Query(j.pos, per.SightRange, buf[:0])
	best, bestD := int32(-1), math.Inf(1)
	for _, id := range buf {
		if nb.Teams[id] == j.team || nb.Entities[id] == j.self {
			continue
		}
		d := r2.Sub(nb.Positions[id], j.pos)
		dist := math.Sqrt(d.X*d.X + d.Y*d.Y)
		if dist >= bestD {
			continue
		}
		if cosHalf > -2 && dist > 0 && r2.Dot(d, per.Heading) < cosHalf*dist*hn {
			continue
		}
		if !s.grid.LineOfSight(j.pos, nb.Positions[id]) {
			continue
		}
		best, bestD = id, dist
	}
	if best < 0 {
		per.Visible = false
		per.Target = arche.Entity{}
		return buf
	}
	per.Visible = true
	per.Target = nb.Entities[best]
	per.TargetAt = nb.Positions[best]
	per.Distance = bestD
	per.HasLastSeen = true
	per.LastSeen = per.TargetAt
	per.LastSeenTime = now
	return buf
}

// Finalize stops the workers.
func (s *Perception) Finalize(w *arche.World) { s.pool.Close() }
