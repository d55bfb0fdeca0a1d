package fsm

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tracer records the Enter and Exit hooks run in each update, as "+Day +Work" and
// "-Work +Eat".
type tracer struct{ log []string }

func (tr *tracer) hooks(name string) Hooks {
	return Hooks{
		Enter: func(*Context) { tr.log = append(tr.log, "+"+name) },
		Exit:  func(*Context) { tr.log = append(tr.log, "-"+name) },
	}
}

// run updates m n times with DT 1 and returns each update's trace.
func (tr *tracer) run(m *Machine, mem *Memory, n int) []string {
	ctx := &Context{DT: 1}
	var out []string
	for i := 0; i < n; i++ {
		tr.log = tr.log[:0]
		ctx.Time = float64(i)
		m.Update(mem, ctx)
		out = append(out, strings.Join(tr.log, " "))
	}
	return out
}

// An Update hook that returns its own state to mean "stay" stays: Work is entered
// once in 5 updates, and Elapsed counts (it used to re-enter Work on every update,
// Elapsed stuck at 0).
func TestUpdateReturningOwnStateStays(t *testing.T) {
	var tr tracer
	b := NewBuilder("villager")
	day := b.State("Day", tr.hooks("Day"))
	var work StateID
	h := tr.hooks("Work")
	below := 0
	h.Update = func(*Context) StateID { return work }
	work = b.Substate(day, "Work", h)
	hb := tr.hooks("Tool")
	hb.Update = func(*Context) StateID { below++; return None }
	b.Substate(work, "Tool", hb)
	m, err := b.Build()
	require.NoError(t, err)
	var mem Memory
	assert.Equal(t, []string{"+Day +Work +Tool", "", "", "", ""}, tr.run(m, &mem, 5))
	assert.Equal(t, 4.0, mem.Elapsed)
	assert.Equal(t, uint32(1), mem.Transitions)
	assert.Equal(t, 5, below, "a hook that stays lets the hooks below run, as None does")
}

// A parent's hook returning its active leaf or itself stays too; one returning a
// state below it that is not active is a local transition: the parent is not left.
func TestParentHookReturningDescendant(t *testing.T) {
	var tr tracer
	b := NewBuilder("villager")
	var eat, work StateID
	target := func() StateID { return work }
	h := tr.hooks("Day")
	n := 0
	h.Update = func(*Context) StateID {
		n++
		if n >= 3 {
			return eat
		}
		return target()
	}
	day := b.State("Day", h)
	work = b.Substate(day, "Work", tr.hooks("Work"))
	eat = b.Substate(day, "Eat", tr.hooks("Eat"))
	m, err := b.Build()
	require.NoError(t, err)
	var mem Memory
	assert.Equal(t, []string{"+Day +Work", "", "-Work +Eat", "", ""}, tr.run(m, &mem, 5))
	assert.Equal(t, eat, mem.Active)
	assert.Equal(t, uint32(2), mem.Transitions)
}

// A row from a parent to its own child ("while in Day, when hungry go to Eat") is a
// local transition taken once: Day is not left, and Eat is not entered again while the
// guard holds (it used to re-enter Day and Eat on every update).
func TestParentRowToOwnChildIsLocal(t *testing.T) {
	var tr tracer
	b := NewBuilder("villager")
	day := b.State("Day", tr.hooks("Day"))
	work := b.Substate(day, "Work", tr.hooks("Work"))
	eat := b.Substate(day, "Eat", tr.hooks("Eat"))
	hungry := false
	b.When(day, func(*Context) bool { return hungry }, eat)
	b.When(eat, func(*Context) bool { return !hungry }, work)
	m, err := b.Build()
	require.NoError(t, err)
	var mem Memory
	got := tr.run(m, &mem, 2)
	hungry = true
	got = append(got, tr.run(m, &mem, 3)...)
	assert.Equal(t, []string{"+Day +Work", "", "-Work +Eat", "", ""}, got)
	assert.Equal(t, 2.0, mem.Elapsed, "Eat's time counts")
	hungry = false
	assert.Equal(t, []string{"-Eat +Work"}, tr.run(m, &mem, 1))
}

// A row deeper down: from Day to Day/Eat/Chew leaves the states below Day and enters
// Eat and Chew; while Chew is active the row is skipped, and a row from Day to Eat is
// skipped too (Eat is active), so rows after it are tried. A local transition leaves
// every active state below its source, as SCXML's type="internal" does: Day → Swallow
// from Chew exits Chew and Eat, and enters Eat and Swallow.
func TestParentRowToGrandchild(t *testing.T) {
	var tr tracer
	b := NewBuilder("villager")
	day := b.State("Day", tr.hooks("Day"))
	b.Substate(day, "Work", tr.hooks("Work"))
	eat := b.Substate(day, "Eat", tr.hooks("Eat"))
	chew := b.Substate(eat, "Chew", tr.hooks("Chew"))
	swallow := b.Substate(eat, "Swallow", tr.hooks("Swallow"))
	b.When(day, func(c *Context) bool { return c.Time < 3 }, chew)
	b.When(day, func(*Context) bool { return true }, eat)
	b.When(day, func(c *Context) bool { return c.Time >= 3 }, swallow)
	m, err := b.Build()
	require.NoError(t, err)
	var mem Memory
	assert.Equal(t, []string{"+Day +Work -Work +Eat +Chew", "", "", "-Chew -Eat +Eat +Swallow", ""}, tr.run(m, &mem, 5))
	assert.Equal(t, uint32(3), mem.Transitions, "start, → Chew, → Swallow")
}

// A row from a state to itself, or to its parent, is external as in UML: it exits and
// re-enters, on every update while its guard holds. Memory.Reentries counts such
// updates in a row, and goes back to 0 at an update that stays.
func TestSelfRowReentersAndCounts(t *testing.T) {
	var tr tracer
	b := NewBuilder("villager")
	day := b.State("Day", tr.hooks("Day"))
	work := b.Substate(day, "Work", tr.hooks("Work"))
	restart := false
	b.When(work, func(*Context) bool { return restart }, day)
	m, err := b.Build()
	require.NoError(t, err)
	var mem Memory
	got := tr.run(m, &mem, 1)
	restart = true
	got = append(got, tr.run(m, &mem, 2)...)
	assert.Equal(t, []string{"+Day +Work", "-Work -Day +Day +Work", "-Work -Day +Day +Work"}, got)
	assert.Equal(t, uint32(2), mem.Reentries)
	assert.Equal(t, 0.0, mem.Elapsed)
	restart = false
	tr.run(m, &mem, 1)
	assert.Equal(t, uint32(0), mem.Reentries)
	assert.Equal(t, 1.0, mem.Elapsed)
}

// Reentries goes back to 0 at a transition to another leaf.
func TestReentriesEndAtAnotherLeaf(t *testing.T) {
	b := NewBuilder("m")
	a := b.State("A", Hooks{})
	c := b.State("C", Hooks{})
	n := 0
	b.When(a, func(*Context) bool { n++; return n < 4 }, a)
	b.When(a, func(*Context) bool { return true }, c)
	m, err := b.Build()
	require.NoError(t, err)
	var mem Memory
	ctx := &Context{DT: 1}
	var seen []uint32
	for i := 0; i < 5; i++ {
		m.Update(&mem, ctx)
		seen = append(seen, mem.Reentries)
	}
	assert.Equal(t, []uint32{1, 2, 3, 0, 0}, seen)
}

// Path returns the number of active states even when dst is too short, and writes
// the outermost ones that fit.
func TestPathShortSliceReturnsCountNeeded(t *testing.T) {
	b := NewBuilder("villager")
	day := b.State("Day", Hooks{})
	work := b.Substate(day, "Work", Hooks{})
	m, err := b.Build()
	require.NoError(t, err)
	var mem Memory
	assert.Equal(t, 0, m.Path(&mem, nil), "not started")
	m.Update(&mem, &Context{})
	assert.Equal(t, 2, m.Path(&mem, nil))
	one := []StateID{None}
	assert.Equal(t, 2, m.Path(&mem, one))
	assert.Equal(t, []StateID{day}, one)
	var full [MaxDepth]StateID
	assert.Equal(t, []StateID{day, work}, full[:m.Path(&mem, full[:])])
}

// A second Initial for one parent naming another child is an error of Build; the
// same child twice is not.
func TestInitialTwice(t *testing.T) {
	b := NewBuilder("villager")
	day := b.State("Day", Hooks{})
	work := b.Substate(day, "Work", Hooks{})
	eat := b.Substate(day, "Eat", Hooks{})
	b.Initial(day, eat)
	b.Initial(day, work)
	_, err := b.Build()
	require.ErrorIs(t, err, ErrInitialTwice)
	assert.Equal(t, `fsm: machine "villager": initial "Work" of "Day": a second initial state for one parent ("Eat" already is)`, err.Error())

	b = NewBuilder("villager")
	day = b.State("Day", Hooks{})
	b.Substate(day, "Work", Hooks{})
	eat = b.Substate(day, "Eat", Hooks{})
	b.Initial(day, eat)
	b.Initial(day, eat)
	m, err := b.Build()
	require.NoError(t, err)
	var mem Memory
	m.Update(&mem, &Context{})
	assert.Equal(t, eat, mem.Active)
}

// Two rows A→B and B→A whose guards both hold send the machine back and forth on
// every update: Reentries counts that too (the leaf entered is the one before the
// leaf left), so Diagnose reports it. Before, it stayed 0 (101 transitions in 100
// updates, nothing said; found by a reviewer). A machine that stays in a state for
// an update between its transitions counts nothing.
func TestReentriesCountABounceBetweenTwoStates(t *testing.T) {
	b := NewBuilder("m")
	a := b.State("A", Hooks{})
	c := b.State("B", Hooks{})
	calm := false
	b.When(a, func(*Context) bool { return true }, c)
	b.When(c, func(*Context) bool { return !calm }, a)
	m, err := b.Build()
	require.NoError(t, err)
	var mem Memory
	ctx := &Context{DT: 1}
	var seen []uint32
	for range 6 {
		m.Update(&mem, ctx)
		seen = append(seen, mem.Reentries)
	}
	// start in A and go to B (no leaf before A), B→A, A→B, ...
	assert.Equal(t, []uint32{0, 1, 2, 3, 4, 5}, seen)
	calm = true // B now stays: an update without a transition ends the run
	seen = seen[:0]
	for range 4 {
		m.Update(&mem, ctx)
		seen = append(seen, mem.Reentries)
	}
	assert.Equal(t, uint32(0), seen[len(seen)-1])
}

// A state entered by an event on every frame and left by a guard row at the next
// Update (a one-update Flinch under fire) stays a whole update in each state: no
// bounce of two guard rows, and Reentries must not count it. It did (2 a frame:
// Diagnose's note blamed "rows from each to the other whose guards both hold"
// after two frames). Nor do events dispatched in a batch, toggling a state with no
// Update between. A self-transition by an event still counts, as before.
func TestReentriesLeaveBouncesTakenByEvents(t *testing.T) {
	const hit Event = 1
	b := NewBuilder("m")
	idle := b.State("Idle", Hooks{})
	flinch := b.State("Flinch", Hooks{})
	b.On(idle, hit, flinch)
	b.When(flinch, func(*Context) bool { return true }, idle)
	b.On(flinch, 2, idle)
	m, err := b.Build()
	require.NoError(t, err)
	var mem Memory
	ctx := &Context{DT: 1}
	var seen []uint32
	for range 6 {
		m.Update(&mem, ctx)
		require.Equal(t, idle, mem.Active)
		require.True(t, m.Dispatch(&mem, ctx, hit))
		seen = append(seen, mem.Reentries)
	}
	assert.Equal(t, []uint32{0, 0, 0, 0, 0, 0}, seen, "after each frame's Dispatch")
	for range 6 { // a batch: Flinch→Idle (2), Idle→Flinch (hit), ...
		require.True(t, m.Dispatch(&mem, ctx, 2))
		require.True(t, m.Dispatch(&mem, ctx, hit))
	}
	assert.Equal(t, uint32(0), mem.Reentries, "events toggling in a batch")

	b = NewBuilder("self")
	s := b.State("S", Hooks{})
	b.On(s, hit, s)
	self, err := b.Build()
	require.NoError(t, err)
	mem = Memory{}
	for range 5 {
		self.Dispatch(&mem, ctx, hit)
	}
	assert.Equal(t, uint32(5), mem.Reentries, "a self-transition by an event")
}

// Has (and every check of a state inside fsm) holds on 32-bit builds too: under
// GOARCH=386 int(uint32(id−tag−1)) was negative for None and for another
// machine's states, so they were taken as states of m (Update then indexed
// states[0] of None, TestBadDTCountsAsZero panicked there).
func TestHasRefusesNoneAndOtherMachinesOnEveryWordSize(t *testing.T) {
	b := NewBuilder("one")
	a := b.State("A", Hooks{})
	m, err := b.Build()
	require.NoError(t, err)
	o := NewBuilder("other")
	x := o.State("X", Hooks{})
	o.State("Y", Hooks{})
	_, err = o.Build()
	require.NoError(t, err)
	assert.True(t, m.Has(a))
	assert.False(t, m.Has(None), "None")
	assert.False(t, m.Has(x), "another machine's state")
	assert.False(t, m.Has(a+1), "an index past Len")
	assert.False(t, m.Has(StateID(1)), "an index without a tag")
	assert.False(t, (&Machine{}).Has(a), "a Machine not made by Build")
}
