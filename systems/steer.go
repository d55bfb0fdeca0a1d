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

// Steer turns each agent's [components.Intent] into a steering force
// ([components.Steering]):
//
//   - no move intent: brake to a stop;
//   - goal in line of sight: arrive at it directly (no path needed);
//   - otherwise follow the agent's path: seek each waypoint's cell centre, and
//     arrive at the goal from the last one. If the agent holds no path for the
//     goal's cell, it asks for one (Path.Want); while waiting, or when the goal
//     is unreachable, it seeks the goal directly (the movement system keeps
//     it out of walls);
//   - separation from neighbours within SteeringWeights.SeparationRadius is
//     added, and the sum truncated to MaxForce.
//
// Repathing: a held path is replaced only when the goal's cell is more than
// 2 + d/4 cells (Chebyshev) from the path's goal, d being the agent's distance
// to the goal, so a chased target that moves a little does not cost a search
// per frame; a pending request just takes the new goal.
type Steer struct {
	clock  *ecs.Clock
	grid   *grid.Grid
	nb     *Neighbours
	filter *generic.Filter7[components.Position, components.Velocity, components.Kinematics, components.Intent,
		components.Steering, components.Path, components.SteeringWeights]
	ids  []int32
	near []r2.Vec
}

// Name implements ecs.Namer.
func (s *Steer) Name() string { return "steer" }

// Initialize builds the filter; Path and SteeringWeights are optional.
func (s *Steer) Initialize(w *arche.World) {
	s.clock = ecs.ClockOf(w)
	s.grid = mustGrid(w)
	s.nb = arche.GetResource[Neighbours](w)
	s.filter = generic.NewFilter7[components.Position, components.Velocity, components.Kinematics, components.Intent,
		components.Steering, components.Path, components.SteeringWeights]().
		Optional(generic.T[components.Path](), generic.T[components.SteeringWeights]())
}

// Update computes every agent's force.
func (s *Steer) Update(w *arche.World) {
	dt := s.clock.DT
	q := s.filter.Query(w)
	for q.Next() {
		pos, vel, kin, in, st, path, wt := q.Get()
		f := s.moveForce(pos.Vec, vel.Vec, kin, in, path, dt)
		if wt != nil && wt.Separation > 0 && s.nb != nil {
			f = r2.Add(f, r2.Scale(wt.Separation, s.separation(q.Entity(), pos.Vec, wt.SeparationRadius, kin.MaxForce)))
		}
		st.Force = steer.Truncate(f, kin.MaxForce)
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

func (s *Steer) separation(self arche.Entity, pos r2.Vec, radius, maxForce float64) r2.Vec {
	if radius <= 0 {
		return r2.Vec{}
	}
	s.ids = s.nb.Hash.Query(pos, radius, s.ids[:0])
	s.near = s.near[:0]
	for _, id := range s.ids {
		if s.nb.Entities[id] != self {
			s.near = append(s.near, s.nb.Positions[id])
		}
	}
	return steer.Separation(pos, s.near, radius, maxForce, uint64(self.ID()))
}

// Finalize does nothing.
func (s *Steer) Finalize(w *arche.World) {}
