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
// The search visits the hash's buckets within SightRange nearest first
// ([spatial.Hash.Nearest]) and tests the field of view and line of sight only
// for agents that would be nearer than the best so far; a line of sight
// inside a rectangle of open cells is known clear without walking it (a
// summed-area table of blocked cells, rebuilt when the grid changes). Both
// give exactly the result of testing every agent in range in the hash's
// order (a test holds them to it).
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
	keys  []*perceptionKeys // per schema seen
	pool  *ecs.Workers
	jobs  []perceiveJob
	order spatialOrder
	visit []int32   // jobs in spatial order
	sight openCells // the grid's blocked cells, summed by rectangle
}

// perceiveJob is one agent's perception. The component is copied in while
// the query runs (in storage order) and back after the workers are done, so
// the workers, visiting jobs in spatial order, touch the job alone.
type perceiveJob struct {
	self arche.Entity
	pos  r2.Vec
	vel  r2.Vec
	team uint8
	per  *components.Perception // the component, written back from state
	out  components.Perception  // its copy, which the workers update

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
	markInstalled(w, sysPerception)
	s.filter = generic.NewFilter6[components.Position, components.Faction, components.Perception, components.Think, components.Velocity,
		components.Blackboard]().
		Optional(generic.T[components.Velocity](), generic.T[components.Blackboard]())
	s.pool = ecs.NewWorkers(s.Workers)
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
		j := perceiveJob{self: q.Entity(), pos: pos.Vec, team: fac.Team, per: per, out: *per}
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
	s.sight.update(s.grid)
	s.visit = nil
	if s.nb.Hash.Len() >= spatialOrderMin {
		s.visit = s.order.sort(s.nb.Hash, len(s.jobs), func(i int) r2.Vec { return s.jobs[i].pos })
	}
	s.pool.Run(s, len(s.jobs))
	for i := range s.jobs {
		j := &s.jobs[i]
		*j.per = j.out
	}
}

// Work implements ecs.Job.
func (s *Perception) Work(worker, lo, hi int) {
	now := s.clock.Time
	for k := lo; k < hi; k++ {
		i := k
		if s.visit != nil {
			i = int(s.visit[k])
		}
		j := &s.jobs[i]
		s.perceive(j, now)
		if j.store != nil {
			j.keys.write(j.store, &j.out)
		}
	}
}

// perceive finds j's target: the nearest agent of another team in range,
// in the field of view and in line of sight, of equals the first in the
// hash's order. [spatial.Hash.Nearest] visits the buckets in range nearest
// first and asks about an agent only if it would beat the best so far, so
// few lines of sight are walked; and a line of sight inside an open rectangle
// of cells is known clear without walking it (sight.clear).
func (s *Perception) perceive(j *perceiveJob, now float64) {
	nb, per := s.nb, &j.out
	if j.vel.X != 0 || j.vel.Y != 0 {
		per.Heading = j.vel
	}
	// cos of half the field of view; -2 accepts every direction
	cosHalf := -2.0
	if fov := per.FieldOfView; fov > 0 && fov < 2*math.Pi && (per.Heading.X != 0 || per.Heading.Y != 0) {
		cosHalf = math.Cos(fov / 2)
	}
	hn := math.Hypot(per.Heading.X, per.Heading.Y)
	best, bestD, found := nb.Hash.Nearest(j.pos, per.SightRange, func(id int32, p r2.Vec, dist float64) bool {
		if nb.Teams[id] == j.team || nb.Entities[id] == j.self {
			return false
		}
		if cosHalf > -2 && dist > 0 && r2.Dot(r2.Sub(p, j.pos), per.Heading) < cosHalf*dist*hn {
			return false
		}
		return s.sight.clear(j.pos, p) || s.grid.LineOfSight(j.pos, p)
	})
	if !found {
		per.Visible = false
		per.Target = arche.Entity{}
		return
	}
	per.Visible = true
	per.Target = nb.Entities[best]
	per.TargetAt = nb.Positions[best]
	per.Distance = bestD
	per.HasLastSeen = true
	per.LastSeen = per.TargetAt
	per.LastSeenTime = now
}

// Finalize stops the workers.
func (s *Perception) Finalize(w *arche.World) { s.pool.Close() }
