package goap

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// As for htn: a Run whose running action started at a time that is NaN or infinite
// (an edited or corrupt save) fit CheckRun, and Tick carried it on, so an action
// waiting for Time − Start ≥ 1 ran for good. CheckRun refuses it now, and Tick drops
// such a plan and plans afresh.
func TestRunStartedAtABadTime(t *testing.T) {
	b := NewBuilder("wait")
	rested := b.Fact("rested")
	b.Action(Action{Name: "Rest", Cost: 1, Effects: []Effect{{Fact: rested, Value: 1}},
		Run: func(c *Context) Status {
			if c.Time-c.Start >= 1 {
				return Success
			}
			return Running
		}})
	g := b.Goal(Goal{Name: "Rested", Want: []Cond{{rested, Eq, 1}}})
	d, err := b.Build()
	require.NoError(t, err)

	for _, start := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		r := Run{Plan: Plan{Len: 1, Steps: [MaxSteps]ActionID{0}, Goal: g}, Started: true, Start: start}
		err := d.CheckRun(&r)
		require.ErrorIs(t, err, ErrRun, "Start %v", start)
		assert.ErrorContains(t, err, "Start")

		var s State
		var p Planner
		ctx := Context{}
		done := -1.0
		for i := 0; i <= 30 && done < 0; i++ {
			ctx.Time = 0.1 * float64(i)
			if d.Tick(&r, &s, &p, &ctx) == Success {
				done = ctx.Time
			}
		}
		assert.InDelta(t, 1.0, done, 1e-9, "Start %v: the rest restarted at 0 and took 1 s", start)
	}
	r := Run{Plan: Plan{Len: 1, Steps: [MaxSteps]ActionID{0}, Goal: g}, Start: math.NaN()}
	assert.NoError(t, d.CheckRun(&r), "not started: Start is set when the action starts")
}
