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
// stops the agent where it is. A step longer than half a cell is split into
// sub-steps of at most half a cell, each checked the same way, so a fast agent
// cannot tunnel through a thin wall. An agent therefore never ends a step
// inside a blocked cell if it started outside one.
//
// A NaN or infinite velocity or force is treated as zero (the agent stops).
// Work is split over Workers goroutines (0: runtime.GOMAXPROCS).
type Movement struct {
	Workers int

	clock  *ecs.Clock
	grid   *grid.Grid
	pool   *ecs.Workers
	filter *generic.Filter4[components.Position, components.Velocity, components.Kinematics, components.Steering]
	jobs   []moveJob
}

type moveJob struct {
	pos *components.Position
	vel *components.Velocity
	kin *components.Kinematics
	st  *components.Steering
}

// Name implements ecs.Namer.
func (s *Movement) Name() string { return "movement" }

// Initialize builds the filter.
//
// Panics if the world has no grid resource.
func (s *Movement) Initialize(w *arche.World) {
	s.clock = ecs.ClockOf(w)
	s.grid = mustGrid(w)
	s.filter = generic.NewFilter4[components.Position, components.Velocity, components.Kinematics, components.Steering]()
	s.pool = ecs.NewWorkers(s.Workers)
}

// Update moves every agent.
func (s *Movement) Update(w *arche.World) {
	s.jobs = s.jobs[:0]
	q := s.filter.Query(w)
	for q.Next() {
		pos, vel, kin, st := q.Get()
		s.jobs = append(s.jobs, moveJob{pos, vel, kin, st})
	}
	s.pool.Run(s, len(s.jobs))
	clear(s.jobs)
}

// Work implements ecs.Job.
func (s *Movement) Work(worker, lo, hi int) {
	dt := s.clock.DT
	for i := lo; i < hi; i++ {
		j := &s.jobs[i]
		p, v := steer.Integrate(j.pos.Vec, j.vel.Vec, j.st.Force, j.kin.MaxSpeed, j.kin.MaxForce, dt)
		j.pos.Vec, j.vel.Vec = s.step(j.pos.Vec, p, v)
	}
}

// step moves from p towards next in sub-steps of at most half a cell.
func (s *Movement) step(p, next, v r2.Vec) (r2.Vec, r2.Vec) {
	d := r2.Sub(next, p)
	n := int(max(abs(d.X), abs(d.Y))*2) + 1
	if n == 1 {
		return s.resolve(p, next, v)
	}
	inc := r2.Scale(1/float64(n), d)
	for range n {
		q, nv := s.resolve(p, r2.Add(p, inc), v)
		if nv != v { // hit a wall: keep sliding along it with what is left
			inc = r2.Vec{X: inc.X * boolf(nv.X != 0), Y: inc.Y * boolf(nv.Y != 0)}
			v = nv
		}
		p = q
	}
	return p, v
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

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func boolf(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// Finalize stops the workers.
func (s *Movement) Finalize(w *arche.World) { s.pool.Close() }
