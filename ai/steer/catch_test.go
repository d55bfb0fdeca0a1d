package steer

import (
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// Catch closes on a standing target and stops standoff cells from it, with no
// overshoot; on a target walking away slower than it, it keeps pace at the
// standoff; far off it is Pursue, to the bit.
func TestCatch(t *testing.T) {
	const dt, maxSpeed, maxForce, standoff = 1.0 / 60, 4.0, 20.0, 0.7
	pos, vel, target := r2.Vec{X: 0, Y: 0}, r2.Vec{}, r2.Vec{X: 10, Y: 0}
	closest := 10.0
	for range 600 {
		f := Catch(pos, vel, target, r2.Vec{}, standoff, maxSpeed, maxForce, 2, dt)
		vel = Truncate(r2.Add(vel, r2.Scale(dt, f)), maxSpeed)
		pos = r2.Add(pos, r2.Scale(dt, vel))
		closest = min(closest, r2.Norm(r2.Sub(target, pos)))
	}
	require.InDelta(t, standoff, r2.Norm(r2.Sub(target, pos)), 1e-3, "at the standoff")
	require.GreaterOrEqual(t, closest, standoff-1e-3, "no overshoot")
	require.Less(t, r2.Norm(vel), 1e-3, "at rest beside a standing target")

	// a target walking away at 2 cells/s: caught up with and kept pace with
	pos, vel, target = r2.Vec{}, r2.Vec{}, r2.Vec{X: 5, Y: 0}
	tv := r2.Vec{X: 2, Y: 0}
	for range 600 {
		f := Catch(pos, vel, target, tv, standoff, maxSpeed, maxForce, 2, dt)
		vel = Truncate(r2.Add(vel, r2.Scale(dt, f)), maxSpeed)
		pos = r2.Add(pos, r2.Scale(dt, vel))
		target = r2.Add(target, r2.Scale(dt, tv))
	}
	require.InDelta(t, standoff, r2.Norm(r2.Sub(target, pos)), 1e-2, "keeps pace at the standoff")
	require.InDelta(t, 2, vel.X, 1e-3)

	// a target coming at it: it holds its ground (no force away from the
	// target), braking what closing speed it has
	f := Catch(r2.Vec{}, r2.Vec{}, r2.Vec{X: 0.7, Y: 0}, r2.Vec{X: -2, Y: 0}, standoff, maxSpeed, maxForce, 2, dt)
	require.Equal(t, r2.Vec{}, f, "standing: stays")
	f = Catch(r2.Vec{}, r2.Vec{X: 1, Y: 0}, r2.Vec{X: 0.7, Y: 0}, r2.Vec{X: -2, Y: 0}, standoff, maxSpeed, maxForce, 2, dt)
	require.InDelta(t, -maxForce, f.X, 1e-9, "brakes")

	// far off: Pursue's force
	p, v, tp, tvel := r2.Vec{X: 1, Y: 2}, r2.Vec{X: 0.5, Y: 0}, r2.Vec{X: 30, Y: 9}, r2.Vec{X: -1, Y: 0.5}
	require.Equal(t, Pursue(p, v, tp, tvel, maxSpeed, maxForce, 2, dt), Catch(p, v, tp, tvel, standoff, maxSpeed, maxForce, 2, dt))
	require.Equal(t, r2.Vec{}, Catch(p, v, tp, tvel, standoff, maxSpeed, maxForce, 2, 0), "dt 0")
}
