package systems

import (
	"math"

	"github.com/archai-go/archai/nav/grid"
	"gonum.org/v1/gonum/spatial/r2"
)

// A wide agent (Kinematics.Radius above half a cell) keeps its disc, not only
// its centre, out of blocked cells: a sub-step is taken whole when the disc
// ends clear of every blocked cell; else the end point is pushed out of the
// cells it overlaps (along the normal from the nearest point of the nearest
// cell, a few times, each push at most the sub-step's length), so an agent
// heading into a wall at an angle slides along it and one heading straight at
// it stops touching it; else only the x or only the y part of the sub-step is
// taken, or the agent stops. A pushed, slid or stopped agent loses the part of
// its velocity that heads into the wall. The push, the slides and the stop are
// taken only if they leave the disc overlapping no deeper than it did before
// the sub-step, and the centre's own rule (resolve's: no blocked cell, no
// corner cut) holds for every candidate. A disc that overlapped already and
// that no push leaves as shallow takes the sub-step itself if it goes no
// deeper, before the slides: one spawned in a corridor narrower than it walks
// along it (the slide across, no move at all, was taken first and it stood).
//
// So an agent whose disc is clear stays clear (the push leaves it wideMargin
// off the wall; in a gap exactly its diameter wide, wideFit into it at most),
// and one whose disc overlaps already (spawned in a corner, a
// wall built beside it, a loaded world) never goes deeper, and is pushed out
// as it moves: up to a sub-step's length per sub-step. An agent at rest
// (no velocity, no force) is not moved, so it stays overlapping until it moves.
// An agent whose centre is in a blocked cell walks out as a small agent does
// (resolve); its disc rule applies once the centre is out.

// wideMargin is how far (cells) past touching a push leaves the disc, so
// that rounding cannot count the pushed disc as overlapping.
const wideMargin = 1e-9

// wideFit is how deep (cells) a pushed disc may end in a wall and be taken:
// between two walls exactly its diameter apart (an odd gap of k cells and
// radius k/2, the widest ⌈k/2⌉ − 0.5 lets through), the push out of one
// leaves it wideMargin into the other, which strictly would stop it for good
// at the gap's mouth, its path ready. Pushes that clear the disc are taken as
// before (discClear), so only such a fit goes this far, and never deeper.
const wideFit = 2 * wideMargin

// wideRadiusMax is the largest radius (cells) the disc rule reads: a larger
// one is treated as this one (grid.ClearanceFor's cap, 255, less half a cell).
const wideRadiusMax = 254.5

// widePushes is how many times a sub-step's end is pushed out of the cells
// it overlaps (two meet in a corner, a third for safety).
const widePushes = 3

// stepWide is step for an agent of radius r > 0.5: it moves from p towards
// next in sub-steps of at most half a cell, each resolved by resolveWide,
// and returns the position and velocity.
func (s *Movement) stepWide(p, next, v r2.Vec, r float64) (r2.Vec, r2.Vec) {
	r = min(r, wideRadiusMax)
	d := r2.Sub(next, p)
	if l := max(abs(d.X), abs(d.Y)); l > s.maxStep {
		d = scaled(s.maxStep/l, d)
	}
	n := int(max(abs(d.X), abs(d.Y))*2) + 1
	inc := scaled(1/float64(n), d)
	f := 0.0 // inc is f·v: a velocity's sub-step, once a wall changed v
	if l := norm2(v); l > 0 {
		f = math.Sqrt(norm2(inc) / l)
	}
	for range n {
		q, nv := s.resolveWide(p, r2.Add(p, inc), v, r)
		if nv != v {
			inc, v = scaled(f, nv), nv
		}
		p = q
		if inc == (r2.Vec{}) {
			break
		}
	}
	return p, v
}

// resolveWide returns the position and velocity after a sub-step from p to q
// of an agent of radius r (0.5 < r ≤ wideRadiusMax), by the disc rule above.
func (s *Movement) resolveWide(p, q, v r2.Vec, r float64) (r2.Vec, r2.Vec) {
	g, b := s.grid, &s.walls
	from := g.CellAt(p)
	if b.blocked(from.X, from.Y) {
		return s.resolve(p, q, v) // the centre in a wall or off the grid: its own rule first
	}
	r2r := float64(r * r)
	if s.discClear(q, r, r2r) && s.centreFree(from, g.CellAt(q)) {
		return q, v
	}
	before := s.overlap(p, r, r2r)
	lim := math.Sqrt(norm2(r2.Sub(q, p))) + wideMargin
	c, cv := q, v
	for range widePushes {
		cp, d2 := s.nearestWall(c, r)
		if !(d2 < r2r) || d2 == 0 {
			break // clear, or the centre on a cell's edge: no normal to push along
		}
		dist := math.Sqrt(d2)
		nrm := scaled(1/dist, r2.Sub(c, cp))
		c = addScaled(c, min(r-dist+wideMargin, lim), nrm)
		if dot := float64(cv.X*nrm.X) + float64(cv.Y*nrm.Y); dot < 0 {
			cv = addScaled(cv, -dot, nrm)
		}
	}
	if s.wideTakes(p, c, r, r2r, max(before, wideFit)) {
		return c, cv
	}
	if before > 0 && s.wideTakes(p, q, r, r2r, before) {
		return q, v // overlapping already, and no push clears it: the step itself, no deeper
	}
	if x := (r2.Vec{X: q.X, Y: p.Y}); s.wideTakes(p, x, r, r2r, before) {
		return x, r2.Vec{X: v.X}
	}
	if y := (r2.Vec{X: p.X, Y: q.Y}); s.wideTakes(p, y, r, r2r, before) {
		return y, r2.Vec{Y: v.Y}
	}
	return p, r2.Vec{}
}

// wideTakes reports whether a wide agent at p (its centre in an open cell)
// may move to c: less than a cell away on each axis, the centre's rule
// holds, and the disc overlaps no deeper than before (overlap at p).
func (s *Movement) wideTakes(p, c r2.Vec, r, r2r, before float64) bool {
	if !(abs(c.X-p.X) < 1 && abs(c.Y-p.Y) < 1) || !s.centreFree(s.grid.CellAt(p), s.grid.CellAt(c)) {
		return false
	}
	if before == 0 {
		return s.discClear(c, r, r2r)
	}
	return s.overlap(c, r, r2r) <= before
}

// centreFree reports whether a centre in cell from may step into cell to by
// the rule of resolve: the same cell, or an open one that cuts no blocked
// corner.
func (s *Movement) centreFree(from, to grid.Cell) bool {
	b := &s.walls
	return to == from || (!b.blocked(to.X, to.Y) && (to.X == from.X || to.Y == from.Y ||
		(!b.blocked(to.X, from.Y) && !b.blocked(from.X, to.Y))))
}

// discClear reports whether the disc of radius r (r2r = r²) at c overlaps no
// blocked cell (touching is clear).
func (s *Movement) discClear(c r2.Vec, r, r2r float64) bool {
	_, d2 := s.nearestWall(c, r)
	return !(d2 < r2r)
}

// overlap returns how deep (cells) the disc of radius r at c reaches into the
// nearest blocked cell: r less the distance to it, 0 if the disc is clear.
func (s *Movement) overlap(c r2.Vec, r, r2r float64) float64 {
	_, d2 := s.nearestWall(c, r)
	if !(d2 < r2r) {
		return 0
	}
	return r - math.Sqrt(d2)
}

// nearestWall returns the nearest point to c of the blocked cells within r
// of it (off the grid counts as blocked) and its squared distance, or +Inf
// when there is none. A cell whose clearance (grid.Grid.Clearance, built in
// Update) exceeds r by a cell has none; else the cells of the disc's bounding
// box are read, cut to the grid and the ring of cells just outside it.
func (s *Movement) nearestWall(c r2.Vec, r float64) (r2.Vec, float64) {
	g, b := s.grid, &s.walls
	if cl := float64(g.Clearance(g.CellAt(c))); cl-1 >= r {
		return r2.Vec{}, math.Inf(1)
	}
	x0, x1 := max(math.Floor(c.X-r), -1), min(math.Floor(c.X+r), float64(b.w))
	y0, y1 := max(math.Floor(c.Y-r), -1), min(math.Floor(c.Y+r), float64(b.h))
	best, bd := r2.Vec{}, math.Inf(1)
	for y := y0; y <= y1; y++ {
		qy := max(y, min(c.Y, y+1))
		dy2 := float64((c.Y - qy) * (c.Y - qy))
		if !(dy2 < bd) {
			continue
		}
		for x := x0; x <= x1; x++ {
			if !b.blocked(int32(x), int32(y)) {
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
