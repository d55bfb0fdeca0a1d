package ecs

import (
	"math"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckedClockRefusesBadDT(t *testing.T) {
	cases := []struct {
		dt   float64
		want string // error message; "" for none
	}{
		{1.0 / 60, ""},
		{1e9, ""}, // absurd but finite: the systems cope (Movement cuts steps)
		{math.SmallestNonzeroFloat64, ""},
		{0, "ecs: clock step 0: dt must be a finite number of seconds > 0"},
		{-0.5, "ecs: clock step -0.5: dt must be a finite number of seconds > 0"},
		{math.NaN(), "ecs: clock step NaN: dt must be a finite number of seconds > 0"},
		{math.Inf(1), "ecs: clock step +Inf: dt must be a finite number of seconds > 0"},
		{math.Inf(-1), "ecs: clock step -Inf: dt must be a finite number of seconds > 0"},
	}
	for _, c := range cases {
		s, err := NewClockSystemChecked(c.dt)
		if c.want == "" {
			require.NoError(t, err, "dt %v", c.dt)
			w := arche.NewWorld()
			s.Initialize(&w)
			s.Update(&w)
			assert.Equal(t, c.dt, ClockOf(&w).DT)
			continue
		}
		assert.Nil(t, s)
		assert.EqualError(t, err, c.want)
		assert.ErrorIs(t, err, ErrDT)
		assert.ErrorIs(t, CheckDT(c.dt), ErrDT)
	}
}

// A game with a variable step sets ClockSystem.DT before each frame: the clock's
// time must be the sum of the steps so far, never going back or jumping (Time was
// Frame·DT of the current DT: 5 s at frame 6 became 30 s, then 0.12 s a frame later,
// and agents that thought at 30 s did not think again for 30 s).
func TestClockSystemVariableDT(t *testing.T) {
	w := arche.NewWorld()
	s := NewClockSystem(1.0 / 60)
	s.Initialize(&w)
	c := ClockOf(&w)
	steps := []float64{1.0 / 60, 1.0 / 30, 1.0 / 144, 0.25, 5, 1.0 / 60, 1e6, 1.0 / 60}
	sum := 0.0
	for i, dt := range steps {
		s.DT = dt
		s.Update(&w)
		assert.Equal(t, int64(i), c.Frame)
		assert.Equal(t, dt, c.DT, "frame %d", i)
		assert.InDelta(t, sum, c.Time, 1e-9*math.Max(1, sum), "frame %d: time is the sum of the steps before it", i)
		sum += dt
	}

	// A step CheckDT rejects is 1/60 for that frame, as at Initialize: time never stands
	// still, goes back or turns NaN.
	for _, dt := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		before := c.Time
		s.DT = dt
		s.Update(&w)
		assert.Equal(t, 1.0/60, c.DT, "dt %v", dt)
		assert.InDelta(t, before+steps[len(steps)-1], c.Time, 1e-6, "dt %v: time continues", dt)
		steps[len(steps)-1] = 1.0 / 60
	}
}

// A constant DT from frame 0 keeps Time exactly Frame·DT (no drift), and a world
// resumed with the same step continues at exactly Frame·DT; one resumed with another
// step continues from where its last frame ended.
func TestClockSystemConstantAndResumedDT(t *testing.T) {
	w := arche.NewWorld()
	s := NewClockSystem(0.1)
	s.Initialize(&w)
	for range 1000 {
		s.Update(&w)
	}
	c := ClockOf(&w)
	assert.Equal(t, 999*0.1, c.Time) // bit for bit: n·DT, not a sum

	s.Finalize(&w)
	s2 := NewClockSystem(0.1)
	s2.Initialize(&w)
	s2.Update(&w)
	assert.Equal(t, int64(1000), c.Frame)
	assert.Equal(t, 1000*0.1, c.Time)

	s2.Finalize(&w)
	s3 := NewClockSystem(0.5)
	s3.Initialize(&w)
	s3.Update(&w)
	assert.Equal(t, int64(1001), c.Frame)
	assert.InDelta(t, 100.1, c.Time, 1e-9, "the last frame started at 100 and lasted 0.1 s")
	s3.Update(&w)
	assert.InDelta(t, 100.6, c.Time, 1e-9)
}

// The program or a load may set the clock between two Updates: a level restarted on the
// same world (*clock = Clock{}), a save loaded into a world whose ClockSystem was
// initialized first. The next Update goes on from what the clock holds, as after an
// Initialize. Before, the ClockSystem overwrote it with its own count: the restart did
// not happen, and a world loaded at frame 300 went on at frame 0, time 0.
func TestClockSystemGoesOnFromAClockSetBetweenUpdates(t *testing.T) {
	w := arche.NewWorld()
	s := NewClockSystem(0.1)
	s.Initialize(&w)
	c := ClockOf(&w)
	for range 5 {
		s.Update(&w)
	}
	require.Equal(t, int64(4), c.Frame)

	*c = Clock{} // a level restart
	s.Update(&w)
	assert.Equal(t, Clock{Time: 0, DT: 0.1, Frame: 0, Started: true}, *c)
	s.Update(&w)
	assert.Equal(t, Clock{Time: 0.1, DT: 0.1, Frame: 1, Started: true}, *c)

	*c = Clock{Time: 30, DT: 0.1, Frame: 300, Started: true} // a load wrote the saved clock
	s.Update(&w)
	assert.Equal(t, Clock{Time: 30.1, DT: 0.1, Frame: 301, Started: true}, *c)
	s.Update(&w)
	assert.Equal(t, int64(302), c.Frame)
	assert.InDelta(t, 30.2, c.Time, 1e-12)

	// a saved clock of another step: its frame ends at Time+DT, then the system's step
	*c = Clock{Time: 5, DT: 0.5, Frame: 10, Started: true}
	s.Update(&w)
	assert.Equal(t, Clock{Time: 5.5, DT: 0.1, Frame: 11, Started: true}, *c)

	// the clock only read, never written: the count goes on as it was (exact Frame·DT)
	w2 := arche.NewWorld()
	s2 := NewClockSystem(0.1)
	s2.Initialize(&w2)
	c2 := ClockOf(&w2)
	for range 50 {
		s2.Update(&w2)
	}
	assert.Equal(t, 49*0.1, c2.Time)
}

// A clock set between two Updates with Started false (a frame not begun) has no time to go
// on from: the next Update is frame Frame at Frame·DT, as after an Initialize, whatever
// Time it holds. The ClockSystem's doc said "frame Frame at Time".
func TestClockSystemGoesOnFromAClockNotStarted(t *testing.T) {
	w := arche.NewWorld()
	s := NewClockSystem(0.5)
	s.Initialize(&w)
	c := ClockOf(&w)
	s.Update(&w)
	s.Update(&w)
	*c = Clock{Time: 7, Frame: 3}
	s.Update(&w)
	assert.Equal(t, Clock{Time: 1.5, DT: 0.5, Frame: 3, Started: true}, *c)
}
