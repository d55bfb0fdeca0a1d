package steer

import (
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A target running at its pursuer, faster than it, is predicted between the
// two, and Pursue steers the pursuer towards it (a newcomer's stealth game:
// with T = distance/speed the target was predicted at {86.84 41}, behind the
// pursuer at 86.4, and Pursue's force {20 0} pointed away from it; guards
// whose view followed their heading flipped between chase and investigate 38
// times in one run). A target moving away or across is predicted as before,
// after distance/speed seconds, to the bit.
func TestPredictATargetComingHeadOnBetweenThem(t *testing.T) {
	from, pos, vel := r2.Vec{X: 86.4, Y: 41}, r2.Vec{X: 81.3, Y: 41}, r2.Vec{X: 3.8}
	p := Predict(from, pos, vel, 3.5, 2)
	require.Greater(t, p.X, pos.X, "ahead of the target")
	require.Less(t, p.X, from.X, "short of the pursuer: %v", p)
	require.InDelta(t, 81.3+3.8*5.1/(3.5+3.8), p.X, 1e-9, "where they meet: after 5.1/(3.5+3.8) s")
	f := Pursue(from, r2.Vec{}, pos, vel, 3.5, 20, 2, 1.0/60)
	require.Less(t, f.X, 0.0, "Pursue's force towards the target: %v", f)

	// as fast as the pursuer, and standing pursuers (speed 0): never beyond it
	for _, speed := range []float64{3.8, 0} {
		p := Predict(from, pos, vel, speed, 2)
		require.True(t, p.X > pos.X && p.X <= from.X, "speed %v: %v", speed, p)
	}
	// away and across: distance/speed, capped at maxLead
	away := Predict(from, pos, r2.Vec{X: -3.8}, 3.5, 2)
	require.InDelta(t, 81.3-3.8*(5.1/3.5), away.X, 1e-9)
	require.Equal(t, 41.0, away.Y)
	require.Equal(t, r2.Vec{X: 81.3, Y: 41 + 3.8*2}, Predict(r2.Vec{X: 91.3, Y: 41}, pos, r2.Vec{Y: 3.8}, 3.5, 2))
}

// A pursuer holds its ground before a target coming at it and, once the
// target is within the standoff, gives way at the target's speed: simulated
// head-on (the target walking on at 4 cells/s whatever is in its way, the
// pursuer by Catch at 4 cells/s and 20 cells/s²), the two never pass through
// each other; the pursuer stands when the target reaches it and is pushed
// ahead of it at its pace, 0.3 cells apart: the target's 4 cells/s take the
// pursuer 0.2 s to match, in which 0.4 cells of the standoff go (Steer's
// separation brings the pair back apart: systems'
// TestATargetWalkingAtItsPursuerDoesNotPassThroughIt). With the pursuer
// braking for its own speed only and holding its ground, the target walked
// through it.
func TestCatchATargetComingHeadOnDoesNotOverrunThePursuer(t *testing.T) {
	const dt, maxSpeed, maxForce, standoff = 1.0 / 60, 4.0, 20.0, 0.7
	pos, vel := r2.Vec{X: 20}, r2.Vec{}
	target, tv := r2.Vec{}, r2.Vec{X: 4}
	closest, speedAtContact, reached := 20.0, 0.0, false
	for range 600 {
		if pos.X-target.X <= standoff && !reached {
			speedAtContact, reached = vel.X, true
		}
		f := Catch(pos, vel, target, tv, standoff, maxSpeed, maxForce, 2, dt)
		vel = Truncate(r2.Add(vel, r2.Scale(dt, f)), maxSpeed)
		pos = r2.Add(pos, r2.Scale(dt, vel))
		target = r2.Add(target, r2.Scale(dt, tv))
		closest = min(closest, pos.X-target.X)
	}
	require.Greater(t, closest, 0.25, "the target did not overrun the pursuer")
	require.True(t, reached)
	require.InDelta(t, 0, speedAtContact, 1e-9, "the pursuer stood when the target reached it")
	require.InDelta(t, 4, vel.X, 1e-9, "pushed ahead at the target's pace")
	require.InDelta(t, closest, pos.X-target.X, 1e-9, "no nearer than the push brought them")
}
