package fsm

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newbie18, finding 3: StateIDs were 1, 2, … in every machine, so a villager's hook
// that returned the wolf's state 2 ("Hunt", copied from the wolf's hooks) moved the
// villager to its own state 2 ("Eat") with BadTargets 0, although the docs said
// another machine's state is caught. StateIDs now carry a tag of their machine.

// twoMachines builds a villager (Work, Eat, Sleep) whose Work hook returns *ret, and a
// wolf (Prowl, Hunt).
func twoMachines(t *testing.T, ret *StateID) (villager, wolf *Machine, vid, wid map[string]StateID) {
	t.Helper()
	vid, wid = map[string]StateID{}, map[string]StateID{}
	w := NewBuilder("wolf")
	wid["Prowl"] = w.State("Prowl", Hooks{})
	wid["Hunt"] = w.State("Hunt", Hooks{})
	wolf, err := w.Build()
	require.NoError(t, err)
	v := NewBuilder("villager")
	vid["Work"] = v.State("Work", Hooks{Update: func(*Context) StateID { return *ret }})
	vid["Eat"] = v.State("Eat", Hooks{})
	vid["Sleep"] = v.State("Sleep", Hooks{})
	villager, err = v.Build()
	require.NoError(t, err)
	return villager, wolf, vid, wid
}

func TestHookReturningAnotherMachinesStateIsCaught(t *testing.T) {
	var ret StateID
	villager, _, vid, wid := twoMachines(t, &ret)
	require.Equal(t, vid["Eat"].Index(), wid["Hunt"].Index(), "the case: the same index in both machines")
	require.NotEqual(t, vid["Eat"], wid["Hunt"])

	var mem Memory
	ctx := &Context{DT: 0.1}
	villager.Update(&mem, ctx) // starts in Work; Work's hook returns None
	ret = wid["Hunt"]
	villager.Update(&mem, ctx)
	villager.Update(&mem, ctx)
	assert.Equal(t, "Work", villager.Name(mem.Active), "the villager stays: the wolf's Hunt is no state of it")
	assert.Equal(t, uint64(2), ctx.BadTargets())
	assert.Equal(t, uint32(1), mem.Transitions, "only the start")

	ret = vid["Eat"] // its own state of the same index is taken
	villager.Update(&mem, ctx)
	assert.Equal(t, "Eat", villager.Name(mem.Active))
	assert.Equal(t, uint64(2), ctx.BadTargets())
}

func TestRowsNamingAnotherMachinesStateAreRefused(t *testing.T) {
	w := NewBuilder("wolf")
	w.State("Prowl", Hooks{})
	hunt := w.State("Hunt", Hooks{})

	v := NewBuilder("villager")
	work := v.State("Work", Hooks{})
	v.State("Eat", Hooks{})
	v.On(work, 1, hunt)
	_, err := v.Build()
	require.ErrorIs(t, err, ErrUnknownState)
	assert.Contains(t, err.Error(), `"Work" → StateID(2 of another machine)`)

	v = NewBuilder("villager")
	v.State("Work", Hooks{})
	v.State("Eat", Hooks{})
	v.When(hunt, func(*Context) bool { return true }, work)
	_, err = v.Build()
	require.ErrorIs(t, err, ErrUnknownState, "From too")

	v = NewBuilder("villager")
	v.State("Work", Hooks{})
	v.State("Eat", Hooks{})
	v.Substate(hunt, "Chase", Hooks{})
	_, err = v.Build()
	require.ErrorIs(t, err, ErrUnknownState, "a parent of another machine")
	assert.Contains(t, err.Error(), "parent StateID(2 of another machine)")

	v = NewBuilder("villager")
	v.State("Work", Hooks{})
	v.On(work, 1, 1) // a number written by hand: no tag
	_, err = v.Build()
	require.ErrorIs(t, err, ErrUnknownState)
	assert.Contains(t, err.Error(), "→ StateID(1))")
}

func TestAnotherMachinesStateIsNoneOfMine(t *testing.T) {
	var ret StateID
	villager, wolf, vid, wid := twoMachines(t, &ret)
	hunt := wid["Hunt"]
	assert.False(t, villager.Has(hunt))
	assert.True(t, wolf.Has(hunt))
	assert.False(t, villager.Has(2), "a number written by hand")
	assert.False(t, villager.Has(Any))
	assert.False(t, villager.Has(None))
	assert.Equal(t, "StateID(2 of another machine)", villager.Name(hunt))
	assert.Equal(t, "StateID(2 of another machine)", villager.FullName(hunt))
	assert.Equal(t, None, villager.Parent(hunt))

	// A Memory of the wolf's machine given to the villager's: not read as Eat, but as
	// no state of the villager's (restarted, like any Active that is not its own).
	mem := Memory{Active: hunt, Previous: wid["Prowl"], Transitions: 4}
	assert.False(t, villager.IsActive(&mem, vid["Eat"]))
	var path [MaxDepth]StateID
	assert.Equal(t, 0, villager.Path(&mem, path[:]))
	villager.Update(&mem, &Context{DT: 0.1})
	assert.Equal(t, vid["Work"], mem.Active)
	assert.Equal(t, uint32(5), mem.Transitions)
}

// A StateID depends on the machine's name and the state's index only: not on what
// else the process built first, so a saved Memory means the same in another process.
// The tag is FNV-1a (32 bits) of the name, mod 65,535, plus 1: pinned here, since a
// change would make every saved Memory another machine's.
func TestStateIDsDependOnNameAndIndexOnly(t *testing.T) {
	build := func() *Machine {
		b := NewBuilder("villager")
		b.State("Work", Hooks{})
		b.State("Eat", Hooks{})
		m, err := b.Build()
		require.NoError(t, err)
		return m
	}
	first := build()
	for _, name := range []string{"wolf", "rat", "guard"} {
		b := NewBuilder(name)
		b.State("S", Hooks{})
		_, _ = b.Build()
	}
	again := build()
	assert.Equal(t, first.State(2), again.State(2))
	assert.Equal(t, StateID(0x07dc0002), first.State(2), "villager's tag is 0x07dc")
	assert.Equal(t, StateID(0x0b060001), NewBuilder("wolf").State("S", Hooks{}))
	assert.Equal(t, StateID(0x1ee30001), NewBuilder("").State("S", Hooks{}))
	id, ok := first.Lookup("Eat")
	assert.True(t, ok)
	assert.Equal(t, first.State(2), id)
	assert.Equal(t, 2, id.Index())
	assert.Equal(t, None, first.State(0))
	assert.Equal(t, None, first.State(3))
}

// A machine whose tag is 0xffff has Any's high bits: Any (index 65535, past MaxStates)
// is still no state of it, and its any-state rows still apply.
func TestAMachineOfAnysTag(t *testing.T) {
	name := ""
	for i := 0; name == ""; i++ {
		if n := "m" + strconv.Itoa(i); tagOf(n) == Any&^indexMask {
			name = n
		}
	}
	b := NewBuilder(name)
	a := b.State("A", Hooks{Update: func(*Context) StateID { return Any }})
	c := b.State("B", Hooks{})
	b.On(Any, 1, c)
	m, err := b.Build()
	require.NoError(t, err)
	assert.Equal(t, Any&^indexMask|1, a)
	assert.False(t, m.Has(Any))
	assert.Equal(t, "Any", m.Name(Any))
	var mem Memory
	ctx := &Context{}
	m.Update(&mem, ctx)
	m.Update(&mem, ctx)
	assert.Equal(t, a, mem.Active)
	assert.Equal(t, uint64(2), ctx.BadTargets(), "returning Any is counted")
	assert.True(t, m.Dispatch(&mem, ctx, 1))
	assert.Equal(t, c, mem.Active)
}
