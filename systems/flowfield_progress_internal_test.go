package systems

import (
	"math"
	"testing"
	"unsafe"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/stretchr/testify/assert"
)

// TestProgressCheckFrames: a check falls in the frames whose step (Time, Time+DT]
// holds a multiple of FlowProgressPeriod, numbered by that multiple; none without a
// started clock, with DT ≤ 0 or a negative Time.
func TestProgressCheckFrames(t *testing.T) {
	for _, c := range []struct {
		clock *ecs.Clock
		want  uint32
	}{
		{nil, 0},
		{&ecs.Clock{Time: 0.45, DT: 0.1}, 0},
		{&ecs.Clock{Time: 0.45, DT: 0.1, Started: true}, 1},
		{&ecs.Clock{Time: 0.3, DT: 0.1, Started: true}, 0},
		{&ecs.Clock{Time: 0.5, DT: 1.0 / 60, Started: true}, 0}, // 0.5 was the last frame's end
		{&ecs.Clock{Time: 0.49, DT: 0.01, Started: true}, 1},    // ends on it
		{&ecs.Clock{Time: 10.2, DT: 1.3, Started: true}, 23},    // several: the last
		{&ecs.Clock{Time: 0.45, DT: 0, Started: true}, 0},
		{&ecs.Clock{Time: -1, DT: 2, Started: true}, 0},
		{&ecs.Clock{Time: math.NaN(), DT: 0.1, Started: true}, 0},
	} {
		assert.Equal(t, c.want, progressCheck(c.clock), "%+v", c.clock)
	}
}

// TestFlowProgressRuns: a run starts at the first check that finds the follower
// following; it goes on while its cell is not a least cell's cost nearer than at the
// run's start, shoved back however far between grid edits; a cell nearer starts a
// new run, and so does being found flowProgressSlack cells' cost farther after a
// grid edit, or a clock gone back; not following (Arrived, no direction, no field,
// no route) clears it. FlowFollower stays 80 bytes (64-bit; 68 -> 76 on 32-bit).
func TestFlowProgressRuns(t *testing.T) {
	want := uintptr(80) // 80 before the progress fields too: they fill padding
	if unsafe.Sizeof(uintptr(0)) == 4 {
		want = 76 // 32-bit (float64 aligned to 4 bytes, less padding): 68 before them
	}
	assert.Equal(t, want, unsafe.Sizeof(components.FlowFollower{}), "FlowFollower's size")
	ff := components.FlowFollower{Has: true, Steer: true}
	at := func(k uint32, v float64, rebase bool) (float32, uint32) {
		p := newFlowProgress(k, 1, rebase)
		p.follow(&ff, v, true)
		return ff.ProgressCost, ff.ProgressCheck
	}
	run := func(c float32, k uint32) [2]float64 { return [2]float64{float64(c), float64(k)} }
	assert.Equal(t, run(40, 3), run(at(3, 40, true)), "the first check starts a run")
	assert.Equal(t, run(40, 3), run(at(4, 39.5, false)), "half a cell nearer: no progress")
	assert.Equal(t, run(40, 3), run(at(5, 45, false)), "shoved back 5 cells, no edit: the same run")
	assert.Equal(t, run(40, 3), run(at(6, 41.9, true)), "after an edit, under 2 cells farther: the same run")
	assert.Equal(t, run(39, 7), run(at(7, 39, false)), "a cell nearer: a new run")
	assert.Equal(t, run(41, 8), run(at(8, 41, true)), "2 cells farther after an edit: a new run (the route got longer)")
	assert.Equal(t, run(41, 2), run(at(2, 41, false)), "a clock gone back: a new run")
	ff.Arrived = true
	assert.Equal(t, run(0, 0), run(at(9, 41, false)), "at rest at its goal: no run")
	ff.Arrived = false
	at(10, 41, false)
	assert.Equal(t, run(0, 0), run(at(11, math.Inf(1), false)), "no route from its cell: no run")
	at(12, 41, false)
	p := newFlowProgress(13, 1, false)
	p.follow(&ff, 41, false)
	assert.Equal(t, run(0, 0), run(ff.ProgressCost, ff.ProgressCheck), "no complete field: no run")
	at(14, 41, false)
	ff.Steer = false
	assert.Equal(t, run(0, 0), run(at(15, 41, false)), "no direction: no run")
}

// TestFlowLastCheck: Diagnose looks at a flow follower only when its run began
// at a check numbered from 1 to flowLastCheck(now), which holds every run
// BlockedSpan old or more (now − k·FlowProgressPeriod ≥ BlockedSpan) and at most
// one check more; none before BlockedSpan or with no clock (NaN).
func TestFlowLastCheck(t *testing.T) {
	for _, c := range []struct {
		now  float64
		want uint32
	}{
		{math.NaN(), 0}, {0, 0}, {BlockedSpan - 0.6, 0}, {BlockedSpan - 0.5, 0}, {BlockedSpan - 0.4, 0}, {BlockedSpan, 1},
		{BlockedSpan + 0.5, 2}, {BlockedSpan + 0.7, 2}, {BlockedSpan + 10, 21}, {math.Inf(1), math.MaxUint32},
	} {
		assert.Equal(t, c.want, flowLastCheck(c.now), "now %v", c.now)
		for k := uint32(1); k < 60; k++ {
			if c.now-float64(k)*FlowProgressPeriod >= BlockedSpan {
				assert.LessOrEqual(t, k, flowLastCheck(c.now), "now %v: a run from check %d is BlockedSpan old", c.now, k)
			}
		}
	}
}
