package bt_test

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A node keeps the status it returned when it was last ticked. Memory.Ticked tells a node
// ticked in the latest Tick from one whose status is older, and Memory.Current one whose
// status is of a run that is over: the wolf's chase and bite
// under a Cooldown that is cooling down, and the finished Chase while Bite runs.
func TestTickedTellsTheLatestTickFromOlderStatuses(t *testing.T) {
	chase, bite := bt.Success, bt.Success
	tree, err := bt.Compile("wolf", bt.ReactiveSelector(
		bt.ReactiveSequence(bt.Condition("SeesPrey", func(*bt.Context) bool { return true }),
			bt.Cooldown(6, bt.Sequence(bt.Timeout(10, bt.Action("Chase", func(*bt.Context) bt.Status { return chase })),
				bt.Action("Bite", func(*bt.Context) bt.Status { return bite })))),
		bt.Action("Prowl", func(*bt.Context) bt.Status { return bt.Running })))
	require.NoError(t, err)
	name := map[string]int{}
	for i := range tree.Len() {
		name[tree.NodeName(i)] = i
	}
	m := tree.NewMemory()
	ctx := &bt.Context{DT: 0.1}
	tree.Tick(&m, ctx)
	_, known := m.Ticked(0)
	assert.False(t, known, "not recorded")
	_, known = m.Current(0)
	assert.False(t, known, "not recorded")

	m.RecordTicks(true)
	assert.True(t, m.RecordingTicks())
	_, known = m.Ticked(0)
	assert.False(t, known, "recorded, but no Tick since")

	// cooling down: the Cooldown fails without ticking its child, whose statuses are the last run's
	ctx.Time = 1
	tree.Tick(&m, ctx)
	ticked := func(n string) bool {
		t.Helper()
		on, known := m.Ticked(name[n])
		require.True(t, known)
		return on
	}
	current := func(n string) bool {
		t.Helper()
		on, known := m.Current(name[n])
		require.True(t, known)
		return on
	}
	for _, n := range []string{"SeesPrey", "Cooldown", "Prowl"} {
		assert.True(t, ticked(n), n)
		assert.True(t, current(n), n)
	}
	for _, n := range []string{"Sequence", "Timeout", "Chase", "Bite"} {
		assert.False(t, ticked(n), n)
		assert.False(t, current(n), n)
		assert.Equal(t, bt.Success, m.Status(name[n]), "%s keeps its last status", n)
	}

	// cooled down, Chase runs: Bite (Success at t = 0) is not ticked
	ctx.Time, chase = 7, bt.Running
	tree.Tick(&m, ctx)
	for _, n := range []string{"Sequence", "Timeout", "Chase"} {
		assert.True(t, ticked(n), n)
		assert.Equal(t, bt.Running, m.Status(name[n]), n)
	}
	assert.False(t, ticked("Bite"))
	assert.False(t, current("Bite"), "Success in the Sequence's last run")
	assert.False(t, ticked("Prowl"), "the reactive sequence is Running: the selector stops there")
	assert.Equal(t, bt.Success, m.Status(name["Bite"]))

	// Chase done, Bite runs: Chase is not ticked, but its Success is of the Sequence's run
	chase, bite = bt.Success, bt.Running
	ctx.Time = 7.1
	tree.Tick(&m, ctx)
	ctx.Time = 7.2
	tree.Tick(&m, ctx)
	assert.False(t, ticked("Chase"))
	assert.True(t, current("Chase"), "a finished child of the Running Sequence")
	assert.True(t, current("Timeout"))
	assert.Equal(t, bt.Running, m.Status(name["Bite"]))
	assert.True(t, current("Bite"))

	// a recorded Tick allocates nothing
	assert.Zero(t, testing.AllocsPerRun(100, func() { tree.Tick(&m, ctx) }))

	// ResetMemory keeps the record on, cleared
	tree.ResetMemory(&m)
	_, known = m.Ticked(0)
	assert.False(t, known)
	tree.Tick(&m, ctx)
	assert.True(t, ticked("Chase"))
	assert.True(t, current("Chase"))

	m.RecordTicks(false)
	_, known = m.Ticked(0)
	assert.False(t, known)
}
