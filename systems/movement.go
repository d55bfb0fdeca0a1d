package systems

import (
	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// Movement integrates each agent's steering force over the frame's dt
// (vel += force·dt, clamped to MaxSpeed; pos += vel·dt; see [steer.Integrate])
// and keeps agents out of blocked cells: a step that would end in a blocked or
// off-grid cell, or cross diagonally between two cells past a blocked corner,
// slides along the wall (only the x or only the y part of the step is taken, and
// the velocity along the blocked axis is zeroed) or, if neither part is free,
// stops the agent where it is. An agent therefore never ends a step inside a
// blocked cell if it started outside one.
//
// A NaN or infinite velocity or force is treated as zero (the agent stops).
type Movement struct {
	clock  *ecs.Clock
	grid   *grid.Grid
	filter *generic.Filter4[components.Position, components.Velocity, components.Kinematics, components.Steering]
}

// Name implements ecs.Namer.
func (s *Movement) Name() string { return "movement" }

// Initialize builds the filter.
func (s *Movement) Initialize(w *arche.World) {
	s.clock = ecs.ClockOf(w)
	s.grid = mustGrid(w)
	s.filter = generic.NewFilter4[components.Position, components.Velocity, components.Kinematics, components.Steering]()
}

// Update moves every agent.
func (s *Movement) Update(w *arche.World) {
	dt := s.clock.DT
	q := s.filter.Query(w)
	for q.Next() {
		pos, vel, kin, st := q.Get()
		p, v := steer.Integrate(pos.Vec, vel.Vec, st.Force, kin.MaxSpeed, kin.MaxForce, dt)
		pos.Vec, vel.Vec = s.resolve(pos.Vec, p, v)
	}
}

// resolve returns the position and velocity after a step from p to next,
// slid along or stopped by walls.
func (s *Movement) resolve(p, next, v r2.Vec) (r2.Vec, r2.Vec) {
	g := s.grid
	from, to := g.CellAt(p), g.CellAt(next)
	if to == from || (g.Passable(to) && (to.X == from.X || to.Y == from.Y ||
		(g.Passable(grid.Cell{X: to.X, Y: from.Y}) && g.Passable(grid.Cell{X: from.X, Y: to.Y})))) {
		return next, v
	}
	if g.Passable(grid.Cell{X: to.X, Y: from.Y}) {
		return r2.Vec{X: next.X, Y: p.Y}, r2.Vec{X: v.X}
	}
	if g.Passable(grid.Cell{X: from.X, Y: to.Y}) {
		return r2.Vec{X: p.X, Y: next.Y}, r2.Vec{Y: v.Y}
	}
	return p, r2.Vec{}
}

// Finalize does nothing.
func (s *Movement) Finalize(w *arche.World) {}
