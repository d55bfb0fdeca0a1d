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
//   - no move intent: brake to a stop;
//   - goal in line of sight: arrive at it directly (no path needed);
//   - otherwise follow the agent's path: seek each waypoint's cell centre, and
//     arrive at the goal from the last one. If the agent holds no path for the
//     goal's cell, it asks for one (Path.Want); while waiting, or when the goal
//     is unreachable, it seeks the goal directly (the movement system keeps
//     it out of walls).
//
// With [components.SteeringWeights], the forces are combined by priority
// within MaxForce ([steer.Accumulator]): wall avoidance, separation, the move
// force, alignment, cohesion. With [components.Progress], an agent that makes
// no progress for StuckTime seconds is marked Stuck and asks for a new path.
//
// Repathing: a held path is replaced only when the goal's cell is more than
// 2 + d/4 cells (Chebyshev) from the path's goal, d being the agent's distance
// to the goal, so a chased target that moves a little does not cost a search
// per frame; a pending request just takes the new goal.
//
// Work is split over Workers goroutines (0: runtime.GOMAXPROCS); the result
// does not depend on their number.
type Steer struct {
	Workers int

	Stuck int // agents found stuck in the last frame

	clock  *ecs.Clock
	grid   *grid.Grid
	nb     *Neighbours
	pool   *ecs.Workers
	filter *generic.Filter8[components.Position, components.Velocity, components.Kinematics, components.Intent,
		components.Steering, components.Path, components.SteeringWeights, components.Progress]
	jobs    []steerJob
	scratch []steerScratch
}

type steerJob struct {
	self     arche.Entity
	pos, vel r2.Vec
	kin      *components.Kinematics
	intent   *components.Intent
	out      *components.Steering
	path     *components.Path
	weights  *components.SteeringWeights
	progress *components.Progress
}

type steerScratch struct {
	ids        []int32
	near, vels []r2.Vec
	stuck      int
	_          [64]byte // keep workers' counters off one cache line
}

// Name implements ecs.Namer.
func (s *Steer) Name() string { return "steer" }

// Initialize builds the filter; Path, SteeringWeights and Progress are
// optional.
//
// Panics if the world has no grid resource.
func (s *Steer) Initialize(w *arche.World) {
	s.clock = ecs.ClockOf(w)
	s.grid = mustGrid(w)
	s.nb = arche.GetResource[Neighbours](w)
	s.filter = generic.NewFilter8[components.Position, components.Velocity, components.Kinematics, components.Intent,
		components.Steering, components.Path, components.SteeringWeights, components.Progress]().
		Optional(generic.T[components.Path](), generic.T[components.SteeringWeights](), generic.T[components.Progress]())
	s.pool = ecs.NewWorkers(s.Workers)
	s.scratch = make([]steerScratch, s.pool.N())
}

// Update computes every agent's force.
func (s *Steer) Update(w *arche.World) {
	s.jobs = s.jobs[:0]
	q := s.filter.Query(w)
	for q.Next() {
		pos, vel, kin, in, st, path, wt, pr := q.Get()
		s.jobs = append(s.jobs, steerJob{self: q.Entity(), pos: pos.Vec, vel: vel.Vec, kin: kin, intent: in,
			out: st, path: path, weights: wt, progress: pr})
	}
	s.grid.Prepare()
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
	for i := lo; i < hi; i++ {
		s.steer(&s.jobs[i], sc)
	}
}

func (s *Steer) steer(j *steerJob, sc *steerScratch) {
	dt := s.clock.DT
	kin := j.kin
	move := s.moveForce(j.pos, j.vel, kin, j.intent, j.path, dt)
	if j.progress != nil {
		s.track(j, sc)
	}
	wt := j.weights
	if wt == nil || s.nb == nil {
		j.out.Force = steer.Truncate(move, kin.MaxForce)
		return
	}
	acc := steer.Accumulator{Max: kin.MaxForce}
	if wt.Wall > 0 {
		f := steer.WallAvoidance(j.pos, j.vel, s.blocked, 0.5, 2*kin.Radius+0.25, math.Pi/4, kin.MaxForce)
		if !acc.Add(f, wt.Wall) {
			j.out.Force = acc.Sum
			return
		}
	}
	if wt.Separation > 0 && wt.SeparationRadius > 0 {
		s.gather(j, sc, wt.SeparationRadius, false)
		if !acc.Add(steer.Separation(j.pos, sc.near, wt.SeparationRadius, kin.MaxForce, uint64(j.self.ID())), wt.Separation) {
			j.out.Force = acc.Sum
			return
		}
	}
	if !acc.Add(move, 1) {
		j.out.Force = acc.Sum
		return
	}
	if (wt.Alignment > 0 || wt.Cohesion > 0) && wt.NeighbourRadius > 0 {
		s.gather(j, sc, wt.NeighbourRadius, true)
		if wt.Alignment > 0 && !acc.Add(steer.Alignment(j.vel, sc.vels, kin.MaxForce, dt), wt.Alignment) {
			j.out.Force = acc.Sum
			return
		}
		if wt.Cohesion > 0 {
			acc.Add(steer.Cohesion(j.pos, j.vel, sc.near, kin.MaxSpeed, kin.MaxForce, dt), wt.Cohesion)
		}
	}
	j.out.Force = acc.Sum
}

// blocked adapts the grid for steer.WallAvoidance.
func (s *Steer) blocked(x, y int32) bool { return !s.grid.Passable(grid.Cell{X: x, Y: y}) }

// gather fills sc.near (and sc.vels) with the neighbours within radius,
// leaving the agent itself out.
func (s *Steer) gather(j *steerJob, sc *steerScratch, radius float64, vels bool) {
	sc.ids = s.nb.Hash.Query(j.pos, radius, sc.ids[:0])
	sc.near, sc.vels = sc.near[:0], sc.vels[:0]
	for _, id := range sc.ids {
		if s.nb.Entities[id] == j.self {
			continue
		}
		sc.near = append(sc.near, s.nb.Positions[id])
		if vels {
			sc.vels = append(sc.vels, s.nb.Velocities[id])
		}
	}
}

// track updates stuck detection.
func (s *Steer) track(j *steerJob, sc *steerScratch) {
	pr, now := j.progress, s.clock.Time
	moved := r2.Norm(r2.Sub(j.pos, pr.Anchor)) > StuckDistance
	if !j.intent.Move || moved {
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
	if j.path != nil && j.path.State != components.PathPending {
		j.path.Want, j.path.Goal = true, s.grid.CellAt(j.intent.Goal)
	}
}

func (s *Steer) moveForce(pos, vel r2.Vec, kin *components.Kinematics, in *components.Intent, path *components.Path, dt float64) r2.Vec {
	if !in.Move {
		return steer.Arrive(pos, vel, pos, 0, kin.MaxForce, math.Inf(1), dt)
	}
	speed := kin.MaxSpeed
	if in.SpeedFactor > 0 && in.SpeedFactor < 1 {
		speed *= in.SpeedFactor
	}
	goal := in.Goal
	if path == nil || s.grid.LineOfSight(pos, goal) {
		return steer.Arrive(pos, vel, goal, speed, kin.MaxForce, ArrivedRadius, dt)
	}
	gc := s.grid.CellAt(goal)
	switch path.State {
	case components.PathPending:
		path.Goal = gc
	case components.PathNone:
		path.Want, path.Goal = true, gc
	default:
		if far(path.Goal, gc, r2.Norm(r2.Sub(goal, pos))) {
			path.Want, path.Goal = true, gc
		}
	}
	if path.State != components.PathReady || path.Next >= len(path.Waypoints) {
		return steer.Seek(pos, vel, goal, speed, kin.MaxForce, dt)
	}
	wp := s.grid.Center(path.Waypoints[path.Next])
	for path.Next < len(path.Waypoints)-1 && r2.Norm(r2.Sub(wp, pos)) < WaypointRadius {
		path.Next++
		wp = s.grid.Center(path.Waypoints[path.Next])
	}
	if path.Next == len(path.Waypoints)-1 {
		return steer.Arrive(pos, vel, goal, speed, kin.MaxForce, ArrivedRadius, dt)
	}
	return steer.Seek(pos, vel, wp, speed, kin.MaxForce, dt)
}

// far reports whether a held path to cell a is too far off a new goal cell b.
func far(a, b grid.Cell, dist float64) bool {
	dx, dy := a.X-b.X, a.Y-b.Y
	cheb := max(dx, -dx, dy, -dy)
	return float64(cheb) > 2+dist/4
}

// Finalize stops the workers.
func (s *Steer) Finalize(w *arche.World) { s.pool.Close() }
