package htn

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A Run whose running task started at a time that is NaN or infinite (an edited or
// corrupt save) fit CheckRun, and Tick carried it on: an operator that waits
// (Time − Start ≥ 1) never saw its time pass, so the task ran for good and the agent
// never did anything else, with no error. CheckRun refuses it now, and Tick drops such
// a plan and plans afresh, as for any Run that does not fit.
func TestRunStartedAtABadTime(t *testing.T) {
	b := NewBuilder("wait")
	wait := b.Primitive("Wait", Primitive{Run: func(c *Context) Status {
		if c.Time-c.Start >= 1 {
			return Success
		}
		return Running
	}})
	root := b.Compound("Root")
	b.Method(root, Method{Name: "Wait", Tasks: []TaskID{wait}})
	b.Root(root)
	d, err := b.Build()
	require.NoError(t, err)

	for _, start := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		r := Run{Plan: Plan{Len: 1, Tasks: [MaxPlan]TaskID{wait}, MTRLen: 1}, Started: true, Start: start}
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
		assert.InDelta(t, 1.0, done, 1e-9, "Start %v: the wait restarted at 0 and took 1 s", start)
	}
	// a Run not started yet may hold any Start: it is set when the task starts
	r := Run{Plan: Plan{Len: 1, Tasks: [MaxPlan]TaskID{wait}, MTRLen: 1}, Start: math.NaN()}
	assert.NoError(t, d.CheckRun(&r))
}
