package steer

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

func TestArriveSettlesWithoutOvershoot(t *testing.T) {
	const (
		maxSpeed = 4.0
		maxForce = 10.0
		dt       = 1.0 / 60
	)
	for _, start := range []r2.Vec{{X: 0, Y: 0}, {X: 20, Y: 3}, {X: 10.2, Y: 10}, {X: 10, Y: 10}} {
		target := r2.Vec{X: 10, Y: 10}
		pos, vel := start, r2.Vec{}
		dir := r2.Sub(target, start)
		settled := -1
		for i := range 600 {
			f := Arrive(pos, vel, target, maxSpeed, maxForce, 1e-3, dt)
			require.LessOrEqual(t, r2.Norm(f), maxForce+1e-9)
			pos, vel = Integrate(pos, vel, f, maxSpeed, maxForce, dt)
			// never past the target along the approach direction
			assert.GreaterOrEqual(t, r2.Dot(r2.Sub(target, pos), dir), -1e-9, "overshoot at step %d from %v", i, start)
			if settled < 0 && r2.Norm(r2.Sub(target, pos)) < 1e-3 && r2.Norm(vel) == 0 {
				settled = i
			}
		}
		require.GreaterOrEqual(t, settled, 0, "never settled from %v", start)
		assert.InDelta(t, target.X, pos.X, 1e-3)
		assert.InDelta(t, target.Y, pos.Y, 1e-3)
		assert.Equal(t, r2.Vec{}, vel, "no jitter once arrived")
	}
}

func TestArriveAtTargetIsZero(t *testing.T) {
	f := Arrive(r2.Vec{X: 1, Y: 1}, r2.Vec{}, r2.Vec{X: 1, Y: 1}, 3, 5, 1e-3, 1.0/60)
	assert.Equal(t, r2.Vec{}, f)
	assert.Equal(t, r2.Vec{}, Arrive(r2.Vec{}, r2.Vec{X: 1}, r2.Vec{X: 5}, 3, 5, 1e-3, 0))
}

func TestBrakingSpeedStopsExactly(t *testing.T) {
	// From v = BrakingSpeed(d), braking by a·dt each step (the last step at
	// whatever speed is left) covers exactly d, for any d.
	a, dt := 8.0, 0.1
	assert.InDelta(t, 5*a*dt, BrakingSpeed(a*dt*dt*5*6/2, a, dt), 1e-12, "k = 5 exactly")
	for _, d := range []float64{0.0001, 0.05, 0.08, 0.7777, 3.3, 41} {
		v := BrakingSpeed(d, a, dt)
		covered := 0.0
		for v > 1e-12 {
			covered += float64(v * dt)
			next := BrakingSpeed(d-covered, a, dt)
			require.LessOrEqual(t, v-next, a*dt+1e-9, "braking within decel at d=%v", d)
			v = next
		}
		assert.InDelta(t, d, covered, 1e-9)
	}
	assert.Equal(t, 0.0, BrakingSpeed(0, a, dt))
}

func TestSeek(t *testing.T) {
	// desired velocity (3, 4) reached within one step of 0.5 s: force (6, 8)
	f := Seek(r2.Vec{}, r2.Vec{}, r2.Vec{X: 3, Y: 4}, 5, 100, 0.5)
	assert.InDelta(t, 6, f.X, 1e-12)
	assert.InDelta(t, 8, f.Y, 1e-12)
	f = Seek(r2.Vec{}, r2.Vec{X: 1}, r2.Vec{}, 5, 100, 0.5)
	assert.Equal(t, r2.Vec{X: -2}, f, "at the target seek brakes")
	f = Seek(r2.Vec{}, r2.Vec{}, r2.Vec{X: 100}, 5, 2, 0.5)
	assert.InDelta(t, 2, r2.Norm(f), 1e-12, "truncated to maxForce")
	assert.Equal(t, r2.Vec{}, Seek(r2.Vec{}, r2.Vec{}, r2.Vec{X: 1}, 5, 2, 0))
}

func TestSeparation(t *testing.T) {
	// one neighbour at distance 0.5 of radius 1 to the right: push left with weight 0.5
	f := Separation(r2.Vec{}, []r2.Vec{{X: 0.5}}, 1, 4, 0)
	assert.InDelta(t, -2, f.X, 1e-12)
	assert.InDelta(t, 0, f.Y, 1e-12)
	// symmetric neighbours cancel; one outside the radius is ignored
	f = Separation(r2.Vec{}, []r2.Vec{{X: 0.5}, {X: -0.5}, {Y: 3}}, 1, 4, 0)
	assert.InDelta(t, 0, r2.Norm(f), 1e-12)
	// coincident agents with different salts are pushed apart, deterministically
	a := Separation(r2.Vec{}, []r2.Vec{{}}, 1, 4, 1)
	b := Separation(r2.Vec{}, []r2.Vec{{}}, 1, 4, 2)
	assert.InDelta(t, 4, r2.Norm(a), 1e-9)
	assert.NotEqual(t, a, b)
	assert.Equal(t, a, Separation(r2.Vec{}, []r2.Vec{{}}, 1, 4, 1))
}

func TestIntegrateClampsAndRejectsNaN(t *testing.T) {
	pos, vel := Integrate(r2.Vec{}, r2.Vec{X: 3}, r2.Vec{X: 100}, 4, 10, 0.5)
	assert.InDelta(t, 4, vel.X, 1e-12, "clamped to max speed")
	assert.InDelta(t, 2, pos.X, 1e-12)
	pos, vel = Integrate(r2.Vec{X: 1}, r2.Vec{X: math.NaN()}, r2.Vec{Y: math.Inf(1)}, 4, 10, 0.5)
	assert.Equal(t, r2.Vec{X: 1}, pos)
	assert.Equal(t, r2.Vec{}, vel)
}

func TestRandReplays(t *testing.T) {
	a, b := NewRand(42), NewRand(42)
	for range 100 {
		x := a.Float64()
		require.Equal(t, x, b.Float64())
		require.True(t, x >= 0 && x < 1)
	}
	assert.Equal(t, 0, a.Intn(0))
}

func TestEdgeInputs(t *testing.T) {
	assert.Equal(t, r2.Vec{}, Truncate(r2.Vec{X: 3}, -1), "a negative limit does not reverse the force")
	assert.InDelta(t, 6, BrakingSpeed(0.1, math.Inf(1), 1.0/60), 1e-9, "no force limit: the whole distance in one step")
	f := Arrive(r2.Vec{}, r2.Vec{}, r2.Vec{X: 1}, 2, math.Inf(1), 1e-3, 0.5)
	assert.Greater(t, f.X, 0.0, "an unlimited force still moves the agent")
	p, v := Integrate(r2.Vec{X: 1}, r2.Vec{X: 2}, r2.Vec{X: 5}, 3, 10, 0)
	assert.Equal(t, r2.Vec{X: 1}, p, "dt 0 moves nothing")
	assert.Equal(t, r2.Vec{X: 2}, v)
}

func TestBrake(t *testing.T) {
	assert.Equal(t, r2.Vec{X: -2}, Brake(r2.Vec{X: 1}, 10, 0.5), "stops within the step")
	assert.InDelta(t, 1, r2.Norm(Brake(r2.Vec{X: 10}, 1, 0.5)), 1e-12, "as far as the force allows")
	assert.Equal(t, r2.Vec{}, Brake(r2.Vec{X: 1}, 10, 0))
}

// TestTruncateMatchesSquareRootRule: Truncate's squared-length shortcut gives
// the same bits as the plain rule (|v| by the square root, scaled when it
// exceeds max) over random vectors near the limit, lengths equal to max,
// and edge values (zeros of both signs, NaN, infinities, tiny and huge max).
func TestTruncateMatchesSquareRootRule(t *testing.T) {
	plain := func(v r2.Vec, max float64) r2.Vec {
		if wide(v, max) { // the exact rule for tiny and huge lengths
			require.False(t, exactOver(Truncate(v, max), max), "Truncate(%v, %v)", v, max)
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
	bits := func(v r2.Vec) [2]uint64 { return [2]uint64{math.Float64bits(v.X), math.Float64bits(v.Y)} }
	r := NewRand(4)
	edges := []float64{0, math.Copysign(0, -1), 1e-300, 0x1p-500, 0x1p-501, 1e-160, 1, 20, 0x1p500, 0x1p501, 1e200,
		math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN(), -3}
	for _, m := range edges {
		for _, x := range edges {
			for _, y := range edges {
				v := r2.Vec{X: x, Y: y}
				require.Equal(t, bits(plain(v, m)), bits(Truncate(v, m)), "Truncate(%v, %v)", v, m)
			}
		}
	}
	shortcut := 0
	for range 200000 {
		m := math.Ldexp(1+r.Float64(), r.Intn(40)-20)
		a := r.Float64() * 2 * math.Pi
		l := m * (1 + float64((r.Float64()-0.5)*1e-15*float64(r.Intn(4)))) // at the limit, to a few ulps
		if r.Intn(2) == 0 {
			l = m * 2 * r.Float64()
		}
		v := r2.Vec{X: l * math.Cos(a), Y: l * math.Sin(a)}
		if r.Intn(8) == 0 { // exactly max along an axis
			v = r2.Vec{X: m}
		}
		require.Equal(t, bits(plain(v, m)), bits(Truncate(v, m)), "Truncate(%v, %v)", v, m)
		if v.X*v.X+v.Y*v.Y <= m*m {
			shortcut++
		}
	}
	assert.Greater(t, shortcut, 50000, "the shortcut is exercised")
}

// TestArriveFarMatchesBrakingRule: Arrive's shortcut for agents far from
// the target (farToBrake) gives the full rule's force to the bit, around the
// distance where braking starts to matter and far from it.
func TestArriveFarMatchesBrakingRule(t *testing.T) {
	full := func(pos, vel, target r2.Vec, maxSpeed, maxForce, arrived, dt float64) r2.Vec {
		d := r2.Sub(target, pos)
		dist := norm(d)
		var desired r2.Vec
		if dist > arrived {
			speed := min(maxSpeed, min(BrakingSpeed(dist, maxForce, dt), dist/dt))
			desired = r2.Scale(speed/dist, d)
		}
		return Truncate(r2.Scale(1/dt, r2.Sub(desired, vel)), maxForce)
	}
	bits := func(v r2.Vec) [2]uint64 { return [2]uint64{math.Float64bits(v.X), math.Float64bits(v.Y)} }
	r := NewRand(12)
	far := 0
	for range 200000 {
		maxSpeed := 0.5 + float64(r.Float64()*8) // rounded, as the library's sums: the same cases on every build
		maxForce := 1 + float64(r.Float64()*40)
		dt := []float64{1.0 / 60, 1.0 / 30, 0.1, 0.5 * r.Float64()}[r.Intn(4)]
		switch r.Intn(20) {
		case 0:
			maxForce = math.Inf(1)
		case 1:
			maxSpeed = 0
		}
		h := maxSpeed + float64(maxForce*dt/2)
		edge := h * h / (2 * maxForce) // farToBrake's bound
		dist := edge * (0.5 + r.Float64())
		if r.Intn(4) == 0 {
			dist = edge * (1 + float64((r.Float64()-0.5)*1e-8))
		}
		if math.IsInf(maxForce, 1) || r.Intn(10) == 0 {
			dist = r.Float64() * 3
		}
		a := r.Float64() * 2 * math.Pi
		pos := r2.Vec{X: 5, Y: -2}
		target := r2.Add(pos, r2.Vec{X: float64(dist * math.Cos(a)), Y: float64(dist * math.Sin(a))})
		vel := r2.Vec{X: (r.Float64() - 0.5) * 2 * maxSpeed, Y: (r.Float64() - 0.5) * 2 * maxSpeed}
		want := full(pos, vel, target, maxSpeed, maxForce, 1e-3, dt)
		got := Arrive(pos, vel, target, maxSpeed, maxForce, 1e-3, dt)
		require.Equal(t, bits(want), bits(got), "maxSpeed %v maxForce %v dt %v dist %v", maxSpeed, maxForce, dt, dist)
		if farToBrake(norm(r2.Sub(target, pos)), maxSpeed, maxForce, dt) {
			far++
		}
	}
	assert.Greater(t, far, 50000, "the shortcut is exercised")
}
