package systems

import (
	"math"
	"unsafe"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// Steer is the second stage of movement: it turns each agent's
// [components.Desired] (written by [PathFollow]) into a steering force
// ([components.Steering]), adding the forces of its neighbours and walls.
// The move force, by Desired.Mode, at MaxSpeed times Desired.SpeedFactor:
//
//   - DesiredSeek: seek Point; DesiredArrive: arrive at Point (stop within
//     ArrivedRadius); DesiredFlow: follow the direction towards Point
//     (steer.FollowFlow);
//   - DesiredFlee: flee from Point; DesiredPursue and DesiredEvade: pursue
//     or evade a target at Point moving at Vel (steer.Pursue, steer.Evade,
//     predicting at most MaxLead seconds ahead);
//   - DesiredNone: wander if the agent has a [components.Wanderer] and a
//     [components.Rand], else brake to a stop; DesiredStop: brake.
//
// With [components.SteeringWeights], the forces are combined by priority
// within MaxForce ([steer.Accumulator]): wall avoidance (feelers, tested only
// near a wall: see grid.Grid.Clearance), separation, the move force,
// alignment, cohesion (a wander, the least important, comes last).
//
// Hot loop: the agents' inputs are gathered into one compact array (about
// 120 bytes an agent), sorted by tiles of the map once there are many agents
// (the sort's scattered writes split over the workers), so the workers read
// it front to back and agents visited one after the
// other are neighbours that read the same hash and grid memory; each
// neighbour query is followed at once by the forces that use it. Copying the
// inputs is split over the workers too: one light pass records the query's
// entities and where each archetype's columns start, then each worker copies
// a contiguous range of agents.
//
// Work is split over Workers goroutines (0: runtime.GOMAXPROCS); the result
// does not depend on their number.
//
// Contract (the README's "The user's contract" has the same table):
//
//	requires   Position, Velocity, Kinematics, Desired, Steering
//	optional   SteeringWeights, Wanderer (with Rand)
//	writes     Steering.Force; Wanderer.Angle; Rand
//	resources  *ecs.Clock (ecs.ClockSystem), *grid.Grid,
//	           *Neighbours (the Spatial system, added before Steer)
//
//	absent or unusable             what Steer does                        Diagnose counts
//	a required component           not steered                            CauseSteerIncomplete
//	SteeringWeights                move force only: no walls, no          CauseWeightsMissing
//	                               separation (a crowd stacks up)
//	SteeringWeights all zero       opt-out: the same, chosen              -
//	a weight < 0, NaN or Inf       mixed as given                         CauseWeightsInvalid
//	Wanderer                       opt-out: brakes without a desire       -
//	Wanderer without Rand          brakes                                 CauseWanderNoRand
//	Wanderer Radius/Jitter ≤ 0     stands, goes straight or circles       CauseWanderInvalid
//	MaxSpeed/MaxForce not > 0      force zero: stands still               CauseKinematics
//	  and finite, Radius NaN/Inf
//	Radius ≤ 0                     steers (short wall feelers)            CauseKinematics
//	Position or Velocity NaN/Inf   force zero: stands still               CausePosition, CauseVelocity
//	Desired.Point or Vel NaN/Inf   force zero (NaN forces are dropped)    - (PathFollow never writes one)
type Steer struct {
	Workers int

	clock  *ecs.Clock
	grid   *grid.Grid
	nb     *Neighbours
	pool   *ecs.Workers
	filter *generic.Filter8[components.Position, components.Velocity, components.Kinematics, components.Desired,
		components.Steering, components.SteeringWeights, components.Wanderer, components.Rand]

	agents  []steerAgent                 // the frame's hot state, in visiting order
	weights []components.SteeringWeights // the distinct weights of the frame's agents (each worker's from its range's start)
	wanders []wanderRef                  // the wanderers' state (likewise)
	staged  []steerAgent                 // the agents in query order, before sorting
	keys    []int32                      // per staged agent: its tile, then its place in agents
	starts  []int32                      // per tile: the next free place in agents
	scatter steerScatter
	scratch []steerScratch

	cols        columns // the query's components, read by the gather workers
	gatherJob   steerGather
	dst         []steerAgent // where the gather workers copy to: staged or agents
	sorted      bool
	tcols, rows int      // the tiles of the map, when sorted
	wanderEnd   [][2]int // per worker, the range of s.wanders it filled
}

// steerAgent is one agent's hot state: what its forces read, copied out of
// the components in one pass, and where the force goes.
type steerAgent struct {
	pos, vel    r2.Vec
	point, tvel r2.Vec // Desired.Point and Vel
	kin         components.Kinematics
	factor      float64
	mode        components.DesiredMode
	hasW        bool
	weights     uint32 // index in Steer.weights
	hashID      int32  // the agent's ID in the Neighbours, -1 if not there
	wander      int32  // index in Steer.wanders, -1 for none
	self        uint32 // entity ID, the salt of separation's fallback
	out         *components.Steering
}

type wanderRef struct {
	wa  *components.Wanderer
	rnd *components.Rand
}

type steerScratch struct {
	ids        []int32
	near, vels []r2.Vec
	_          [64]byte // keep workers' buffers off one cache line
}

// Name implements ecs.Namer.
func (s *Steer) Name() string { return "steer" }

// Initialize finds the resources and builds the filter.
//
// Panics:
//   - if the world has no *ecs.Clock resource: add ecs.NewClockSystem(dt) as
//     the first system;
//   - if the world has no *grid.Grid resource: add one with
//     arche.AddResource before Initialize;
//   - if the world has no *Neighbours resource: add the Spatial system
//     before Steer.
func (s *Steer) Initialize(w *arche.World) {
	s.clock = mustClock(w, "Steer")
	s.grid = mustGrid(w, "Steer")
	s.nb = mustNeighbours(w, "Steer")
	markInstalled(w, sysSteer)
	s.filter = generic.NewFilter8[components.Position, components.Velocity, components.Kinematics, components.Desired,
		components.Steering, components.SteeringWeights, components.Wanderer, components.Rand]().
		Optional(generic.T[components.SteeringWeights](), generic.T[components.Wanderer](), generic.T[components.Rand]())
	s.pool = ecs.NewWorkers(s.Workers)
	s.scratch = make([]steerScratch, s.pool.N())
	s.scatter.s = s
	s.gatherJob.s = s
	s.wanderEnd = make([][2]int, s.pool.N())
	s.cols.column(arche.ComponentID[components.Position](w), unsafe.Sizeof(components.Position{}))
	s.cols.column(arche.ComponentID[components.Velocity](w), unsafe.Sizeof(components.Velocity{}))
	s.cols.column(arche.ComponentID[components.Kinematics](w), unsafe.Sizeof(components.Kinematics{}))
	s.cols.column(arche.ComponentID[components.Desired](w), unsafe.Sizeof(components.Desired{}))
	s.cols.column(arche.ComponentID[components.Steering](w), unsafe.Sizeof(components.Steering{}))
	s.cols.column(arche.ComponentID[components.SteeringWeights](w), unsafe.Sizeof(components.SteeringWeights{}))
	s.cols.column(arche.ComponentID[components.Wanderer](w), unsafe.Sizeof(components.Wanderer{}))
	s.cols.column(arche.ComponentID[components.Rand](w), unsafe.Sizeof(components.Rand{}))
}

// Update computes every agent's force.
func (s *Steer) Update(w *arche.World) {
	s.gather(w)
	s.grid.Prepare()
	s.grid.Clearance(grid.Cell{}) // built here, before the workers read it
	s.pool.Run(s, len(s.agents))
	for _, r := range s.wanderEnd { // drop the frame's pointers
		clear(s.wanders[r[0]:r[1]])
	}
}

// gather fills the hot array. With many agents, the array is sorted by tile
// of tileSide×tileSide cells: the workers copy the agents into a staging
// array in query order (each worker a contiguous range, reading the
// components through s.cols), noting each agent's tile; one pass counts the
// agents per tile and gives each its place, and the workers then move each
// agent to its place (a stable counting sort), so the force workers read the
// array front to back and agents visited one after the other are
// neighbours. Fewer agents fit in cache anyway and are filled in query order.
func (s *Steer) gather(w *arche.World) {
	q := s.filter.Query(w)
	n := q.Count()
	s.cols.scan(&q.Query)
	sorted := n >= spatialOrderMin
	s.sorted = sorted
	dst := &s.agents
	if sorted {
		s.tcols, s.rows = (s.grid.Width()+tileSide-1)/tileSide, (s.grid.Height()+tileSide-1)/tileSide
		s.starts = grow(s.starts, s.tcols*s.rows+1)
		clear(s.starts)
		s.keys = grow(s.keys, n)
		dst = &s.staged
	}
	*dst = grow(*dst, n)
	s.agents = grow(s.agents, n)
	s.dst = *dst
	// each worker's distinct weights and wanderers go in its own range of
	// these tables (the indices differ with the number of workers; the
	// values each agent reads do not)
	s.weights = grow(s.weights, n)
	s.wanders = grow(s.wanders, n)
	clear(s.wanderEnd)
	s.pool.Run(&s.gatherJob, n)
	if !sorted {
		return
	}
	for _, k := range s.keys {
		s.starts[k+1]++
	}
	for t := 1; t < len(s.starts); t++ {
		s.starts[t] += s.starts[t-1]
	}
	for i, k := range s.keys { // each agent's place, reusing keys
		s.keys[i] = s.starts[k]
		s.starts[k]++
	}
	s.pool.Run(&s.scatter, n)
}

// steerGather copies agents [lo, hi) of the query into the staging (or hot)
// array, split over the workers.
type steerGather struct{ s *Steer }

// Column indices of Steer's columns.
const (
	stPos = iota
	stVel
	stKin
	stDesired
	stSteering
	stWeights
	stWanderer
	stRand
)

// Work implements ecs.Job.
func (j *steerGather) Work(worker, lo, hi int) {
	s := j.s
	c := &s.cols
	nw, nwa := lo, lo // next free places in s.weights and s.wanders
	n := len(c.ents)
	for r := c.run(lo, 0); r < len(c.runs) && c.runs[r].start < hi; r++ {
		start := c.runs[r].start
		pos := columnOf[components.Position](c, r, stPos, n)
		vel := columnOf[components.Velocity](c, r, stVel, n)
		kin := columnOf[components.Kinematics](c, r, stKin, n)
		des := columnOf[components.Desired](c, r, stDesired, n)
		out := columnOf[components.Steering](c, r, stSteering, n)
		wts := columnOf[components.SteeringWeights](c, r, stWeights, n)
		was := columnOf[components.Wanderer](c, r, stWanderer, n)
		rnd := columnOf[components.Rand](c, r, stRand, n)
		canWander := was != nil && rnd != nil
		for i := max(lo, start); i < min(hi, c.end(r, n)); i++ {
			k := i - start
			d := &des[k]
			e := c.ents[i]
			a := &s.dst[i]
			*a = steerAgent{pos: pos[k].Vec, vel: vel[k].Vec, point: d.Point, tvel: d.Vel,
				kin: kin[k], factor: d.SpeedFactor, mode: d.Mode, hashID: s.nb.ID(e), wander: -1,
				self: e.ID(), out: &out[k]}
			if wts != nil {
				wt := &wts[k]
				// agents of one kind share weights and come one after the
				// other, so comparing with the last distinct value keeps the
				// table short at one comparison an agent
				if nw == lo || s.weights[nw-1] != *wt {
					s.weights[nw] = *wt
					nw++
				}
				a.hasW, a.weights = true, uint32(nw-1)
			}
			if canWander && d.Mode == components.DesiredNone {
				a.wander = int32(nwa)
				s.wanders[nwa] = wanderRef{&was[k], &rnd[k]}
				nwa++
			}
			if s.sorted {
				s.keys[i] = tileOf(pos[k].Vec, s.tcols, s.rows)
			}
		}
	}
	s.wanderEnd[worker] = [2]int{lo, nwa}
}

// steerScatter moves staged agents to their places in the sorted hot array,
// split over the workers (the places are scattered; the writes overlap).
type steerScatter struct{ s *Steer }

// Work implements ecs.Job.
func (j *steerScatter) Work(_, lo, hi int) {
	s := j.s
	for i := lo; i < hi; i++ {
		s.agents[s.keys[i]] = s.staged[i]
	}
}

// tileSide is the side, in cells, of the tiles by which Steer orders agents:
// 8×8 cells hold a few dozen agents of a dense crowd, and the tile counts of
// a large map (832² cells: 10,816 tiles) stay in cache while sorting.
const tileSide = 8

// tileOf returns the index of the tile of p, row by row, clamped to the
// grid's cols×rows tiles (NaN: tile 0).
func tileOf(p r2.Vec, cols, rows int) int32 {
	x, y := p.X/tileSide, p.Y/tileSide
	tx, ty := 0, 0
	if x >= 0 { // false for NaN
		tx = min(int(min(x, float64(cols-1))), cols-1)
	}
	if y >= 0 {
		ty = min(int(min(y, float64(rows-1))), rows-1)
	}
	return int32(ty*cols + tx)
}

// Work implements ecs.Job.
func (s *Steer) Work(worker, lo, hi int) {
	sc := &s.scratch[worker]
	for k := lo; k < hi; k++ {
		a := &s.agents[k]
		a.out.Force = s.force(a, sc)
	}
}

// force returns agent a's steering force.
func (s *Steer) force(a *steerAgent, sc *steerScratch) r2.Vec {
	dt := s.clock.DT
	kin := &a.kin
	if !finiteVec(a.pos) || !finiteVec(a.vel) || !UsableKinematics(kin) {
		return r2.Vec{} // Movement keeps it still; Diagnose counts it
	}
	speed := kin.MaxSpeed
	if a.factor > 0 && a.factor < 1 {
		speed *= a.factor
	}
	wandering := false
	var move r2.Vec
	switch a.mode {
	case components.DesiredSeek:
		move = steer.Seek(a.pos, a.vel, a.point, speed, kin.MaxForce, dt)
	case components.DesiredArrive:
		move = steer.Arrive(a.pos, a.vel, a.point, speed, kin.MaxForce, ArrivedRadius, dt)
	case components.DesiredFlow:
		move = steer.FollowFlow(a.vel, r2.Sub(a.point, a.pos), speed, kin.MaxForce, dt)
	case components.DesiredFlee:
		move = steer.Flee(a.pos, a.vel, a.point, speed, kin.MaxForce, math.Inf(1), dt)
	case components.DesiredPursue:
		move = steer.Pursue(a.pos, a.vel, a.point, a.tvel, speed, kin.MaxForce, MaxLead, dt)
	case components.DesiredEvade:
		move = steer.Evade(a.pos, a.vel, a.point, a.tvel, speed, kin.MaxForce, MaxLead, math.Inf(1), dt)
	case components.DesiredNone:
		if a.wander >= 0 {
			wandering = true
			ref := s.wanders[a.wander]
			move = ref.wa.Force(a.pos, a.vel, &ref.rnd.Rand, kin.MaxSpeed, kin.MaxForce, dt)
			break
		}
		move = steer.Brake(a.vel, kin.MaxForce, dt)
	default: // DesiredStop, and any other value
		move = steer.Brake(a.vel, kin.MaxForce, dt)
	}
	if !a.hasW {
		return steer.Truncate(move, kin.MaxForce)
	}
	return s.combine(a, sc, &s.weights[a.weights], move, wandering, dt)
}

// combine sums the weighted forces by priority within MaxForce: wall
// avoidance, separation, the move force (a wander comes last instead),
// alignment, cohesion.
func (s *Steer) combine(a *steerAgent, sc *steerScratch, wt *components.SteeringWeights, move r2.Vec, wandering bool, dt float64) r2.Vec {
	kin := &a.kin
	acc := steer.Accumulator{Max: kin.MaxForce}
	// a standing agent casts no feelers (steer.WallAvoidance is zero), and one
	// in the open cannot reach a wall with them
	if wt.Wall > 0 && (a.vel.X != 0 || a.vel.Y != 0) && s.nearWall(a.pos, a.vel, kin.Radius) {
		f := steer.WallAvoidance(a.pos, a.vel, s.blocked, feelerTime, 2*kin.Radius+0.25, math.Pi/4, kin.MaxForce)
		if !acc.Add(f, wt.Wall) {
			return acc.Sum
		}
	}
	if wt.Separation > 0 && wt.SeparationRadius > 0 {
		s.neighbours(a, sc, wt.SeparationRadius, false)
		if !acc.Add(steer.Separation(a.pos, sc.near, wt.SeparationRadius, kin.MaxForce, uint64(a.self)), wt.Separation) {
			return acc.Sum
		}
	}
	if !wandering && !acc.Add(move, 1) {
		return acc.Sum
	}
	if (wt.Alignment > 0 || wt.Cohesion > 0) && wt.NeighbourRadius > 0 {
		s.neighbours(a, sc, wt.NeighbourRadius, true)
		if wt.Alignment > 0 && !acc.Add(steer.Alignment(a.vel, sc.vels, kin.MaxForce, dt), wt.Alignment) {
			return acc.Sum
		}
		if wt.Cohesion > 0 && !acc.Add(steer.Cohesion(a.pos, a.vel, sc.near, kin.MaxSpeed, kin.MaxForce, dt), wt.Cohesion) {
			return acc.Sum
		}
	}
	if wandering {
		acc.Add(move, 1)
	}
	return acc.Sum
}

// feelerTime is the lookahead of wall-avoidance feelers, in seconds.
const feelerTime = 0.5

// nearWall reports whether a feeler from pos could reach a blocked cell: the
// clearance of pos's cell is no more than the feeler's length in cells. Most
// agents of a crowd are in the open and skip the feelers.
func (s *Steer) nearWall(pos, vel r2.Vec, radius float64) bool {
	c := s.grid.CellAt(pos)
	if !s.grid.InBounds(c) {
		return true
	}
	length := math.Max(feelerTime*math.Sqrt(vel.X*vel.X+vel.Y*vel.Y), 2*radius+0.25)
	return float64(s.grid.Clearance(c)) <= length+1
}

// blocked adapts the grid for steer.WallAvoidance.
func (s *Steer) blocked(x, y int32) bool { return !s.grid.Passable(grid.Cell{X: x, Y: y}) }

// neighbours fills sc.near (and sc.vels) with the neighbours within radius,
// leaving the agent itself out. Positions come from the hash's sorted copy,
// which agents visited in bucket order read front to back.
func (s *Steer) neighbours(a *steerAgent, sc *steerScratch, radius float64, vels bool) {
	sc.ids, sc.near = s.nb.Hash.QueryPositions(a.pos, radius, sc.ids[:0], sc.near[:0])
	sc.vels = sc.vels[:0]
	k := 0
	for i, id := range sc.ids {
		if id == a.hashID {
			continue
		}
		sc.near[k] = sc.near[i]
		k++
		if vels {
			sc.vels = append(sc.vels, s.nb.Velocities[id])
		}
	}
	sc.near = sc.near[:k]
}

// Finalize stops the workers.
func (s *Steer) Finalize(w *arche.World) { s.pool.Close() }
