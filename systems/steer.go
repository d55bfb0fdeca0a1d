package systems

import (
	"math"
	"unsafe"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/nav/spatial"
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
//     or evade a target at Point moving at Vel (steer.Catch, steer.Evade,
//     predicting at most MaxLead seconds ahead; a pursuer stops twice its
//     radius plus CatchGap from its target, which does not give way to it:
//     steer_crowd.go); a flight's force loses what
//     would push the agent further into a wall its disc touches, so it
//     slides along walls and rests in a corner (steer_cornered.go);
//   - DesiredNone: wander if the agent has a [components.Wanderer] and a
//     [components.Rand] (one at rest against a wall wanders from the
//     direction away from it: steer_cornered.go), else brake to a stop;
//     DesiredStop: brake;
//     DesiredHold: brake only (no separation or wall force moves it: a
//     crowd of wide agents settled at a goal by [PathFollow], or a small
//     agent held by the crowd it walked into, stays still).
//
// A slow agent (speed at most MaxForce·0.05 s: 1 cell/s for a default
// Mover) arriving (DesiredArrive) within 8 separation radii of its point,
// whose separation pushes it back from the point, arrives as a damped spring
// instead of by steer.Arrive (desired speed 1/s × distance, at most
// MaxForce·0.05 s, reached over 0.1 s) and casts no wall feelers, so agents
// sent to one point come to rest packed about it rather than jostling
// (steer_crowd.go). A slow pursuit target (at most MaxForce·0.05 s) does not
// give way to its pursuer's separation (the rest of its separation stands).
// The separation of an agent of radius ≤ 0.5 whose disc touches a wall
// loses its part into that wall, which bears it (Movement holds the disc
// off the wall), so it keeps its MaxForce for the rest: all of it at
// touching, in proportion within 0.05 cells of it (steer_braced.go).
//
// The forces are integrated once a step (by [Movement]), so separation, a
// spring, needs a step no longer than [SeparationStepLimit] (0.085 s for the
// default Mover): beyond it a crowd jitters for good, and [Diagnose] counts
// the agent as CauseStepTooLong.
//
// With [components.SteeringWeights], the forces are combined by priority
// within MaxForce ([steer.Accumulator]): wall avoidance (feelers, tested only
// near a wall: see grid.Grid.Clearance), separation, the move force,
// alignment, cohesion (a wander, the least important, comes last).
//
// Wall feelers (Reynolds 1999's containment: one ahead, two at ±45° half as
// long) reach max(0.5 s·|vel|, 2·radius + 0.25) cells, except for an agent
// arriving (DesiredArrive): no farther than its point plus its radius, or
// plus the point's own distance to the nearest blocked cell if less, since it
// stops there. So an agent sent to a goal beside a wall, in a corner, on the
// grid's edge or nearer a wall than its radius comes to rest on it (velocity
// exactly zero) instead of swaying about it, pushed off by its feelers and
// pulled back by arrive.
//
// Hot loop: each agent's inputs are copied (64 bytes, one cache line; what
// agents of one kind share, limits, weights and speed factor, goes in a
// table once per run of such agents; the copy is split over the workers by
// contiguous ranges of the query) to its slot in the
// [Neighbours] hash's bucket order ([spatial.Hash.Slots]), with
// non-temporal stores on amd64 (the slots are scattered: each line is
// written whole, without first reading it into the cache; with AVX2 a run of
// agents of one kind in one assembly loop, see gatherRun), so the workers then
// visit agents bucket by bucket: agents visited one after the other are
// neighbours and read the same hash and grid memory (the workers claim the
// slots in blocks of 256 as they come free, see blockRun, so a worker that
// starts late, or a stretch of costly agents, does not hold the pass up).
// Separation reads the
// neighbours' positions straight from the hash's sorted array (the 3×3
// buckets around the agent are three contiguous runs of it), summing the
// push of each in the hash's order, which follows entity IDs, so the force
// does not depend on the order Arche stores agents in; a candidate out of
// range, and the agent's own slot, add a push of exactly zero. With AVX2 the
// separation forces of a block of agents are found together: a kernel lists
// each agent's candidates in range (four at a time, no branch on a
// distance), and only those (in the swarm, under one an agent) cost a square
// root and two divisions, independent of the next agent's (see
// separationBlock); elsewhere each agent's scan has no branch on the
// distance either, a square root and two divisions per candidate.
// Wall feelers read a bitmap of the grid's blocked cells (one bit a cell,
// redone near the cells a grid edit changes) instead of its costs; a feeler
// is cast only if the nearest blocked cell in its direction's quadrant (a
// byte a cell, built with the bitmap) may be within its reach, and one whose
// surrounding box of cells is clear in the bitmap is not walked. The
// priority sum keeps the
// length of the running sum instead of measuring it again for each force,
// and does not measure it after the last one; for the common agent (with
// weights, no flocking, heading by Seek, Arrive or Flow) the move force and
// the sum are worked out in one function, without the general path's calls. These shortcuts change no
// result: each is tested to give the plain rule's force to the bit. A slot
// whose agent lacks Steer's components is skipped. An agent not in this
// frame's hash (spawned since [Spatial] ran) is steered after the others on
// one goroutine, with a neighbour query of its own.
//
// Work is split over Workers goroutines (0: runtime.GOMAXPROCS); the result
// does not depend on their number.
//
// Contract (docs/contract.md has the same table):
//
//	requires   Position, Velocity, Kinematics, Desired, Steering
//	optional   SteeringWeights, Wanderer (with Rand)
//	writes     Steering.Force; Wanderer.Angle; Rand
//	resources  *ecs.Clock (ecs.ClockSystem), *grid.Grid,
//	           *Neighbours (the Spatial system, added before Steer)
//
//	absent or unusable             what Steer does                        Diagnose counts
//	Desired (with Velocity,        brakes: force steer.Brake(vel), so it  CauseSteerIncomplete
//	  Kinematics, Steering; not    stops within MaxSpeed²/(2·MaxForce)
//	  OwnMotion)                   instead of Movement integrating its
//	                               last force (zero if Kinematics or
//	                               Velocity are unusable)
//	another required component     not steered (Movement does not move    CauseSteerIncomplete
//	                               it either, but without Position)
//	SteeringWeights                move force only: no walls, no          CauseWeightsMissing
//	                               separation (a crowd stacks up)
//	SteeringWeights all zero       opt-out: the same, chosen              -
//	a weight < 0, NaN or Inf       mixed as given                         CauseWeightsInvalid
//	Wanderer                       opt-out: brakes without a desire       -
//	Wanderer without Rand          brakes                                 CauseWanderNoRand
//	Wanderer Radius/Jitter ≤ 0     stands, goes straight or circles       CauseWanderInvalid
//	  (or Response < 0)
//	MaxSpeed/MaxForce not > 0      force zero: stands still               CauseKinematics
//	  and finite, Radius NaN/Inf
//	Radius ≤ 0                     steers (short wall feelers)            CauseKinematics
//	Position or Velocity NaN/Inf   force zero: stands still               CausePosition, CauseVelocity
//	SeparationRadius reaching      held off its goal for good             CauseHeldOffGoal
//	  agents at rest far from its
//	  disc beside its goal
//	Desired.Point or Vel NaN/Inf   force zero (NaN forces are dropped)    - (PathFollow never writes one)
type Steer struct {
	ran     ecs.Ran // the frame it last ran, for save.Save's check (ecs.Frame.Between)
	Workers int

	clock  *ecs.Clock
	grid   *grid.Grid
	nb     *Neighbours
	pool   *ecs.Workers
	blocks blockRun // the force pass, in claimed blocks of slots
	filter *generic.Filter8[components.Position, components.Velocity, components.Kinematics, components.Desired,
		components.Steering, components.SteeringWeights, components.Wanderer, components.Rand]
	unsteered unsteered // agents without a Desired: braked (steer_unsteered.go)

	hot      []steerAgent           // the frame's agents by hash slot (out 0: no agent there), from a 64-byte boundary
	outs     []*components.Steering // per run of the query (columns.runs), its first agent's Steering: where the forces go
	kinds    []steerKind            // the distinct kinds of the frame's agents (each worker's from its range's start)
	wanders  []wanderRef            // the wanderers' state (likewise)
	tvels    []r2.Vec               // the targets' velocities of pursuers and evaders (likewise)
	extra    [][]steerExtra         // per worker: its agents not in this frame's hash
	scratch  []steerScratch
	walls    wallBits
	invDT    float64       // 1/dt of the frame, for followFlow
	pursued  []uint64      // a bit per hash slot: the agent there is some agent's pursuit target (pursuedSep); set bits listed in marked
	marked   []int32       // the slots whose bits are set in pursued
	pairs    []pursuit     // per pursuit target's slot (slot), its pursuer's slot (at), sorted: markPursued
	pf       steerPrefetch // the frame's, for prefetchBlock
	prefetch bool          // the frame's force pass calls prefetchBlock (prefetchMin slots or more)

	// the frame's hash: its bucket layout (dense false after a sparse
	// build, which has none) and positions in slot order, for separation
	layout spatial.Layout
	dense  bool
	sorted []r2.Vec

	cols      columns // the query's components, read by the gather workers
	gatherJob steerGather
	wanderEnd [][2]int // per worker, the range of s.wanders it filled

	finalized bool // Finalize ran, and Initialize not since (lifecycle.go)
}

// steerAgent is one agent's hot state: what its forces read, copied out of
// the components in one pass, and where the force goes; 64 bytes, one cache
// line, and no pointers (so the gather may write it with storeAgent's
// non-temporal stores, which no write barrier sees). What agents of one kind
// share is in Steer.kinds.
type steerAgent struct {
	pos, vel r2.Vec
	point    r2.Vec // Desired.Point
	kind     uint32 // Desired.Mode << kindBits | the index in Steer.kinds
	aux      int32  // index in Steer.wanders (DesiredNone) or Steer.tvels (DesiredPursue, DesiredEvade); -1 for none
	out      int32  // 1 + the agent's index in its run of the query, whose Steering is its force's place (Steer.steering); 0: no agent
	run      int32  // the run: its index in Steer.outs
}

// kindBits is the width of the index in steerAgent.kind: an agent whose kind
// comes later in its worker's table (a crowd of over 16 million agents) is
// steered with the agents not in the hash.
const kindBits = 24

// steerKind is what agents of one kind share: their limits, weights and
// speed factor, and what follows from them alone (worked out once a kind,
// not once an agent).
type steerKind struct {
	kin    components.Kinematics
	wt     components.SteeringWeights
	factor float64 // Desired.SpeedFactor
	speed  float64 // the move force's speed: MaxSpeed, times factor if in (0, 1)
	hasW   bool    // wt holds the agent's SteeringWeights (else it has none)
	usable bool    // UsableKinematics(&kin)
	sep    bool    // the agent has a separation force: wt.Separation > 0 and wt.SeparationRadius > 0
	sepBlk bool    // sep and wt.SeparationRadius in [2⁻⁵⁰⁰, 2⁵⁰⁰]: separationBlock may list its candidates
	plain  bool    // hasW, usable and no flocking: forcePlain's kind
	brace  bool    // 0 < kin.Radius ≤ 0.5: a wall may bear its separation push (wallBits.braced)

	// what follows from the limits and the frame's step dt (atStep), read by
	// forcePlain: worked out once a kind and frame, not once an agent
	brakeOK   bool    // speed > 0, MaxForce > 0 and brakeB ≤ MaxFloat64: arrive's far test may hold
	brakeB    float64 // arrive's far test's bound (steer's farToBrake): h²·(1+10⁻⁹), h = speed + MaxForce·dt/2
	crowdTop2 float64 // crowdSlow's bound: (MaxForce·max(crowdTau, 2·dt)/2)²
}

// atStep sets what kd's forces read of the frame's step dt (brakeOK,
// brakeB, crowdTop2), the same operations forcePlain did per agent, so the
// same bits. The gather calls it for each kind it makes; a kind forcePlain
// reads must have had it with the frame's dt.
func (kd *steerKind) atStep(dt float64) {
	maxF := kd.kin.MaxForce
	h := kd.speed + float64(maxF*dt/2)
	kd.brakeB = h * h * (1 + 1e-9)
	kd.brakeOK = kd.speed > 0 && maxF > 0 && kd.brakeB <= math.MaxFloat64
	top := crowdTop(maxF, dt)
	kd.crowdTop2 = top * top
}

// newKind returns the kind of an agent with kin, weights wt (nil: none)
// and speed factor factor.
func newKind(kin *components.Kinematics, wt *components.SteeringWeights, factor float64) steerKind {
	kd := steerKind{kin: *kin, factor: factor, speed: kin.MaxSpeed, usable: UsableKinematics(kin)}
	kd.brace = kin.Radius > 0 && kin.Radius <= 0.5
	if factor > 0 && factor < 1 {
		kd.speed *= factor
	}
	if wt != nil {
		kd.wt, kd.hasW = *wt, true
		kd.sep = wt.Separation > 0 && wt.SeparationRadius > 0
		kd.sepBlk = kd.sep && wt.SeparationRadius >= 0x1p-500 && wt.SeparationRadius <= 0x1p500
		kd.plain = kd.usable && !((wt.Alignment > 0 || wt.Cohesion > 0) && wt.NeighbourRadius > 0)
	}
	return kd
}

// is reports whether an agent with kin, weights wt (nil: none) and speed
// factor factor is of kind kd (compared as ==: field by field).
func (kd *steerKind) is(kin *components.Kinematics, wt *components.SteeringWeights, factor float64) bool {
	k := &kd.kin
	if k.MaxSpeed != kin.MaxSpeed || k.MaxForce != kin.MaxForce || k.Radius != kin.Radius ||
		kd.factor != factor || kd.hasW != (wt != nil) {
		return false
	}
	w := &kd.wt
	// field by field, as == on the structs (which is a call)
	return wt == nil || w.Wall == wt.Wall && w.Separation == wt.Separation && w.SeparationRadius == wt.SeparationRadius &&
		w.Alignment == wt.Alignment && w.Cohesion == wt.Cohesion && w.NeighbourRadius == wt.NeighbourRadius
}

// ofBits reports whether kin, wt (nil: none) and factor are, bit for bit,
// the values kd was made from: an agent with them is then of kind kd (is
// compares as ==, which ±0 passes and a NaN fails, but a kind made again
// from the same bits is the same kind, to the bit). Loads and xors, inline:
// the gather tests it first and calls is, which is not inlined, only where
// the bits differ (a new kind, or another zero's sign).
func (kd *steerKind) ofBits(kin *components.Kinematics, wt *components.SteeringWeights, factor float64) bool {
	if *(*[3]uint64)(unsafe.Pointer(&kd.kin)) != *(*[3]uint64)(unsafe.Pointer(kin)) || kd.hasW != (wt != nil) ||
		math.Float64bits(kd.factor) != math.Float64bits(factor) {
		return false
	}
	// two arrays of three words: one of six is compared by a call
	return wt == nil || *(*[3]uint64)(unsafe.Pointer(&kd.wt)) == *(*[3]uint64)(unsafe.Pointer(wt)) &&
		*(*[3]uint64)(unsafe.Pointer(&kd.wt.Alignment)) == *(*[3]uint64)(unsafe.Pointer(&wt.Alignment))
}

// prefetchMin is the fewest slots of the hash for which Steer's force pass
// prefetches each block's Steering components and wall-table entries
// (prefetchBlock). A smaller crowd's records, components and tables stay in
// the cache from one frame to the next, and the prefetch loop's first read
// of each record only moves the wait for it (the records come from the
// gather's non-temporal stores) into a loop of its own: at 10,000 swarm
// agents Steer took 0.75–0.78 ms a frame without it against 0.79–0.80 with
// it, and the frame 1.27–1.29 against 1.30–1.32 (2 workers, 4 alternating
// runs each); at 30,000 the frame 3.74–3.75 against 3.84–4.04 ms (3 runs);
// at 100,000 the prefetch pays (Steer's CPU 0.91–0.98 of the build without
// it, see docs/performance.md), so it stays on there.
const prefetchMin = 1 << 16

// steerPrefetch is what prefetchBlock reads (at the offsets of
// steer_store_amd64.s): where the forces go, and the wall tables (clr nil,
// fw and fh 0 when there are none).
type steerPrefetch struct {
	outs      **components.Steering // Steer.outs: by run, its first Steering
	clr, more *uint8                // wallBits.clr and more, w·h entries each
	w         int
	fw, fh    float64 // w and h
}

// steerExtra is an agent steered after the others: not in this frame's
// hash, or beyond kindBits.
type steerExtra struct {
	a    steerAgent
	kd   steerKind
	mode components.DesiredMode
	self uint32 // entity ID, the salt of separation's fallback
	slot int32  // its slot in the hash, -1 if not there
}

type wanderRef struct {
	wa  *components.Wanderer
	rnd *components.Rand
}

type steerScratch struct {
	ids        []int32
	near, vels []r2.Vec
	seps       [blockSize]r2.Vec // Work's separation forces of a run of slots
	jobs       []sepJob          // separationBlock's agents (capacity blockSize)
	ents       []sepEnt          // and their candidates in range
	gather     gatherArgs        // gatherRun's
	pursuits   []pursuit         // the gather's pursuers in the hash and their Desired.Point (markPursued)
	_          [64]byte          // keep workers' buffers off one cache line
}

// Name implements ecs.Namer.
func (s *Steer) Name() string { return "steer" }

// Initialize finds the resources and builds the filter.
//
// Panics:
//   - if the world has no *ecs.Clock resource: add ecs.NewClockSystem(dt) as
//     the first system;
//   - if the world has no *grid.Grid resource: add one with
//     arche.AddResource before Initialize, or one of no cells (a zero
//     grid.Grid{}): make it with grid.New or grid.NewChecked;
//   - if the world has no *Neighbours resource: add the Spatial system
//     before Steer;
//   - if an ORCA system was initialized before it (ORCA before Steer in the
//     schedule): Steer would overwrite the force ORCA writes, so no agent
//     would avoid. Order the systems Steer, ORCA, Movement.
func (s *Steer) Initialize(w *arche.World) {
	s.clock = mustClock(w, "Steer")
	s.grid = mustGrid(w, "Steer")
	s.nb = mustNeighbours(w, "Steer")
	mustOrderORCA(w, sysSteer)
	markInstalled(w, sysSteer)
	s.ran.Join(w, s)
	s.filter = generic.NewFilter8[components.Position, components.Velocity, components.Kinematics, components.Desired,
		components.Steering, components.SteeringWeights, components.Wanderer, components.Rand]().
		Optional(generic.T[components.SteeringWeights](), generic.T[components.Wanderer](), generic.T[components.Rand]())
	s.unsteered.init()
	s.pool = reopenPool(s.pool, s.Workers)
	s.scratch = make([]steerScratch, s.pool.N())
	s.extra = make([][]steerExtra, s.pool.N())
	s.gatherJob.s = s
	s.wanderEnd = make([][2]int, s.pool.N())
	s.cols.reset() // a second world (a level restart) registers its own columns
	s.cols.column(arche.ComponentID[components.Position](w), unsafe.Sizeof(components.Position{}))
	s.cols.column(arche.ComponentID[components.Velocity](w), unsafe.Sizeof(components.Velocity{}))
	s.cols.column(arche.ComponentID[components.Kinematics](w), unsafe.Sizeof(components.Kinematics{}))
	s.cols.column(arche.ComponentID[components.Desired](w), unsafe.Sizeof(components.Desired{}))
	s.cols.column(arche.ComponentID[components.Steering](w), unsafe.Sizeof(components.Steering{}))
	s.cols.column(arche.ComponentID[components.SteeringWeights](w), unsafe.Sizeof(components.SteeringWeights{}))
	s.cols.column(arche.ComponentID[components.Wanderer](w), unsafe.Sizeof(components.Wanderer{}))
	s.cols.column(arche.ComponentID[components.Rand](w), unsafe.Sizeof(components.Rand{}))
	s.prepareGrid()
}

// prepareGrid builds what Update reads of the grid (its lazy caches, the
// clearance, the wall tables), at once when the grid is new or changed: at
// Initialize, so that the first frame does not (on an 8192² map, 3 s of a
// 4.7 s first frame; Movement and PathFollow do the same).
func (s *Steer) prepareGrid() {
	s.grid.Prepare()
	s.grid.Clearance(grid.Cell{}) // built here, before the workers read it
	s.walls.update(s.grid)
}

// Update computes every agent's force.
func (s *Steer) Update(w *arche.World) {
	s.ran.Mark(w)
	mustInitialized(s.filter, s.finalized, "Steer")
	s.prepareGrid()
	s.invDT = 1 / s.clock.DT
	s.layout, s.dense = s.nb.Hash.Layout()
	_, s.sorted = s.nb.Hash.Sorted()
	s.gather(w)
	s.pf = steerPrefetch{outs: unsafe.SliceData(s.outs)}
	s.prefetch = len(s.hot) >= prefetchMin
	if b := &s.walls; len(b.clr) > 0 && len(b.clr) == b.w*b.h && len(b.more) == len(b.clr) {
		s.pf.clr, s.pf.more, s.pf.w, s.pf.fw, s.pf.fh = &b.clr[0], &b.more[0], b.w, float64(b.w), float64(b.h)
	}
	s.blocks.run(s.pool, s, len(s.hot))
	sc := &s.scratch[0]
	for k, ex := range s.extra { // agents not in the hash, on one goroutine
		for i := range ex {
			x := &ex[i]
			s.steering(&x.a).Force = s.force(&x.a, &x.kd, x.mode, int(x.slot), x.self, sc, nil)
		}
		clear(ex)
		s.extra[k] = ex[:0]
	}
	s.unsteered.brake(w, s.clock.DT)
	for _, r := range s.wanderEnd { // drop the frame's pointers
		clear(s.wanders[r[0]:r[1]])
	}
	s.layout, s.sorted = spatial.Layout{}, nil // the hash's, valid until its next build
	s.pf = steerPrefetch{}
	// every worker's neighbour buffers as large as the largest: which worker
	// meets the densest crowd depends on timing, so a steady frame could
	// grow one otherwise
	var ni, nn, nv int
	for i := range s.scratch {
		sc := &s.scratch[i]
		ni, nn, nv = max(ni, cap(sc.ids)), max(nn, cap(sc.near)), max(nv, cap(sc.vels))
	}
	for i := range s.scratch {
		sc := &s.scratch[i]
		sc.ids, sc.near, sc.vels = roomFor(sc.ids, ni), roomFor(sc.near, nn), roomFor(sc.vels, nv)
	}
}

// roomFor returns s emptied, or an empty slice of capacity exactly n if s
// holds fewer (exactly: buffers made as large as the largest of a set stay so).
func roomFor[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, 0, n)
	}
	return s[:0]
}

// gather copies each agent's inputs to its slot in the hash's bucket order
// (agents not in the hash to their worker's extra list), split over the
// workers by contiguous ranges of the query; each worker reads its range's
// entities in the same job (columns.beginShared).
func (s *Steer) gather(w *arche.World) {
	s.cols.beginShared(w, s.filter.Filter(w), s.pool)
	defer s.cols.endShared()
	n := s.cols.count
	// slots the hash holds but the query lacks keep out == 0: the force
	// pass clears every slot it visits
	s.hot = growLines(s.hot, s.nb.Hash.Len())
	runs := s.cols.runs
	if len(runs) < len(s.outs) {
		clear(s.outs[len(runs):]) // keep no pointer past the frame's runs
	}
	s.outs = grow(s.outs, len(runs))
	for r := range runs {
		s.outs[r] = (*components.Steering)(runs[r].ptr[stSteering])
	}
	// each worker's distinct weights and wanderers go in its own range of
	// these tables (the indices differ with the number of workers; the
	// values each agent reads do not)
	s.kinds = grow(s.kinds, n)
	s.wanders = grow(s.wanders, n)
	s.tvels = grow(s.tvels, n)
	clear(s.wanderEnd)
	for i := range s.scratch {
		s.scratch[i].pursuits = s.scratch[i].pursuits[:0]
	}
	s.pool.Run(&s.gatherJob, n)
	s.markPursued()
}

// steerGather copies agents [lo, hi) of the query to their slots, split over
// the workers.
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
	c.readShared(worker, lo, hi)
	slots := s.nb.Hash.Slots()
	nk, nwa := lo, lo // next free places in s.kinds and s.wanders
	n := len(c.ents)
	for r := c.run(lo, 0); r < len(c.runs) && c.runs[r].start < hi; r++ {
		start := c.runs[r].start
		pos := columnOf[components.Position](c, r, stPos, n)
		vel := columnOf[components.Velocity](c, r, stVel, n)
		kin := columnOf[components.Kinematics](c, r, stKin, n)
		des := columnOf[components.Desired](c, r, stDesired, n)
		wts := columnOf[components.SteeringWeights](c, r, stWeights, n)
		was := columnOf[components.Wanderer](c, r, stWanderer, n)
		rnd := columnOf[components.Rand](c, r, stRand, n)
		canWander := was != nil && rnd != nil
		end := min(hi, c.end(r, n))
		// the modes whose agents have no aux (see gatherRun)
		plainModes := ^uint32(1<<components.DesiredPursue | 1<<components.DesiredEvade)
		if canWander {
			plainModes &^= 1 << components.DesiredNone
		}
		for i := max(lo, start); i < end; i++ {
			if wts != nil && slots != nil && nk > lo && nk-1 < 1<<kindBits && s.kinds[nk-1].hasW {
				// the run of agents of the last kind in the hash, at once
				if i = s.gatherRun(i, end, start, r, pos, vel, kin, des, wts, slots, nk-1, plainModes, &s.scratch[worker].gather); i == end {
					break
				}
			}
			k := i - start
			d := &des[k]
			e := c.ents[i]
			var wt *components.SteeringWeights
			if wts != nil {
				wt = &wts[k]
			}
			// agents of one kind come one after the other, so comparing
			// with the last distinct kind keeps the table short at one
			// comparison an agent
			if nk == lo || !s.kinds[nk-1].ofBits(&kin[k], wt, d.SpeedFactor) && !s.kinds[nk-1].is(&kin[k], wt, d.SpeedFactor) {
				s.kinds[nk] = newKind(&kin[k], wt, d.SpeedFactor)
				s.kinds[nk].atStep(s.clock.DT)
				nk++
			}
			aux := int32(-1)
			switch {
			case canWander && d.Mode == components.DesiredNone:
				aux = int32(nwa)
				s.wanders[nwa] = wanderRef{&was[k], &rnd[k]}
				nwa++
			case d.Mode == components.DesiredPursue || d.Mode == components.DesiredEvade:
				aux = int32(i)
				s.tvels[i] = d.Vel
				if id := s.nb.ID(e); d.Mode == components.DesiredPursue && id >= 0 && slots != nil {
					s.scratch[worker].pursuits = append(s.scratch[worker].pursuits, pursuit{slot: slots[id], point: d.Point})
				}
			}
			kind := uint32(d.Mode)<<kindBits | uint32(nk-1)
			if id := s.nb.ID(e); id >= 0 && slots != nil && nk-1 < 1<<kindBits {
				// the record straight from the components (no copy of it
				// built on the stack first: see storeAgent)
				storeAgent(&s.hot[slots[id]], &pos[k].Vec, &vel[k].Vec, &d.Point,
					uint64(kind)|uint64(uint32(aux))<<32, uint64(uint32(k+1))|uint64(uint32(r))<<32)
				continue
			}
			a := steerAgent{pos: pos[k].Vec, vel: vel[k].Vec, point: d.Point, out: int32(k + 1), run: int32(r), kind: kind, aux: aux}
			slot := int32(-1)
			if id := s.nb.ID(e); id >= 0 && slots != nil {
				slot = slots[id]
			}
			s.extra[worker] = append(s.extra[worker], steerExtra{a: a, kd: s.kinds[nk-1], mode: d.Mode, self: e.ID(), slot: slot})
		}
	}
	s.wanderEnd[worker] = [2]int{lo, nwa}
	storeFence() // the force pass, on any worker, reads the records
}

// Work implements ecs.Job: the forces of the agents in slots [lo, hi), in
// runs of up to blockSize slots: first the separation force of each of a
// run's agents that has one (separationBlock, with AVX2 and a dense hash),
// then each one's force. Apart, the two loops
// overlap one agent's work with the next one's (each agent's forces are a
// long chain of square roots and divisions, the separation kernel's most
// of all), which the loop that does it all agent by agent cannot; each
// agent's force is the same. Before the first loop, prefetchBlock asks for
// the lines the second one writes and reads out of sequence (each agent's
// Steering component, in storage order, and its cell's entries of the wall
// tables), so that they arrive while the separation forces are worked out.
func (s *Steer) Work(worker, lo, hi int) {
	sc := &s.scratch[worker]
	for ; lo < hi; lo += blockSize {
		end := min(lo+blockSize, hi)
		if s.prefetch {
			prefetchBlock(&s.hot[lo], end-lo, &s.pf)
		}
		seps := sc.seps[:end-lo]
		if sepBatch && s.dense {
			s.separationBlock(lo, end, seps, sc)
		} else {
			for k := lo; k < end; k++ {
				a := &s.hot[k]
				if a.out == 0 {
					continue
				}
				kd := &s.kinds[a.kind&(1<<kindBits-1)]
				if kd.sep && finiteVec(a.pos) { // combine's test: see there
					seps[k-lo] = s.separation(a.pos, k, kd.wt.SeparationRadius, kd.kin.MaxForce)
				}
			}
		}
		if len(s.marked) > 0 { // a slow pursuit target is not pushed by its pursuers (steer_crowd.go)
			tau := max(crowdTau, 2*s.clock.DT)
			for k := lo; k < end; k++ {
				if a := &s.hot[k]; a.out != 0 && s.pursued[k>>6]&(1<<(k&63)) != 0 {
					kd := &s.kinds[a.kind&(1<<kindBits-1)]
					if top := kd.kin.MaxForce * tau / 2; kd.sep && finiteVec(a.pos) && norm2(a.vel) <= top*top {
						seps[k-lo] = s.pursuedSep(a, k, sc, kd, seps[k-lo])
					}
				}
			}
		}
		hot := s.hot[lo:end] // indexed by i = k − lo, as seps: no bounds checks in the loop
		seps = seps[:len(hot)]
		for i := range hot {
			a := &hot[i]
			if a.out == 0 {
				continue
			}
			kd, mode := &s.kinds[a.kind&(1<<kindBits-1)], components.DesiredMode(a.kind>>kindBits)
			sp := &seps[i]
			if (sp.X != 0 || sp.Y != 0) && kd.brace && s.walls.mayBrace(a.pos) {
				*sp = s.walls.braced(a.pos, kd.kin.Radius, *sp) // a wall bears what presses the disc into it (steer_braced.go)
			}
			if kd.plain && mode-components.DesiredSeek <= components.DesiredFlow-components.DesiredSeek {
				s.steering(a).Force = s.forcePlain(a, kd, mode, sp)
			} else {
				s.steering(a).Force = s.force(a, kd, mode, lo+i, 0, sc, sp)
			}
			a.out = 0 // the slot is empty until the next gather fills it
		}
	}
}

// steering returns the Steering component of agent a (a.out not 0): element
// a.out−1 of its run's column, which starts at s.outs[a.run].
func (s *Steer) steering(a *steerAgent) *components.Steering {
	return (*components.Steering)(unsafe.Add(unsafe.Pointer(s.outs[a.run]), uintptr(a.out-1)*unsafe.Sizeof(components.Steering{})))
}

// force returns the steering force of agent a, of kind kd, heading by mode.
// slot is a's place in the hash's sorted arrays, -1 if it is not there;
// self is its entity ID when it is not there. sep is a's separation force
// (s.separation) if worked out already (where kd.sep and a.pos is finite),
// else nil.
func (s *Steer) force(a *steerAgent, kd *steerKind, mode components.DesiredMode, slot int, self uint32, sc *steerScratch, sep *r2.Vec) r2.Vec {
	dt := s.clock.DT
	kin := &kd.kin
	if !finiteVec(a.pos) || !finiteVec(a.vel) || !kd.usable {
		return r2.Vec{} // Movement keeps it still; Diagnose counts it
	}
	speed := kd.speed
	wandering := false
	var move r2.Vec
	switch mode {
	case components.DesiredSeek:
		move = steer.Seek(a.pos, a.vel, a.point, speed, kin.MaxForce, dt)
	case components.DesiredArrive:
		move = steer.Arrive(a.pos, a.vel, a.point, speed, kin.MaxForce, ArrivedRadius, dt)
	case components.DesiredFlow:
		move = followFlow(a.vel, r2.Sub(a.point, a.pos), speed, kin.MaxForce, dt, s.invDT)
	case components.DesiredFlee:
		move = s.walls.cornered(a.pos, a.vel, steer.Flee(a.pos, a.vel, a.point, speed, kin.MaxForce, math.Inf(1), dt), kin.Radius, dt)
	case components.DesiredPursue:
		move = steer.Catch(a.pos, a.vel, a.point, s.tvels[a.aux], 2*max(kin.Radius, 0)+CatchGap, speed, kin.MaxForce, MaxLead, dt)
	case components.DesiredEvade:
		move = s.walls.cornered(a.pos, a.vel, steer.Evade(a.pos, a.vel, a.point, s.tvels[a.aux], speed, kin.MaxForce, MaxLead, math.Inf(1), dt), kin.Radius, dt)
	case components.DesiredNone:
		if a.aux >= 0 {
			wandering = true
			ref := s.wanders[a.aux]
			if top := kin.MaxForce * dt; norm2(a.vel) <= top*top {
				if away, ok := s.walls.awayFrom(a.pos, kin.Radius); ok { // at rest against a wall (steer_cornered.go)
					move = ref.wa.ForceAlong(a.pos, a.vel, away, &ref.rnd.Rand, kin.MaxSpeed, kin.MaxForce, dt)
					break
				}
			}
			move = ref.wa.Force(a.pos, a.vel, &ref.rnd.Rand, kin.MaxSpeed, kin.MaxForce, dt)
			break
		}
		move = steer.Brake(a.vel, kin.MaxForce, dt)
	case components.DesiredHold: // settled with its crowd (settle.go): it holds its place
		return steer.Truncate(steer.Brake(a.vel, kin.MaxForce, dt), kin.MaxForce)
	default: // DesiredStop, and any other value
		move = steer.Brake(a.vel, kin.MaxForce, dt)
	}
	if !kd.hasW {
		return steer.Truncate(move, kin.MaxForce)
	}
	return s.combine(a, kd, mode, slot, self, sc, sep, move, wandering, dt)
}

// forcePlain is force for an agent in the hash of a plain kind (kd.plain:
// with weights, usable limits and no flocking) heading by Seek, Arrive or
// Flow, whose separation force (where kd.sep) is *sep: force, combine,
// nearWall and the budget's adds of the separation and move forces in one
// function, the same operations in the same order, so the same force to
// the bit (TestForcePlainMatchesForce, also with GOAMD64=v3: each product
// handed on by a method there is rounded here too, float64(x), so that no
// sum fuses with it). The copies of nearWall's test and budget.add are
// deliberate: calling them instead cost Steer 2–4% at 100,000 agents; the
// test fails if either copy drifts from its original. So are the move
// force's truncation (steer.Truncate's common cases) and budget.addLast:
// with steer.Arrive and steer.Truncate called (not inlined) and addLast
// and fit too, BenchmarkSteer ran 4% more instructions (7.00 G against 6.70 G
// for 300 frames) and 10% longer. The move force is not worked out for an
// agent the crowd rule steers (crowdArrive), whose force replaces it.
func (s *Steer) forcePlain(a *steerAgent, kd *steerKind, mode components.DesiredMode, sep *r2.Vec) r2.Vec {
	pos, vel := a.pos, a.vel
	if !finiteVec(pos) || !finiteVec(vel) {
		return r2.Vec{} // Movement keeps it still; Diagnose counts it
	}
	maxF := kd.kin.MaxForce
	dt := s.clock.DT
	wt := &kd.wt
	var move r2.Vec
	crowded := false
	if mode == components.DesiredArrive && kd.sep && (sep.X != 0 || sep.Y != 0) && !(norm2(vel) > kd.crowdTop2) { // arriving in a crowd (crowdSlow): steer_crowd.go
		push := *sep
		if w := wt.Separation; w != 1 {
			push = r2.Vec{X: float64(w * push.X), Y: float64(w * push.Y)}
		}
		// before the move force, which a crowd's force replaces: it is not worked out then
		move, crowded = crowdArrive(pos, vel, a.point, push, kd.speed, maxF, wt.SeparationRadius, dt)
	}
	if !crowded && !(dt <= 0) { // steer's Seek and Arrive and followFlow: the zero force for dt ≤ 0
		// their force before its truncation to maxF, then the truncation (steer.Truncate) here
		var v r2.Vec
		switch mode {
		case components.DesiredFlow:
			v = flowPull(vel, r2.Sub(a.point, pos), kd.speed, s.invDT)
		case components.DesiredArrive:
			// arrivePull(pos, vel, a.point, kd.speed, maxF, dt, s.invDT) inline
			// (the same operations: 9 in 10 guards arrive, and the call
			// spilled this function's live values around it)
			d := r2.Sub(a.point, pos)
			dist := math.Sqrt(float64(d.X*d.X) + float64(d.Y*d.Y))
			var desired r2.Vec
			if maxSpeed := kd.speed; dist > ArrivedRadius {
				speed, reach := maxSpeed, dist/dt
				// h := maxSpeed + maxF·dt/2, b := h²·(1+10⁻⁹) and the tests of
				// maxSpeed, maxF and b alone come from the kind (atStep)
				if !(reach >= maxSpeed && kd.brakeOK && 2*maxF*dist >= kd.brakeB) {
					speed = min(maxSpeed, min(steer.BrakingSpeed(dist, maxF, dt), reach))
				}
				k := speed / dist
				desired = r2.Vec{X: k * d.X, Y: k * d.Y}
			}
			v = r2.Vec{X: float64(s.invDT * (desired.X - vel.X)), Y: float64(s.invDT * (desired.Y - vel.Y))}
		default: // components.DesiredSeek
			v = seekPull(pos, vel, a.point, kd.speed, s.invDT)
		}
		// steer.Truncate(v, maxF) inline for its common cases: v no longer than
		// maxF, and a finite v longer, both lengths between 2⁻⁵⁰⁰ and 2⁵⁰⁰, cut to
		// (maxF/|v|)·v; the rest goes to steer.Truncate. A finite |v|² means a
		// finite v (an infinite or NaN component makes it infinite or NaN).
		move = v
		if n2 := float64(v.X*v.X) + float64(v.Y*v.Y); !(maxF >= 0x1p-500 && maxF <= 0x1p500 && n2 <= maxF*maxF) {
			if n := math.Sqrt(n2); maxF >= 0x1p-500 && maxF <= 0x1p500 && n2 <= math.MaxFloat64 && n >= 0x1p-500 && n <= 0x1p500 {
				if n > maxF {
					k := maxF / n
					move = r2.Vec{X: float64(k * v.X), Y: float64(k * v.Y)}
				}
			} else {
				move = steer.Truncate(v, maxF)
			}
		}
	}
	acc := budget{max: maxF}
	if wt.Wall > 0 && (vel.X != 0 || vel.Y != 0) && !crowded { // as combine: no feelers in a crowd either
		// s.nearWall inline; an agent inside a blocked cell of the grid
		// (clearance 0 there), or off the grid, casts no feelers
		b := &s.walls
		var clear float64
		var more uint8
		near := false
		if pos.X >= 0 && pos.Y >= 0 && pos.X < float64(b.w) && pos.Y < float64(b.h) {
			i := int(pos.Y)*b.w + int(pos.X)
			clear, more = float64(b.clr[i]), b.more[i]
			near = true
			if clear == 0 {
				near = false
			} else if !(clear < 2*kd.kin.Radius+0.25+1 || clear < 1) {
				k := (clear - 1) / feelerTime
				near = norm2(vel) > k*k*(1-1e-9)
			}
		}
		if near {
			f := s.walls.avoid(pos, vel, feelerTime, kd.kin.Radius, maxF, clear, more, arrivePoint(mode, a))
			var ok bool
			if f.X == 0 && f.Y == 0 {
				ok = acc.addZero(wt.Wall)
			} else {
				ok = acc.add(f, wt.Wall)
			}
			if !ok {
				return acc.sum
			}
		}
	}
	if kd.sep {
		if f := *sep; f.X == 0 && f.Y == 0 {
			if !acc.addZero(wt.Separation) {
				return acc.sum
			}
		} else { // acc.add(f, wt.Separation) inline
			if w := wt.Separation; w != 1 {
				f = r2.Vec{X: float64(w * f.X), Y: float64(w * f.Y)}
			}
			n := math.Sqrt(float64(f.X*f.X) + float64(f.Y*f.Y))
			left := acc.max - acc.norm
			if n-n != 0 || left <= 0 { // NaN or infinite, or nothing left
				if !(left > 0 && n-n != 0) {
					return acc.sum
				}
			} else {
				first := acc.sum.X == 0 && acc.sum.Y == 0 && n <= left
				if n > left {
					k := left / n
					f = r2.Vec{X: float64(k * f.X), Y: float64(k * f.Y)}
				}
				acc.sum = r2.Vec{X: acc.sum.X + f.X, Y: acc.sum.Y + f.Y}
				if first {
					acc.norm = n
				} else {
					acc.norm = math.Sqrt(float64(acc.sum.X*acc.sum.X) + float64(acc.sum.Y*acc.sum.Y))
				}
				if !(acc.max-acc.norm > 1e-12) {
					return acc.sum
				}
			}
		}
	}
	// acc.addLast(move, 1) inline: a move force within what is left goes in
	// whole, a longer one (budget.fit) cut to what is left
	left := acc.max - acc.norm
	if m2 := float64(move.X*move.X) + float64(move.Y*move.Y); left >= 0x1p-500 && left <= 0x1p500 && m2 <= left*left {
		return r2.Vec{X: acc.sum.X + move.X, Y: acc.sum.Y + move.Y}
	} else if n := math.Sqrt(m2); n-n != 0 || left <= 0 { // NaN or infinite, or nothing left
		return acc.sum
	} else if n > left {
		k := left / n
		move = r2.Vec{X: float64(k * move.X), Y: float64(k * move.Y)}
	}
	return r2.Vec{X: acc.sum.X + move.X, Y: acc.sum.Y + move.Y}
}

// followFlow is steer.FollowFlow(vel, dir, maxSpeed, maxForce, dt) with
// invDT = 1/dt worked out once a frame rather than once an agent (the same
// arithmetic, so the same force to the bit).
func followFlow(vel, dir r2.Vec, maxSpeed, maxForce, dt, invDT float64) r2.Vec {
	if dt <= 0 {
		return r2.Vec{}
	}
	return steer.Truncate(flowPull(vel, dir, maxSpeed, invDT), maxForce)
}

// flowPull is followFlow's force before its truncation to maxForce, for
// dt > 0 (invDT = 1/dt).
func flowPull(vel, dir r2.Vec, maxSpeed, invDT float64) r2.Vec {
	var desired r2.Vec
	if n := math.Sqrt(norm2(dir)); n > 0 {
		k := maxSpeed / n
		desired = r2.Vec{X: k * dir.X, Y: k * dir.Y}
	}
	return r2.Vec{X: float64(invDT * (desired.X - vel.X)), Y: float64(invDT * (desired.Y - vel.Y))}
}

// seekPull is steer.Seek's force before its truncation to maxForce, for
// dt > 0 (invDT = 1/dt): the same arithmetic, so the same vector to the bit
// (TestPullsMatchSteer).
func seekPull(pos, vel, target r2.Vec, maxSpeed, invDT float64) r2.Vec {
	d := r2.Sub(target, pos)
	var desired r2.Vec
	if n := math.Sqrt(float64(d.X*d.X) + float64(d.Y*d.Y)); n > 0 {
		k := maxSpeed / n
		desired = r2.Vec{X: k * d.X, Y: k * d.Y}
	}
	return r2.Vec{X: float64(invDT * (desired.X - vel.X)), Y: float64(invDT * (desired.Y - vel.Y))}
}

// arrivePull is steer.Arrive(pos, vel, target, maxSpeed, maxForce,
// ArrivedRadius, dt)'s force before its truncation to maxForce, for dt > 0
// (invDT = 1/dt), with steer's farToBrake inline: the same arithmetic, so
// the same vector to the bit (TestPullsMatchSteer).
func arrivePull(pos, vel, target r2.Vec, maxSpeed, maxForce, dt, invDT float64) r2.Vec {
	d := r2.Sub(target, pos)
	dist := math.Sqrt(float64(d.X*d.X) + float64(d.Y*d.Y))
	var desired r2.Vec
	if dist > ArrivedRadius {
		speed, reach := maxSpeed, dist/dt
		h := maxSpeed + float64(maxForce*dt/2) // farToBrake(dist, maxSpeed, maxForce, dt), below
		b := h * h * (1 + 1e-9)
		if !(reach >= maxSpeed && maxSpeed > 0 && maxForce > 0 && b <= math.MaxFloat64 && 2*maxForce*dist >= b) {
			speed = min(maxSpeed, min(steer.BrakingSpeed(dist, maxForce, dt), reach))
		}
		k := speed / dist
		desired = r2.Vec{X: k * d.X, Y: k * d.Y}
	}
	return r2.Vec{X: float64(invDT * (desired.X - vel.X)), Y: float64(invDT * (desired.Y - vel.Y))}
}

// combine sums the weighted forces by priority within MaxForce: wall
// avoidance, separation, the move force (a wander comes last instead),
// alignment, cohesion.
func (s *Steer) combine(a *steerAgent, kd *steerKind, mode components.DesiredMode, slot int, self uint32, sc *steerScratch, sep *r2.Vec, move r2.Vec, wandering bool, dt float64) r2.Vec {
	kin, wt := &kd.kin, &kd.wt
	acc := budget{max: kin.MaxForce}
	var f r2.Vec // the separation force
	if kd.sep {
		if sep != nil {
			f = *sep
		} else if slot >= 0 {
			f = s.separation(a.pos, slot, wt.SeparationRadius, kin.MaxForce)
		} else {
			s.neighbours(a, slot, sc, wt.SeparationRadius, false)
			f = steer.Separation(a.pos, sc.near, wt.SeparationRadius, kin.MaxForce, uint64(self))
		}
		if sep == nil && (f.X != 0 || f.Y != 0) {
			f = s.walls.braced(a.pos, kin.Radius, f) // as Work does for the others (steer_braced.go)
		}
	}
	if mode == components.DesiredStop && kd.sep && standsStill(f, wt.Separation, kin.MaxForce) {
		return steer.Truncate(move, kin.MaxForce) // at rest in its crowd: only brakes (standsStill)
	}
	crowded := false
	if mode == components.DesiredArrive && (f.X != 0 || f.Y != 0) { // arriving in a crowd: steer_crowd.go
		push := f
		if w := wt.Separation; w != 1 { // what acc.add adds
			push = r2.Vec{X: float64(w * f.X), Y: float64(w * f.Y)}
		}
		if m, ok := crowdArrive(a.pos, a.vel, a.point, push, kd.speed, kin.MaxForce, wt.SeparationRadius, dt); ok {
			move, crowded = m, true
		}
	}
	// a standing agent casts no feelers (steer.WallAvoidance is zero), and one
	// in the open cannot reach a wall with them; nor does one arriving in a
	// crowd (steer_crowd.go), nor a disc braking to a stop (heldOffWalls)
	if wt.Wall > 0 && (a.vel.X != 0 || a.vel.Y != 0) && !crowded && !(mode == components.DesiredStop && kd.sep && heldOffWalls(kin.Radius)) {
		// an agent inside a blocked cell of the grid (a door closed on it) casts none:
		// every feeler would push it back into the wall it is walking out of
		if clear, more, near := s.nearWall(a.pos, a.vel, kin.Radius); near && !(clear == 0 && s.inGrid(a.pos)) {
			wf := s.walls.avoid(a.pos, a.vel, feelerTime, kin.Radius, kin.MaxForce, clear, more, arrivePoint(mode, a))
			var ok bool
			if wf.X == 0 && wf.Y == 0 { // most near a wall: nothing to measure
				ok = acc.addZero(wt.Wall)
			} else {
				ok = acc.add(wf, wt.Wall)
			}
			if !ok {
				return acc.sum
			}
		}
	}
	if kd.sep {
		var ok bool
		if f.X == 0 && f.Y == 0 { // most of a crowd: nobody in range
			ok = acc.addZero(wt.Separation)
		} else {
			ok = acc.add(f, wt.Separation)
		}
		if !ok {
			return acc.sum
		}
	}
	flock := (wt.Alignment > 0 || wt.Cohesion > 0) && wt.NeighbourRadius > 0
	if !wandering && !flock { // the move force is the last: what is left does not matter
		acc.addLast(move, 1)
		return acc.sum
	}
	if !wandering && !acc.add(move, 1) {
		return acc.sum
	}
	if flock {
		s.neighbours(a, slot, sc, wt.NeighbourRadius, true)
		if wt.Alignment > 0 && !acc.add(steer.Alignment(a.vel, sc.vels, kin.MaxForce, dt), wt.Alignment) {
			return acc.sum
		}
		if wt.Cohesion > 0 && !acc.add(steer.Cohesion(a.pos, a.vel, sc.near, kin.MaxSpeed, kin.MaxForce, dt), wt.Cohesion) {
			return acc.sum
		}
	}
	if wandering {
		acc.addLast(move, 1)
	}
	return acc.sum
}

// restPush is the share of MaxForce below which the weighted separation of
// an agent braking to a stop (DesiredStop: a FlowFollower at rest, Arrived)
// does not move it (standsStill): static friction, so a crowd at rest comes
// to a standstill. Without it, separation went on spreading a crowd at rest
// out for minutes, each agent moving at its push times dt (a push of w·MaxForce
// moves an agent at w·MaxForce/60 cells/s at 60 Hz): 3,000 followers at a
// goal that had walked for 15 s and stopped, or at a goal that never moved,
// still had half their agents moving at 0.009 and 0.017 cells/s 30 s later,
// and some at 0.17 cells/s a minute on (TestFlowCrowdAtAStoppedGoalStandsStill).
// At a tenth of MaxForce two default FlowFollowers (separation radius 0.75,
// weight 1.5) left alone stand still from 0.70 cells apart, their discs (0.6
// across) clear of each other; an agent pressing into the crowd, or a rim
// agent pushed from one side by more, still moves it.
const restPush = 0.1

// standsStill reports whether an agent braking to a stop, whose separation
// force is sep (before its weight w), stands still: the weighted push is
// shorter than restPush·maxForce (see restPush).
func standsStill(sep r2.Vec, w, maxForce float64) bool {
	lim := restPush * maxForce
	return float64(w*w)*norm2(sep) < lim*lim
}

// heldOffWalls reports whether an agent of radius r braking to a stop
// (DesiredStop) casts no wall feelers: any disc (r > 0), which Movement
// holds out of walls (wide ones by stepWide). Its feelers pushed it off a
// wall it was pushed towards by its crowd, and its separation back, in turn:
// agents at rest in a crowd against a wall swayed at about 0.1 cells/s, from
// frame to frame, for good (3,000 followers: about 80 of them a minute after
// their goal stopped, TestFlowCrowdAtAStoppedGoalStandsStill; wide followers
// of radius 0.8 at the mouth of a gap, the feeler's push and the crowd's
// flipping each frame: TestWideFlowFollowersThroughAGapComeToRest).
func heldOffWalls(r float64) bool { return r > 0 }

// budget is [steer.Accumulator] (Reynolds 1999; Buckland 2005, the
// prioritised weighted truncated running sum) with the length of the sum
// kept from one add to the next: the same arithmetic, to the bit, with fewer
// square roots on the chain of operations each force waits for. The first
// force added whole has the length it brings (|0 + f| is |f| to the bit), and
// the last one (addLast) does not measure the sum it leaves.
type budget struct {
	sum  r2.Vec
	max  float64 // the largest |sum|
	norm float64 // |sum|
}

// add is steer.Accumulator.Add: it adds weight·f within what is left of
// max and reports whether some is still left. NaN or infinite forces are
// ignored.
func (b *budget) add(f r2.Vec, weight float64) bool {
	f, n, left, ok := b.fit(f, weight)
	if !ok {
		return left > 0 && n-n != 0 // NaN or infinite f: Add's answer
	}
	first := b.sum.X == 0 && b.sum.Y == 0 && n <= left // the sum was zero and f goes in whole
	b.sum = r2.Vec{X: b.sum.X + f.X, Y: b.sum.Y + f.Y}
	if first {
		b.norm = n
	} else {
		b.norm = math.Sqrt(float64(b.sum.X*b.sum.X) + float64(b.sum.Y*b.sum.Y)) // no multiply-add, as steer's normRounded
	}
	return b.max-b.norm > 1e-12
}

// addZero is add of a zero force (either zero) with weight, which leaves
// the budget as it was (a sum is never −0, and s + ±0 is s; its length is
// still norm), measuring nothing: add's answer from what is left, max − norm,
// and a weight that is not finite makes the force NaN, which add drops
// (still true while something is left).
func (b *budget) addZero(weight float64) bool {
	if weight-weight == 0 {
		return b.max-b.norm > 1e-12
	}
	return b.max-b.norm > 0
}

// addLast is add for the last force: the sum is the same, and what is left
// of the budget afterwards is not measured. A force no longer than what is
// left goes in without a square root, by steer.Truncate's test: |f|² against
// the rounded left² (the rounded square root of the rounded x² is x, for x
// between 2⁻⁵⁰⁰ and 2⁵⁰⁰, so |f|² ≤ left² exactly when |f| ≤ left; where the
// two differ fit's cut is by left/|f| = 1).
func (b *budget) addLast(f r2.Vec, weight float64) {
	if weight != 1 { // 1·x is x, NaN and −0 included
		f = r2.Vec{X: weight * f.X, Y: weight * f.Y}
	}
	if left := b.max - b.norm; left >= 0x1p-500 && left <= 0x1p500 && float64(f.X*f.X)+float64(f.Y*f.Y) <= left*left {
		b.sum = r2.Vec{X: b.sum.X + f.X, Y: b.sum.Y + f.Y}
		return
	}
	if f, _, _, ok := b.fit(f, 1); ok {
		b.sum = r2.Vec{X: b.sum.X + f.X, Y: b.sum.Y + f.Y}
	}
}

// fit returns weight·f cut to what is left of the budget, its length n
// before the cut, and what was left; ok is false when nothing is to be
// added: f is NaN or infinite, or no budget is left.
func (b *budget) fit(f r2.Vec, weight float64) (r2.Vec, float64, float64, bool) {
	if weight != 1 { // 1·x is x, NaN and −0 included
		f = r2.Vec{X: weight * f.X, Y: weight * f.Y}
	}
	n := math.Sqrt(float64(f.X*f.X) + float64(f.Y*f.Y))
	left := b.max - b.norm
	if n-n != 0 || left <= 0 { // NaN or infinite, or nothing left
		return f, n, left, false
	}
	if n > left {
		k := left / n
		f = r2.Vec{X: k * f.X, Y: k * f.Y}
	}
	return f, n, left, true
}

// inGrid reports whether pos lies on the grid of s.walls.
func (s *Steer) inGrid(pos r2.Vec) bool {
	return pos.X >= 0 && pos.Y >= 0 && pos.X < float64(s.walls.w) && pos.Y < float64(s.walls.h)
}

// feelerTime is the lookahead of wall-avoidance feelers, in seconds.
const feelerTime = 0.5

// arrivePoint returns &a.point for an agent arriving there (mode
// DesiredArrive: its feelers reach no farther, see wallBits.feelerReach),
// else nil.
func arrivePoint(mode components.DesiredMode, a *steerAgent) *r2.Vec {
	if mode != components.DesiredArrive {
		return nil
	}
	return &a.point
}

// nearWall returns the clearance of pos's cell (0 off the grid), its byte of
// the quadrant table (wallBits.more; 0 off the grid) and whether a feeler
// from pos could reach a blocked cell. Both come from s.walls' tables, which
// hold the grid's clearance (and are read inline: no call for the cell). A feeler of length l enters a
// cell k cells (Chebyshev) from pos's cell only past k−1 cells of its length,
// so it can reach a blocked cell only when the clearance of pos's cell (the
// Chebyshev distance to the nearest one) is less than l+1. Most agents of a
// crowd are in the open and skip the feelers; the test leaves out none that
// a feeler would find.
//
// The feelers' length, max(feelerTime·|vel|, 2·radius+0.25) (at most
// wallBits.feelerReach), is not
// measured: the speed is compared squared with a margin of 10⁻⁹, so the
// answer may be near for an agent just out of reach (wallBits.avoid, which
// measures each feeler, then casts none and gives the zero force), never
// the other way.
//
// An agent off the grid casts no feelers (near is false): every cell off the
// grid counts as blocked for them, so each would push it away from the grid
// it walks back onto (Movement lets it move freely off the grid and come on
// into open cells only).
func (s *Steer) nearWall(pos, vel r2.Vec, radius float64) (float64, uint8, bool) {
	b := &s.walls
	// pos's cell is on the grid iff 0 ≤ pos < size (grid.CellAt floors,
	// which is the conversion there; NaN is off)
	if !(pos.X >= 0 && pos.Y >= 0 && pos.X < float64(b.w) && pos.Y < float64(b.h)) {
		return 0, 0, false
	}
	i := int(pos.Y)*b.w + int(pos.X)
	clear, more := float64(b.clr[i]), b.more[i]
	if clear < 2*radius+0.25+1 || clear < 1 {
		return clear, more, true
	}
	// near iff feelerTime·|vel| > clear−1 ≥ 0, give or take rounding
	k := (clear - 1) / feelerTime
	return clear, more, norm2(vel) > k*k*(1-1e-9)
}

// neighbours fills sc.near (and sc.vels) with the neighbours within radius,
// leaving the agent itself out (nothing is left out of an agent not in the
// hash). Positions come from the hash's sorted copy, which agents visited
// in bucket order read front to back.
func (s *Steer) neighbours(a *steerAgent, slot int, sc *steerScratch, radius float64, vels bool) {
	self := int32(-1)
	if slot >= 0 {
		ids, _ := s.nb.Hash.Sorted()
		self = ids[slot]
	}
	sc.ids, sc.near = s.nb.Hash.QueryPositions(a.pos, radius, sc.ids[:0], sc.near[:0])
	sc.vels = sc.vels[:0]
	k := 0
	for i, id := range sc.ids {
		if id == self {
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

// Finalize releases the workers and the filters; Update panics until the next
// Initialize (see lifecycle.go).
func (s *Steer) Finalize(w *arche.World) {
	if s.filter != nil { // not if never initialized, or finalized already
		clear(s.outs) // the world's components
		s.pool.Close()
		s.filter, s.finalized = nil, true
	}
	s.ran.Leave()
	markFinalized(w, sysSteer)
}

// growLines is grow for the hot records: a slice of n (capacity n+n/4 when
// it grows) that starts on a 64-byte boundary, so that each record is one
// whole cache line, which storeAgent writes without reading it first. The
// records hold no pointers, so a slice that starts inside its buffer is all
// the garbage collector needs.
func growLines(s []steerAgent, n int) []steerAgent {
	if cap(s) >= n {
		return s[:n]
	}
	c := n + n/4
	buf := make([]steerAgent, c+1) // one record of room to move the start
	p := unsafe.Pointer(unsafe.SliceData(buf))
	p = unsafe.Add(p, (64-uintptr(p)%64)%64)
	return unsafe.Slice((*steerAgent)(p), c)[:n]
}
