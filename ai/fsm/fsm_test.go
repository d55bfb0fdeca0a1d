package fsm

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// logAgent records hook calls.
type logAgent struct {
	log   []string
	flags map[string]bool // read by guards; tests only
}

func (a *logAgent) take() string {
	s := strings.Join(a.log, " ")
	a.log = a.log[:0]
	return s
}

func logged(name string) Hooks {
	return Hooks{
		Enter: func(c *Context) { c.Agent.(*logAgent).log = append(c.Agent.(*logAgent).log, "+"+name) },
		Exit:  func(c *Context) { c.Agent.(*logAgent).log = append(c.Agent.(*logAgent).log, "-"+name) },
	}
}

func flag(name string) func(*Context) bool {
	return func(c *Context) bool { return c.Agent.(*logAgent).flags[name] }
}

// nested builds
//
//	A
//	├── A1
//	└── A2
//	    ├── A2a
//	    └── A2b
//	B
//	└── B1
func nested(t *testing.T, rows ...Transition) (*Machine, map[string]StateID) {
	b := NewBuilder("nested")
	ids := map[string]StateID{}
	ids["A"] = b.State("A", logged("A"))
	ids["A1"] = b.Substate(ids["A"], "A1", logged("A1"))
	ids["A2"] = b.Substate(ids["A"], "A2", logged("A2"))
	ids["A2a"] = b.Substate(ids["A2"], "A2a", logged("A2a"))
	ids["A2b"] = b.Substate(ids["A2"], "A2b", logged("A2b"))
	ids["B"] = b.State("B", logged("B"))
	ids["B1"] = b.Substate(ids["B"], "B1", logged("B1"))
	for _, r := range rows { // rows name states by index (the IDs carry the machine's tag)
		if r.From != Any {
			r.From |= b.tag
		}
		r.To |= b.tag
		b.Transition(r)
	}
	m, err := b.Build()
	require.NoError(t, err)
	return m, ids
}

const (
	evGo Event = iota + 1
	evSelf
	evUp
	evB
	evSibling
)

func TestNestedEnterExitOrder(t *testing.T) {
	// IDs in order of addition: A 1, A1 2, A2 3, A2a 4, A2b 5, B 6, B1 7.
	m, id := nested(t,
		Transition{From: 2, Event: evSibling, To: 3}, // A1 → A2
		Transition{From: 5, Event: evB, To: 6},       // A2b → B
		Transition{From: 4, Event: evGo, To: 5},      // A2a → A2b
		Transition{From: 1, Event: evSelf, To: 1},    // A → A (external self)
		Transition{From: 4, Event: evUp, To: 3},      // A2a → A2 (to an ancestor)
		Transition{From: 7, Event: evGo, To: 5},      // B1 → A2b, across the root
	)
	require.Equal(t, 2, id["A1"].Index())
	require.Equal(t, 7, id["B1"].Index())
	ag := &logAgent{}
	ctx := &Context{Agent: ag}
	var mem Memory

	m.Update(&mem, ctx)
	assert.Equal(t, "+A +A1", ag.take(), "start: outer first, down to the initial leaf")
	assert.Equal(t, id["A1"], mem.Active)

	assert.True(t, m.Dispatch(&mem, ctx, evSibling))
	assert.Equal(t, "-A1 +A2 +A2a", ag.take(), "sibling: A stays, A2 enters its initial substate")

	assert.True(t, m.Dispatch(&mem, ctx, evGo))
	assert.Equal(t, "-A2a +A2b", ag.take())

	assert.True(t, m.Dispatch(&mem, ctx, evB))
	assert.Equal(t, "-A2b -A2 -A +B +B1", ag.take(), "across the root: inner exits first, outer enters first")

	assert.True(t, m.Dispatch(&mem, ctx, evGo))
	assert.Equal(t, "-B1 -B +A +A2 +A2b", ag.take(), "enter down to a non-initial target")

	assert.False(t, m.Dispatch(&mem, ctx, evUp), "A2b has no evUp row")
	m.Dispatch(&mem, ctx, evB)
	m.Dispatch(&mem, ctx, evGo)
	ag.take()

	assert.True(t, m.Dispatch(&mem, ctx, evSelf), "A's row fires from its descendant A2b")
	assert.Equal(t, "-A2b -A2 -A +A +A1", ag.take(), "external self transition re-enters A")

	m.Dispatch(&mem, ctx, evSibling)
	ag.take()
	assert.True(t, m.Dispatch(&mem, ctx, evUp))
	assert.Equal(t, "-A2a -A2 +A2 +A2a", ag.take(), "to an ancestor: exits and re-enters it")

	m.Stop(&mem, ctx)
	assert.Equal(t, "-A2a -A2 -A", ag.take())
	assert.Equal(t, None, mem.Active)
	m.Stop(&mem, ctx)
	assert.Equal(t, "", ag.take(), "stopping a stopped machine does nothing")
}

func TestPriorityDeepestFirstAnyBeforeAll(t *testing.T) {
	ag := &logAgent{flags: map[string]bool{}}
	m, id := nested(t,
		Transition{From: 1, Guard: flag("outer"), To: 6}, // A → B
		Transition{From: 2, Guard: flag("inner"), To: 3}, // A1 → A2
		Transition{From: Any, Guard: flag("any"), To: 7}, // * → B1
	)
	ctx := &Context{Agent: ag}
	var mem Memory
	m.Update(&mem, ctx)
	ag.take()

	ag.flags["outer"], ag.flags["inner"] = true, true
	m.Update(&mem, ctx)
	assert.Equal(t, id["A2a"], mem.Active, "the deepest state's row wins")
	assert.Equal(t, "-A1 +A2 +A2a", ag.take(), "one row per update")

	ag.flags["any"] = true
	m.Update(&mem, ctx)
	assert.Equal(t, id["B1"], mem.Active, "any-state rows come first")
	ag.take()
	m.Update(&mem, ctx)
	assert.Equal(t, "", ag.take(), "an any-state row does not restart an active target")
}

func TestUpdateHookTransitionsAndElapsed(t *testing.T) {
	b := NewBuilder("timer")
	var red, green StateID
	var updates []string
	red = b.State("Red", Hooks{Update: func(c *Context) StateID {
		updates = append(updates, "Red")
		if c.Memory.Elapsed >= 1 {
			return green
		}
		return None
	}})
	sub := b.Substate(red, "Blink", Hooks{Update: func(c *Context) StateID {
		updates = append(updates, "Blink")
		return None
	}})
	green = b.State("Green", Hooks{})
	m, err := b.Build()
	require.NoError(t, err)

	ctx := &Context{Agent: &logAgent{}, DT: 0.4}
	var mem Memory
	m.Update(&mem, ctx)
	assert.Equal(t, sub, mem.Active)
	assert.Equal(t, 0.0, mem.Elapsed, "0 in the update that entered it")
	assert.Equal(t, []string{"Red", "Blink"}, updates, "outer first")
	m.Update(&mem, ctx) // 0.4
	m.Update(&mem, ctx) // 0.8
	assert.Equal(t, sub, mem.Active)
	updates = nil
	m.Update(&mem, ctx) // 1.2: Red's hook moves on; Blink's is skipped
	assert.Equal(t, green, mem.Active)
	assert.Equal(t, sub, mem.Previous)
	assert.Equal(t, []string{"Red"}, updates)
	assert.Equal(t, uint32(2), mem.Transitions)
	assert.Nil(t, ctx.Memory, "the context is cleared after a call")
}

func TestObserverLogsTransitions(t *testing.T) {
	b := NewBuilder("log")
	idle := b.State("Idle", Hooks{})
	run := b.State("Run", Hooks{})
	b.On(idle, evGo, run)
	var log []string
	var m *Machine
	b.Observe(func(c *Context, from, to StateID) { log = append(log, m.Name(from)+"→"+m.Name(to)) })
	m, err := b.Build()
	require.NoError(t, err)
	ctx := &Context{}
	var mem Memory
	m.Dispatch(&mem, ctx, evGo) // starts, then takes the row
	m.Stop(&mem, ctx)
	assert.Equal(t, []string{"None→Idle", "Idle→Run", "Run→None"}, log)
}

func TestPathAndIsActive(t *testing.T) {
	m, id := nested(t, Transition{From: 2, Event: evSibling, To: 3})
	ctx := &Context{Agent: &logAgent{}}
	var mem Memory
	m.Dispatch(&mem, ctx, evSibling)
	var p [MaxDepth]StateID
	n := m.Path(&mem, p[:])
	assert.Equal(t, []StateID{id["A"], id["A2"], id["A2a"]}, p[:n])
	assert.True(t, m.IsActive(&mem, id["A2"]))
	assert.False(t, m.IsActive(&mem, id["B"]))
	assert.Equal(t, id["A"], m.Parent(id["A2"]))
	assert.Equal(t, "A2a", m.Name(mem.Active))
	assert.Equal(t, "StateID(99)", m.Name(99), "written by hand: no tag")
	assert.Equal(t, "StateID(99)", m.Name(id["A"]&^0xffff|99), "out of range")
	assert.Equal(t, "StateID(2 of another machine)", m.Name(NewBuilder("other").State("X", Hooks{})+1))
}

func TestBadMemoryRestarts(t *testing.T) {
	m, id := nested(t)
	ag := &logAgent{}
	mem := Memory{Active: 200}
	m.Update(&mem, &Context{Agent: ag})
	assert.Equal(t, id["A1"], mem.Active)
	assert.Equal(t, "+A +A1", ag.take())
}

func TestBuildErrors(t *testing.T) {
	_, err := NewBuilder("empty").Build()
	assert.True(t, errors.Is(err, ErrNoStates))

	b := NewBuilder("m")
	a := b.State("a", Hooks{})
	b.When(a, nil, a)
	_, err = b.Build()
	assert.True(t, errors.Is(err, ErrEventGuard))
	assert.EqualError(t, err, `fsm: machine "m": transition 0 (a → a): transition without event or guard`)

	b = NewBuilder("m")
	a = b.State("a", Hooks{})
	b.On(a, evGo, 9)
	_, err = b.Build()
	assert.True(t, errors.Is(err, ErrUnknownState))

	b = NewBuilder("m")
	a = b.State("a", Hooks{})
	b.On(a, evGo, Any)
	_, err = b.Build()
	assert.True(t, errors.Is(err, ErrUnknownState), "To may not be Any")

	b = NewBuilder("m")
	b.Substate(4, "orphan", Hooks{})
	_, err = b.Build()
	assert.True(t, errors.Is(err, ErrUnknownState))

	b = NewBuilder("m")
	a = b.State("a", Hooks{})
	c := b.State("c", Hooks{})
	b.Initial(a, c)
	_, err = b.Build()
	assert.True(t, errors.Is(err, ErrNotChild))

	b = NewBuilder("deep")
	s := b.State("0", Hooks{})
	for range MaxDepth {
		s = b.Substate(s, "x", Hooks{})
	}
	_, err = b.Build()
	assert.True(t, errors.Is(err, ErrTooDeep))
}

func TestInitialOverride(t *testing.T) {
	b := NewBuilder("m")
	a := b.State("a", Hooks{})
	b.Substate(a, "a1", Hooks{})
	a2 := b.Substate(a, "a2", Hooks{})
	b.Initial(a, a2)
	m, err := b.Build()
	require.NoError(t, err)
	var mem Memory
	m.Update(&mem, &Context{})
	assert.Equal(t, a2, mem.Active)
}

func TestUpdateAllocatesNothing(t *testing.T) {
	type agent struct{ hp, enemy float64 }
	b := NewBuilder("guard")
	var idle, combat, dead StateID
	idle = b.State("Idle", Hooks{})
	combat = b.State("Combat", Hooks{})
	engage := b.Substate(combat, "Engage", Hooks{Update: func(c *Context) StateID {
		c.Agent.(*agent).enemy -= 1
		return None
	}})
	_ = engage
	dead = b.State("Dead", Hooks{})
	b.When(idle, func(c *Context) bool { return c.Agent.(*agent).enemy > 0 }, combat)
	b.When(combat, func(c *Context) bool { return c.Agent.(*agent).enemy <= 0 }, idle)
	b.When(Any, func(c *Context) bool { return c.Agent.(*agent).hp <= 0 }, dead)
	m, err := b.Build()
	require.NoError(t, err)
	agents := make([]agent, 32)
	mems := make([]Memory, 32)
	ctx := &Context{DT: 0.1}
	i := 0
	allocs := testing.AllocsPerRun(1000, func() {
		k := i % 32
		a := &agents[k]
		if i%7 == 0 {
			a.enemy = 3
		}
		a.hp = float64(100 - i%101)
		ctx.Agent = a
		m.Update(&mems[k], ctx)
		i++
	})
	assert.Equal(t, 0.0, allocs)
}

func TestZeroMachineDoesNotPanic(t *testing.T) {
	var m Machine
	var mem Memory
	m.Update(&mem, &Context{})
	assert.False(t, m.Dispatch(&mem, &Context{}, evGo))
	m.Stop(&mem, &Context{})
	assert.Equal(t, None, mem.Active)
}

// Hooks.Activity is kept for tools: Machine.Activity returns it for its state, nil for
// a state without one, None, Any and another machine's state.
func TestActivityIsKeptForTools(t *testing.T) {
	type tree struct{ name string }
	chop := &tree{"chop"}
	b := NewBuilder("villager")
	work := b.State("Work", Hooks{Activity: chop})
	idle := b.State("Idle", Hooks{})
	m, err := b.Build()
	require.NoError(t, err)
	other := NewBuilder("wolf")
	wolfWork := other.State("Work", Hooks{Activity: chop})
	_, err = other.Build()
	require.NoError(t, err)
	assert.Same(t, chop, m.Activity(work))
	assert.Nil(t, m.Activity(idle))
	assert.Nil(t, m.Activity(None))
	assert.Nil(t, m.Activity(Any))
	assert.Nil(t, m.Activity(wolfWork), "another machine's state of the same index")
}
