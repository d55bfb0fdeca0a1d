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
// agents without a Faction).
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
// runtime.GOMAXPROCS) with [spatial.Hash.BuildFrom], a counting sort with
// per-worker counts over contiguous ranges of agents; the hash is the same
// for any number of workers, and a warm rebuild allocates nothing.
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
//     arche.AddResource before Initialize.
func (s *Spatial) Initialize(w *arche.World) {
	if s.CellSize <= 0 {
		s.CellSize = 4
	}
	g := mustGrid(w, "Spatial")
	markInstalled(w, sysSpatial)
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
	s.pool = ecs.NewWorkers(s.Workers)
	s.run = s.runParts
}

// Update rebuilds the hash.
func (s *Spatial) Update(w *arche.World) {
	r := s.res
	for _, e := range r.Entities { // forget last frame's agents, some of them gone
		r.byEntity[e.ID()] = -1
	}
	r.Entities, r.Positions, r.Velocities, r.Teams = r.Entities[:0], r.Positions[:0], r.Velocities[:0], r.Teams[:0]
	r.Skipped = 0
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
		id := int32(len(r.Entities))
		var team uint8
		if f != nil {
			team = f.Team
		}
		r.Entities = append(r.Entities, q.Entity())
		r.Positions = append(r.Positions, p.Vec)
		r.Velocities = append(r.Velocities, vel)
		r.Teams = append(r.Teams, team)
		e := q.Entity().ID()
		for int(e) >= len(r.byEntity) {
			r.byEntity = append(r.byEntity, -1)
		}
		r.byEntity[e] = id
	}
	// hash ID i is Positions[i]
	r.Hash.BuildFrom(r.Positions, s.pool.N(), s.run)
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
