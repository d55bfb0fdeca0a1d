package systems

import (
	"math"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// WaypointRadius is the distance in cells within which a path follower counts
// a waypoint (a cell centre) as reached and turns to the next.
const WaypointRadius = 0.5

// ArrivedRadius is the distance in cells within which an agent counts as
// arrived at its goal: arrive stops there and stays still.
const ArrivedRadius = 1e-3

// Stuck detection: an agent with a move intent that stays within
// StuckDistance cells for StuckTime seconds is stuck.
const (
	StuckDistance = 0.5
	StuckTime     = 2.0
)

// Steer turns each agent's [components.Intent] into a steering force
// ([components.Steering]). The move force is:
//
//   - no move intent: follow the flow field if the agent has a
//     [components.FlowFollower] with a direction (see [FlowField]; arrive
//     when the goal is in sight; stop once Arrived), else wander if it has a
//     [components.Wanderer] (and a [components.Rand]), else brake to a stop;
//   - goal in line of sight: arrive at it directly (no path needed);
//   - otherwise follow the agent's path: seek each waypoint's cell centre, and
//     arrive at the goal from the last one. If the agent holds no path for the
//     goal's cell, it asks for one (Path.Want); while waiting, or when the goal
//     is unreachable, it seeks the goal directly (the movement system keeps
//     it out of walls).
//
// With [components.SteeringWeights], the forces are combined by priority
// within MaxForce ([steer.Accumulator]): wall avoidance, separation, the move
// force, alignment, cohesion (a wander, the least important, comes last). With [components.Progress], an agent that makes
// no progress for StuckTime seconds is marked Stuck and asks for a new path.
//
// Repathing: a held path is replaced when the goal's cell is more than
// 2 + d/4 cells (Chebyshev) from the path's goal, d being the agent's distance
// to the goal, or when the goal moved out of the path end's line of sight, so
// a chased target that moves a little does not cost a search per frame; a
// pending request just takes the new goal; an unreachable answer is retried
// when the goal moves to another cell; a stuck agent asks again.
// While following, the agent moves on to the next waypoint when it reaches
// the current one or when the next one is nearer.
//
// Work is split over Workers goroutines (0: runtime.GOMAXPROCS); the result
// does not depend on their number.
//
// Contract (the README's "The user's contract" has the same table):
//
//	requires   Position, Velocity, Kinematics, Intent, Steering
//	optional   Path, SteeringWeights, Progress, Wanderer (with Rand), FlowFollower
//	writes     Steering.Force; Path.Want, Goal, Next and its sight cache;
//	           Progress; Wanderer.Angle; Rand
//	resources  *ecs.Clock (ecs.ClockSystem), *grid.Grid,
//	           *Neighbours (the Spatial system, added before Steer)
//
//	absent or unusable             what Steer does                        Diagnose counts
//	a required component           not steered                            CauseSteerIncomplete
//	SteeringWeights                move force only: no walls, no          CauseWeightsMissing
//	                               separation (a crowd stacks up)
//	SteeringWeights all zero       opt-out: the same, chosen              -
//	a weight < 0, NaN or Inf       mixed as given                         CauseWeightsInvalid
//	Path                           opt-out: seeks goals in a straight     CauseMoveWithoutPath, when
//	                               line (Movement stops it at walls)      Intent.Move on a grid with walls
//	Progress                       opt-out: no stuck detection            -
//	Wanderer                       opt-out: brakes without an intent      -
//	Wanderer without Rand          brakes                                 CauseWanderNoRand
//	Wanderer Radius/Jitter ≤ 0     stands, goes straight or circles       CauseWanderInvalid
//	FlowFollower                   opt-out: no flow following             -
//	MaxSpeed/MaxForce not > 0      force zero: stands still               CauseKinematics
//	  and finite, Radius NaN/Inf
//	Radius ≤ 0                     steers (short wall feelers)            CauseKinematics
//	Position or Velocity NaN/Inf   force zero: stands still               CausePosition, CauseVelocity
//	Intent.Goal NaN/Inf            as no move intent: brakes, asks        CauseGoal
//	                               for no path
type Steer struct {
	Workers int

	Stuck int // agents found stuck in the last frame

	clock  *ecs.Clock
	grid   *grid.Grid
	nb     *Neighbours
	pool   *ecs.Workers
	filter *generic.Filter11[components.Position, components.Velocity, components.Kinematics, components.Intent,
		components.Steering, components.Path, components.SteeringWeights, components.Progress,
		components.Wanderer, components.Rand, components.FlowFollower]
	jobs    []steerJob
	scratch []steerScratch
	order   spatialOrder
	visit   []int32 // jobs in spatial order

	clearance        []uint8 // per cell: Chebyshev distance in cells to the nearest blocked cell, capped at 255
	clearanceVersion uint64
}

// steerJob is one agent's work. The read-only inputs are copied in while the
// query runs (reading the components in storage order); the workers then
// visit jobs in spatial order, so each visit touches one job and the
// neighbours' data instead of several scattered components.
type steerJob struct {
	self     arche.Entity
	pos, vel r2.Vec
	kin      components.Kinematics
	intent   components.Intent
	weights  components.SteeringWeights
	flow     components.FlowFollower
	hasW     bool
	hasFlow  bool
	out      *components.Steering
	path     *components.Path
	progress *components.Progress
	wander   *components.Wanderer
	rand     *components.Rand
}

type steerScratch struct {
	ids        []int32
	near, vels []r2.Vec
	stuck      int
	_          [64]byte // keep workers' counters off one cache line
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
	s.filter = generic.NewFilter11[components.Position, components.Velocity, components.Kinematics, components.Intent,
		components.Steering, components.Path, components.SteeringWeights, components.Progress,
		components.Wanderer, components.Rand, components.FlowFollower]().
		Optional(generic.T[components.Path](), generic.T[components.SteeringWeights](), generic.T[components.Progress](),
			generic.T[components.Wanderer](), generic.T[components.Rand](), generic.T[components.FlowFollower]())
	s.pool = ecs.NewWorkers(s.Workers)
	s.scratch = make([]steerScratch, s.pool.N())
}

// Update computes every agent's force.
func (s *Steer) Update(w *arche.World) {
	s.jobs = s.jobs[:0]
	q := s.filter.Query(w)
	for q.Next() {
		pos, vel, kin, in, st, path, wt, pr, wa, rnd, ff := q.Get()
		if rnd == nil {
			wa = nil // wandering needs the agent's random source
		}
		j := steerJob{self: q.Entity(), pos: pos.Vec, vel: vel.Vec, kin: *kin, intent: *in,
			out: st, path: path, progress: pr, wander: wa, rand: rnd}
		if wt != nil {
			j.weights, j.hasW = *wt, true
		}
		if ff != nil {
			j.flow, j.hasFlow = *ff, true
		}
		s.jobs = append(s.jobs, j)
	}
	s.grid.Prepare()
	s.updateClearance()
	s.visit = nil
	if len(s.jobs) >= spatialOrderMin {
		s.visit = s.order.sort(s.nb.Hash, len(s.jobs), func(i int) r2.Vec { return s.jobs[i].pos })
	}
	s.pool.Run(s, len(s.jobs))
	clear(s.jobs)
	s.Stuck = 0
	for i := range s.scratch {
		s.Stuck += s.scratch[i].stuck
		s.scratch[i].stuck = 0
	}
}

// Work implements ecs.Job.
func (s *Steer) Work(worker, lo, hi int) {
	sc := &s.scratch[worker]
	for k := lo; k < hi; k++ {
		i := k
		if s.visit != nil {
			i = int(s.visit[k])
		}
		s.steer(&s.jobs[i], sc)
	}
}

func (s *Steer) steer(j *steerJob, sc *steerScratch) {
	dt := s.clock.DT
	kin := &j.kin
	if !finiteVec(j.pos) || !finiteVec(j.vel) || !UsableKinematics(kin) {
		j.out.Force = r2.Vec{} // Movement keeps it still; Diagnose counts it
		return
	}
	if j.intent.Move && !finiteVec(j.intent.Goal) {
		j.intent.Move = false // nowhere to go: brake (this frame's copy only)
	}
	flowing := !j.intent.Move && j.hasFlow && (j.flow.Steer || j.flow.Arrived)
	wandering := !j.intent.Move && !flowing && j.wander != nil
	var move r2.Vec
	switch {
	case flowing && j.flow.Arrived:
		move = steer.Brake(j.vel, kin.MaxForce, dt) // stop where it is
	case flowing && j.flow.Direct:
		move = steer.Arrive(j.pos, j.vel, j.flow.Aim, kin.MaxSpeed, kin.MaxForce, ArrivedRadius, dt)
	case flowing:
		move = steer.FollowFlow(j.vel, r2.Sub(j.flow.Aim, j.pos), kin.MaxSpeed, kin.MaxForce, dt)
	case wandering:
		move = j.wander.Force(j.pos, j.vel, &j.rand.Rand, kin.MaxSpeed, kin.MaxForce, dt)
	default:
		move = s.moveForce(j.pos, j.vel, kin, &j.intent, j.path, dt)
	}
	if j.progress != nil {
		s.track(j, sc)
	}
	if !j.hasW {
		j.out.Force = steer.Truncate(move, kin.MaxForce)
		return
	}
	j.out.Force = s.combine(j, sc, &j.weights, move, wandering, dt)
}

// combine sums the weighted forces by priority within MaxForce: wall
// avoidance, separation, the move force (a wander comes last instead),
// alignment, cohesion.
func (s *Steer) combine(j *steerJob, sc *steerScratch, wt *components.SteeringWeights, move r2.Vec, wandering bool, dt float64) r2.Vec {
	kin := &j.kin
	acc := steer.Accumulator{Max: kin.MaxForce}
	if wt.Wall > 0 && s.nearWall(j.pos, j.vel, kin.Radius) {
		f := steer.WallAvoidance(j.pos, j.vel, s.blocked, feelerTime, 2*kin.Radius+0.25, math.Pi/4, kin.MaxForce)
		if !acc.Add(f, wt.Wall) {
			return acc.Sum
		}
	}
	if wt.Separation > 0 && wt.SeparationRadius > 0 {
		s.gather(j, sc, wt.SeparationRadius, false)
		if !acc.Add(steer.Separation(j.pos, sc.near, wt.SeparationRadius, kin.MaxForce, uint64(j.self.ID())), wt.Separation) {
			return acc.Sum
		}
	}
	if !wandering && !acc.Add(move, 1) {
		return acc.Sum
	}
	if (wt.Alignment > 0 || wt.Cohesion > 0) && wt.NeighbourRadius > 0 {
		s.gather(j, sc, wt.NeighbourRadius, true)
		if wt.Alignment > 0 && !acc.Add(steer.Alignment(j.vel, sc.vels, kin.MaxForce, dt), wt.Alignment) {
			return acc.Sum
		}
		if wt.Cohesion > 0 && !acc.Add(steer.Cohesion(j.pos, j.vel, sc.near, kin.MaxSpeed, kin.MaxForce, dt), wt.Cohesion) {
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
	return float64(s.clearance[int(c.Y)*s.grid.Width()+int(c.X)]) <= length+1
}

// updateClearance recomputes the clearance field when the grid changed: a
// breadth-first search from every blocked cell (and the border) over the 8
// neighbours.
func (s *Steer) updateClearance() {
	g := s.grid
	if s.clearance != nil && s.clearanceVersion == g.Version() {
		return
	}
	w, h := g.Width(), g.Height()
	s.clearanceVersion = g.Version()
	if len(s.clearance) != w*h {
		s.clearance = make([]uint8, w*h)
	}
	queue := make([]int32, 0, w*h/4)
	for y := range h {
		for x := range w {
			i := y*w + x
			if !g.Passable(grid.Cell{X: int32(x), Y: int32(y)}) {
				s.clearance[i] = 0
				queue = append(queue, int32(i))
				continue
			}
			// the border counts as a wall one cell out
			d := min(x+1, y+1, w-x, h-y, 255)
			s.clearance[i] = uint8(d)
		}
	}
	for len(queue) > 0 {
		i := int(queue[0])
		queue = queue[1:]
		x, y := i%w, i/w
		next := s.clearance[i] + 1
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				nx, ny := x+dx, y+dy
				if nx < 0 || ny < 0 || nx >= w || ny >= h {
					continue
				}
				if n := ny*w + nx; s.clearance[n] > next {
					s.clearance[n] = next
					queue = append(queue, int32(n))
				}
			}
		}
	}
}

// blocked adapts the grid for steer.WallAvoidance.
func (s *Steer) blocked(x, y int32) bool { return !s.grid.Passable(grid.Cell{X: x, Y: y}) }

// gather fills sc.near (and sc.vels) with the neighbours within radius,
// leaving the agent itself out.
func (s *Steer) gather(j *steerJob, sc *steerScratch, radius float64, vels bool) {
	// positions come from the hash's sorted copy (read in order, in cache)
	sc.ids, sc.near = s.nb.Hash.QueryPositions(j.pos, radius, sc.ids[:0], sc.near[:0])
	sc.vels = sc.vels[:0]
	self := s.nb.ID(j.self)
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

// track updates stuck detection.
func (s *Steer) track(j *steerJob, sc *steerScratch) {
	pr, now := j.progress, s.clock.Time
	moved := r2.Norm(r2.Sub(j.pos, pr.Anchor)) > StuckDistance
	atGoal := r2.Norm(r2.Sub(j.pos, j.intent.Goal)) <= StuckDistance
	if !j.intent.Move || moved || atGoal {
		pr.Anchor, pr.Since, pr.Stuck = j.pos, now, false
		return
	}
	if now-pr.Since < StuckTime {
		return
	}
	pr.Stuck = true
	pr.Count++
	sc.stuck++
	pr.Anchor, pr.Since = j.pos, now
	if j.path != nil {
		j.path.SightKnown = false // the cached line of sight may be what keeps it pressing into a wall
		if j.path.State != components.PathPending {
			j.path.Want, j.path.Goal = true, s.grid.CellAt(j.intent.Goal)
		}
	}
}

func (s *Steer) moveForce(pos, vel r2.Vec, kin *components.Kinematics, in *components.Intent, path *components.Path, dt float64) r2.Vec {
	if !in.Move {
		return steer.Brake(vel, kin.MaxForce, dt)
	}
	speed := kin.MaxSpeed
	if in.SpeedFactor > 0 && in.SpeedFactor < 1 {
		speed *= in.SpeedFactor
	}
	goal := in.Goal
	if path == nil || s.inSight(path, pos, goal) {
		return steer.Arrive(pos, vel, goal, speed, kin.MaxForce, ArrivedRadius, dt)
	}
	gc := s.grid.CellAt(goal)
	switch path.State {
	case components.PathPending:
		path.Goal = gc // the queue serves the newest goal
	case components.PathNone:
		path.Want, path.Goal = true, gc
	case components.PathUnreachable:
		if path.Goal != gc { // another goal may well be reachable
			path.Want, path.Goal = true, gc
		}
	default:
		if s.stale(path.Goal, gc, goal, pos) {
			path.Want, path.Goal = true, gc
		}
	}
	if path.State != components.PathReady || path.Next >= len(path.Waypoints) {
		return steer.Seek(pos, vel, goal, speed, kin.MaxForce, dt)
	}
	last := len(path.Waypoints) - 1
	wp := s.grid.Center(path.Waypoints[path.Next])
	for path.Next < last {
		// move on when the waypoint is reached, or when the next one is
		// nearer (the agent went ahead while it saw its goal directly)
		nextWp := s.grid.Center(path.Waypoints[path.Next+1])
		if r2.Norm(r2.Sub(wp, pos)) >= WaypointRadius && r2.Norm(r2.Sub(nextWp, pos)) >= r2.Norm(r2.Sub(wp, pos)) {
			break
		}
		path.Next++
		wp = nextWp
	}
	if path.Next == last {
		return steer.Arrive(pos, vel, goal, speed, kin.MaxForce, ArrivedRadius, dt)
	}
	return steer.Seek(pos, vel, wp, speed, kin.MaxForce, dt)
}

// inSight reports whether the goal is in line of sight, testing again only
// when the agent's or the goal's cell changed since the last test (the cache
// in Path). Within one cell the answer can be slightly off near a corner;
// Movement still keeps the agent out of walls.
func (s *Steer) inSight(path *components.Path, pos, goal r2.Vec) bool {
	from, to := s.grid.CellAt(pos), s.grid.CellAt(goal)
	if !path.SightKnown || path.SightFrom != from || path.SightTo != to {
		path.SightFrom, path.SightTo, path.SightKnown = from, to, true
		path.SightClear = s.grid.LineOfSight(pos, goal)
	}
	return path.SightClear
}

// stale reports whether a held path to cell held no longer serves a goal in
// cell gc: the goal's cell moved more than 2 + d/4 cells (Chebyshev; d is the
// agent's distance to the goal), or it moved at all and the path's end has no
// line of sight to the goal (it went behind a wall).
func (s *Steer) stale(held, gc grid.Cell, goal, pos r2.Vec) bool {
	if held == gc {
		return false
	}
	return far(held, gc, r2.Norm(r2.Sub(goal, pos))) || !s.grid.LineOfSight(s.grid.Center(held), goal)
}

// far reports whether a held path to cell a is too far off a new goal cell b.
func far(a, b grid.Cell, dist float64) bool {
	dx, dy := a.X-b.X, a.Y-b.Y
	cheb := max(dx, -dx, dy, -dy)
	return float64(cheb) > 2+dist/4
}

// Finalize stops the workers.
func (s *Steer) Finalize(w *arche.World) { s.pool.Close() }
