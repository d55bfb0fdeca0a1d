package fsm

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A hook that runs another machine with its own Context (a nested machine inside a
// state) leaves the outer call's Context as it was: later hooks still see their Memory
// and Event. It used to be cleared to nil by the inner call, and the next hook that read
// ctx.Memory crashed with a nil pointer dereference.
func TestNestedMachineOnTheSameContextRestoresIt(t *testing.T) {
	ib := NewBuilder("inner")
	ib.State("I", Hooks{})
	inner, err := ib.Build()
	require.NoError(t, err)

	var innerMem Memory
	var seen []*Memory
	var events []Event
	b := NewBuilder("outer")
	a := b.State("A", Hooks{})
	bID := b.State("B", Hooks{
		Enter: func(c *Context) {
			inner.Update(&innerMem, c) // the inner machine, on the same Context
			seen = append(seen, c.Memory)
			events = append(events, c.Event)
		},
		Update: func(c *Context) StateID {
			inner.Update(&innerMem, c)
			seen = append(seen, c.Memory)
			return None
		},
	})
	const evGo Event = 3
	b.On(a, evGo, bID)
	m, err := b.Build()
	require.NoError(t, err)

	var mem Memory
	ctx := &Context{}
	m.Update(&mem, ctx)
	require.True(t, m.Dispatch(&mem, ctx, evGo))
	m.Update(&mem, ctx)
	assert.Equal(t, []*Memory{&mem, &mem}, seen, "the outer hooks still see their own Memory")
	assert.Equal(t, []Event{evGo}, events, "and the event being dispatched")
	assert.Equal(t, inner.State(1), innerMem.Active)
	assert.Nil(t, ctx.Memory, "nil again outside calls")
	assert.Equal(t, NoEvent, ctx.Event)
}

// A hook, guard or observer that dispatches to (or updates, or stops) the same agent's
// machine would run a transition in the middle of another: the outer one then went on
// entering states of a configuration already left (A exited, B entered, then A's
// substate A1 entered: Active A1 with A's Exit already run and B's never run). It
// panics now, naming the machine and the call.
func TestReentrantCallOnTheSameMemoryPanics(t *testing.T) {
	const ev Event = 7
	for _, call := range []string{"Dispatch", "Update", "Stop"} {
		t.Run(call, func(t *testing.T) {
			var m *Machine
			b := NewBuilder("guard")
			a := b.State("A", Hooks{Enter: func(c *Context) {
				switch call {
				case "Dispatch":
					m.Dispatch(c.Memory, c, ev)
				case "Update":
					m.Update(c.Memory, c)
				case "Stop":
					m.Stop(c.Memory, c)
				}
			}})
			b.Substate(a, "A1", Hooks{})
			bb := b.State("B", Hooks{})
			b.On(a, ev, bb)
			var err error
			m, err = b.Build()
			require.NoError(t, err)
			var mem Memory
			assert.PanicsWithValue(t, `fsm: machine "guard": `+call+` called for the Memory being updated, from inside one of its hooks, guards or observer (state "A"); return the next state from an Update hook or add a transition row instead`, func() {
				m.Update(&mem, &Context{})
			})
		})
	}
}
