package ecs

import (
	"math"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A newcomer's RTS wrote ecs.ClockOf(w).DT between frames (NaN, 0, −1, 1e6, 1/30) to
// change the step: the ClockSystem overwrote it with its own DT at the next Update, the
// run went on at 1/60, and nothing said so. The step is still the system's DT (the
// Clock's DT is the step of the frame that ran), but IgnoredDT now counts each Update
// that found the DT written alone, with the value and the step used instead, from that
// frame on, until the ClockSystems are finalized.
func TestClockDTWrittenAloneIsIgnoredAndCounted(t *testing.T) {
	for _, written := range []float64{math.NaN(), 0, -1, 1e6, 1.0 / 30} {
		w := arche.NewWorld()
		s := NewClockSystem(1.0 / 60)
		s.Initialize(&w)
		for range 3 {
			s.Update(&w)
		}
		n, _, _ := IgnoredDT(&w)
		require.Zero(t, n, "nothing written yet")
		c := ClockOf(&w)
		c.DT = written
		s.Update(&w)
		assert.Equal(t, int64(3), c.Frame)
		assert.Equal(t, 1.0/60, c.DT, "written %v: the system's step", written)
		assert.Equal(t, 3.0/60, c.Time, "written %v: time goes on at the system's step", written)
		n, got, step := IgnoredDT(&w)
		assert.Equal(t, uint64(1), n, "written %v", written)
		assert.Equal(t, math.Float64bits(written), math.Float64bits(got))
		assert.Equal(t, 1.0/60, step)
		_, replaced := ReplacedDT(&w)
		assert.False(t, replaced, "the system's own DT is usable")
		s.Update(&w) // not written again: still told, not counted again
		n, _, _ = IgnoredDT(&w)
		assert.Equal(t, uint64(1), n)
		s.Finalize(&w)
		n, _, _ = IgnoredDT(&w)
		assert.Zero(t, n, "no live ClockSystem")
	}
}

// The documented ways to change the clock are not counted: the system's DT (a variable
// step), the system's DT written to the Clock too, the Clock's DT before the first Update
// taken over at Initialize (none), and a clock set as a whole (a level restart writing
// Frame, Time and Started; SetClock, as a load does, even at the frame and time the
// clock held, whose DT then counts as the last frame's step).
func TestClockDocumentedChangesAreNotCountedAsWritten(t *testing.T) {
	w := arche.NewWorld()
	s := NewClockSystem(1.0 / 60)
	s.Initialize(&w)
	s.Update(&w)
	s.DT = 1.0 / 30 // a variable step
	s.Update(&w)
	assert.Equal(t, 1.0/30, ClockOf(&w).DT)
	s.DT = 0.05
	ClockOf(&w).DT = 0.05 // both: the step used is the one written
	s.Update(&w)
	*ClockOf(&w) = Clock{} // a level restart
	s.Update(&w)
	assert.Equal(t, Clock{Time: 0, DT: 0.05, Frame: 0, Started: true}, *ClockOf(&w))
	c := *ClockOf(&w)
	c.DT = 0.5 // a save of the same frame and time, made under another step
	SetClock(&w, c)
	s.Update(&w)
	assert.Equal(t, int64(1), ClockOf(&w).Frame)
	assert.Equal(t, 0.5, ClockOf(&w).Time, "goes on from the frame set, which lasted its DT")
	n, _, _ := IgnoredDT(&w)
	assert.Zero(t, n)
	n, _ = IgnoredTime(&w)
	assert.Zero(t, n)
}

// A finite Time written between frames is gone on from (a replay, a level at another
// time); a NaN or infinite one cannot be, and the ClockSystem goes on at Frame·DT:
// IgnoredTime counts it (before, in silence).
func TestClockTimeWritten(t *testing.T) {
	for _, c := range []struct {
		time    float64
		want    float64 // frame 3's Time
		ignored bool
	}{{100, 100 + 1.0/60, false}, {-5, -5 + 1.0/60, false}, {math.NaN(), 3.0 / 60, true},
		{math.Inf(1), 3.0 / 60, true}, {math.Inf(-1), 3.0 / 60, true}} {
		w := arche.NewWorld()
		s := NewClockSystem(1.0 / 60)
		s.Initialize(&w)
		for range 3 {
			s.Update(&w)
		}
		ClockOf(&w).Time = c.time
		s.Update(&w)
		assert.Equal(t, c.want, ClockOf(&w).Time, "written %v", c.time)
		n, got := IgnoredTime(&w)
		if !c.ignored {
			assert.Zero(t, n, "written %v", c.time)
			continue
		}
		assert.Equal(t, uint64(1), n, "written %v", c.time)
		assert.Equal(t, math.Float64bits(c.time), math.Float64bits(got))
		n, _, _ = IgnoredDT(&w)
		assert.Zero(t, n)
	}
}
