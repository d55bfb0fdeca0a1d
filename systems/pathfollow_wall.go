package systems

import (
	"math"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	"gonum.org/v1/gonum/spatial/r2"
)

// An agent standing in a blocked cell walks out of the wall whatever its
// intent: one that heads somewhere (a move, a pursuit, a flow field) walks out
// on its way (goTo's walkOut, the flow field's escape cell, a path from a
// blocked start: see PathQueue), and one that heads nowhere (no intent, an
// arrived or stopped flow follower, a flight or an evasion) seeks the nearest
// open cell first (leaveWall), then does as its intent says.

// leaveWall returns d, the Desired of an agent at pos, or, when the agent
// stands in a blocked cell of the grid and d heads nowhere in particular
// (DesiredNone, DesiredStop, DesiredFlee, DesiredEvade, DesiredHold), a seek of the centre
// of the nearest open cell (nearestOpen; none within escapeRadius: d, and the
// agent stands in the wall, as Diagnose's CauseBlocked tells).
func (s *PathFollow) leaveWall(pos r2.Vec, d components.Desired) components.Desired {
	switch d.Mode {
	case components.DesiredNone, components.DesiredStop, components.DesiredFlee, components.DesiredEvade, components.DesiredHold:
	default:
		return d
	}
	if !s.sight.blocked(s.grid.CellAt(pos)) { // (the bitmap: the grid's costs would be a cache miss an agent)
		return d
	}
	if out, ok := nearestOpen(s.grid, pos); ok {
		return components.Desired{Mode: components.DesiredSeek, SpeedFactor: d.SpeedFactor, Point: s.grid.Center(out)}
	}
	return d
}

// nearestOpen returns the open cell an agent at pos, in a blocked cell, walks
// out to when it heads nowhere: of the nearest ring of cells around its cell
// (Chebyshev rings 1 to escapeRadius) holding open cells, the one whose centre
// is nearest pos (the first in row order among equals; grid.NearestOpen). The
// straight line from pos to it crosses no cell deeper in the wall than the
// agent's (Movement's wallDepth): every cell it crosses is within that ring's
// distance of it.
func nearestOpen(g *grid.Grid, pos r2.Vec) (grid.Cell, bool) {
	return g.NearestOpen(pos, escapeRadius)
}

// restNear is the distance to its goal (cells) within which an arriving agent
// aims at its rest point (restPoint) rather than at the goal: they differ by less
// than the agent's radius, which matters only for where it stops. An agent
// aiming at its rest point goes on doing so out to twice that (nearRest), so one
// held about restNear off by a crowd does not switch every frame.
const restNear = 1.0

// nearRest reports whether an agent at pos heading for goal, whose Desired was
// d, aims at its rest point: within restNear of goal, or within 2·restNear while
// d arrives at a point other than goal (its rest point).
func nearRest(pos, goal r2.Vec, d *components.Desired) bool {
	d2 := dist2(pos, goal)
	return d2 < restNear*restNear || d2 < 4*restNear*restNear && d.Mode == components.DesiredArrive && d.Point != goal
}

// restPoint returns where an agent of radius r (at most half a cell) arriving at
// goal p rests: p, or, when p lies within r of the edge of its cell and the cell
// across that edge (or corner) is blocked or off the grid, the point nearest p
// whose disc clears it: r off a blocked side, r from a blocked corner. So a goal
// beside a wall no longer rests a quarter of the agent's disc inside it. A goal
// in a blocked cell or off the grid, a non-finite one, r ≤ 0 and r > 0.5 give p. It reads
// the bitmap of blocked cells (s.sight, brought up to date by Update before the
// workers run: a bit a cell, which stays in cache where the grid's costs do not).
func (s *PathFollow) restPoint(p r2.Vec, r float64) r2.Vec {
	if !(r > 0) || r > 0.5 || !onGridCoords(p) {
		return p // (a wide agent settles by its own rule: settle.go)
	}
	b := &s.sight                  // the blocked cells' bitmap
	x, y := int32(p.X), int32(p.Y) // p's cell (its coordinates are in [0, 2³¹))
	if b.ringOpen(x, y) {
		return p // the common case: no blocked cell around p's (the rule below gives cx+fx, which is p)
	}
	cx, cy := math.Floor(p.X), math.Floor(p.Y)
	fx, fy := p.X-cx, p.Y-cy
	nearW, nearE, nearN, nearS := fx < r, fx > 1-r, fy < r, fy > 1-r
	if !(nearW || nearE || nearN || nearS) {
		return p // clear of every side
	}
	w, h := int32(s.grid.Width()), int32(s.grid.Height())
	open := func(dx, dy int32) bool { // on the grid and not blocked
		nx, ny := x+dx, y+dy
		return nx >= 0 && ny >= 0 && nx < w && ny < h && !b.blocked(grid.Cell{X: nx, Y: ny})
	}
	if !open(0, 0) {
		return p
	}
	// each side p is near: clamp off it if blocked; ox, oy the corner's side
	ox, oy := int32(0), int32(0)
	switch {
	case nearW && !open(-1, 0):
		fx = r
	case nearE && !open(1, 0):
		fx = 1 - r
	case nearW:
		ox = -1
	case nearE:
		ox = 1
	}
	switch {
	case nearN && !open(0, -1):
		fy = r
	case nearS && !open(0, 1):
		fy = 1 - r
	case nearN:
		oy = -1
	case nearS:
		oy = 1
	}
	// near a corner whose two sides are open and whose diagonal cell is
	// blocked: keep r from the corner
	if ox != 0 && oy != 0 && !open(ox, oy) {
		kx, ky := float64(max(ox, 0)), float64(max(oy, 0))
		vx, vy := fx-kx, fy-ky
		if d2 := float64(vx*vx) + float64(vy*vy); d2 < r*r { // (no fused multiply-add: .ci/nofma)
			if d2 == 0 {
				vx, vy, d2 = 0.5-kx, 0.5-ky, 0.5
			}
			d := math.Sqrt(d2)
			fx, fy = kx+float64(vx/d*r), ky+float64(vy/d*r)
		}
	}
	return r2.Vec{X: cx + fx, Y: cy + fy}
}

// fitPushes bounds fitPoint's pushes: a goal beside one wall takes one, in a
// corner two, in a gap a few more; past it the gap is narrower than the disc.
const fitPushes = 16

// fitSlack is how far past r (cells) fitPoint pushes a disc off the wall it
// overlaps, so that rounding leaves it touching, not overlapping.
const fitSlack = 1e-9

// fitPoint returns where a wide agent (radius r > 0.5) whose goal p lies in
// an open cell too close to a wall for its disc (the cell's clearance below
// grid.ClearanceFor(r): the path queue answers PathUnreachable) rests: a
// point near p whose disc of radius r overlaps no blocked cell and stays on
// the grid, found by pushing the disc straight off the nearest blocked point
// it overlaps, r (plus fitSlack) from it, until it overlaps none (alternating
// projections: beside one wall, and in a corner, the nearest such point; a
// goal in the corner cell of an open map, (63.9, 63.9) on 64×64, gives
// (63.2, 63.2) for r = 0.8). When the pushes end inside a blocked cell, or
// after fitPushes of them (a gap narrower than the disc), it returns the
// centre nearest p of the cells within fitRings (Chebyshev) of p's whose
// clearance is at least grid.ClearanceFor(r) (a disc of radius r fits at
// such a centre: c − 0.5 ≥ r), first in row order among equals; with none,
// p. It reads the bitmap of blocked cells (s.sight) and the cells of the
// disc's bounding box at each push: (2r+2)² cells.
func (s *PathFollow) fitPoint(p r2.Vec, r float64) r2.Vec {
	if !(r > 0.5) || !onGridCoords(p) {
		return p
	}
	q := p
	for range fitPushes {
		w, d2 := s.nearestBlocked(q, r)
		if !(d2 < r*r) {
			return q
		}
		if d2 == 0 {
			break // on or in a blocked cell: no direction to push
		}
		d := math.Sqrt(d2)
		k := (r + fitSlack) / d
		q = r2.Vec{X: w.X + float64((q.X-w.X)*k), Y: w.Y + float64((q.Y-w.Y)*k)}
		if !onGridCoords(q) {
			break
		}
	}
	return s.fitCentre(p, r)
}

// fitRings is how far (cells, Chebyshev) from a goal fitCentre looks for a
// cell wide enough for a disc.
const fitRings = 8

// fitCentre returns the centre nearest p (first in row order among equals)
// of the cells within fitRings of p's cell whose clearance is at least
// grid.ClearanceFor(r), or p if there is none.
func (s *PathFollow) fitCentre(p r2.Vec, r float64) r2.Vec {
	g := s.grid
	need, c := grid.ClearanceFor(r), g.CellAt(p)
	best, bd := p, math.Inf(1)
	for y := c.Y - fitRings; y <= c.Y+fitRings; y++ {
		for x := c.X - fitRings; x <= c.X+fitRings; x++ {
			n := grid.Cell{X: x, Y: y}
			if g.Clearance(n) < need { // (0 off the grid)
				continue
			}
			if d := dist2(p, g.Center(n)); d < bd {
				best, bd = g.Center(n), d
			}
		}
	}
	return best
}

// discClear reports whether the disc of radius r at pos (in an open cell of
// the grid) overlaps no blocked cell and stays on the grid, to discSlack
// (a disc Movement left touching a wall counts as clear): at once when the
// cell's clearance shows no blocked cell within r of any point of it, else
// by nearestBlocked. A wide agent whose disc overlaps a wall (spawned or
// loaded there, a wall built beside it) does not settle (settle.go): a
// settled agent only brakes, so Movement, which pushes a disc out of a wall
// as the agent moves, would leave it there for good.
func (s *PathFollow) discClear(pos r2.Vec, r float64) bool {
	if float64(s.grid.Clearance(s.grid.CellAt(pos)))-1 >= r {
		return true
	}
	_, d2 := s.nearestBlocked(pos, r)
	in := r - discSlack
	return !(d2 < float64(in*in))
}

// discSlack is how far (cells) a disc may reach into a wall and count as
// clear of it for discClear: far above rounding, far below what a user sees.
const discSlack = 1e-6

// nearestBlocked returns the nearest point to c of the blocked or off-grid
// cells within r of it (first in row order among equals) and its squared
// distance, or +Inf when there is none.
func (s *PathFollow) nearestBlocked(c r2.Vec, r float64) (r2.Vec, float64) {
	b, w, h := &s.sight, float64(s.grid.Width()), float64(s.grid.Height())
	x0, x1 := max(math.Floor(c.X-r), -1), min(math.Floor(c.X+r), w)
	y0, y1 := max(math.Floor(c.Y-r), -1), min(math.Floor(c.Y+r), h)
	best, bd := r2.Vec{}, math.Inf(1)
	for y := y0; y <= y1; y++ {
		qy := max(y, min(c.Y, y+1))
		dy2 := float64((c.Y - qy) * (c.Y - qy))
		if !(dy2 < bd) {
			continue
		}
		for x := x0; x <= x1; x++ {
			off := x < 0 || y < 0 || x >= w || y >= h
			if !off && !b.blocked(grid.Cell{X: int32(x), Y: int32(y)}) {
				continue
			}
			qx := max(x, min(c.X, x+1))
			if d2 := float64((c.X-qx)*(c.X-qx)) + dy2; d2 < bd {
				best, bd = r2.Vec{X: qx, Y: qy}, d2
			}
		}
	}
	return best, bd
}

// fitAnchor returns the cell a wide agent of radius r resting at p
// (fitPoint's point) asks its path for: p's cell when its clearance is at
// least grid.ClearanceFor(r), else the cell of fitCentre(p, r).
func (s *PathFollow) fitAnchor(p r2.Vec, r float64) grid.Cell {
	c := s.grid.CellAt(p)
	if s.grid.Clearance(c) >= grid.ClearanceFor(r) {
		return c
	}
	return s.grid.CellAt(s.fitCentre(p, r))
}
