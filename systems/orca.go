package systems

import (
	"math"

	"github.com/archai-go/archai/ai/orca"
	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// ORCA is local avoidance by Optimal Reciprocal Collision Avoidance (van den
// Berg, Guy, Lin and Manocha, "Reciprocal n-Body Collision Avoidance", 2011;
// the parameters are those of their RVO2 library; see package [orca]). It
// runs after [Steer] and before [Movement], for the agents with a
// [components.ORCA]:
//
//  1. The preferred velocity is the one Movement would reach with the
//     agent's steering force: Velocity + Steering.Force·dt (the force cut to
//     MaxForce), cut to MaxSpeed.
//  2. The neighbours are the MaxNeighbours agents nearest the agent within
//     NeighbourDist cells (from the [Neighbours] resource: this frame's
//     positions and velocities, so the result does not depend on the order
//     agents are visited in); each neighbour's radius is its
//     Kinematics.Radius (0 without Kinematics). A neighbour with a usable
//     ORCA of its own does half the avoiding; one without (a separation
//     agent, a standing one) is trusted with none of it, and the agent takes
//     all of it. A neighbour at the agent's very point with its very velocity
//     (agents spawned on one spot), for which ORCA has no half-plane, is seen
//     1e-6 cells off, in a direction fixed by the pair and opposite for the
//     two, so that they part. A NeighbourDist over 16 cells is searched in
//     growing circles, stopping at the first that holds more than
//     MaxNeighbours agents (the same neighbours), so a NeighbourDist far
//     beyond the map (1e300) costs about what the nearest agents cost, not a
//     read of every agent for every agent.
//  3. The obstacles are the boundary edges between open and blocked cells (or
//     the grid's border) within ObstacleHorizon·s + Radius cells, s the
//     fastest speed reachable in this step (RVO2 takes MaxSpeed; walls beyond
//     cannot be reached within the horizon by any velocity the agent can
//     take) ([orca.Solver.GridSegments]).
//  4. The new velocity is the one nearest the preferred one (turned by Bias
//     while a neighbour is near) that avoids them all, within MaxSpeed and
//     within MaxForce·dt of the current velocity ([orca.Solver.Velocity]).
//  5. Steering.Force is rewritten to (new − current velocity)/dt, so that
//     Movement's integration (vel += force·dt, cut to MaxSpeed) yields exactly
//     the new velocity. MaxForce is respected: the new velocity is chosen
//     among those one step of MaxForce can reach, so Movement never cuts the
//     force. (With that limit, a crowd so dense that no velocity avoids
//     everyone takes the one that violates the neighbours' constraints least,
//     and agents may then touch; walls stay hard.)
//
// A slow agent arriving at a point (Desired Arrive) whose disc touches that
// of a neighbour arriving at the same point, ahead of it, holds: its
// preferred velocity is zero and the Bias off (orca_crowd.go), so a crowd
// sent to one point comes to rest about it instead of circling it.
//
// An agent with neither a neighbour nor an obstacle in range keeps its force
// unchanged. Movement still keeps agents out of blocked cells; ORCA
// additionally keeps their discs off the walls.
//
// Work is split over Workers goroutines (0: runtime.GOMAXPROCS); each agent
// writes only its own Steering, so the result does not depend on their
// number. A frame allocates nothing once warm.
//
// Contract:
//
//	requires   Position, Velocity, Kinematics, Steering, ORCA
//	optional   Desired (an arrival point: the crowd rule above);
//	           (of every agent in the hash) Kinematics for its radius, ORCA,
//	           Desired
//	writes     Steering.Force
//	resources  *ecs.Clock (ecs.ClockSystem), *grid.Grid,
//	           *Neighbours (the Spatial system, added before ORCA)
//
//	absent or unusable             what ORCA does                         Diagnose counts
//	ORCA                           opt-out: force unchanged (separation)  -
//	the ORCA system missing         no avoidance (separation is off)       CauseNoORCASystem
//	a required component           force unchanged: no avoidance          CauseORCAInvalid
//	TimeHorizon/ObstacleHorizon    force unchanged: no avoidance          CauseORCAInvalid
//	  not > 0 and finite (or so
//	  small its inverse is +Inf),
//	  MaxNeighbours < 0, Neighbour-
//	  Dist < 0 or NaN/Inf, Bias NaN/Inf
//	MaxNeighbours over             honoured: each agent avoids every      CauseORCANeighboursMany
//	  MaxORCANeighbours (100)      agent within NeighbourDist (a crowd
//	                               within reach of each other costs the
//	                               square of its size)
//	MaxSpeed/MaxForce not > 0      force unchanged (Movement keeps        CauseKinematics
//	  and finite, Radius NaN/Inf   the agent still)
//	Position or Velocity NaN/Inf   force unchanged (Movement keeps        CausePosition, CauseVelocity
//	                               the agent still)
//	dt not finite and > 0          no force changed                       - (see ecs.CheckDT)
type ORCA struct {
	ran     ecs.Ran // the frame it last ran, for save.Save's check (ecs.Frame.Between)
	Workers int

	clock  *ecs.Clock
	grid   *grid.Grid
	nb     *Neighbours
	pool   *ecs.Workers
	filter *generic.Filter6[components.Position, components.Velocity, components.Kinematics,
		components.Steering, components.ORCA, components.Desired]
	peerFilter *generic.Filter3[components.Kinematics, components.ORCA, components.Desired]
	jobs       []orcaJob
	peers      []orcaPeer // by hash ID
	bySlot     []orcaSlot // by slot of the hash's sorted order (Hash.Sorted)
	reciprocal int        // the peers of share < 1
	scratch    []orcaScratch
	order      spatialOrder
	visit      []int32

	walls *openCells // the world's table of blocked cells, shared with Perception (see sharedWalls)

	finalized bool // Finalize ran, and Initialize not since (lifecycle.go)
}

type orcaJob struct {
	self     arche.Entity
	pos, vel r2.Vec
	kin      components.Kinematics
	params   components.ORCA
	out      *components.Steering
	arrive   bool   // Desired is an Arrive at point
	stop     bool   // Desired is a Stop (an arrived flow follower) or a Hold (a wide Mover settled with its crowd)
	idle     bool   // Desired is None (nowhere to go)
	point    r2.Vec // cells
}

// orcaPeer is what an agent's neighbours need of it.
type orcaPeer struct {
	radius float64
	share  float64 // the part of the avoidance the agent avoiding it takes on
	goal   r2.Vec  // its Desired's point, when arriving (DesiredArrive)
	arrive bool    // arriving at goal
	still  bool    // it has nowhere to go (Desired None, Stop or Hold)
}

// orcaSlot is what a neighbour query reads of an agent, kept in the hash's
// sorted order so that the agents of a circle are read side by side.
type orcaSlot struct {
	vel    r2.Vec
	radius float64
	share  float64
	id     int32 // hash ID
	still  bool  // orcaPeer.still
}

type orcaScratch struct {
	solver orca.Solver
	slots  []int32    // the slots (Hash.Sorted) of the agents within a circle
	near   []orcaNear // the reciprocal neighbours
	alone  []orcaNear // the others
	nbrs   []orca.Neighbour
	_      [64]byte
}

type orcaNear struct {
	distSq float64
	slot   int32 // in the hash's sorted order (ORCA.bySlot)
	pos    r2.Vec
}

// Name implements ecs.Namer.
func (s *ORCA) Name() string { return "orca" }

// Initialize finds the resources and builds the filters.
//
// Panics:
//   - if the world has no *ecs.Clock resource: add ecs.NewClockSystem(dt) as
//     the first system;
//   - if the world has no *grid.Grid resource: add one with
//     arche.AddResource before Initialize, or one of no cells (a zero
//     grid.Grid{}): make it with grid.New or grid.NewChecked;
//   - if the world has no *Neighbours resource: add the Spatial system
//     before ORCA;
//   - if it is initialized after both Steer and Movement (the order Steer,
//     Movement, ORCA): the next frame's Steer overwrites the force it writes
//     before Movement reads it, so no agent would avoid. Order the systems
//     Steer, ORCA, Movement. (Steer panics for ORCA before Steer.)
func (s *ORCA) Initialize(w *arche.World) {
	s.clock = mustClock(w, "ORCA")
	s.grid = mustGrid(w, "ORCA")
	s.walls = sharedWalls(w)
	s.nb = mustNeighbours(w, "ORCA")
	mustOrderORCA(w, sysORCA)
	markInstalled(w, sysORCA)
	s.ran.Join(w, s)
	s.filter = generic.NewFilter6[components.Position, components.Velocity, components.Kinematics,
		components.Steering, components.ORCA, components.Desired]().Optional(generic.T[components.Desired]())
	s.peerFilter = generic.NewFilter3[components.Kinematics, components.ORCA, components.Desired]().
		Optional(generic.T[components.ORCA](), generic.T[components.Desired]()).
		With(generic.T[components.Position](), generic.T[components.Velocity]())
	s.pool = reopenPool(s.pool, s.Workers)
	s.scratch = make([]orcaScratch, s.pool.N())
}

// Update rewrites the steering force of every ORCA agent.
func (s *ORCA) Update(w *arche.World) {
	s.ran.Mark(w)
	mustInitialized(s.filter, s.finalized, "ORCA")
	s.jobs = s.jobs[:0]
	q := s.filter.Query(w)
	for q.Next() {
		pos, vel, kin, st, o, d := q.Get()
		j := orcaJob{self: q.Entity(), pos: pos.Vec, vel: vel.Vec, kin: *kin, params: *o, out: st}
		if d != nil && d.Mode == components.DesiredArrive {
			j.arrive, j.point = true, d.Point
		}
		// Hold brakes as Stop does (a wide Mover settled with its crowd)
		j.stop = d != nil && (d.Mode == components.DesiredStop || d.Mode == components.DesiredHold)
		j.idle = d != nil && d.Mode == components.DesiredNone
		s.jobs = append(s.jobs, j)
	}
	if len(s.jobs) == 0 {
		return
	}
	s.gatherPeers(w)
	s.walls.update(s.grid)
	s.visit = nil
	if len(s.jobs) >= spatialOrderMin {
		s.visit = s.order.sort(s.nb.Hash, len(s.jobs), func(i int) r2.Vec { return s.jobs[i].pos })
	}
	s.pool.Run(s, len(s.jobs))
	clear(s.jobs)
}

// Work implements ecs.Job.
func (s *ORCA) Work(worker, lo, hi int) {
	dt := s.clock.DT
	if !(dt > 0) || math.IsInf(dt, 1) {
		return
	}
	sc := &s.scratch[worker]
	for k := lo; k < hi; k++ {
		i := k
		if s.visit != nil {
			i = int(s.visit[k])
		}
		s.avoid(&s.jobs[i], sc, dt)
	}
}

// Finalize releases the workers and the filters; Update panics until the next
// Initialize (see lifecycle.go).
func (s *ORCA) Finalize(w *arche.World) {
	if s.filter != nil { // not if never initialized, or finalized already
		s.pool.Close()
		s.filter, s.finalized = nil, true
	}
	s.ran.Leave()
	markFinalized(w, sysORCA)
}

// UsableORCA reports whether the ORCA system can use o: TimeHorizon and
// ObstacleHorizon > 0 and finite, and so large that their inverses are finite
// (not 5e-324), MaxNeighbours ≥ 0, NeighbourDist ≥ 0 and finite, Bias finite.
func UsableORCA(o *components.ORCA) bool {
	return o.TimeHorizon > 0 && !math.IsInf(o.TimeHorizon, 1) && !math.IsInf(1/o.TimeHorizon, 1) &&
		o.ObstacleHorizon > 0 && !math.IsInf(o.ObstacleHorizon, 1) && !math.IsInf(1/o.ObstacleHorizon, 1) &&
		o.MaxNeighbours >= 0 && o.NeighbourDist >= 0 && !math.IsInf(o.NeighbourDist, 1) &&
		!math.IsNaN(o.Bias) && !math.IsInf(o.Bias, 0)
}

// desired estimates the velocity the agent's steering heads for, beyond this
// step (the Bias turns it): when the force is cut to MaxForce and does not
// brake, seek's rule (full speed, reached along the force) puts it where the
// ray from the velocity along the force meets the MaxSpeed circle; for an
// agent arriving at a point (Desired Arrive) within its braking stretch (Arrive
// slows it there: steer.BrakingSpeed below MaxSpeed, 0.43 cells for a default
// Mover) whose force is not cut, it is pref, this step's velocity (Arrive's
// force, not cut, reaches Arrive's velocity within the step, and beyond it
// the agent only slows); otherwise (braking, a force not cut of another mode
// or farther from the point) it is the velocity the force would give if kept
// up for MaxSpeed/MaxForce seconds, cut to MaxSpeed.
//
// At its point that last rule read an agent's Arrive force, which cancels its
// velocity within the step, as a way to go for MaxSpeed/MaxForce seconds (12
// steps of a default Mover at 60 a second): 11 times its velocity backwards,
// which the Bias turned while a neighbour was near, and agents resting at
// points of their own beside each other (1 cell apart) swapped their
// velocity's sign every step for good at about MaxForce·dt/2 (0.18 cells/s;
// up to 0.44 in a crowd) (TestORCAMoversAtGoalsOfTheirOwnComeToRest). The
// rule stays for braking agents with no point, which it turns aside (an idle
// agent in a doorway: TestAnIdleORCAAgentMakesWayInADoorway), and for
// arriving agents farther out, whose force walls or a crowd may cancel (one
// pressed against a door's jamb 16 cells from its point, whose way is still
// the point at full speed).
func (s *ORCA) desired(j *orcaJob, pref r2.Vec, dt float64) r2.Vec {
	f, v, speed := steer.Truncate(j.out.Force, j.kin.MaxForce), j.vel, j.kin.MaxSpeed
	fn := math.Sqrt(norm2(f))
	cut := !(fn < j.kin.MaxForce*(1-1e-9))
	if j.arrive && !cut {
		if d := math.Sqrt(dist2(j.point, j.pos)); steer.BrakingSpeed(d, j.kin.MaxForce, dt) < speed {
			return pref
		}
	}
	if !cut || float64(f.X*v.X)+float64(f.Y*v.Y) < 0 {
		return steer.Truncate(addScaled(v, speed/j.kin.MaxForce, f), speed)
	}
	d := r2.Scale(1/fn, f)
	b := float64(d.X*v.X) + float64(d.Y*v.Y)
	disc := float64(b*b) - norm2(v) + float64(speed*speed)
	if disc < 0 { // only when faster than MaxSpeed
		return steer.Truncate(v, speed)
	}
	return addScaled(v, -b+math.Sqrt(disc), d)
}

// allStill reports whether every neighbour the agent avoids this step (sc's
// reciprocal and other neighbours) has nowhere to go (orcaPeer.still): then
// an idle agent's Bias is off (see avoid). An idle agent in a doorway keeps
// it for a neighbour that wants through, and turns aside
// (TestAnIdleORCAAgentMakesWayInADoorway); a resting group of idle agents no
// longer turns about its goal for good (TestIdleORCAGroupComesToRest).
func (s *ORCA) allStill(sc *orcaScratch) bool {
	for _, n := range sc.near {
		if !s.bySlot[n.slot].still {
			return false
		}
	}
	for _, n := range sc.alone {
		if !s.bySlot[n.slot].still {
			return false
		}
	}
	return true
}

// avoid computes one agent's ORCA velocity and rewrites its force.
func (s *ORCA) avoid(j *orcaJob, sc *orcaScratch, dt float64) {
	kin := &j.kin
	if !finiteVec(j.pos) || !finiteVec(j.vel) || !UsableKinematics(kin) || !UsableORCA(&j.params) {
		return // Movement or plain steering handles it; Diagnose counts it
	}
	p := &j.params
	radius := max(kin.Radius, 0)
	pref := steer.Truncate(addScaled(j.vel, dt, steer.Truncate(j.out.Force, kin.MaxForce)), kin.MaxSpeed)
	s.neighbours(j, sc)
	var segs []orca.Segment
	// walls farther than any velocity reachable this step can go in
	// ObstacleHorizon seconds cannot bind (RVO2 looks as far as MaxSpeed goes)
	speed := min(kin.MaxSpeed, math.Sqrt(norm2(j.vel))+float64(kin.MaxForce*dt))
	if reach := float64(p.ObstacleHorizon*speed) + radius; s.wallsNear(j.pos, reach) {
		segs = sc.solver.GridSegmentsBits(j.pos, reach, s.grid.Width(), s.grid.Height(), s.walls.rowBits)
	}
	if len(sc.nbrs) == 0 && len(segs) == 0 {
		return // nothing to avoid: the force stands
	}
	desired, bias := s.desired(j, pref, dt), p.Bias
	if j.stop || j.idle && s.allStill(sc) {
		// an arrived flow follower, a wide Mover settled with its crowd (Hold), or an
		// idle agent among agents with nowhere to go: the Bias would turn the way read
		// off its braking into a spin (TestWideORCAMoversSharingAPointComeToRest)
		bias = 0
	}
	if s.heldInCrowd(j, sc, radius, dt) { // arriving behind another of its crowd: it holds (orca_crowd.go)
		pref, desired, bias = r2.Vec{}, r2.Vec{}, 0
	}
	a := orca.Agent{Position: j.pos, Velocity: j.vel, Preferred: pref, Desired: desired, Radius: radius, MaxSpeed: kin.MaxSpeed,
		MaxDelta: kin.MaxForce * dt, TimeHorizon: p.TimeHorizon, ObstacleHorizon: p.ObstacleHorizon, Bias: bias}
	v := sc.solver.Velocity(&a, sc.nbrs, segs, dt)
	j.out.Force = r2.Scale(1/dt, r2.Sub(v, j.vel))
}
