package steer

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// The rules as they were before issue 11's shortcuts (math.Min, the square
// root in every Truncate, BrakingSpeed in every Arrive).
// Outside the range where squared lengths stay finite and normal it is Truncate's own
// rule (TestTruncateTinyAndHugeLimits checks it).
func plainTruncate(v r2.Vec, max float64) r2.Vec {
	if wide(v, max) {
		return Truncate(v, max)
	}
	n := math.Sqrt(float64(v.X*v.X) + float64(v.Y*v.Y))
	if math.IsNaN(n) || math.IsInf(n, 0) || !(max > 0) {
		return r2.Vec{}
	}
	if n > max && n > 0 {
		return r2.Scale(max/n, v)
	}
	return v
}

func plainArrive(pos, vel, target r2.Vec, maxSpeed, maxForce, arrived, dt float64) r2.Vec {
	if dt <= 0 {
		return r2.Vec{}
	}
	d := r2.Sub(target, pos)
	dist := math.Sqrt(float64(d.X*d.X) + float64(d.Y*d.Y))
	var desired r2.Vec
	if dist > arrived {
		speed := math.Min(maxSpeed, math.Min(BrakingSpeed(dist, maxForce, dt), dist/dt))
		desired = r2.Scale(speed/dist, d)
	}
	return plainTruncate(r2.Scale(1/dt, r2.Sub(desired, vel)), maxForce)
}

// TestArriveAndTruncateSameBitsOnSpecialInputs: over NaN, infinite, huge,
// tiny, zero (both signs) and negative values in every argument, Arrive,
// and Truncate give the bits of the rules without the shortcuts (Arrive's
// far-away skip and Truncate's squared length), and BrakingSpeed is never NaN
// for a finite offset, a positive decel and a finite positive dt (a distance that overflows to
// +Inf included).
func TestArriveAndTruncateSameBitsOnSpecialInputs(t *testing.T) {
	sp := []float64{0, math.Copysign(0, -1), 1e-300, 1e-9, 0.5, 1, 3, 1e9, 1e200, 1e300, math.MaxFloat64,
		math.Inf(1), math.Inf(-1), math.NaN(), -2}
	fb := func(x float64) uint64 { // NaN payloads aside (math.Max and max differ in them)
		if math.IsNaN(x) {
			return math.Float64bits(math.NaN())
		}
		return math.Float64bits(x)
	}
	bits := func(v r2.Vec) [2]uint64 { return [2]uint64{fb(v.X), fb(v.Y)} }
	r := NewRand(77)
	pick := func() float64 {
		if r.Intn(3) == 0 {
			return (r.Float64() - 0.3) * math.Ldexp(1, r.Intn(80)-40)
		}
		return sp[r.Intn(len(sp))]
	}
	for range 150000 {
		pos, vel, target := r2.Vec{X: pick(), Y: pick()}, r2.Vec{X: pick(), Y: pick()}, r2.Vec{X: pick(), Y: pick()}
		maxSpeed, maxForce, arrived, dt := pick(), pick(), pick(), pick()
		require.Equal(t, bits(plainArrive(pos, vel, target, maxSpeed, maxForce, arrived, dt)),
			bits(Arrive(pos, vel, target, maxSpeed, maxForce, arrived, dt)),
			"Arrive(%v, %v, %v, %v, %v, %v, %v)", pos, vel, target, maxSpeed, maxForce, arrived, dt)
		require.Equal(t, bits(plainTruncate(vel, maxForce)), bits(Truncate(vel, maxForce)), "Truncate(%v, %v)", vel, maxForce)
		if d := r2.Sub(target, pos); finite(d) && maxForce > 0 && dt > 0 && dt <= math.MaxFloat64 {
			dist := math.Sqrt(float64(d.X*d.X) + float64(d.Y*d.Y)) // may overflow to +Inf
			require.False(t, math.IsNaN(BrakingSpeed(dist, maxForce, dt)), "BrakingSpeed(%v, %v, %v)", dist, maxForce, dt)
		}
	}
}

// TestBrakingSpeedAtOverflow: the cases the fuzz above found. A distance
// too large for the step count gave NaN (so Arrive's full rule desired a
// NaN speed and returned no force, while its far-away shortcut returned
// maxSpeed's); a decel·dt² that overflows gave 0 instead of dist/dt; and
// farToBrake took +Inf ≥ +Inf for proof that the agent is far.
func TestBrakingSpeedAtOverflow(t *testing.T) {
	assert.Equal(t, math.Inf(1), BrakingSpeed(math.Inf(1), 3, 1))
	kin := math.Sqrt(6) * math.Sqrt(1e308)
	assert.InDelta(t, kin, BrakingSpeed(1e308, 3, 1e-10), 1e-12*kin, "the kinematic limit, not NaN")
	assert.Equal(t, 1e10/1.72e7, BrakingSpeed(1e10, 1e300, 1.72e7), "dist < a·dt²: one step")
	assert.False(t, farToBrake(1e10, 1e200, 1e300, 1e-200), "the bound overflows: not surely far")
	assert.Less(t, BrakingSpeed(1e10, 1e300, 1e-200), 1e200, "indeed")
	pos, target := r2.Vec{}, r2.Vec{X: 1e155, Y: 1e155} // |target − pos| overflows
	assert.Equal(t, plainArrive(pos, r2.Vec{X: 1}, target, 5, 10, 0.1, 1.0/60), Arrive(pos, r2.Vec{X: 1}, target, 5, 10, 0.1, 1.0/60))
}
