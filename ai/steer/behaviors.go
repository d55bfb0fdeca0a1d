package steer

import (
	"github.com/archai-go/archai/internal/detmath"
	"math"

	"gonum.org/v1/gonum/spatial/r2"
)

// Flee returns the force that turns vel into full speed (maxSpeed, cells/s)
// straight away from threat, (desired − vel)/dt truncated to maxForce
// (cells/s²). Beyond panic cells the threat is ignored and Flee returns the
// zero vector (pass math.Inf(1) to always flee). At distance 0 the direction is
// undefined and Flee returns the zero vector. dt ≤ 0 gives the zero vector.
func Flee(pos, vel, threat r2.Vec, maxSpeed, maxForce, panic, dt float64) r2.Vec {
	if dt <= 0 {
		return r2.Vec{}
	}
	d := r2.Sub(pos, threat)
	n := norm(d)
	if n == 0 || n > panic {
		return r2.Vec{}
	}
	desired := scaled(maxSpeed/n, d)
	return Truncate(r2.Scale(1/dt, r2.Sub(desired, vel)), maxForce)
}

// Predict returns where a target at pos moving at vel will be when an agent at
// from, moving at speed (cells/s), meets it: the target's position after
//
//	T = min(distance/(speed + closing), maxLead) seconds,
//
// where closing (cells/s) is the part of vel towards from, 0 for a target
// moving away or across. Reynolds (1999, "Steering Behaviors for Autonomous
// Characters", pursuit) predicts over an interval that grows with the
// distance; Millington & Funge ("Artificial Intelligence for Games", Pursue)
// take distance/speed capped at a maximum prediction time, maxLead here.
// For a target coming at the agent that is the time the agent alone would take
// to cover the distance, while the two close at speed + closing: the
// target, predicted that far along its way, was put behind the agent (a
// pursuer then sped away from a target running at it). distance/(speed +
// closing) is the time at which they meet if both keep their speeds along the
// line between them (the intercept time from the closing speed, the usual
// refinement), so the prediction of a target coming at the agent never lies
// beyond the agent along that line: it advances distance·closing/(speed +
// closing) ≤ distance (equal for speed 0, where rounding may put it a few ulps
// past the agent). A target moving away or across has closing 0: T is
// distance/speed, as before. A negative speed counts as 0; with speed and
// closing both 0, T is maxLead. A NaN closing counts as 0.
func Predict(from, pos, vel r2.Vec, speed, maxLead float64) r2.Vec {
	d := r2.Sub(from, pos)
	dist := norm(d)
	closing := 0.0
	if dist > 0 {
		if c := (float64(d.X*vel.X) + float64(d.Y*vel.Y)) / dist; c > 0 { // false for NaN
			closing = c
		}
	}
	t := maxLead
	if rate := max(speed, 0) + closing; rate > 0 {
		t = min(dist/rate, maxLead)
	}
	return addScaled(pos, t, vel)
}

// Pursue seeks the predicted position of a moving target (see [Predict]), so
// it intercepts rather than trails it.
func Pursue(pos, vel, targetPos, targetVel r2.Vec, maxSpeed, maxForce, maxLead, dt float64) r2.Vec {
	return Seek(pos, vel, Predict(pos, targetPos, targetVel, maxSpeed, maxLead), maxSpeed, maxForce, dt)
}

// Catch is [Pursue] that ends at contact: an agent that has caught up with
// its target holds standoff cells from it (the sum of the two radii, say)
// instead of running into it. Far off it is Pursue; once the gap (distance
// minus standoff) is within what the agent can brake from at full closing
// speed (maxSpeed plus the target's speed towards the agent: the arrival is
// judged in the target's frame, so a pursuer meeting a target head-on slows
// in time), its desired velocity is the target's velocity plus, towards the
// target, [Arrive]'s desired speed for the gap (none once the gap is closed),
// cut to maxSpeed, less any part of it away from the target (a pursuer
// does not back off from a target coming at it): it closes without
// overshoot, then keeps pace with a target that moves away or across and
// stands beside one that stands. A target coming at it that has come within
// the standoff pushes it back: it gives way along the line between them at
// min(the target's speed towards it, (standoff − distance)/dt) (the agent
// held its ground, and a target walking at it overran it). It does not give
// way before contact, so two discs meeting head-on stay apart only if the
// agent can match the target's speed within the standoff: the target must be
// no faster than maxSpeed and, for a small dt, speed²/(2·maxForce) < standoff
// (at 4 cells/s and maxForce 20 cells/s² the target comes 0.4 cells into the
// standoff; at maxForce 5, or with dt 0.25 s, it passes through). Force and units as
// Pursue's; dt ≤ 0 gives the zero vector. Reynolds (1999) pairs pursuit with
// arrival for a pursuer that should stop at its quarry ("offset pursuit").
func Catch(pos, vel, targetPos, targetVel r2.Vec, standoff, maxSpeed, maxForce, maxLead, dt float64) r2.Vec {
	if dt <= 0 {
		return r2.Vec{}
	}
	d := r2.Sub(targetPos, pos)
	dist := norm(d)
	gap := dist - max(standoff, 0)
	coming := 0.0 // the target's speed towards the agent
	if dist > 0 {
		if c := -(float64(targetVel.X*d.X) + float64(targetVel.Y*d.Y)) / dist; c > 0 {
			coming = c
		}
	}
	if !(dist > 0) || (gap > 0 && farToBrake(gap, maxSpeed+coming, maxForce, dt)) || math.IsNaN(gap) {
		return Pursue(pos, vel, targetPos, targetVel, maxSpeed, maxForce, maxLead, dt)
	}
	desired := targetVel
	if gap > 0 {
		closing := min(maxSpeed, BrakingSpeed(gap, maxForce, dt), gap/dt)
		desired = addScaled(desired, closing/dist, d)
	}
	if back := float64(desired.X*d.X) + float64(desired.Y*d.Y); back < 0 { // never backs away from a target coming at it
		desired = addScaled(desired, -back/float64(dist*dist), d)
	}
	if gap < 0 && coming > 0 { // within the standoff: it gives way as the target presses in, at most at the target's speed
		desired = addScaled(desired, -min(coming, -gap/dt)/dist, d)
	}
	desired = Truncate(desired, maxSpeed)
	return Truncate(r2.Scale(1/dt, r2.Sub(desired, vel)), maxForce)
}

// Evade flees the predicted position of a moving threat (see [Predict] and
// [Flee]).
func Evade(pos, vel, threatPos, threatVel r2.Vec, maxSpeed, maxForce, maxLead, panic, dt float64) r2.Vec {
	return Flee(pos, vel, Predict(pos, threatPos, threatVel, maxSpeed, maxLead), maxSpeed, maxForce, panic, dt)
}

// Wander is Reynolds' wander: a target on a circle of radius Radius, Distance
// cells ahead of the agent along its heading, at an angle to the heading that
// drifts as a random walk, sought at full speed. Each call moves the angle by a
// step drawn uniformly from ±Jitter·√(3·dt) radians, so that its drift after t
// seconds has a standard deviation of Jitter·√t radians whatever the frame rate
// (a step proportional to dt, as in Buckland's form, spreads √8 ≈ 2.8 times
// less at 240 Hz than at 30). The seek force reaches the desired velocity in
// Response seconds, (desired − vel)/max(Response, dt), truncated to maxForce:
// with Response 0 (as [Seek]) it does so within the frame, so that the shorter
// the frame the harder the agent turns toward a target that moves with its
// heading, and the tighter it loops (measured with the Wanderer bundle's other
// defaults: 3.4 cells from the start after 10 s at 240 Hz against 7.1 at 30);
// with a Response of a frame or more the path is the same at any frame rate
// at or above 1/Response (0.25 s: 18.4–18.7 cells at 30 to 240 Hz). The angle
// is the agent's state; keep the Wander value in a component.
type Wander struct {
	Distance float64 // cells ahead of the agent
	Radius   float64 // cells
	Jitter   float64 // radians per √second: the standard deviation of the angle's drift over one second of simulation time
	Response float64 // seconds to reach the desired velocity (the seek's time constant); 0: within the frame
	Angle    float64 // radians, relative to the heading; the state
}

// Force advances the wander angle using r (the agent's own seeded source) and
// returns the force seeking the wander target at maxSpeed. The heading is vel's
// direction, or +x when the agent stands still. A dt that is not positive
// returns no force and leaves the angle as it is (and r undrawn).
func (w *Wander) Force(pos, vel r2.Vec, r *Rand, maxSpeed, maxForce, dt float64) r2.Vec {
	return w.ForceAlong(pos, vel, r2.Vec{}, r, maxSpeed, maxForce, dt)
}

// ForceAlong is [Wander.Force] with the heading given instead of vel's
// direction: for an agent at rest, whose velocity tells no heading, a direction
// of the caller's choosing (systems.Steer gives a wanderer at rest against a
// wall the direction away from it, so that its target is not beyond the wall).
// heading of any length counts by its direction; a heading with no direction
// (zero, NaN or infinite) counts as none given: vel's direction, or +x at rest,
// as Force (it used to put the wander target on the agent, or make no force at
// all, so the agent braked to a stop for good).
func (w *Wander) ForceAlong(pos, vel, heading r2.Vec, r *Rand, maxSpeed, maxForce, dt float64) r2.Vec {
	if !(dt > 0) {
		return r2.Vec{}
	}
	if n := norm(heading); n > 0 && !math.IsInf(n, 1) {
		if math.Abs(n-1) > 1e-9 { // a unit heading is taken as it is, bit for bit
			heading = r2.Scale(1/n, heading)
		}
	} else if n := norm(vel); n > 0 && !math.IsInf(n, 1) {
		heading = r2.Scale(1/n, vel)
	} else {
		heading = r2.Vec{X: 1}
	}
	w.Angle += float64((2*r.Float64() - 1) * w.Jitter * math.Sqrt(3*dt))
	w.Angle = math.Remainder(w.Angle, 2*math.Pi)
	sin, cos := detmath.Sincos(w.Angle)
	offset := r2.Vec{X: float64(heading.X*cos) - float64(heading.Y*sin), Y: float64(heading.X*sin) + float64(heading.Y*cos)}
	target := r2.Add(pos, addScaled(scaled(w.Distance, heading), w.Radius, offset))
	return Seek(pos, vel, target, maxSpeed, maxForce, max(dt, w.Response))
}

// FollowPath steers along waypoints (cells), an open path: it seeks
// waypoints[next] and, once within reach cells of it, advances to the next
// one; from the last waypoint it arrives (stops on it, see [Arrive]). It
// returns the force and the new next index. Waypoints are visited in order, so
// a path that bends around a corner is not cut short. An empty path or an
// index past its end gives the braking force.
func FollowPath(pos, vel r2.Vec, waypoints []r2.Vec, next int, reach, maxSpeed, maxForce, dt float64) (r2.Vec, int) {
	if next < 0 {
		next = 0
	}
	if len(waypoints) == 0 || next >= len(waypoints) {
		return Brake(vel, maxForce, dt), next
	}
	for next < len(waypoints)-1 && norm(r2.Sub(waypoints[next], pos)) < reach {
		next++
	}
	if next == len(waypoints)-1 {
		return Arrive(pos, vel, waypoints[next], maxSpeed, maxForce, 1e-3, dt), next
	}
	return Seek(pos, vel, waypoints[next], maxSpeed, maxForce, dt), next
}

// FollowFlow steers along a flow field: dir is the field's direction sampled
// at the agent's position (any length; zero where the field has none). The
// desired velocity is dir scaled to maxSpeed; with a zero dir the agent brakes.
func FollowFlow(vel, dir r2.Vec, maxSpeed, maxForce, dt float64) r2.Vec {
	if dt <= 0 {
		return r2.Vec{}
	}
	var desired r2.Vec
	if n := norm(dir); n > 0 {
		desired = r2.Scale(maxSpeed/n, dir)
	}
	return Truncate(r2.Scale(1/dt, r2.Sub(desired, vel)), maxForce)
}

// Alignment returns the force that turns vel towards the mean velocity of the
// neighbours (Reynolds 1987, "velocity matching"): (mean − vel)/dt, truncated
// to maxForce. No neighbours give the zero vector.
func Alignment(vel r2.Vec, neighbourVels []r2.Vec, maxForce, dt float64) r2.Vec {
	if len(neighbourVels) == 0 || dt <= 0 {
		return r2.Vec{}
	}
	var sum r2.Vec
	for _, v := range neighbourVels {
		sum = r2.Add(sum, v)
	}
	mean := scaled(1/float64(len(neighbourVels)), sum)
	return Truncate(r2.Scale(1/dt, r2.Sub(mean, vel)), maxForce)
}

// Cohesion seeks the centre of the neighbours' positions (Reynolds 1987,
// "flock centering") at maxSpeed. No neighbours give the zero vector.
func Cohesion(pos, vel r2.Vec, neighbours []r2.Vec, maxSpeed, maxForce, dt float64) r2.Vec {
	if len(neighbours) == 0 {
		return r2.Vec{}
	}
	var sum r2.Vec
	for _, q := range neighbours {
		sum = r2.Add(sum, q)
	}
	return Seek(pos, vel, r2.Scale(1/float64(len(neighbours)), sum), maxSpeed, maxForce, dt)
}

// Circle is a round obstacle.
type Circle struct {
	Center r2.Vec
	Radius float64 // cells
}

// ObstacleAvoidance steers around the nearest circle that the agent (radius
// cells) would hit within lookahead seconds at its current velocity (Reynolds
// 1999, "obstacle avoidance"): a lateral force away from the obstacle's
// centre, stronger the closer the hit, up to maxForce. It returns the zero
// vector when nothing is in the way or the agent stands still.
func ObstacleAvoidance(pos, vel r2.Vec, radius float64, obstacles []Circle, lookahead, maxForce float64) r2.Vec {
	speed := norm(vel)
	if speed == 0 || lookahead <= 0 {
		return r2.Vec{}
	}
	heading := r2.Scale(1/speed, vel)
	side := r2.Vec{X: -heading.Y, Y: heading.X}
	reach := speed * lookahead
	bestAhead, bestLateral := math.Inf(1), 0.0
	for _, o := range obstacles {
		d := r2.Sub(o.Center, pos)
		ahead := dot(d, heading)
		lateral := dot(d, side)
		clear := o.Radius + radius
		if ahead <= 0 || ahead-clear > reach || math.Abs(lateral) >= clear {
			continue
		}
		if ahead < bestAhead {
			bestAhead, bestLateral = ahead, lateral
		}
	}
	if math.IsInf(bestAhead, 1) {
		return r2.Vec{}
	}
	strength := maxForce * (1 - min(bestAhead/max(reach, 1e-9), 1))
	strength = max(strength, 0.25*maxForce)
	dir := -1.0 // obstacle to the left (positive lateral): steer right
	if bestLateral < 0 || (bestLateral == 0 && float64(side.X)+float64(side.Y) < 0) {
		dir = 1
	}
	return r2.Scale(dir*strength, side)
}

// Blocked reports whether the grid cell (x, y) is a wall; off-grid cells should
// count as walls. It lets [WallAvoidance] see a grid without importing one.
type Blocked func(x, y int32) bool

// WallAvoidance casts feelers from pos: one along the heading of length
// lookahead·speed (at least minLength cells) and two at ±angle radians of
// half that length. For each feeler that enters a blocked cell, it pushes
// along the normal of the wall face it crossed, in proportion to how far the
// feeler reaches past the face (Reynolds 1999, "containment"; Buckland 2005,
// feelers). The sum is truncated to maxForce. A standing agent casts no
// feelers.
func WallAvoidance(pos, vel r2.Vec, blocked Blocked, lookahead, minLength, angle, maxForce float64) r2.Vec {
	speed := norm(vel) // and no multiply-add below: see norm
	if speed == 0 {
		return r2.Vec{}
	}
	heading := r2.Scale(1/speed, vel)
	length := max(lookahead*speed, minLength)
	var sum r2.Vec
	sinA, cosA := detmath.Sincos(angle) // Sincos(−a) is exactly (−sin a, cos a)
	for i, sc := range [3][2]float64{{0, 1}, {sinA, cosA}, {-sinA, cosA}} {
		l := length
		if i > 0 {
			l /= 2
		}
		sin, cos := sc[0], sc[1]
		dir := r2.Vec{X: float64(heading.X*cos) - float64(heading.Y*sin), Y: float64(heading.X*sin) + float64(heading.Y*cos)}
		if t, normal, hit := castRay(pos, dir, l, blocked); hit {
			push := r2.Scale(maxForce*(l-t)/l, normal)
			sum = r2.Add(sum, r2.Vec{X: float64(push.X), Y: float64(push.Y)})
		}
	}
	return Truncate(sum, maxForce)
}

// castRay walks the grid cells along pos + t·dir for t in [0, length] (dir a
// unit vector), Amanatides & Woo (1987), and returns the distance to the
// first blocked cell's face and that face's outward normal.
func castRay(pos, dir r2.Vec, length float64, blocked Blocked) (float64, r2.Vec, bool) {
	cx, cy := int32(math.Floor(pos.X)), int32(math.Floor(pos.Y))
	stepX, stepY := int32(1), int32(1)
	tMaxX, tMaxY := math.Inf(1), math.Inf(1)
	tDX, tDY := math.Inf(1), math.Inf(1)
	if dir.X > 0 {
		tDX = 1 / dir.X
		tMaxX = (math.Floor(pos.X) + 1 - pos.X) * tDX
	} else if dir.X < 0 {
		stepX = -1
		tDX = -1 / dir.X
		tMaxX = (pos.X - math.Floor(pos.X)) * tDX
	}
	if dir.Y > 0 {
		tDY = 1 / dir.Y
		tMaxY = (math.Floor(pos.Y) + 1 - pos.Y) * tDY
	} else if dir.Y < 0 {
		stepY = -1
		tDY = -1 / dir.Y
		tMaxY = (pos.Y - math.Floor(pos.Y)) * tDY
	}
	for {
		var t float64
		var normal r2.Vec
		if tMaxX < tMaxY {
			t = tMaxX
			cx += stepX
			tMaxX += tDX
			normal = r2.Vec{X: -float64(stepX)}
		} else {
			t = tMaxY
			cy += stepY
			tMaxY += tDY
			normal = r2.Vec{Y: -float64(stepY)}
		}
		if t > length || math.IsInf(t, 1) {
			return 0, r2.Vec{}, false
		}
		if blocked(cx, cy) {
			return t, normal, true
		}
	}
}

// Accumulator sums forces by priority within a budget (Reynolds 1999;
// Buckland 2005, "prioritized weighted truncated running sum"): forces are
// added most important first, each one only as far as the remaining budget
// allows, so an urgent force (avoiding a wall) is never drowned by a
// cosmetic one (cohesion). Start with Accumulator{Max: maxForce}.
type Accumulator struct {
	Sum r2.Vec  // the combined force so far
	Max float64 // the budget: the largest |Sum|
}

// Add adds weight·f within the remaining budget and reports whether budget is
// left for more. NaN or infinite forces are ignored.
func (a *Accumulator) Add(f r2.Vec, weight float64) bool {
	f = r2.Scale(weight, f)
	n := norm(f)
	if math.IsNaN(n) || math.IsInf(n, 0) {
		return a.left() > 0
	}
	left := a.left()
	if left <= 0 {
		return false
	}
	if n > left {
		f = r2.Scale(left/n, f)
	}
	a.Sum = r2.Add(a.Sum, f)
	return a.left() > 1e-12
}

func (a *Accumulator) left() float64 { return a.Max - norm(a.Sum) }
