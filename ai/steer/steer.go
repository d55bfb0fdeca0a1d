package steer

import (
	"github.com/archai-go/archai/internal/detmath"
	"math"

	"gonum.org/v1/gonum/spatial/r2"
)

// Seek returns the force that turns vel into full speed (maxSpeed, cells/s)
// straight at target: the velocity change that reaches it within this step,
// (desired − vel)/dt, truncated to maxForce (cells/s²). At distance 0 it
// returns the force that brakes to a stop. dt must be > 0; for dt ≤ 0 Seek
// returns the zero vector.
func Seek(pos, vel, target r2.Vec, maxSpeed, maxForce, dt float64) r2.Vec {
	if dt <= 0 {
		return r2.Vec{}
	}
	d := r2.Sub(target, pos)
	n := norm(d)
	var desired r2.Vec
	if n > 0 {
		desired = r2.Scale(maxSpeed/n, d)
	}
	return Truncate(r2.Scale(1/dt, r2.Sub(desired, vel)), maxForce)
}

// Arrive returns the force that moves an agent at pos with velocity vel to stop
// exactly on target (without overshoot, provided the agent is not already
// faster than it can brake from, |vel| ≤ BrakingSpeed(distance); Arrive keeps
// it so from then on): full speed (maxSpeed, cells/s) far away, then a desired
// speed that never exceeds what maxForce (cells/s²) can still brake to zero
// before the target under Euler steps of dt ([BrakingSpeed]), nor the distance
// that can be covered in one step, distance/dt. The force is the one that reaches the
// desired velocity within this step, (desired − vel)/dt, truncated to maxForce.
//
// Within arrived cells (for example 1e-3) of the target the desired velocity is
// zero, so an agent that has arrived stays still and does not jitter. At
// distance 0 no direction is computed (no division by zero). dt must be > 0;
// for dt ≤ 0 Arrive returns the zero vector.
//
// Source: the arrival behavior of Reynolds (1999), with the slowing radius
// replaced by the braking distance of the discrete step (v²/(2a) in the limit
// dt → 0), so it cannot overshoot under a force limit. Far from the target,
// where the braking speed surely exceeds maxSpeed, it is not computed (the
// force is the same).
func Arrive(pos, vel, target r2.Vec, maxSpeed, maxForce, arrived, dt float64) r2.Vec {
	if dt <= 0 {
		return r2.Vec{}
	}
	d := r2.Sub(target, pos)
	dist := norm(d)
	var desired r2.Vec
	if dist > arrived {
		speed, reach := maxSpeed, dist/dt
		if !(reach >= maxSpeed && farToBrake(dist, maxSpeed, maxForce, dt)) {
			speed = min(maxSpeed, min(BrakingSpeed(dist, maxForce, dt), reach))
		}
		desired = r2.Scale(speed/dist, d)
	}
	return Truncate(r2.Scale(1/dt, r2.Sub(desired, vel)), maxForce)
}

// Brake returns the force that stops an agent moving at vel within this step
// of dt seconds, as far as maxForce (cells/s²) allows: −vel/dt, truncated.
// dt ≤ 0 gives the zero vector.
func Brake(vel r2.Vec, maxForce, dt float64) r2.Vec {
	if !(dt > 0) {
		return r2.Vec{}
	}
	return Truncate(r2.Scale(-1/dt, vel), maxForce)
}

// farToBrake reports whether an agent dist cells away can surely brake from
// speed at decel: BrakingSpeed(dist, decel, dt) ≥ speed, so that Arrive's
// desired speed is speed without computing it. Braking from v = (n+f)·a·dt
// (see [BrakingSpeed]) covers a·dt²·((n+1)·f + n(n+1)/2), at most
// (v + a·dt/2)²/(2a) (the difference is (f−f²)/2 ≤ 1/8 steps of a·dt²), so a
// dist beyond that bound, with a margin of 10⁻⁹ far above rounding, is far
// enough. It reports false for a speed or decel that is not positive (or
// NaN), or when the bound overflows, when the full rule decides.
func farToBrake(dist, speed, decel, dt float64) bool {
	h := speed + float64(decel*dt/2)
	b := h * h * (1 + 1e-9)
	return speed > 0 && decel > 0 && b <= math.MaxFloat64 && 2*decel*dist >= b // (+Inf ≥ +Inf proves nothing)
}

// BrakingSpeed returns the highest speed (cells/s) from which an agent braking
// at decel (cells/s²) under explicit Euler steps of dt seconds (vel updated,
// then pos += vel·dt) comes to rest exactly after dist cells. Writing the speed
// as v = (n+f)·a·dt with an integer n and f in [0, 1), the steps v, v−a·dt, …,
// f·a·dt cover a·dt²·((n+1)·f + n(n+1)/2); BrakingSpeed inverts that. One step
// later the remaining distance gives exactly v − a·dt, so braking never needs
// more than decel, and the last step lands on the target (for n = 0 the speed
// is dist/dt). In the limit dt → 0 this is the kinematic √(2·a·dist), which it
// returns when dist/(a·dt²) is too large for the step count (above about
// 2·10³⁰⁷, a dist of +Inf included) rather than NaN; a decel·dt² that
// overflows gives dist/dt (n = 0), as an infinite decel does.
func BrakingSpeed(dist, decel, dt float64) float64 {
	if dist <= 0 || !(decel > 0) || !(dt > 0) {
		return 0
	}
	if math.IsInf(decel, 1) { // no limit: the whole distance in one step
		return dist / dt
	}
	adt := decel * dt
	if math.IsInf(adt*dt, 1) { // dist < a·dt²: the whole distance in one step (n = 0)
		return dist / dt
	}
	d := dist / (adt * dt)
	if !(8*d <= math.MaxFloat64) { // n overflows: the kinematic limit, the same to float64 precision this far
		return math.Sqrt(2*decel) * math.Sqrt(dist)
	}
	n := math.Floor((math.Sqrt(1+float64(8*d)) - 1) / 2)
	f := (d - float64(n*(n+1)/2)) / (n + 1)
	if f >= 1 { // rounding at the edge between n and n+1
		n++
		f = (d - float64(n*(n+1)/2)) / (n + 1)
	}
	return (n + max(f, 0)) * adt
}

// Separation returns a force pushing pos away from the neighbours within
// radius (cells): each neighbour at distance d contributes (radius−d)/radius
// along the direction away from it, so the push grows linearly to 1 as the
// neighbour gets closer. The sum is scaled by maxForce and truncated to it.
//
// A neighbour at exactly pos (coincident agents) pushes along a direction
// derived from its index in neighbours and the salt (e.g. the agent's own
// ID), so two coincident agents with different salts are pushed apart
// deterministically. Neighbours farther than radius are ignored; pass the
// agent's own position in neighbours and it pushes along the fallback too, so
// callers should leave it out.
func Separation(pos r2.Vec, neighbours []r2.Vec, radius, maxForce float64, salt uint64) r2.Vec {
	if radius <= 0 {
		return r2.Vec{}
	}
	var sum r2.Vec
	for i, q := range neighbours {
		d := r2.Sub(pos, q)
		n := norm(d)
		if n >= radius {
			continue
		}
		w := (radius - n) / radius
		if n == 0 {
			f := SeparationFallback(salt, i)
			sum = r2.Add(sum, r2.Vec{X: float64(w * f.X), Y: float64(w * f.Y)})
			continue
		}
		sum = addScaled(sum, w/n, d)
	}
	return Truncate(r2.Scale(maxForce, sum), maxForce)
}

// SeparationFallback returns the unit direction along which [Separation]
// pushes an agent away from its i-th neighbour (0-based, in the order given)
// when both stand at the same point: an angle drawn from salt+i. A caller
// that fuses the neighbour query with the separation sum uses it to give the
// same force.
func SeparationFallback(salt uint64, i int) r2.Vec {
	a := float64(float64(mix(salt+uint64(i))>>11)/(1<<53)) * 2 * math.Pi // (x·2 compiles to x+x)
	return r2.Vec{X: detmath.Cos(a), Y: detmath.Sin(a)}
}

// Truncate returns v scaled down to length max if it is longer. A NaN or
// infinite v, or a max that is not positive (or NaN), yields the zero vector;
// an infinite max returns v.
//
// A v no longer than max (the common case) is returned after comparing its
// squared length with max², without a square root: the rounded square root
// is monotonic and gives back exactly max from the rounded max² (binary
// floating point, round to nearest, when max² is neither subnormal nor
// infinite), so the test agrees with |v| ≤ max to the bit; the other cases
// take the square root.
//
// When max and |v| both lie in [2⁻⁵⁰⁰, 2⁵⁰⁰] a longer v becomes (max/|v|)·v,
// each step rounded to nearest: its exact length is max to within a few units in
// the last place of max, either side (the bits every scenario's state hash is
// made of). Outside that range, where squared lengths underflow or overflow (a
// subnormal or tiny max, forces past about 1e154), v is scaled by a power of two
// into range first and the result rounded towards zero: its exact length never
// exceeds max and is max·(1 − 2⁻⁴⁸) or more, as far as the result's precision
// allows (a subnormal max leaves few bits: a direction that cannot be kept within
// max loses a component, down to the zero vector).
func Truncate(v r2.Vec, max float64) r2.Vec {
	if s := float64(v.X*v.X) + float64(v.Y*v.Y); max >= 0x1p-500 && max <= 0x1p500 && s <= max*max {
		return v // s ≤ max² is finite, and so is v
	}
	if !finite(v) || !(max > 0) {
		return r2.Vec{}
	}
	if math.IsInf(max, 1) {
		return v
	}
	n := norm(v)
	if max >= 0x1p-500 && max <= 0x1p500 && n >= 0x1p-500 && n <= 0x1p500 {
		if n > max {
			return r2.Scale(max/n, v)
		}
		return v
	}
	return truncateWide(v, max)
}

// truncateWide is Truncate for a finite v and a finite max > 0 where squared
// lengths leave the float64 range: v and max are scaled by powers of two (exact)
// to about 1, and the result scaled back rounding towards zero.
func truncateWide(v r2.Vec, max float64) r2.Vec {
	big := math.Max(math.Abs(v.X), math.Abs(v.Y))
	if big == 0 {
		return v
	}
	const keep = 1 - 0x1p-48 // covers the roundings of n and of the products below
	_, ev := math.Frexp(big)
	fm, em := math.Frexp(max) // max = fm·2^em, fm in [0.5, 1)
	if em-ev >= 3 {
		return v // |v| < 2^(ev+1) ≤ 2^(em−2) < max
	}
	vs := r2.Vec{X: math.Ldexp(v.X, -ev), Y: math.Ldexp(v.Y, -ev)} // largest in [0.5, 1)
	n := norm(vs)
	if em-ev > -3 && n <= math.Ldexp(fm, em-ev)*keep {
		return v
	}
	u := scaled(keep/n, vs) // |u| < 1 exactly
	return r2.Vec{X: scaleDown(float64(fm*u.X), em), Y: scaleDown(float64(fm*u.Y), em)}
}

// scaleDown returns q·2^e rounded towards zero.
func scaleDown(q float64, e int) float64 {
	r := math.Ldexp(q, e)
	if math.Abs(math.Ldexp(r, -e)) > math.Abs(q) {
		r = math.Nextafter(r, 0)
	}
	return r
}

// Integrate advances one explicit Euler step of dt seconds: the force is
// truncated to maxForce, vel += force·dt is clamped to maxSpeed, and
// pos += vel·dt. It returns the new position and velocity. A NaN or infinite
// velocity or force is treated as zero, so bad input stops the agent rather
// than poisoning its position. With dt ≤ 0 (or NaN) nothing moves and the
// velocity is only sanitised.
func Integrate(pos, vel, force r2.Vec, maxSpeed, maxForce, dt float64) (r2.Vec, r2.Vec) {
	if !(dt > 0) {
		if !finite(vel) {
			vel = r2.Vec{}
		}
		return pos, vel
	}
	if !finite(vel) {
		vel = r2.Vec{}
	}
	vel = Truncate(addScaled(vel, dt, Truncate(force, maxForce)), maxSpeed)
	return addScaled(pos, dt, vel), vel
}

func finite(v r2.Vec) bool {
	return !math.IsNaN(v.X) && !math.IsNaN(v.Y) && !math.IsInf(v.X, 0) && !math.IsInf(v.Y, 0)
}

// norm is the Euclidean length of v. Unlike r2.Norm (math.Hypot) it does not
// guard against overflow, which cannot happen at map scale, and is several
// times faster.
//
// Each square is rounded on its own: the explicit float64 conversions forbid
// the compiler to fuse a product into the sum (a fused multiply-add, one
// rounding fewer: the Go spec's rule), which a build for a CPU with FMA
// (GOAMD64=v3, arm64) would otherwise do, so every build gives the bits of
// the default one. The same holds for every float64(a*b) in this package
// (TestExactBitsOnEveryBuild pins them; .ci/nofma lists any fused site).
func norm(v r2.Vec) float64 { return math.Sqrt(float64(v.X*v.X) + float64(v.Y*v.Y)) }

// addScaled is r2.Add(p, r2.Scale(f, q)) with each product rounded (see norm).
func addScaled(p r2.Vec, f float64, q r2.Vec) r2.Vec {
	return r2.Vec{X: p.X + float64(f*q.X), Y: p.Y + float64(f*q.Y)}
}

// scaled is r2.Scale(f, q) with each product rounded (see norm).
func scaled(f float64, q r2.Vec) r2.Vec { return r2.Vec{X: float64(f * q.X), Y: float64(f * q.Y)} }

// dot is r2.Dot with each product rounded (see norm).
func dot(p, q r2.Vec) float64 { return float64(p.X*q.X) + float64(p.Y*q.Y) }
