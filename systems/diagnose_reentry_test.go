package systems

import (
	"fmt"
	"testing"

	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// reentryMachine is Day{Work} with a row from Work to Day whose guard always holds:
// an external transition that leaves Work and enters it again on every update.
func reentryMachine(t testing.TB) (*fsm.Machine, fsm.StateID) {
	t.Helper()
	b := fsm.NewBuilder("villager")
	day := b.State("Day", fsm.Hooks{})
	work := b.Substate(day, "Work", fsm.Hooks{})
	b.When(work, func(*fsm.Context) bool { return true }, day)
	m, err := b.Build()
	require.NoError(t, err)
	return m, work
}

// A machine run by systems.FSM whose row re-enters its state on every update is
// counted by Diagnose once it has done so ReentryLimit times in a row, and the report
// names the state; a row from the parent to its child (local) is not.
func TestDiagnoseCountsAMachineReenteringItsState(t *testing.T) {
	m, _ := reentryMachine(t)
	w, _ := newWorld(10, 10)
	clock := ecs.NewClockSystem(0.1)
	fs := &FSM{}
	clock.Initialize(w)
	fs.Initialize(w)
	e := w.NewEntity()
	put(w, e, components.Position{})
	put(w, e, components.Intent{})
	put(w, e, components.Think{Interval: 0.1})
	put(w, e, components.StateMachine{Machine: m})
	// and a villager whose row goes from Day to its child Eat: local, taken once
	b := fsm.NewBuilder("eater")
	day := b.State("Day", fsm.Hooks{})
	b.Substate(day, "Work", fsm.Hooks{})
	eat := b.Substate(day, "Eat", fsm.Hooks{})
	b.When(day, func(*fsm.Context) bool { return true }, eat)
	local, err := b.Build()
	require.NoError(t, err)
	f := w.NewEntity()
	put(w, f, components.Position{})
	put(w, f, components.Intent{})
	put(w, f, components.Think{Interval: 0.1})
	put(w, f, components.StateMachine{Machine: local})
	var counts []int
	for range 6 {
		clock.Update(w)
		fs.Update(w)
		counts = append(counts, Diagnose(w).Counts[CauseStateReentered])
	}
	assert.Equal(t, []int{0, 0, 0, 1, 1, 1}, counts, "the first update starts and re-enters once; from the 4th in a row it counts")
	r := Diagnose(w)
	assert.Contains(t, r.String(), fmt.Sprintf(`state_reentered 1 (e.g. entity %d, state "Day/Work" of machine "villager" left and entered again by each of its last 6 transitions`, e.ID()))
	assert.Equal(t, e, r.Examples[CauseStateReentered])
	sm := compOf[components.StateMachine](w, f)
	assert.Equal(t, fsm.Memory{Active: eat, Previous: sm.Memory.Previous, Transitions: 2, Elapsed: sm.Memory.Elapsed}, sm.Memory)
	assert.InDelta(t, 0.5, sm.Memory.Elapsed, 1e-9, "in Eat since the first update")
}

// A machine run by systems.FSM with rows Work→Rest and Rest→Work whose guards both
// hold goes back and forth on every update: Diagnose counts it, and the report
// names both states. Before, it was silent (Reentries stayed 0).
func TestDiagnoseCountsAMachineBouncingBetweenTwoStates(t *testing.T) {
	b := fsm.NewBuilder("worker")
	work := b.State("Work", fsm.Hooks{})
	rest := b.State("Rest", fsm.Hooks{})
	b.When(work, func(*fsm.Context) bool { return true }, rest)
	b.When(rest, func(*fsm.Context) bool { return true }, work)
	m, err := b.Build()
	require.NoError(t, err)
	w, _ := newWorld(10, 10)
	clock := ecs.NewClockSystem(0.1)
	fs := &FSM{}
	clock.Initialize(w)
	fs.Initialize(w)
	e := w.NewEntity()
	put(w, e, components.Position{})
	put(w, e, components.Intent{})
	put(w, e, components.Think{Interval: 0.1})
	put(w, e, components.StateMachine{Machine: m})
	var counts []int
	for range 6 {
		clock.Update(w)
		fs.Update(w)
		counts = append(counts, Diagnose(w).Counts[CauseStateReentered])
	}
	assert.Equal(t, []int{0, 0, 0, 0, 1, 1}, counts)
	r := Diagnose(w)
	sm := compOf[components.StateMachine](w, e)
	active, other := "Work", "Rest"
	if sm.Memory.Active == rest {
		active, other = other, active
	}
	assert.Contains(t, r.String(), fmt.Sprintf(`state_reentered 1 (e.g. entity %d, state %q of machine "worker" and state %q taken in turn by each of its last 5 transitions`, e.ID(), active, other))
}
