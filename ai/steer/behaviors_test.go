package steer

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

const dt = 1.0 / 60

func TestFlee(t *testing.T) {
	f := Flee(r2.Vec{X: 1}, r2.Vec{}, r2.Vec{}, 2, 1000, math.Inf(1), 0.5)
	assert.InDelta(t, 4, f.X, 1e-12, "desired (2,0) within 0.5 s")
	assert.Equal(t, r2.Vec{}, Flee(r2.Vec{X: 5}, r2.Vec{}, r2.Vec{}, 2, 10, 3, dt), "beyond the panic distance")
	assert.Equal(t, r2.Vec{}, Flee(r2.Vec{}, r2.Vec{}, r2.Vec{}, 2, 10, 3, dt), "coincident: no direction")
}

func TestPursueInterceptsWhereSeekTrails(t *testing.T) {
	// target crosses in front at 2 cells/s; pursuer is faster (3 cells/s)
	run := func(pursue bool) (int, float64) {
		pos, vel := r2.Vec{}, r2.Vec{}
		tp, tv := r2.Vec{X: 10, Y: -5}, r2.Vec{Y: 2}
		closest := math.Inf(1)
		for i := range 1200 {
			var f r2.Vec
			if pursue {
				f = Pursue(pos, vel, tp, tv, 3, 20, 3, dt)
			} else {
				f = Seek(pos, vel, tp, 3, 20, dt)
			}
			pos, vel = Integrate(pos, vel, f, 3, 20, dt)
			tp = r2.Add(tp, r2.Scale(dt, tv))
			d := norm(r2.Sub(tp, pos))
			closest = math.Min(closest, d)
			if d < 0.25 {
				return i, d
			}
		}
		return -1, closest
	}
	pf, _ := run(true)
	sf, _ := run(false)
	require.GreaterOrEqual(t, pf, 0, "pursuit never caught the target")
	assert.True(t, sf < 0 || pf < sf, "pursuit (%d frames) intercepts sooner than seek (%d)", pf, sf)
	assert.Less(t, pf, 420, "caught within 7 s")
}

func TestEvadeMovesAwayFromPrediction(t *testing.T) {
	// threat to the left moving up: evade flees its predicted position (up-left)
	f := Evade(r2.Vec{}, r2.Vec{}, r2.Vec{X: -2}, r2.Vec{Y: 2}, 2, 100, 1, 10, 1)
	assert.Greater(t, f.X, 0.0)
	assert.Less(t, f.Y, 0.0, "away from where the threat will be")
}

func TestFollowPathVisitsInOrderAndStopsAtTheEnd(t *testing.T) {
	wps := []r2.Vec{{X: 0, Y: 0}, {X: 5, Y: 0}, {X: 5, Y: 5}, {X: 0, Y: 5}}
	pos, vel := r2.Vec{X: 0.1}, r2.Vec{}
	next := 0
	visited := []int{}
	for range 1200 {
		var f r2.Vec
		prev := next
		f, next = FollowPath(pos, vel, wps, next, 0.5, 3, 20, dt)
		if next != prev {
			visited = append(visited, next)
		}
		pos, vel = Integrate(pos, vel, f, 3, 20, dt)
		// never cuts the corner at (5,0): while heading for (5,5) it is right of x = 4.4
		if next == 2 {
			require.Greater(t, pos.X, 4.4, "cut the corner at %v", pos)
		}
	}
	assert.Equal(t, []int{1, 2, 3}, visited)
	assert.InDelta(t, 0, pos.X, 1e-3)
	assert.InDelta(t, 5, pos.Y, 1e-3)
	assert.Equal(t, r2.Vec{}, vel, "stopped at the end of an open path")
	f, n := FollowPath(pos, r2.Vec{X: 1}, nil, 0, 0.5, 3, 20, dt)
	assert.Equal(t, 0, n)
	assert.Less(t, f.X, 0.0, "no path: brake")
}

func TestFollowFlowAlignment(t *testing.T) {
	f := FollowFlow(r2.Vec{}, r2.Vec{X: 0, Y: 10}, 2, 1000, 0.5)
	assert.InDelta(t, 4, f.Y, 1e-12)
	assert.Equal(t, r2.Vec{X: -2}, FollowFlow(r2.Vec{X: 1}, r2.Vec{}, 2, 1000, 0.5), "no direction: brake")
	a := Alignment(r2.Vec{}, []r2.Vec{{X: 2}, {Y: 2}}, 1000, 0.5)
	assert.InDelta(t, 2, a.X, 1e-12)
	assert.InDelta(t, 2, a.Y, 1e-12)
	assert.Equal(t, r2.Vec{}, Alignment(r2.Vec{X: 1}, nil, 10, dt))
	c := Cohesion(r2.Vec{}, r2.Vec{}, []r2.Vec{{X: 2, Y: 2}, {X: 2, Y: -2}}, 1, 1000, 1)
	assert.InDelta(t, 1, c.X, 1e-12, "towards the centre (2, 0)")
	assert.InDelta(t, 0, c.Y, 1e-12)
}

func TestWanderIsSeededAndBounded(t *testing.T) {
	a, b := Wander{Distance: 2, Radius: 1, Jitter: 3}, Wander{Distance: 2, Radius: 1, Jitter: 3}
	ra, rb := NewRand(9), NewRand(9)
	vel := r2.Vec{X: 1}
	for range 500 {
		fa := a.Force(r2.Vec{}, vel, &ra, 2, 5, dt)
		fb := b.Force(r2.Vec{}, vel, &rb, 2, 5, dt)
		require.Equal(t, fa, fb)
		require.LessOrEqual(t, norm(fa), 5+1e-9)
		require.LessOrEqual(t, math.Abs(a.Angle), math.Pi+1e-9)
	}
	assert.NotZero(t, a.Angle)
}

func TestWallAvoidancePushesOffTheWall(t *testing.T) {
	wall := func(x, y int32) bool { return x >= 10 } // a wall from x = 10 on
	f := WallAvoidance(r2.Vec{X: 9, Y: 5.5}, r2.Vec{X: 2}, wall, 1, 1, math.Pi/4, 10)
	assert.Less(t, f.X, 0.0, "pushed back, away from the face at x = 10")
	assert.InDelta(t, 0, f.Y, 1e-9)
	assert.Equal(t, r2.Vec{}, WallAvoidance(r2.Vec{X: 2, Y: 5.5}, r2.Vec{X: 2}, wall, 1, 1, math.Pi/4, 10), "wall out of reach")
	g := WallAvoidance(r2.Vec{X: 9.5, Y: 5.5}, r2.Vec{X: 2}, wall, 1, 1, math.Pi/4, 10)
	assert.Greater(t, -g.X, -f.X, "closer is stronger")
	assert.Equal(t, r2.Vec{}, WallAvoidance(r2.Vec{X: 9, Y: 5}, r2.Vec{}, wall, 1, 1, math.Pi/4, 10))
}

func TestObstacleAvoidance(t *testing.T) {
	obs := []Circle{{Center: r2.Vec{X: 3, Y: 0.2}, Radius: 1}}
	f := ObstacleAvoidance(r2.Vec{}, r2.Vec{X: 2}, 0.3, obs, 2, 10)
	assert.Less(t, f.Y, 0.0, "obstacle slightly left of the heading: steer right")
	assert.InDelta(t, 0, f.X, 1e-12, "a lateral force")
	assert.Equal(t, r2.Vec{}, ObstacleAvoidance(r2.Vec{}, r2.Vec{X: 2}, 0.3, []Circle{{Center: r2.Vec{X: 3, Y: 3}, Radius: 1}}, 2, 10))
	assert.Equal(t, r2.Vec{}, ObstacleAvoidance(r2.Vec{}, r2.Vec{X: -2}, 0.3, obs, 2, 10), "behind the agent")
}

func TestAccumulatorPrioritises(t *testing.T) {
	acc := Accumulator{Max: 10}
	assert.True(t, acc.Add(r2.Vec{X: 6}, 1))
	// the second force gets only what is left of the budget: 10 − |(6, 0)| = 4
	assert.True(t, acc.Add(r2.Vec{Y: 100}, 1))
	assert.InDelta(t, 6, acc.Sum.X, 1e-9)
	assert.InDelta(t, 4, acc.Sum.Y, 1e-9)
	c := Accumulator{Max: 10}
	c.Add(r2.Vec{X: 6}, 1)
	assert.False(t, c.Add(r2.Vec{X: 50}, 0.5), "weighted 25, truncated to 4: budget spent")
	assert.InDelta(t, 10, c.Sum.X, 1e-9)
	assert.False(t, c.Add(r2.Vec{Y: 5}, 1), "budget spent: later forces are dropped")
	assert.Equal(t, r2.Vec{X: 10}, c.Sum)
	b := Accumulator{Max: 10}
	b.Add(r2.Vec{X: math.NaN()}, 1)
	assert.Equal(t, r2.Vec{}, b.Sum)
}

// The wander angle's drift over one second has a standard deviation of Jitter radians
// at 30, 60, 120 and 240 frames a second (a step of Jitter·dt, the form before, spread
// √8 times less at 240 Hz than at 30).
func TestWanderAngleDriftsAlikeAtAnyFrameRate(t *testing.T) {
	const n, jitter = 4000, 0.3
	for _, hz := range []int{30, 60, 120, 240} {
		dt := 1 / float64(hz)
		sum2 := 0.0
		for i := range n {
			w := Wander{Distance: 2, Radius: 1, Jitter: jitter}
			r := NewRand(uint64(i) + 1)
			for range hz {
				w.Force(r2.Vec{}, r2.Vec{X: 1}, &r, 2, 5, dt)
			}
			sum2 += w.Angle * w.Angle
		}
		assert.InDelta(t, jitter, math.Sqrt(sum2/n), 0.05*jitter, "%d Hz", hz)
	}
	w, r := Wander{Distance: 2, Radius: 1, Jitter: jitter, Angle: 0.5}, NewRand(1)
	for _, dt := range []float64{0, -1, math.NaN()} {
		assert.Equal(t, r2.Vec{}, w.Force(r2.Vec{}, r2.Vec{X: 1}, &r, 2, 5, dt), "dt %v", dt)
		assert.Equal(t, 0.5, w.Angle, "dt %v leaves the angle", dt)
	}
}

// ForceAlong with the heading of vel is Force, bit for bit, and advances the
// angle alike; with another heading the target turns with it.
func TestWanderForceAlongIsForceWithItsHeading(t *testing.T) {
	pos, vel := r2.Vec{X: 3, Y: 4}, r2.Vec{X: 0.6, Y: -0.8}
	a := Wander{Distance: 2, Radius: 1, Jitter: 0.3, Angle: 0.4}
	b := a
	ra, rb := NewRand(5), NewRand(5)
	fa := a.Force(pos, vel, &ra, 3, 20, 1.0/60)
	fb := b.ForceAlong(pos, vel, r2.Vec{X: 0.6, Y: -0.8}, &rb, 3, 20, 1.0/60)
	require.Equal(t, fa, fb)
	require.Equal(t, a.Angle, b.Angle)
	// at rest, heading −x (away from a wall on its east): the target, and the
	// force, point west
	c := Wander{Distance: 2, Radius: 1, Jitter: 0, Angle: 0.5}
	rc := NewRand(1)
	f := c.ForceAlong(pos, r2.Vec{}, r2.Vec{X: -1}, &rc, 3, 20, 1.0/60)
	require.Less(t, f.X, 0.0)
}
