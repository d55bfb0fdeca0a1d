package fsm

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A state that no transition row reaches from the initial state is not a mistake Build
// reports: an Update hook may return it (transitions kept inside states), which Build
// cannot see, and a loaded or written Memory may hold it Active. So Build takes it, at
// the top level and as a substate that is not its parent's initial one, and the state
// is entered when a hook returns it (documented on Build).
func TestBuildTakesAStateNoRowReaches(t *testing.T) {
	alarm := false
	b := NewBuilder("guard")
	var raise, reload StateID
	idle := b.State("Idle", Hooks{Update: func(*Context) StateID {
		if alarm {
			return raise
		}
		return None
	}})
	raise = b.State("Raise", Hooks{}) // no row leads here
	combat := b.State("Combat", Hooks{})
	aim := b.Substate(combat, "Aim", Hooks{Update: func(*Context) StateID { return reload }})
	reload = b.Substate(combat, "Reload", Hooks{}) // not Combat's initial; no row leads here
	b.On(idle, 1, combat)
	m, err := b.Build()
	require.NoError(t, err)

	var mem Memory
	ctx := Context{DT: 0.1}
	m.Update(&mem, &ctx)
	assert.Equal(t, idle, mem.Active)
	alarm = true
	m.Update(&mem, &ctx)
	assert.Equal(t, raise, mem.Active, "entered by Idle's Update hook")

	mem = Memory{}
	alarm = false
	m.Update(&mem, &ctx)
	require.True(t, m.Dispatch(&mem, &ctx, 1))
	assert.Equal(t, aim, mem.Active)
	m.Update(&mem, &ctx)
	assert.Equal(t, reload, mem.Active, "entered by Aim's Update hook")
	assert.True(t, m.IsActive(&mem, combat))
}
