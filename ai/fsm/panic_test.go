package fsm

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// panicMachine is A{A1, A2}, B{B1}: every hook logs; the hook named in *boom panics
// (once: it clears *boom). A1 → B on event evBoomGo; A1 → A2 on evBoomSide.
func panicMachine(t *testing.T, log *[]string, boom *string) (*Machine, map[string]StateID) {
	t.Helper()
	b := NewBuilder("p")
	ids := map[string]StateID{}
	hooks := func(name string) Hooks {
		hook := func(what string) {
			*log = append(*log, what+" "+name)
			if *boom == what+" "+name {
				*boom = ""
				panic("boom: " + what + " " + name)
			}
		}
		return Hooks{Enter: func(*Context) { hook("enter") }, Exit: func(*Context) { hook("exit") },
			Update: func(*Context) StateID { hook("update"); return None }}
	}
	ids["A"] = b.State("A", hooks("A"))
	ids["A1"] = b.Substate(ids["A"], "A1", hooks("A1"))
	ids["A2"] = b.Substate(ids["A"], "A2", hooks("A2"))
	ids["B"] = b.State("B", hooks("B"))
	ids["B1"] = b.Substate(ids["B"], "B1", hooks("B1"))
	b.On(ids["A1"], evBoomGo, ids["B"])
	b.On(ids["A1"], evBoomSide, ids["A2"])
	var observed []string
	b.Observe(func(c *Context, from, to StateID) { observed = append(observed, "observe") })
	m, err := b.Build()
	require.NoError(t, err)
	return m, ids
}

const (
	evBoomGo   Event = 11
	evBoomSide Event = 12
)

// recovered runs f and reports whether it panicked.
func recovered(f func()) (panicked bool) {
	defer func() { panicked = recover() != nil }()
	f()
	return false
}

// An Exit hook that panics in the middle of a transition (A1 → B: A1's Exit ran, A's
// panics) leaves A1 and A left: Active is the root's None, so the next Update starts
// the machine again. An Exit deeper down (A1's, in A1 → A2) leaves A active: the next
// Update enters A's initial substate before anything else. Memory used to keep Active
// on A1: the next Update ran the Update hooks of states whose Exit had run, and
// leaving them later ran their Exit hooks a second time.
func TestExitHookPanicLeavesTheStatesItLeft(t *testing.T) {
	var log []string
	boom := "exit A"
	m, id := panicMachine(t, &log, &boom)
	var mem Memory
	ctx := &Context{}
	m.Update(&mem, ctx)
	require.Equal(t, id["A1"], mem.Active)
	log = nil
	require.True(t, recovered(func() { m.Dispatch(&mem, ctx, evBoomGo) }))
	assert.Equal(t, []string{"exit A1", "exit A"}, log)
	assert.Equal(t, Memory{Active: None, Previous: id["A1"], Transitions: 1}, mem)
	assert.Nil(t, ctx.Memory, "the Context is given back")
	assert.Equal(t, NoEvent, ctx.Event)
	log = nil
	m.Update(&mem, ctx)
	assert.Equal(t, []string{"enter A", "enter A1", "update A", "update A1"}, log, "started again: no Exit twice, no Update of a state left")
	assert.Equal(t, id["A1"], mem.Active)

	boom = "exit A1"
	log = nil
	require.True(t, recovered(func() { m.Dispatch(&mem, ctx, evBoomSide) }))
	assert.Equal(t, []string{"exit A1"}, log)
	assert.Equal(t, id["A"], mem.Active, "A1 left, A not")
	assert.Equal(t, id["A1"], mem.Previous)
	transitions := mem.Transitions
	log = nil
	m.Update(&mem, ctx)
	assert.Equal(t, []string{"enter A1", "update A", "update A1"}, log, "A's initial substate entered first; A not entered twice")
	assert.Equal(t, id["A1"], mem.Active)
	assert.Equal(t, transitions+1, mem.Transitions, "the completion is a transition")
	assert.Equal(t, 0.0, mem.Elapsed)
}

// An Enter hook that panics leaves its state entered (Active B, a state with substates);
// the transition is not counted. The next Dispatch enters B1 first, then looks for rows.
// Stop from there exits B only (B1 never entered).
func TestEnterHookPanicLeavesItsStateEntered(t *testing.T) {
	var log []string
	boom := "enter B"
	m, id := panicMachine(t, &log, &boom)
	var mem Memory
	ctx := &Context{}
	m.Update(&mem, ctx)
	log = nil
	require.True(t, recovered(func() { m.Dispatch(&mem, ctx, evBoomGo) }))
	assert.Equal(t, []string{"exit A1", "exit A", "enter B"}, log)
	assert.Equal(t, Memory{Active: id["B"], Previous: id["A1"], Transitions: 1}, mem)

	stopped := mem
	log = nil
	m.Stop(&stopped, ctx)
	assert.Equal(t, []string{"exit B"}, log)
	assert.Equal(t, None, stopped.Active)

	log = nil
	assert.False(t, m.Dispatch(&mem, ctx, evBoomSide), "no row of B1 or B takes evBoomSide")
	assert.Equal(t, []string{"enter B1"}, log)
	assert.Equal(t, id["B1"], mem.Active)
	assert.Equal(t, id["A1"], mem.Previous)
	assert.Equal(t, uint32(2), mem.Transitions)
}

// An Update hook that panics in an update whose DT was NaN gives the caller's Context
// back with the caller's DT and Time (it kept the 0s Update put in their place), and
// the Memory is where it was, its Elapsed not advanced by the bad DT.
func TestUpdateHookPanicGivesTheContextBack(t *testing.T) {
	var log []string
	boom := ""
	m, id := panicMachine(t, &log, &boom)
	var mem Memory
	ctx := &Context{DT: 0.5, Time: 1}
	m.Update(&mem, ctx)
	m.Update(&mem, ctx)
	boom = "update A1"
	ctx.DT, ctx.Time = math.NaN(), math.Inf(1)
	require.True(t, recovered(func() { m.Update(&mem, ctx) }))
	assert.True(t, math.IsNaN(ctx.DT), "the caller's DT, not the 0 put in its place")
	assert.True(t, math.IsInf(ctx.Time, 1))
	assert.Equal(t, uint64(1), ctx.ClockFaults())
	assert.Equal(t, Memory{Active: id["A1"], Transitions: 1, Elapsed: 0.5}, mem)
	assert.Nil(t, ctx.Memory)
	assert.False(t, ctx.f.busy)
}

// A Memory loaded or written with a state that has substates as its Active (a save
// edited by hand) runs from that state's initial leaf, not from the composite state
// itself: before, its Update hooks ran as if it were a leaf and B1's never.
func TestMemoryOnACompositeStateEntersItsLeaf(t *testing.T) {
	var log []string
	boom := ""
	m, id := panicMachine(t, &log, &boom)
	mem := Memory{Active: id["B"], Previous: id["A2"], Transitions: 4, Elapsed: 3}
	m.Update(&mem, &Context{DT: 1})
	assert.Equal(t, []string{"enter B1", "update B", "update B1"}, log)
	assert.Equal(t, Memory{Active: id["B1"], Previous: id["A2"], Transitions: 5}, mem)
}
