package systems

import (
	"math"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/nav/spatial"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// Neighbours is the world resource that [Spatial] rebuilds every frame: a
// spatial hash over every agent (an entity with a Position and a Velocity),
// and, per hash ID, the agent's entity, position, velocity and team (0 for
// agents without a Faction). Hash IDs follow the hash's buckets
// ([spatial.Hash.BuildSorted]): agents near each other in space are near each
// other in these arrays, so the systems that read a neighbour's data after a
// query read memory in order.
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
	if i := int(e.ID()); i < len(r.byEntity) {
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
// It gathers the agents on the calling goroutine (an Arche query), then
// sorts them into the hash's buckets over Workers goroutines (0:
// runtime.GOMAXPROCS) with [spatial.Hash.BuildSorted], a counting sort with
// per-worker counts over contiguous ranges of agents, and stores the
// Neighbours arrays in that order; the result is the same for any number of
// workers, and a warm rebuild allocates nothing.
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
//	Faction                        opt-out: team 0                        -
//	Position NaN/Inf               left out of the hash (Skipped)         CausePosition
//	Velocity NaN/Inf               recorded as zero                       CauseVelocity
type Spatial struct {
	CellSize float64 // hash bucket size in cells; 4 if zero
	Workers  int     // goroutines for the counting sort; 0 means runtime.GOMAXPROCS

	res    *Neighbours
	filter *generic.Filter3[components.Position, components.Velocity, components.Faction]
	pool   *ecs.Workers
	parts  partJob
	run    spatial.Runner // s.runParts, made once
	in     Neighbours     // this frame's agents in query order, before the sort
	order  []int32        // the hash's order: in's index of hash ID j
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

// Initialize creates the Neighbours resource sized to the grid resource.
//
// Panics:
//   - if the world has no *grid.Grid resource: add one with
//     arche.AddResource before Initialize.
func (s *Spatial) Initialize(w *arche.World) {
	if s.CellSize <= 0 {
		s.CellSize = 4
	}
	g := mustGrid(w, "Spatial")
	s.res = &Neighbours{Hash: spatial.NewHash(s.CellSize, float64(g.Width()), float64(g.Height()))}
	arche.AddResource(w, s.res)
	s.filter = generic.NewFilter3[components.Position, components.Velocity, components.Faction]().
		Optional(generic.T[components.Faction]())
	s.pool = ecs.NewWorkers(s.Workers)
	s.run = s.runParts
}

// Update rebuilds the hash.
func (s *Spatial) Update(w *arche.World) {
	r, in := s.res, &s.in
	for _, e := range r.Entities { // forget last frame's agents, some of them gone
		r.byEntity[e.ID()] = -1
	}
	in.Entities, in.Positions, in.Velocities, in.Teams = in.Entities[:0], in.Positions[:0], in.Velocities[:0], in.Teams[:0]
	r.Skipped = 0
	maxID := -1
	q := s.filter.Query(w)
	for q.Next() {
		p, v, f := q.Get()
		if !finiteVec(p.Vec) {
			r.Skipped++ // nobody can be near it: left out, so it never poisons a neighbour's forces
			continue
		}
		vel := v.Vec
		if !finiteVec(vel) {
			vel = r2.Vec{} // as Movement will make it
		}
		var team uint8
		if f != nil {
			team = f.Team
		}
		e := q.Entity()
		in.Entities = append(in.Entities, e)
		in.Positions = append(in.Positions, p.Vec)
		in.Velocities = append(in.Velocities, vel)
		in.Teams = append(in.Teams, team)
		maxID = max(maxID, int(e.ID()))
	}
	for maxID >= len(r.byEntity) {
		r.byEntity = append(r.byEntity, -1)
	}
	// hash ID j is the j-th agent in bucket order: in.X[order[j]] → r.X[j]
	s.order = r.Hash.BuildSorted(in.Positions, s.pool.N(), s.run)
	n := len(in.Entities)
	r.Entities, r.Positions, r.Velocities, r.Teams = grow(r.Entities, n), grow(r.Positions, n), grow(r.Velocities, n), grow(r.Teams, n)
	s.pool.Run(s, n)
}

// Work implements ecs.Job: it moves the agents [lo, hi) of the hash's order
// into the Neighbours arrays.
func (s *Spatial) Work(_, lo, hi int) {
	r, in := s.res, &s.in
	for j := lo; j < hi; j++ {
		i := s.order[j]
		e := in.Entities[i]
		r.Entities[j], r.Positions[j], r.Velocities[j], r.Teams[j] = e, in.Positions[i], in.Velocities[i], in.Teams[i]
		r.byEntity[e.ID()] = int32(j)
	}
}

// Finalize stops the workers.
func (s *Spatial) Finalize(w *arche.World) { s.pool.Close() }

// mustGrid returns the world's *grid.Grid resource for the system named sys.
//
// Panics if there is none.
func mustGrid(w *arche.World, sys string) *grid.Grid {
	g := ecs.Resource[grid.Grid](w)
	if g == nil {
		panic("systems: " + sys + " needs the map: the world has no *grid.Grid resource; add one with arche.AddResource(w, g) before Initialize")
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
		panic("systems: " + sys + " needs the simulation clock: the world has no *ecs.Clock resource; add ecs.NewClockSystem(dt) as the first system (or add an *ecs.Clock resource that you advance each frame)")
	}
	return c
}

// mustNeighbours returns the world's *Neighbours resource for the system named sys.
//
// Panics if there is none.
func mustNeighbours(w *arche.World, sys string) *Neighbours {
	nb := ecs.Resource[Neighbours](w)
	if nb == nil {
		panic("systems: " + sys + " needs the Neighbours resource: add the Spatial system before " + sys)
	}
	return nb
}

func finiteVec(v r2.Vec) bool {
	return !math.IsNaN(v.X) && !math.IsNaN(v.Y) && !math.IsInf(v.X, 0) && !math.IsInf(v.Y, 0)
}
