package bt

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A leaf that panics in a tick whose DT was NaN and Time +Inf (the program recovers and
// reuses its Context, as after any bug in a leaf): the Context holds the caller's DT and
// Time again, as when Tick returns. It kept the 0s Tick put in their place.
func TestLeafPanicGivesTheClockBack(t *testing.T) {
	tree, err := Compile("p", Action("boom", func(*Context) Status { panic("boom") }))
	require.NoError(t, err)
	mem := tree.NewMemory()
	ctx := &Context{DT: math.NaN(), Time: math.Inf(1)}
	func() {
		defer func() { assert.Equal(t, "boom", recover()) }()
		tree.Tick(&mem, ctx)
	}()
	assert.True(t, math.IsNaN(ctx.DT), "the caller's DT, not 0")
	assert.True(t, math.IsInf(ctx.Time, 1))
	assert.Equal(t, uint64(1), ctx.ClockFaults())
}

// The same for Halt: a TryCatch with catch-on-halt runs its catch child as its try block
// is halted, with a bad DT replaced by 0; a catch leaf that panics left the 0 in the
// caller's Context.
func TestCatchOnHaltPanicGivesTheClockBack(t *testing.T) {
	tree, err := Compile("p", TryCatch(true,
		Action("work", func(*Context) Status { return Running }),
		Action("catch", func(*Context) Status { panic("boom") })))
	require.NoError(t, err)
	mem := tree.NewMemory()
	ctx := &Context{DT: 0.1}
	require.Equal(t, Running, tree.Tick(&mem, ctx))
	ctx.DT = math.NaN()
	func() {
		defer func() { assert.Equal(t, "boom", recover()) }()
		tree.Halt(&mem, ctx)
	}()
	assert.True(t, math.IsNaN(ctx.DT), "the caller's DT, not 0")
}
