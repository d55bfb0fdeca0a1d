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

// reentryWorld returns a world with an FSM system and one agent running m.
func reentryWorld(t *testing.T, m *fsm.Machine) (func(), *components.StateMachine, func() Report) {
	t.Helper()
	w, _ := newWorld(10, 10)
	clock := ecs.NewClockSystem(0.1)
	fs := &FSM{}
	clock.Initialize(w)
	fs.Initialize(w)
	t.Cleanup(func() { fs.Finalize(w) })
	e := w.NewEntity()
	put(w, e, components.Position{})
	put(w, e, components.Intent{})
	put(w, e, components.Think{Interval: 0.1})
	put(w, e, components.StateMachine{Machine: m})
	return func() { clock.Update(w); fs.Update(w) }, compOf[components.StateMachine](w, e), func() Report { return Diagnose(w) }
}

// TestStateReenteredCountsTransitions: Work's Update hook returns Rest and a row
// Rest→Work always holds, so an update can bounce twice: after 3 updates
// Memory.Reentries is 4, and the note of state_reentered says 4 transitions (it said
// "its last 4 updates", of which there were 3).
func TestStateReenteredCountsTransitions(t *testing.T) {
	b := fsm.NewBuilder("bouncer")
	var rest fsm.StateID
	work := b.State("Work", fsm.Hooks{Update: func(*fsm.Context) fsm.StateID { return rest }})
	rest = b.State("Rest", fsm.Hooks{})
	b.When(rest, func(*fsm.Context) bool { return true }, work)
	m, err := b.Build()
	require.NoError(t, err)
	update, sm, diagnose := reentryWorld(t, m)
	for range 3 {
		update()
	}
	assert.Equal(t, uint32(4), sm.Memory.Reentries, "more re-entries than updates")
	assert.Contains(t, diagnose().String(), `state "Rest" of machine "bouncer" and state "Work" taken in turn by each of its last 4 transitions `+
		`(fsm.Memory.Reentries; an update may take several): rows whose guards both hold, or Update hooks, leading from each to the other)`)
}

// TestStateReenteredAfterSwapToMachineOfOneName pins what a report between a swap and
// the next FSM update says when the new machine has the old one's name (so the old
// Memory's StateIDs carry its tag too, and neither FSM nor Diagnose can tell them
// apart, see FSM.Swapped): the note reads the old Memory against the new machine and
// names the new machine's state of that index. The FSM's next update does not restart
// it either; the fix is a name of its own per machine (Report.MachinesAlike names two
// machines of one name run at once), or Stop before the swap.
func TestStateReenteredAfterSwapToMachineOfOneName(t *testing.T) {
	build := func(state string) *fsm.Machine {
		b := fsm.NewBuilder("guard")
		s := b.State(state, fsm.Hooks{})
		b.When(s, func(*fsm.Context) bool { return true }, s)
		m, err := b.Build()
		require.NoError(t, err)
		return m
	}
	old, next := build("Patrol"), build("Sleep")
	update, sm, diagnose := reentryWorld(t, old)
	for range 4 {
		update()
	}
	assert.Contains(t, diagnose().String(), `state "Patrol" of machine "guard"`)
	sm.Machine = next // same name, same tag: ID "guard" still matches
	r := diagnose()
	assert.Contains(t, r.String(), fmt.Sprintf(`state_reentered 1 (e.g. entity %d, state "Sleep" of machine "guard" left and entered again by each of its last 4 transitions`, r.Examples[CauseStateReentered].ID()))
}
