package tutorial

import (
	"math"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/cmd/bench/scenario"
	"github.com/archai-go/archai/nav/grid"
	"gonum.org/v1/gonum/spatial/r2"
)

// How the agent heads for its point this frame.
const (
	headNone = iota
	headSeek
	headArrive
)

// move follows the agent's path (finding one if it needs to), steers and
// moves it: systems.PathFollow, Steer and Movement for one agent.
func (a *Agent) move() {
	w := a.world
	bb := a.Blackboard
	mode, point, factor := headNone, r2.Vec{}, 0.0
	moving := bb[kMove].(bool)
	var goal r2.Vec
	if moving {
		goal = bb[kGoal].(r2.Vec)
		if f := bb[kSpeedFactor].(float64); f > 0 && f < 1 {
			factor = f
		}
		mode, point = a.headFor(goal)
	}
	a.track(moving, goal)

	speed := a.Speed
	if factor > 0 {
		speed *= factor
	}
	var force r2.Vec
	switch mode {
	case headSeek:
		force = steer.Seek(a.Pos, a.Vel, point, speed, scenario.MaxForce, w.DT)
	case headArrive:
		force = steer.Arrive(a.Pos, a.Vel, point, speed, scenario.MaxForce, arrivedRadius, w.DT)
	default:
		force = steer.Brake(a.Vel, scenario.MaxForce, w.DT)
	}
	acc := steer.Accumulator{Max: scenario.MaxForce}
	ok := true
	if a.Vel.X != 0 || a.Vel.Y != 0 {
		ok = acc.Add(steer.WallAvoidance(a.Pos, a.Vel, w.blocked, feelerTime, 2*scenario.AgentRadius+0.25, math.Pi/4, scenario.MaxForce), 1)
	}
	if ok {
		w.near = w.near[:0]
		w.each(a.Pos, separationRange, func(o *Agent) {
			if o != a && r2.Norm(r2.Sub(o.Pos, a.Pos)) <= separationRange {
				w.near = append(w.near, o.Pos)
			}
		})
		ok = acc.Add(steer.Separation(a.Pos, w.near, separationRange, scenario.MaxForce, uint64(a.ID)), 1)
	}
	if ok {
		acc.Add(force, 1)
	}
	if a.Vel == (r2.Vec{}) && acc.Sum == (r2.Vec{}) {
		return
	}
	p, v := steer.Integrate(a.Pos, a.Vel, acc.Sum, a.Speed, scenario.MaxForce, w.DT)
	a.Pos, a.Vel = w.step(a.Pos, p, v)
}

func (w *World) blocked(x, y int32) bool { return !w.Grid.Passable(grid.Cell{X: x, Y: y}) }

// headFor returns how the agent heads for goal: straight (arrive) when the
// goal is in sight, else along its path, searching for one when it holds
// none or the held one no longer serves the goal.
func (a *Agent) headFor(goal r2.Vec) (int, r2.Vec) {
	w := a.world
	g := w.Grid
	if a.inSight(goal) {
		return headArrive, goal
	}
	gc := g.CellAt(goal)
	if !a.pathReady || a.stale(gc, goal) {
		a.findPath(gc)
	}
	if !a.pathReady || a.next >= len(a.path) {
		return headSeek, goal
	}
	last := len(a.path) - 1
	wp := g.Center(a.path[a.next])
	for a.next < last {
		nextWp := g.Center(a.path[a.next+1])
		if r2.Norm(r2.Sub(wp, a.Pos)) >= waypointRadius && r2.Norm(r2.Sub(nextWp, a.Pos)) >= r2.Norm(r2.Sub(wp, a.Pos)) {
			break
		}
		a.next++
		wp = nextWp
	}
	if a.next == last {
		return headArrive, goal
	}
	return headSeek, wp
}

// findPath searches a path from the agent's cell to gc, at once.
func (a *Agent) findPath(gc grid.Cell) {
	w := a.world
	w.Searches++
	var err error
	a.path, _, err = w.search.Path(w.Grid.CellAt(a.Pos), gc, a.path[:0])
	a.pathGoal, a.pathReady, a.next = gc, err == nil, 1
}

// inSight reports whether goal is in line of sight, testing again only when
// the agent's or the goal's cell changed.
func (a *Agent) inSight(goal r2.Vec) bool {
	g := a.world.Grid
	from, to := g.CellAt(a.Pos), g.CellAt(goal)
	if !a.sightKnown || a.sightFrom != from || a.sightTo != to {
		a.sightFrom, a.sightTo, a.sightKnown = from, to, true
		a.sightClear = g.LineOfSight(a.Pos, goal)
	}
	return a.sightClear
}

// stale reports whether the held path no longer serves a goal in cell gc:
// its cell moved more than 2 + d/4 cells, or out of the path end's sight.
func (a *Agent) stale(gc grid.Cell, goal r2.Vec) bool {
	held := a.pathGoal
	if held == gc {
		return false
	}
	dx, dy := held.X-gc.X, held.Y-gc.Y
	cheb := max(dx, -dx, dy, -dy)
	g := a.world.Grid
	return float64(cheb) > 2+float64(r2.Norm(r2.Sub(goal, a.Pos))/4) || !g.LineOfSight(g.Center(held), goal)
}

// track is stuck detection: an agent that wants to move and stays within
// stuckDistance for stuckTime searches again.
func (a *Agent) track(moving bool, goal r2.Vec) {
	now := a.world.Time
	moved := r2.Norm(r2.Sub(a.Pos, a.anchor)) > stuckDistance
	atGoal := r2.Norm(r2.Sub(a.Pos, goal)) <= stuckDistance
	if !moving || moved || atGoal {
		a.anchor, a.since = a.Pos, now
		return
	}
	if now-a.since < stuckTime {
		return
	}
	a.anchor, a.since = a.Pos, now
	a.sightKnown = false
	a.findPath(a.world.Grid.CellAt(goal))
}

// step moves from p towards next in sub-steps of at most half a cell,
// sliding along walls (systems.Movement's rule).
func (w *World) step(p, next, v r2.Vec) (r2.Vec, r2.Vec) {
	d := r2.Sub(next, p)
	n := int(max(math.Abs(d.X), math.Abs(d.Y))*2) + 1
	if n == 1 {
		return w.resolve(p, next, v)
	}
	inc := r2.Scale(1/float64(n), d)
	for range n {
		q, nv := w.resolve(p, r2.Add(p, inc), v)
		if nv != v {
			if nv.X == 0 {
				inc.X = 0
			}
			if nv.Y == 0 {
				inc.Y = 0
			}
			v = nv
		}
		p = q
	}
	return p, v
}

func (w *World) resolve(p, next, v r2.Vec) (r2.Vec, r2.Vec) {
	g := w.Grid
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
