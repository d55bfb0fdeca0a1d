package ecs

import (
	"math"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
)

// A world that ran only its frame 0 at one step, then resumed (saved and loaded, or
// Finalize and a new ClockSystem) with another step: frame 1 starts where frame 0
// ended, at frame 0's DT. Frame 0's Time is 0 = 0·newDT, which Initialize took for
// "ran at this step from frame 0" and so counted frame 1 at the new step (0.5 s
// instead of 0.1 s).
func TestClockResumedAfterFrameZeroWithAnotherDT(t *testing.T) {
	w := arche.NewWorld()
	s := NewClockSystem(0.1)
	s.Initialize(&w)
	s.Update(&w) // frame 0: [0, 0.1)
	s.Finalize(&w)

	s2 := NewClockSystem(0.5)
	s2.Initialize(&w)
	s2.Update(&w)
	c := ClockOf(&w)
	assert.Equal(t, int64(1), c.Frame)
	assert.InDelta(t, 0.1, c.Time, 1e-12, "frame 0 lasted 0.1 s")
	s2.Update(&w)
	assert.InDelta(t, 0.6, c.Time, 1e-12)
}

// The same holds for any frame whose Time happens to be Frame·newDT: 4 frames of 0.25 s
// end at 1 s; the last (frame 3) started at 0.75 = 3·0.25, and resumed at 0.25 it must go
// on from 1, which it does; but after 2 frames of 0.5 (frame 1 at 0.5 = 1·0.5), resumed
// at 0.25 s, frame 2 must start at 1.0 (frame 1 lasted 0.5 s), not 0.5.
func TestClockResumedWhereTimeMatchesTheNewDTByChance(t *testing.T) {
	w := arche.NewWorld()
	s := NewClockSystem(0.5)
	s.Initialize(&w)
	s.Update(&w) // frame 0 at 0
	s.DT = 0.25
	s.Update(&w) // frame 1 at 0.5, lasts 0.25
	s.Finalize(&w)
	c := ClockOf(&w)
	assert.Equal(t, 0.5, c.Time)

	s2 := NewClockSystem(0.5) // 0.5 = 1·0.5: looks like "ran at 0.5 from frame 0"
	s2.Initialize(&w)
	s2.Update(&w)
	assert.Equal(t, int64(2), c.Frame)
	assert.InDelta(t, 0.75, c.Time, 1e-12, "frame 1 started at 0.5 and lasted 0.25 s")
}

// A run with a variable step, saved at some frame and resumed (its Clock copied into a
// new world, a new ClockSystem at the step of the moment), must go on with the very times
// of the run not interrupted: save/load is "frame-exact" (package save). The resumed clock
// starts from the last frame's Time+DT and the uninterrupted one from the time of its
// last DT change plus k·DT, and the two round differently.
func TestClockVariableDTResumesBitForBit(t *testing.T) {
	steps := func(f int) float64 { // a variable step, changing every 7 frames
		return []float64{1.0 / 60, 1.0 / 30, 0.013, 1.0 / 144, 0.1}[(f/7)%5]
	}
	const frames = 200
	var want [frames]float64
	{
		w := arche.NewWorld()
		s := NewClockSystem(steps(0))
		s.Initialize(&w)
		for f := range frames {
			s.DT = steps(f)
			s.Update(&w)
			want[f] = ClockOf(&w).Time
		}
	}
	bad := 0
	for at := 1; at < frames; at += 3 { // save after frame at-1, resume at frame at
		w := arche.NewWorld()
		s := NewClockSystem(steps(0))
		s.Initialize(&w)
		for f := range at {
			s.DT = steps(f)
			s.Update(&w)
		}
		saved := *ClockOf(&w)

		w2 := arche.NewWorld()
		arche.AddResource(&w2, &saved)
		s2 := NewClockSystem(steps(at))
		s2.Initialize(&w2)
		for f := at; f < frames; f++ {
			s2.DT = steps(f)
			s2.Update(&w2)
			if got := ClockOf(&w2).Time; got != want[f] {
				bad++
				if bad <= 3 {
					t.Errorf("resumed at frame %d: frame %d at %.17g s, uninterrupted %.17g s (%g apart)",
						at, f, got, want[f], math.Abs(got-want[f]))
				}
				break
			}
		}
	}
	assert.Zero(t, bad, "resumed runs that left the uninterrupted run's times")
}
