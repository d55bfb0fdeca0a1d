package ecs_test

import (
	"testing"

	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Timing a system tm already times (tm.Time(tm.Time(s))) added a second entry of the
// same name, and a chart counted the system twice. Time now returns a Timed of the same
// Timings unchanged: one entry, one Update per step. Through a Timed of another
// Timings it looks for one of tm's too.
func TestTimingsTimeOfItsOwnTimedIsUnchanged(t *testing.T) {
	tm := &ecs.Timings{}
	s := &named{}
	ts := tm.Time(s)
	assert.Same(t, ts, tm.Time(ts))
	assert.Same(t, ts, tm.Time(tm.Time(ts)))
	other := &ecs.Timings{}
	os := other.Time(ts)
	assert.Same(t, os, tm.Time(os), "it already adds to tm's entry, inside other's")
	times := tm.Times()
	require.Len(t, times, 1)
	assert.Equal(t, "named", times[0].Name)
	require.Len(t, other.Times(), 1)
}

// A Timed of another Timings is wrapped as any system: each Timings gets one entry
// under the system's name, and each Update of the outer wrapper runs the system once
// and adds to both (separate reports, say one charted and one logged).
func TestTimingsTimeOfAnotherTimingsTimed(t *testing.T) {
	inner, outer := &ecs.Timings{}, &ecs.Timings{}
	s := &named{}
	ti := inner.Time(s)
	to := outer.Time(ti)
	assert.NotSame(t, ti, to)
	assert.Same(t, ti, to.Unwrap())
	assert.Equal(t, "named", to.Name())
	w := arche.NewWorld()
	for range 3 {
		to.Update(&w)
	}
	assert.Equal(t, 3, s.updates)
	require.Len(t, inner.Times(), 1)
	require.Len(t, outer.Times(), 1)
	assert.Equal(t, "named", outer.Times()[0].Name)
}
