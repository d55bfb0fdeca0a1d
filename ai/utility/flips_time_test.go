package utility

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// defender returns a reasoner whose Shoot scores 2 while a target is in range and 0
// (a veto) otherwise, against a constant Guard of 0.3, under hysteresis h, and the
// flag its Shoot reads.
func defender(t *testing.T, h float64) (*Reasoner, *bool) {
	inRange := new(bool)
	r, err := New("defender", Policy{}.WithHysteresis(h),
		Action{Name: "Shoot", Weight: 2, Considerations: []Consideration{{Name: "in range", Input: func(any) float64 {
			if *inRange {
				return 1
			}
			return 0
		}}}},
		Action{Name: "Guard", Weight: 0.3})
	require.NoError(t, err)
	return r, inRange
}

// TestFlipFlopIsARateInSimulationTime: a flip-flop is FlipLimit+1 changes of choice
// back and forth between the same two actions within FlipWindow seconds of simulation
// time, and a State is flip-flopping only until it has gone FlipWindow without one.
//
// (a) Two actions whose scores cross at every decision (A 0.5 against B 0.48, 0.52, ...)
// under a hysteresis too small to hold them (0.01: B's 0.52 beats A's 0.505) alternate
// every 0.1 s: flip-flopping from the fifth change on.
//
// (b) A defender that shoots a target for 1 s, kills it, guards 0.5 s, and shoots the
// next one (a 1.5 s cycle, at 10 Hz) changes its choice back within 10 decisions every
// time, which the old rule (changes back within FlipWindow decisions) counted as a
// flip-flop from its fifth change; it is gameplay, not oscillation: five changes span
// 3 s. Nothing is counted in 60 s.
//
// (c) The oscillating State of (a), held stable afterwards, stops flip-flopping once
// FlipWindow seconds have passed since its last flip-flop; FlipFlops keeps the count.
func TestFlipFlopIsARateInSimulationTime(t *testing.T) {
	var b float64
	r, err := New("r", Policy{}.WithHysteresis(0.01),
		Action{Name: "A", Considerations: []Consideration{{Name: "a", Input: func(any) float64 { return 0.5 }}}},
		Action{Name: "B", Considerations: []Consideration{{Name: "b", Input: func(any) float64 { return b }}}})
	require.NoError(t, err)
	st := r.NewState()
	now := 0.0
	for k := range 20 { // (a) B, A, B, A, ...: alternating every decision
		b = 0.52 - 0.04*float64(k%2)
		now = 0.1 * float64(k)
		r.DecideAt(nil, &st, nil, now)
		if k < 5 {
			assert.Zero(t, st.FlipFlops, "change %d: four changes are no flip-flop yet", k+1)
			assert.False(t, st.FlipFlopping(now), "change %d", k+1)
		}
	}
	assert.Equal(t, uint64(15), st.FlipFlops, "changes 6 to 20 (A→B→A→B→A→B from change 1)")
	assert.True(t, st.FlipFlopping(now))
	assert.InDelta(t, now, st.FlipTime, 1e-12)
	assert.Equal(t, [2]int{1, 0}, st.FlipActions, "the last change: B left, A chosen")

	// (c) hold A from here on
	b = 0.48
	last := st.FlipTime
	for k := 1; now < last+FlipWindow+1; k++ {
		now = last + 0.1*float64(k)
		r.DecideAt(nil, &st, nil, now)
		if now-last <= FlipWindow-1e-9 {
			assert.True(t, st.FlipFlopping(now), "%.1f s after the last flip-flop: still within the window", now-last)
		}
	}
	assert.Equal(t, 0, st.Choice)
	assert.False(t, st.FlipFlopping(now), "stable for over FlipWindow: no longer flip-flopping")
	assert.False(t, st.FlipFlopping(last+FlipWindow+1e-6))
	assert.True(t, st.FlipFlopping(last+FlipWindow-1e-6))
	assert.Equal(t, uint64(15), st.FlipFlops, "the count since the State was made stays")
	assert.Zero(t, st.Flips, "the run ended")

	// (b) kill / idle / next target, at 10 Hz
	d, inRange := defender(t, 0.15)
	ds := d.NewState()
	changes := 0
	for k := range 600 {
		*inRange = k%15 < 10 // shoot 1 s, target dead, 0.5 s guarding, next target
		prev := ds.Choice
		d.DecideAt(nil, &ds, nil, 0.1*float64(k))
		if ds.Choice != prev {
			changes++
		}
	}
	assert.Equal(t, 80, changes, "Shoot and Guard in turn: 2 changes a cycle")
	assert.Zero(t, ds.FlipFlops, "a kill every 1.5 s is gameplay")
	assert.False(t, ds.FlipFlopping(60))

	// the same defender with a target walking in and out of range at every decision:
	// hysteresis holds no vetoed choice, and that is a flip-flop
	fs := d.NewState()
	for k := range 10 {
		*inRange = k%2 == 0
		d.DecideAt(nil, &fs, nil, 0.1*float64(k))
	}
	assert.Positive(t, fs.FlipFlops)
	assert.True(t, fs.FlipFlopping(0.9))
}

// TestFlipFlopTimeEdges: a clock that goes back (a program resetting its time), or a
// NaN time, ends a run instead of making changes seconds apart look instantaneous, and
// a NaN now asks FlipFlopping about the State's last decision. Decide, without a time,
// counts each decision as 0.1 s.
func TestFlipFlopTimeEdges(t *testing.T) {
	d, inRange := defender(t, 0.15)
	st := d.NewState()
	for k := range 4 { // four changes
		*inRange = k%2 == 0
		d.DecideAt(nil, &st, nil, 10+0.1*float64(k))
	}
	*inRange = true
	d.DecideAt(nil, &st, nil, 0) // the fifth, at a time before the fourth
	assert.Zero(t, st.FlipFlops, "time went back: the run starts again")
	*inRange = false
	d.DecideAt(nil, &st, nil, 0.1)
	assert.Zero(t, st.FlipFlops)
	assert.Equal(t, uint32(1), st.Flips)

	ns := d.NewState()
	for k := range 10 {
		*inRange = k%2 == 0
		d.DecideAt(nil, &ns, nil, math.NaN())
	}
	assert.Zero(t, ns.FlipFlops, "NaN times: no change is within a window of another")

	ds := d.NewState()
	for k := range 6 { // 6 changes, a decision apart: 0.5 s with Decide
		*inRange = k%2 == 0
		d.Decide(nil, &ds, nil)
	}
	assert.Equal(t, uint64(1), ds.FlipFlops)
	assert.True(t, ds.FlipFlopping(math.NaN()), "at its last decision")
	for range 19 { // Guard holds
		d.Decide(nil, &ds, nil)
	}
	assert.True(t, ds.FlipFlopping(math.NaN()), "1.9 s after")
	d.Decide(nil, &ds, nil)
	d.Decide(nil, &ds, nil)
	assert.False(t, ds.FlipFlopping(math.NaN()), "2.1 s after")
	assert.Equal(t, uint64(1), ds.FlipFlops)
}

// TestDecideAtAllocatesNothing: the flip-flop bookkeeping is fixed-size.
func TestDecideAtAllocatesNothing(t *testing.T) {
	d, inRange := defender(t, 0.15)
	st := d.NewState()
	now := 0.0
	assert.Zero(t, testing.AllocsPerRun(200, func() {
		*inRange = !*inRange
		now += 0.1
		d.DecideAt(nil, &st, nil, now)
	}))
	assert.Positive(t, st.FlipFlops)
}
