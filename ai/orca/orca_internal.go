package orca

import (
	"github.com/archai-go/archai/internal/detmath"
	"math"

	"gonum.org/v1/gonum/spatial/r2"
)

// eps is the tolerance of the linear programs' parallel-line tests.
const eps = 1e-9

// region is the set of velocities the linear programs search: the disc of
// speeds ≤ speed round the origin, intersected, when limited, with the disc of
// radius delta round centre (the velocities reachable in one step).
type region struct {
	speed  float64
	centre r2.Vec
	delta  float64
	mode   uint8 // regionSpeed, regionDelta (the step's disc lies inside the speed disc) or regionBoth
}

const (
	regionSpeed = iota
	regionDelta
	regionBoth
)

// newRegion returns the region for a maximum speed, a current velocity and a
// maximum change of velocity (0 or +Inf: none). A current velocity faster
// than speed is first cut to speed, so the region is never empty.
func newRegion(speed float64, vel r2.Vec, delta float64) region {
	rg := region{speed: speed, mode: regionSpeed}
	if !(delta > 0) || math.IsInf(delta, 1) {
		return rg
	}
	c := truncate(vel, speed)
	n := norm(c)
	switch {
	case delta >= speed+n: // the step's disc holds the speed disc
	case delta+n <= speed:
		rg.centre, rg.delta, rg.mode = c, delta, regionDelta
	default:
		rg.centre, rg.delta, rg.mode = c, delta, regionBoth
	}
	return rg
}

// interval returns the parameters [lo, hi] of the part of the line p + t·d (d
// a unit vector) inside the region, and false if the line misses it.
func (rg *region) interval(p, d r2.Vec) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(-1), math.Inf(1)
	if rg.mode != regionDelta {
		if lo, hi, ok = discInterval(p, d, r2.Vec{}, rg.speed); !ok {
			return 0, 0, false
		}
	}
	if rg.mode != regionSpeed {
		l2, h2, ok := discInterval(p, d, rg.centre, rg.delta)
		if !ok {
			return 0, 0, false
		}
		lo, hi = max(lo, l2), min(hi, h2)
		if lo > hi {
			return 0, 0, false
		}
	}
	return lo, hi, true
}

// discInterval intersects the line p + t·d with the disc of radius r round c.
func discInterval(p, d, c r2.Vec, r float64) (float64, float64, bool) {
	q := r2.Sub(p, c)
	b := dot(q, d)
	disc := float64(b*b) + float64(r*r) - dot(q, q)
	if disc < 0 {
		return 0, 0, false
	}
	s := math.Sqrt(disc)
	return -b - s, -b + s, true
}

// holds reports whether v lies in the region, up to a relative rounding of
// 1e-9.
func (rg *region) holds(v r2.Vec) bool {
	return (rg.mode == regionDelta || inDisc(v, rg.speed)) &&
		(rg.mode == regionSpeed || inDisc(r2.Sub(v, rg.centre), rg.delta))
}

// inDisc reports whether |v| ≤ r, up to a relative rounding of 1e-9, without
// overflow for lengths near math.MaxFloat64.
func inDisc(v r2.Vec, r float64) bool {
	const tol = 1 + 1e-9
	if n2, rr := dot(v, v), r*r; n2 <= rr*tol && !math.IsInf(rr, 1) {
		return true // the usual case, without a square root
	}
	return detmath.Hypot(v.X, v.Y) <= r*tol
}

// nearest returns the point of the region nearest v.
func (rg *region) nearest(v r2.Vec) r2.Vec {
	switch rg.mode {
	case regionSpeed:
		return truncate(v, rg.speed)
	case regionDelta:
		return r2.Add(rg.centre, truncate(r2.Sub(v, rg.centre), rg.delta))
	}
	inSpeed := dot(v, v) <= rg.speed*rg.speed
	inDelta := distSq(v, rg.centre) <= rg.delta*rg.delta
	if inSpeed && inDelta {
		return v
	}
	// The nearest point of an intersection of two discs is the nearest point
	// of one of them if it lies in the other, else a corner.
	if p := truncate(v, rg.speed); distSq(p, rg.centre) <= rg.delta*rg.delta*(1+1e-12) {
		return p
	}
	if p := r2.Add(rg.centre, truncate(r2.Sub(v, rg.centre), rg.delta)); dot(p, p) <= rg.speed*rg.speed*(1+1e-12) {
		return p
	}
	c1, c2 := rg.corners()
	if distSq(v, c1) <= distSq(v, c2) {
		return c1
	}
	return c2
}

// extreme returns the point of the region farthest in direction d (a unit
// vector).
func (rg *region) extreme(d r2.Vec) r2.Vec {
	switch rg.mode {
	case regionSpeed:
		return r2.Scale(rg.speed, d)
	case regionDelta:
		return addScaled(rg.centre, rg.delta, d)
	}
	if p := scaled(rg.speed, d); distSq(p, rg.centre) <= rg.delta*rg.delta*(1+1e-12) {
		return p
	}
	if p := addScaled(rg.centre, rg.delta, d); dot(p, p) <= rg.speed*rg.speed*(1+1e-12) {
		return p
	}
	c1, c2 := rg.corners()
	if dot(c1, d) >= dot(c2, d) {
		return c1
	}
	return c2
}

// corners returns the two points where the region's circles cross.
func (rg *region) corners() (r2.Vec, r2.Vec) {
	d := norm(rg.centre)
	if !(d > 0) {
		return r2.Vec{}, r2.Vec{}
	}
	u := r2.Scale(1/d, rg.centre)
	a := (float64(rg.speed*rg.speed) - float64(rg.delta*rg.delta) + float64(d*d)) / (2 * d)
	h := math.Sqrt(max(float64(rg.speed*rg.speed)-float64(a*a), 0))
	base := scaled(a, u)
	perp := r2.Vec{X: -u.Y, Y: u.X}
	return addScaled(base, h, perp), r2.Sub(base, scaled(h, perp))
}

// linearProgram1 finds the best velocity on line i that every line before it
// permits and the region holds: nearest opt, or, with direction, farthest in
// direction opt (a unit vector). It reports false if there is none.
func linearProgram1(lines []Line, i int, rg *region, opt r2.Vec, direction bool) (r2.Vec, bool) {
	li := lines[i]
	lo, hi, ok := rg.interval(li.Point, li.Direction)
	if !ok {
		return r2.Vec{}, false
	}
	for j := range i {
		lj := lines[j]
		den := det(li.Direction, lj.Direction)
		num := det(lj.Direction, r2.Sub(li.Point, lj.Point))
		if math.Abs(den) <= eps {
			if num < 0 {
				return r2.Vec{}, false // parallel, and line i lies wholly outside line j's half-plane
			}
			continue
		}
		t := num / den
		if den > 0 {
			hi = min(hi, t)
		} else {
			lo = max(lo, t)
		}
		if lo > hi {
			return r2.Vec{}, false
		}
	}
	var t float64
	switch {
	case direction && dot(opt, li.Direction) > 0:
		t = hi
	case direction:
		t = lo
	default:
		t = min(max(dot(li.Direction, r2.Sub(opt, li.Point)), lo), hi)
	}
	return addScaled(li.Point, t, li.Direction), true
}

// linearProgram2 finds the velocity every line permits and the region holds
// that is nearest opt (or, with direction, farthest in direction opt), adding
// the lines one at a time in order: when the best point so far violates line
// i, the new best lies on line i (linearProgram1). It returns the velocity and
// len(lines), or, if line i leaves nothing, the best velocity before line i
// and i.
func linearProgram2(lines []Line, rg *region, opt r2.Vec, direction bool) (r2.Vec, int) {
	var v r2.Vec
	if direction {
		v = rg.extreme(opt)
	} else {
		v = rg.nearest(opt)
	}
	for i := range lines {
		if det(lines[i].Direction, r2.Sub(lines[i].Point, v)) > 0 {
			next, ok := linearProgram1(lines, i, rg, opt, direction)
			if !ok {
				return v, i
			}
			v = next
		}
	}
	return v, len(lines)
}

// linearProgram3 is the fallback when the lines leave no velocity: it
// minimises the largest distance by which a velocity violates an agent line
// (lines hard and on, from begin, where linearProgram2 failed), keeping the
// first hard lines (the obstacles') satisfied. It is a 3-D linear program in
// (velocity, distance) solved as a sequence of 2-D ones: whenever the best
// velocity so far violates line i by more than the current distance, the
// earlier agent lines are projected onto line i (each pair's bisector) and the
// velocity farthest from line i into its half-plane is found among them.
func (s *Solver) linearProgram3(lines []Line, hard, begin int, rg *region, v r2.Vec) r2.Vec {
	dist := 0.0
	for i := begin; i < len(lines); i++ {
		li := lines[i]
		if det(li.Direction, r2.Sub(li.Point, v)) <= dist {
			continue
		}
		proj := append(s.proj[:0], lines[:hard]...)
		for j := hard; j < i; j++ {
			lj := lines[j]
			den := det(li.Direction, lj.Direction)
			var p r2.Vec
			if math.Abs(den) <= eps {
				if dot(li.Direction, lj.Direction) > 0 {
					continue // parallel, same way: line i's bound is the tighter one here
				}
				p = r2.Scale(0.5, r2.Add(li.Point, lj.Point))
			} else {
				p = addScaled(li.Point, det(lj.Direction, r2.Sub(li.Point, lj.Point))/den, li.Direction)
			}
			proj = append(proj, Line{Point: p, Direction: unit(r2.Sub(lj.Direction, li.Direction))})
		}
		s.proj = proj
		if next, n := linearProgram2(proj, rg, r2.Vec{X: -li.Direction.Y, Y: li.Direction.X}, true); n == len(proj) {
			v = next
		} // else: only rounding can make it fail (v is feasible); keep v
		dist = det(li.Direction, r2.Sub(li.Point, v))
	}
	return v
}

// permitsAll reports whether every line permits v.
func permitsAll(lines []Line, v r2.Vec) bool {
	for _, l := range lines {
		if det(l.Direction, r2.Sub(l.Point, v)) > 0 {
			return false
		}
	}
	return true
}

// covered reports whether a segment with ends a and b (relative to the agent)
// lies wholly behind the obstacle lines so far: both ends, scaled by invT, at
// least radius·invT deep in a line's forbidden side. Its own half-plane would
// add nothing.
func (s *Solver) covered(a, b r2.Vec, radius, invT float64) bool {
	ra := float64(radius * invT)
	for _, l := range s.lines {
		if det(r2.Sub(scaled(invT, a), l.Point), l.Direction)-ra >= -eps &&
			det(r2.Sub(scaled(invT, b), l.Point), l.Direction)-ra >= -eps {
			return true
		}
	}
	return false
}

// legLeft returns the direction of the left tangent from the agent to the
// disc of radius r round p (relative), p rotated by asin(r/|p|) counter-
// clockwise; legRight the right one.
func legLeft(p r2.Vec, r float64) r2.Vec {
	d := dot(p, p)
	leg := math.Sqrt(max(d-float64(r*r), 0))
	return r2.Scale(1/d, r2.Vec{X: float64(p.X*leg) - float64(p.Y*r), Y: float64(p.X*r) + float64(p.Y*leg)})
}

func legRight(p r2.Vec, r float64) r2.Vec {
	d := dot(p, p)
	leg := math.Sqrt(max(d-float64(r*r), 0))
	return r2.Scale(1/d, r2.Vec{X: float64(p.X*leg) + float64(p.Y*r), Y: float64(-p.X*r) + float64(p.Y*leg)})
}

// The arithmetic of this package rounds every product before a sum takes
// it, float64(a*b): the Go spec's rule that an explicit conversion rounds
// forbids the compiler to fuse the two into one multiply-add (one rounding
// fewer), which a build for a CPU with FMA (GOAMD64=v3 and above, arm64)
// would do otherwise. So every build solves to the same bits as the default
// one, and a simulation's state hash is the same on all of them
// (.ci/nofma lists any fused site left).

func det(a, b r2.Vec) float64 { return float64(a.X*b.Y) - float64(a.Y*b.X) }
func dot(a, b r2.Vec) float64 { return float64(a.X*b.X) + float64(a.Y*b.Y) }
func norm(v r2.Vec) float64   { return math.Sqrt(float64(v.X*v.X) + float64(v.Y*v.Y)) }

func distSq(a, b r2.Vec) float64 {
	dx, dy := a.X-b.X, a.Y-b.Y
	return float64(dx*dx) + float64(dy*dy)
}

// scaled is r2.Scale(f, v) with each product rounded.
func scaled(f float64, v r2.Vec) r2.Vec { return r2.Vec{X: float64(f * v.X), Y: float64(f * v.Y)} }

// addScaled is r2.Add(p, r2.Scale(f, v)) with each product rounded.
func addScaled(p r2.Vec, f float64, v r2.Vec) r2.Vec {
	return r2.Vec{X: p.X + float64(f*v.X), Y: p.Y + float64(f*v.Y)}
}

// unit returns v scaled to length 1, or the zero vector for a zero v.
func unit(v r2.Vec) r2.Vec {
	n := norm(v)
	if !(n > 0) {
		return r2.Vec{}
	}
	return r2.Scale(1/n, v)
}

// truncate returns v scaled down to length m if it is longer.
func truncate(v r2.Vec, m float64) r2.Vec {
	if n := norm(v); n > m && n > 0 {
		return r2.Scale(m/n, v)
	}
	return v
}

func finite(v r2.Vec) bool {
	// x − x is 0 for a finite x, NaN for a NaN or infinite one: one comparison
	return (v.X-v.X)+(v.Y-v.Y) == 0
}

// agentLines appends to s.lines the half-planes of the usable neighbours that
// are reciprocal (Share < 1; 0 means 0.5), or, with alone, of those the agent
// holds alone (Share ≥ 1), in the neighbours' order.
func (s *Solver) agentLines(a *Agent, neighbours []Neighbour, dt float64, alone bool) {
	for i := range neighbours {
		n := &neighbours[i]
		if !finite(n.Position) || !finite(n.Velocity) || math.IsNaN(n.Radius) || math.IsInf(n.Radius, 0) {
			continue
		}
		if (n.Share >= 1) != alone {
			continue
		}
		if l, ok := agentLine(a, n, dt, false); ok {
			s.lines = append(s.lines, l)
		}
	}
}

// solve returns the velocity the linear programs find for s.lines: the first
// hard of them obstacles', then up to firm the reciprocal neighbours', then
// those of the neighbours the agent holds alone (see Solver.Velocity).
//
// When the lines leave no velocity and the program fails among the
// reciprocal lines while lines held alone follow, the largest violation of
// the reciprocal lines is made least first (linearProgram3 on lines[:firm]);
// then those lines, moved out by that violation, are kept hard while the
// largest violation of the lines held alone is made least. Otherwise (it
// fails among the lines held alone, or there are none, or it fails among the
// obstacles') it is RVO2's linearProgram3 with lines[:firm] (lines[:hard])
// hard.
func (s *Solver) solve(hard, firm int, rg *region, pref r2.Vec) r2.Vec {
	v, failed := linearProgram2(s.lines, rg, pref, false)
	switch {
	case failed == len(s.lines):
		return v
	case failed >= firm:
		return s.linearProgram3(s.lines, firm, failed, rg, v)
	case failed < hard || firm == len(s.lines):
		return s.linearProgram3(s.lines, hard, failed, rg, v)
	}
	v = s.linearProgram3(s.lines[:firm], hard, failed, rg, v)
	var worst float64
	for _, l := range s.lines[hard:firm] {
		worst = max(worst, det(l.Direction, r2.Sub(l.Point, v)))
	}
	// the reciprocal lines moved out by their largest violation (and a
	// rounding's worth), so that v, and what lies beside it, holds them
	worst += float64(1e-9 * (1 + worst)) // the product rounded: no fused multiply-add (.ci/nofma)
	tier := append(s.tier[:0], s.lines...)
	for i := hard; i < firm; i++ {
		l := &tier[i]
		l.Point = addScaled(l.Point, -worst, r2.Vec{X: -l.Direction.Y, Y: l.Direction.X})
	}
	s.tier = tier
	next, failed := linearProgram2(tier, rg, pref, false)
	switch {
	case failed == len(tier):
		return next
	case failed >= firm:
		return s.linearProgram3(tier, firm, failed, rg, next)
	}
	return v // rounding: the reciprocal lines' best stands
}

// dropNonFinite removes from s.lines those with a NaN or infinite point or
// direction, keeping the order, and returns the new counts of hard lines and
// of hard and reciprocal lines.
func (s *Solver) dropNonFinite(hard, firm int) (int, int) {
	kept, keptHard, keptFirm := s.lines[:0], 0, 0
	for i, l := range s.lines {
		if finiteLine(l) {
			kept = append(kept, l)
			if i < hard {
				keptHard++
			}
			if i < firm {
				keptFirm++
			}
		}
	}
	s.lines = kept
	return keptHard, keptFirm
}

// finiteLine reports whether l's point and direction are finite.
func finiteLine(l Line) bool {
	// x − x is 0 for a finite x, NaN for a NaN or infinite one: one comparison
	return (l.Point.X-l.Point.X)+(l.Point.Y-l.Point.Y)+(l.Direction.X-l.Direction.X)+(l.Direction.Y-l.Direction.Y) == 0
}

// usable reports whether x is > 0 and finite.
func usable(x float64) bool { return x > 0 && !math.IsInf(x, 1) }
