package orca

import (
	"github.com/archai-go/archai/internal/detmath"
	"math"

	"gonum.org/v1/gonum/spatial/r2"
)

// Line is a directed line in velocity space bounding a half-plane of
// permitted velocities: those on its left or on it,
// det(Direction, v − Point) ≥ 0. Direction is a unit vector; Point in cells
// per second.
type Line struct {
	Point, Direction r2.Vec
}

// Permits reports whether velocity v is in l's half-plane (allowing a
// violation of up to tol cells per second).
func (l Line) Permits(v r2.Vec, tol float64) bool {
	return det(l.Direction, r2.Sub(v, l.Point)) >= -tol
}

// Agent is the agent a velocity is chosen for.
type Agent struct {
	Position  r2.Vec  // cells
	Velocity  r2.Vec  // the current velocity, cells per second
	Preferred r2.Vec  // the velocity it would take with nobody near, cells per second
	Radius    float64 // cells
	MaxSpeed  float64 // cells per second

	// MaxDelta is the largest change of velocity in this step, cells per
	// second (the maximum acceleration times the time step); the new velocity
	// is within MaxDelta of Velocity cut to MaxSpeed (a Velocity faster than
	// MaxSpeed is first cut to it, so the result may be farther than MaxDelta
	// from the Velocity given). 0 or +Inf: no limit, as in RVO2.
	MaxDelta float64

	TimeHorizon     float64 // seconds: agents that would collide within it are avoided; > 0
	ObstacleHorizon float64 // seconds: the same for obstacles; > 0

	// Bias, in radians, is a right-hand rule: when a neighbour's half-plane
	// rules out the preferred velocity, the agent aims instead at Desired
	// (Preferred if zero) turned clockwise by Bias (to the right of the way
	// it points, with y up), so agents keep right of each other. It breaks the
	// symmetric deadlocks that pure ORCA falls into (a ring of agents
	// swapping to antipodal points stops round the empty centre, every agent
	// held by the two beside it); RVO2 leaves symmetry breaking to the caller.
	// 0: pure ORCA.
	Bias float64

	// Desired is the velocity the agent is heading for, cells per second,
	// when Preferred is only the next step towards it (a steering force's
	// velocity after one time step); the zero vector means Preferred. Only
	// Bias uses it.
	Desired r2.Vec
}

// Neighbour is another agent near the one choosing its velocity.
type Neighbour struct {
	Position r2.Vec  // cells
	Velocity r2.Vec  // cells per second
	Radius   float64 // cells

	// Share is the part of the avoidance the agent takes on: 0.5 (the
	// default, used when Share is 0) when the neighbour runs ORCA too, 1 when
	// it does not avoid (a neighbour that holds its course). A neighbour of
	// Share < 1 is reciprocal: its half-plane gives way only after those of
	// Share ≥ 1 when no velocity avoids everyone (see [Solver.Velocity]).
	Share float64
}

// Segment is a static obstacle edge from A to B (cells). The obstacle lies on
// its left, det(B − A, p − A) > 0; free space is on its right. An agent on the
// left side, or on the line, does not see the segment (a back face), and a
// segment of zero length is ignored.
type Segment struct {
	A, B r2.Vec
}

// Solver computes ORCA velocities. It holds scratch buffers, reused between
// calls: once they have grown, [Solver.Velocity] and [Solver.GridSegments]
// allocate nothing. The zero value is ready to use; a Solver must not be used
// by two goroutines at once.
type Solver struct {
	lines []Line
	tier  []Line // lines with the reciprocal ones moved out (solve)
	proj  []Line
	walls wallMap
	segs  []Segment
	dist  []float64
	found []foundSegment

	wideOnly bool // tests: gridSegments takes its general scan for every window
}

// Velocity returns the ORCA velocity of agent a (cells per second): the
// velocity nearest a.Preferred within speed a.MaxSpeed (and within a.MaxDelta
// of a.Velocity cut to a.MaxSpeed) that avoids collisions with the neighbours within
// a.TimeHorizon seconds and with the obstacles within a.ObstacleHorizon
// seconds, or, if none does, the one that violates the neighbours' half-planes
// least while the obstacles' hold. dt is the time step in seconds: an agent
// already overlapping a neighbour chooses a velocity that parts them within
// one step.
//
// When no velocity avoids everyone, the half-planes give way in tiers: the
// obstacles' never; then those of the neighbours the agent holds alone
// ([Neighbour.Share] ≥ 1: they do not avoid); the reciprocal neighbours'
// (Share < 1) only as far as the obstacles' and their own make unavoidable,
// the largest violation among them least. Each agent of a reciprocal pair
// counts on the other keeping its half-plane: one that gave it up for a
// crowd of non-avoiding neighbours pressing on it (which it cannot part from
// alone, and whose one-step half-planes it cannot meet) would let the pair
// overlap, both at once. With all neighbours reciprocal (or all not) this is
// RVO2's rule (obstacles hard, agents' largest violation least).
//
// Obstacles are best given nearest first ([Solver.GridSegments] does): an
// obstacle hidden behind one already handled adds no half-plane.
//
// Bad input has a fixed result: a horizon or dt that is not > 0 and finite,
// a MaxSpeed not > 0 and finite, or a NaN or infinite position or velocity
// of the agent returns a.Preferred truncated to a.MaxSpeed (no avoidance; the
// zero vector if MaxSpeed is unusable); neighbours and segments with NaN or
// infinite coordinates are ignored, and so, when the velocity found is not
// finite, are those whose half-plane overflows (a radius near
// math.MaxFloat64, a horizon whose inverse is +Inf, such as 5e-324 s), and
// the velocity is found again. The result is always finite, within MaxSpeed and
// within MaxDelta of Velocity (cut to MaxSpeed): should the solver still overflow, it is
// a.Preferred truncated to a.MaxSpeed (the zero vector if Preferred is not
// finite); should it round out of those discs (coordinates of 1e300 beside
// ones of 1), it is the nearest velocity within them.
func (s *Solver) Velocity(a *Agent, neighbours []Neighbour, obstacles []Segment, dt float64) r2.Vec {
	if !usable(a.MaxSpeed) {
		return r2.Vec{}
	}
	pref := a.Preferred
	if !finite(pref) {
		pref = r2.Vec{}
	}
	fallback := pref
	if !usable(a.TimeHorizon) || !usable(a.ObstacleHorizon) || !usable(dt) ||
		!finite(a.Position) || !finite(a.Velocity) || math.IsNaN(a.Radius) || math.IsInf(a.Radius, 0) {
		return truncate(fallback, a.MaxSpeed)
	}
	radius := max(a.Radius, 0)
	s.lines = s.lines[:0]
	invTo := 1 / a.ObstacleHorizon
	for _, o := range obstacles {
		if !finite(o.A) || !finite(o.B) {
			continue
		}
		if s.covered(r2.Sub(o.A, a.Position), r2.Sub(o.B, a.Position), radius, invTo) {
			continue
		}
		if l, ok := obstacleLine(a.Position, a.Velocity, radius, a.ObstacleHorizon, o, false); ok {
			s.lines = append(s.lines, l)
		}
	}
	hard := len(s.lines)
	s.agentLines(a, neighbours, dt, false) // the reciprocal neighbours' lines first,
	firm := len(s.lines)
	s.agentLines(a, neighbours, dt, true) // then those the agent holds alone
	if a.Bias != 0 && !math.IsNaN(a.Bias) && !math.IsInf(a.Bias, 0) && len(s.lines) > hard {
		d := a.Desired
		if !finite(d) || d == (r2.Vec{}) {
			d = pref
		}
		sin, cos := detmath.Sincos(-a.Bias)
		pref = r2.Vec{X: float64(d.X*cos) - float64(d.Y*sin), Y: float64(d.X*sin) + float64(d.Y*cos)}
	}
	rg := newRegion(a.MaxSpeed, a.Velocity, a.MaxDelta)
	v := s.solve(hard, firm, &rg, pref)
	if !finite(v) { // a half-plane overflowed on absurd but finite input: drop those
		hard, firm = s.dropNonFinite(hard, firm)
		if v = s.solve(hard, firm, &rg, pref); !finite(v) {
			return truncate(fallback, a.MaxSpeed)
		}
	}
	if !rg.holds(v) { // cancellation on absurd but finite input
		v = rg.nearest(v)
	}
	return v
}

// AgentLine returns the ORCA half-plane that neighbour n imposes on agent a:
// the velocity obstacle of n for a (relative velocities that bring the two
// discs into contact within a.TimeHorizon seconds: a cone truncated by a disc)
// is found, u is the smallest change of the relative velocity that leaves it,
// and a's permitted velocities are those on the far side of a line through
// a.Velocity + Share·u, perpendicular to u. If the two already overlap, the
// velocity obstacle for one step of dt seconds is used, so they part within
// the step. It reports false when the line is undefined: a and n at the same
// point with the same velocity; a.TimeHorizon (or, for discs that overlap, dt)
// not > 0, NaN or so small that its inverse overflows (5e-324 s); or a line
// that is not finite (positions near math.MaxFloat64).
func AgentLine(a *Agent, n *Neighbour, dt float64) (Line, bool) {
	l, ok := agentLine(a, n, dt, true)
	return l, ok && finiteLine(l)
}

// agentLine is AgentLine; unless strict, for [Solver.Velocity], which checks
// the horizon and dt first and drops lines that are not finite itself, it
// returns the line of any horizon and dt, and lines that are not finite.
func agentLine(a *Agent, n *Neighbour, dt float64, strict bool) (Line, bool) {
	relPos := r2.Sub(n.Position, a.Position)
	relVel := r2.Sub(a.Velocity, n.Velocity)
	distSq := dot(relPos, relPos)
	r := max(a.Radius, 0) + max(n.Radius, 0)
	rSq := float64(r * r)
	share := n.Share
	if !(share > 0) || math.IsInf(share, 1) {
		share = 0.5
	}
	var dir, u r2.Vec
	if distSq > rSq {
		invT := 1 / a.TimeHorizon
		if strict && !(a.TimeHorizon > 0 && invT <= math.MaxFloat64) {
			return Line{}, false
		}
		w := r2.Sub(relVel, scaled(invT, relPos)) // from the cut-off disc's centre to relVel
		wSq := dot(w, w)
		wp := dot(w, relPos)
		if wp < 0 && wp*wp > rSq*wSq {
			// nearest the cut-off disc's boundary
			wLen := math.Sqrt(wSq)
			unit := r2.Scale(1/wLen, w)
			dir = r2.Vec{X: unit.Y, Y: -unit.X}
			u = r2.Scale(float64(r*invT)-wLen, unit)
		} else {
			// nearest a leg of the cone: rotate relPos by ±asin(r/|relPos|)
			leg := math.Sqrt(distSq - rSq)
			if det(relPos, w) > 0 {
				dir = r2.Scale(1/distSq, r2.Vec{X: float64(relPos.X*leg) - float64(relPos.Y*r), Y: float64(relPos.X*r) + float64(relPos.Y*leg)})
			} else {
				dir = r2.Scale(-1/distSq, r2.Vec{X: float64(relPos.X*leg) + float64(relPos.Y*r), Y: float64(-relPos.X*r) + float64(relPos.Y*leg)})
			}
			u = r2.Sub(scaled(dot(relVel, dir), dir), relVel)
		}
	} else {
		invDt := 1 / dt
		if strict && !(dt > 0 && invDt <= math.MaxFloat64) {
			return Line{}, false
		}
		w := r2.Sub(relVel, scaled(invDt, relPos))
		wLen := norm(w)
		if !(wLen > 0) {
			return Line{}, false
		}
		unit := r2.Scale(1/wLen, w)
		dir = r2.Vec{X: unit.Y, Y: -unit.X}
		u = r2.Scale(float64(r*invDt)-wLen, unit)
	}
	return Line{Point: addScaled(a.Velocity, share, u), Direction: dir}, true
}

// ObstacleLine returns the half-plane that segment o imposes on an agent at
// pos with velocity vel and radius (cells), for a horizon of horizon seconds:
// the velocity obstacle of the segment (velocities that bring the agent's disc
// onto it within horizon seconds: the segment widened by radius, seen as a
// cone from the agent and cut off at 1/horizon of its distance) lies wholly
// on the line's right, and the line touches it where it is nearest vel. If the
// agent's disc already touches the segment, the line passes through the zero
// velocity and permits only velocities that move away from it. The agent
// takes all of the avoidance (an obstacle does not move). It reports false for
// a back face (pos not on o's right) and a segment of zero length; and, unless
// the disc touches the segment, for a horizon not > 0, NaN or so small that its
// inverse overflows (5e-324 s) and for a line that is not finite.
func ObstacleLine(pos, vel r2.Vec, radius, horizon float64, o Segment) (Line, bool) {
	l, ok := obstacleLine(pos, vel, radius, horizon, o, true)
	return l, ok && finiteLine(l)
}

// obstacleLine is ObstacleLine; unless strict (see agentLine), it returns the
// line of any horizon, and lines that are not finite.
func obstacleLine(pos, vel r2.Vec, radius, horizon float64, o Segment, strict bool) (Line, bool) {
	relA, relB := r2.Sub(o.A, pos), r2.Sub(o.B, pos)
	seg := r2.Sub(relB, relA)
	segSq := dot(seg, seg)
	if !(segSq > 0) || det(seg, r2.Scale(-1, relA)) >= 0 {
		return Line{}, false
	}
	unitSeg := r2.Scale(1/math.Sqrt(segSq), seg)
	rSq := radius * radius
	distSqA, distSqB := dot(relA, relA), dot(relB, relB)
	s := -dot(relA, seg) / segSq // where the nearest point of the segment's line lies, A at 0 and B at 1
	off := addScaled(relA, s, seg)
	distSqLine := dot(off, off)

	// Already touching: move away from the point touched.
	switch {
	case s < 0 && distSqA <= rSq:
		return Line{Direction: unit(r2.Vec{X: -relA.Y, Y: relA.X})}, true
	case s > 1 && distSqB <= rSq:
		return Line{Direction: unit(r2.Vec{X: -relB.Y, Y: relB.X})}, true
	case s >= 0 && s <= 1 && distSqLine <= rSq:
		return Line{Direction: r2.Scale(-1, unitSeg)}, true
	}
	if strict && !(horizon > 0 && 1/horizon <= math.MaxFloat64) {
		return Line{}, false
	}

	// The legs: from A on the left and B on the right, or both from one end
	// when the segment is seen so obliquely that that end hides the other.
	left, right := relA, relB
	single := false
	switch {
	case s < 0 && distSqLine <= rSq:
		right, single = relA, true
	case s > 1 && distSqLine <= rSq:
		left, single = relB, true
	}
	leftLeg := legLeft(left, radius)
	rightLeg := legRight(right, radius)

	invT := 1 / horizon
	leftCut, rightCut := scaled(invT, left), scaled(invT, right)
	cut := r2.Sub(rightCut, leftCut)
	t := 0.5
	if !single {
		t = dot(r2.Sub(vel, leftCut), cut) / dot(cut, cut)
	}
	tLeft := dot(r2.Sub(vel, leftCut), leftLeg)
	tRight := dot(r2.Sub(vel, rightCut), rightLeg)
	rInvT := radius * invT

	// Nearest a cut-off disc round one end.
	if (t < 0 && tLeft < 0) || (single && tLeft < 0 && tRight < 0) {
		w := unit(r2.Sub(vel, leftCut))
		return Line{Point: addScaled(leftCut, rInvT, w), Direction: r2.Vec{X: w.Y, Y: -w.X}}, true
	}
	if t > 1 && tRight < 0 {
		w := unit(r2.Sub(vel, rightCut))
		return Line{Point: addScaled(rightCut, rInvT, w), Direction: r2.Vec{X: w.Y, Y: -w.X}}, true
	}

	// Nearest the cut-off line or a leg: the nearest of the three.
	inf := math.Inf(1)
	dCut, dLeft, dRight := inf, inf, inf
	if !single && t >= 0 && t <= 1 {
		dCut = distSq(vel, addScaled(leftCut, t, cut))
	}
	if tLeft >= 0 {
		dLeft = distSq(vel, addScaled(leftCut, tLeft, leftLeg))
	}
	if tRight >= 0 {
		dRight = distSq(vel, addScaled(rightCut, tRight, rightLeg))
	}
	var dir, base r2.Vec
	switch {
	case dCut <= dLeft && dCut <= dRight:
		dir, base = r2.Scale(-1, unitSeg), leftCut
	case dLeft <= dRight:
		dir, base = leftLeg, leftCut
	default:
		dir, base = r2.Scale(-1, rightLeg), rightCut
	}
	return Line{Point: addScaled(base, rInvT, r2.Vec{X: -dir.Y, Y: dir.X}), Direction: dir}, true
}
