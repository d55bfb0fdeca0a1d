package fsm

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/archai-go/archai/ai/blackboard"
)

// StateID identifies a state of one machine: its low 16 bits are the state's index in
// the machine ([StateID.Index]: 1, 2, … in the order the states were added), its high
// 16 bits a tag of the machine, a hash of the name given to [NewBuilder] (never 0).
// So the StateIDs of two machines differ even where their indices agree: a machine
// takes no StateID of another machine (Build refuses one in a transition row, an
// Update hook returning one transitions nowhere and counts in [Context.BadTargets]),
// and a StateID is the same in every process that builds the machine under that name,
// whatever else it builds first (saved Memory stays valid). Two machines of one name
// share a tag, as do two names in about 65,535 pairs (a hash of 16 bits): their
// StateIDs are told apart by index alone, as before tags. The zero StateID is None.
//
// Use the StateIDs the [Builder] returns, or [Machine.Lookup] and [Machine.State]; a
// number written by hand (StateID(2)) has no tag and is no state of any machine.
type StateID uint32

// None is no state: the active state of a machine that has not started, and what an
// Update hook returns to stay.
const None StateID = 0

// Any is the From of an any-state transition: it applies whatever state is active.
const Any StateID = 1<<32 - 1

// MaxStates is the largest number of states a machine may have.
const MaxStates = int(indexMask) - 1

// Index returns id's index in its machine: 1, 2, … in the order the states were added
// (0 for None). It drops the machine's tag, so it does not tell machines apart.
func (id StateID) Index() int { return int(id & indexMask) }

// MaxDepth is the deepest nesting of states: a top-level state has depth 1.
const MaxDepth = 16

// Event is a user-defined event number dispatched with [Machine.Dispatch]. The zero
// Event, NoEvent, marks a transition that is checked on every [Machine.Update].
type Event uint16

// NoEvent is the Event of guard-only transitions.
const NoEvent Event = 0

// Context is what hooks and guards see. The caller owns it: set Agent, DT and Time,
// then call [Machine.Update] or [Machine.Dispatch]. One Context may be reused for every
// agent, but not by two goroutines at once.
type Context struct {
	// Agent is the caller's per-agent view; fsm never inspects it.
	Agent any
	// DT is the seconds of simulation time since this agent's machine was last updated.
	DT float64
	// Time is the simulation time in seconds.
	Time float64
	// Event is the event being dispatched during [Machine.Dispatch], else NoEvent.
	Event Event
	// Memory is the agent's machine state during a call, for hooks that want the time
	// in state or the previous state; nil outside calls.
	Memory *Memory
	// Blackboard is the agent's blackboard store, for hooks and guards that read or
	// write designer-declared keys (blackboard.Get, blackboard.Set). The caller sets it;
	// fsm never reads it. It may be nil: keys then read as missing.
	Blackboard *blackboard.Store

	badTargets  uint64 // see BadTargets
	clockFaults uint64 // see ClockFaults
	f           frame  // during a call: see begin
}

// ClockFaults counts, since the Context was made, the [Machine.Update] calls whose DT
// was NaN, infinite or negative or whose Time was NaN or infinite, and which therefore
// ran with 0 in their place (as bt.Context.ClockFaults), and those that found the
// Memory's Elapsed NaN, infinite or negative and counted it from 0 again. A correct
// caller sees 0; systems.FSM sums its workers' counts in FSM.ClockFaults.
func (c *Context) ClockFaults() uint64 { return c.clockFaults }

// BadTargets counts, since the Context was made, the Update hooks that returned a
// StateID that is no state of the machine updated (another machine's state, Any,
// an index out of range, a number written by hand; see [StateID]): such a return
// transitions nowhere (see [Hooks]). A
// correct machine keeps it at 0; systems.FSM sums its workers' counts in
// FSM.BadTargets.
func (c *Context) BadTargets() uint64 { return c.badTargets }

// Hooks are a state's functions; any may be nil. They are shared by every agent:
// per-agent data belongs in ctx.Agent.
type Hooks struct {
	// Enter runs when the state becomes active, after its parent's Enter.
	Enter func(ctx *Context)
	// Update runs on every [Machine.Update] while the state is active, after its
	// parent's Update. Returning None stays. Returning a state that is already active
	// (this state, the active leaf or one of its ancestors) stays too, as None does:
	// "stay in Work" written as return Work neither exits nor enters Work, and
	// Memory.Elapsed goes on counting (to leave a state and enter it again, add a
	// transition row from it to itself). Returning another state transitions there at
	// once (transitions kept inside states; one below this state is a local
	// transition, see [Machine]); the Update hooks of the states below this one
	// are then skipped for this update. A returned StateID that is no state of this
	// machine (another machine's, Any, out of range, a number written by hand; see
	// [StateID] on the tag that tells machines apart) transitions nowhere: the machine
	// stays, the hooks below are skipped all the same, and [Context.BadTargets]
	// counts it.
	Update func(ctx *Context) StateID
	// Exit runs when the state stops being active, after its children's Exit.
	Exit func(ctx *Context)
	// Activity describes what the state does while active, for debuggers and tools
	// (UML's do-activity); fsm never reads it. hybrid.TreeState sets it to the
	// *bt.Tree the state ticks, so the debug viewer (systems/debugview) shows that
	// tree under the state. Read it back with [Machine.Activity].
	Activity any
	// Err, if not nil, is why these hooks cannot do their job: a constructor of hooks
	// given what it cannot run (hybrid.TreeState with a nil tree or run function)
	// says so here, and [Builder.Build] refuses the state with an error wrapping
	// ErrHooks and Err, rather than a state that silently does nothing.
	Err error
}

// Transition is a row of a machine's transition table: when From is active (itself or
// any state below it), Event is dispatched (or, for NoEvent, on every Update) and Guard
// allows it (a nil Guard always allows), go to To.
type Transition struct {
	From  StateID // a state, or Any
	Event Event   // NoEvent: checked on Update
	Guard func(ctx *Context) bool
	To    StateID
}

// Memory is one agent's state of one machine: plain data, 24 bytes, kept in the agent's
// component. The zero Memory is a machine not yet started.
//
// Elapsed is the time in the active leaf only: a transition between two substates of
// a parent P starts it from 0 again, though P stays active. For "leave P after 8 s"
// while P's substates change, record the time P was entered in its Enter hook (in the
// agent's data or blackboard: ctx.Time) and compare ctx.Time with it in the guard (see
// Example_timeInParent).
type Memory struct {
	// Active is the active leaf state (its ancestors are active too), or None before
	// the first Update and after [Machine.Stop].
	Active StateID
	// Previous is the leaf state active before the last transition.
	Previous StateID
	// Transitions counts the transitions taken (starting counts as one).
	Transitions uint32
	// Reentries counts the consecutive transitions that entered again the leaf they
	// left (a row from a state to itself or to one of its ancestors, taken again and
	// again while its guard holds) or, by Update (a guard row or an Update hook, not
	// an event's transition), the leaf active before it (A→B→A→B…: two rows whose
	// guards both hold), with no Update without a transition between them; 0
	// otherwise. systems.Diagnose counts a machine that keeps it at
	// systems.ReentryLimit or more (CauseStateReentered). It fits in padding: Memory is
	// still 24 bytes, and a zero Reentries is left out of saved worlds.
	Reentries uint32 `json:",omitempty"`
	// Elapsed is the seconds spent in Active: the sum of DT over the updates since it
	// was entered (0 in the update that entered it). Only the active leaf's time: see
	// [Memory] for a parent's.
	Elapsed float64
}

// Builder describes a machine: states (nested with [Builder.Substate]), their hooks and
// a transition table. Add states and transitions, then call [Builder.Build]. Its
// methods never panic; mistakes are reported by Build.
type Builder struct {
	name     string
	tag      StateID // the machine's tag, in the high bits (see StateID)
	states   []stateSpec
	trans    []Transition
	observer func(ctx *Context, from, to StateID)
	errs     []error
}

type stateSpec struct {
	name       string
	parent     StateID
	initial    StateID
	initialSet bool // Initial named initial
	hooks      Hooks
}

// NewBuilder starts the description of a machine called name.
// The machine's StateIDs carry a tag made from name (see [StateID]): give each
// machine of a program its own name.
func NewBuilder(name string) *Builder { return &Builder{name: name, tag: tagOf(name)} }

// State adds a top-level state and returns its ID. The first top-level state is the
// machine's initial state.
func (b *Builder) State(name string, h Hooks) StateID { return b.add(None, name, h) }

// Substate adds a state inside parent, making parent a hierarchical state (a state that
// is itself a machine), and returns its ID. The first substate of a parent is its
// initial state unless [Builder.Initial] says otherwise. Entering parent enters its
// initial substate, down to a leaf.
func (b *Builder) Substate(parent StateID, name string, h Hooks) StateID {
	if !b.valid(parent) {
		b.errs = append(b.errs, fmt.Errorf("substate %q: %w: parent %s", name, ErrUnknownState, b.describe(parent)))
		return None
	}
	return b.add(parent, name, h)
}

func (b *Builder) add(parent StateID, name string, h Hooks) StateID {
	if len(b.states) >= MaxStates {
		b.errs = append(b.errs, fmt.Errorf("state %q: %w", name, ErrTooManyStates))
		return None
	}
	b.states = append(b.states, stateSpec{name: name, parent: parent, hooks: h})
	id := b.tag | StateID(len(b.states))
	if parent != None && b.states[parent.Index()-1].initial == None {
		b.states[parent.Index()-1].initial = id
	}
	return id
}

// Initial makes child the initial substate of parent. A parent has one initial
// state: a second Initial for parent naming another child is a mistake that Build
// reports (ErrInitialTwice), rather than the last call winning in silence.
func (b *Builder) Initial(parent, child StateID) {
	if !b.valid(parent) || !b.valid(child) || b.states[child.Index()-1].parent != parent {
		b.errs = append(b.errs, fmt.Errorf("initial %s of %s: %w", b.describe(child), b.describe(parent), ErrNotChild))
		return
	}
	p := &b.states[parent.Index()-1]
	if p.initialSet && p.initial != child {
		b.errs = append(b.errs, fmt.Errorf("initial %s of %s: %w (%s already is)", b.describe(child), b.describe(parent), ErrInitialTwice, b.describe(p.initial)))
		return
	}
	p.initial, p.initialSet = child, true
}

// Transition adds a row to the transition table (see [Transition]). Rows are tried in
// the order they were added.
func (b *Builder) Transition(t Transition) { b.trans = append(b.trans, t) }

// When adds a guarded transition from → to, checked on every Update.
func (b *Builder) When(from StateID, guard func(*Context) bool, to StateID) {
	b.Transition(Transition{From: from, Guard: guard, To: to})
}

// On adds an event transition from → to, taken when ev is dispatched.
func (b *Builder) On(from StateID, ev Event, to StateID) {
	b.Transition(Transition{From: from, Event: ev, To: to})
}

// Observe sets a function called after every transition, for a log of transitions:
// from is the leaf left (None when starting), to the leaf entered (None when stopping).
func (b *Builder) Observe(fn func(ctx *Context, from, to StateID)) { b.observer = fn }

func (b *Builder) valid(id StateID) bool {
	i := id & indexMask
	return id^i == b.tag && i != 0 && int(i) <= len(b.states)
}

// Errors returned (wrapped, with the machine's name) by [Builder.Build].
var (
	ErrNoStates      = errors.New("no states")
	ErrUnknownState  = errors.New("unknown state")
	ErrNotChild      = errors.New("initial state is not a child of its parent")
	ErrTooManyStates = errors.New("too many states")
	ErrTooDeep       = errors.New("states nested too deep")
	ErrEventGuard    = errors.New("transition without event or guard")
	ErrDuplicateName = errors.New("two states of one name under one parent")
	ErrInitialTwice  = errors.New("a second initial state for one parent")
	ErrHooks         = errors.New("the state's hooks cannot run")
	ErrName          = errors.New("machine name empty or blank")
)

// Build validates the description and compiles it into a [Machine]. It returns an
// error wrapping ErrName (the name given to [NewBuilder] empty or only white space:
// it is the machine's key in saved worlds, where components.StateMachine.ID ""
// means no machine, and in diagnostics), ErrNoStates, ErrInitialTwice, ErrUnknownState (a transition or substate naming a state
// that is not one of this Builder's: out of range, another machine's, or a number
// written by hand; To may not be Any), ErrNotChild, ErrTooManyStates, ErrTooDeep
// (more than [MaxDepth] levels), ErrEventGuard (a guard-only row with a nil Guard
// would fire on every update), ErrDuplicateName or ErrHooks (a state whose
// [Hooks.Err] is set, naming the state and wrapping Err too). It never panics.
//
// Names: two states under one parent (two top-level states, or two substates of one
// state) may not share a name: Build returns ErrDuplicateName naming both. A name may
// repeat under different parents (UML: a name is unique within its region), an
// "Idle" in "Patrol" and one in "Combat": [Machine.Name] then returns "Idle" for
// both, and [Machine.FullName] ("Patrol/Idle", "Combat/Idle") and
// [Machine.Lookup] tell them apart. Saves record states by StateID, not by name.
//
// Reachability: Build does not require every state to be reachable from the
// initial state by transition rows, and reports none that is not. A state may be
// entered by code Build cannot see: an Update hook that returns it (see [Hooks];
// the package has no other call that forces a state), or a Memory loaded or written
// with it Active. So a top-level state no row targets, or a substate that is not its
// parent's initial one and that no row targets (nor one below it), is legitimate. A
// state that neither a row nor a hook ever enters simply never runs its hooks: check
// that in the machine's tests (Memory.Active after the updates that should reach it).
func (b *Builder) Build() (*Machine, error) {
	fail := func(err error) (*Machine, error) {
		return nil, fmt.Errorf("fsm: machine %q: %w", b.name, err)
	}
	if strings.TrimSpace(b.name) == "" {
		return fail(ErrName)
	}
	if len(b.errs) > 0 {
		return fail(b.errs[0])
	}
	if len(b.states) == 0 {
		return fail(ErrNoStates)
	}
	if err := b.uniqueNames(); err != nil {
		return fail(err)
	}
	m := &Machine{name: b.name, tag: b.tag, observer: b.observer, states: make([]state, len(b.states)+1)}
	for i, s := range b.states {
		id := b.tag | StateID(i+1)
		st := &m.states[i+1]
		st.name, st.parent, st.initial, st.hooks = s.name, s.parent, s.initial, s.hooks
		st.depth = 1
		if s.parent != None {
			st.depth = m.states[s.parent&indexMask].depth + 1 // parents are added before children
		}
		if st.depth > MaxDepth {
			return fail(fmt.Errorf("state %q: %w", s.name, ErrTooDeep))
		}
		if s.hooks.Err != nil {
			return fail(fmt.Errorf("state %q: %w: %w", s.name, ErrHooks, s.hooks.Err))
		}
		if s.parent == None && m.initial == None {
			m.initial = id
		}
	}
	// Group the table by source, keeping the order of rows within each source.
	m.first = make([]int32, len(m.states)+1)
	for k, t := range b.trans {
		if (t.From != Any && !b.valid(t.From)) || !b.valid(t.To) {
			return fail(fmt.Errorf("transition %d (%s → %s): %w", k, b.describe(t.From), b.describe(t.To), ErrUnknownState))
		}
		if t.Event == NoEvent && t.Guard == nil {
			return fail(fmt.Errorf("transition %d (%s → %s): %w", k, m.Name(t.From), m.Name(t.To), ErrEventGuard))
		}
		if t.From == Any {
			m.any = append(m.any, t)
		}
	}
	// a counting sort by From: linear in states and rows (a loop over the rows for each
	// state took 7.7 s to build 60,000 states with 60,000 rows)
	for _, t := range b.trans {
		if t.From != Any {
			m.first[t.From&indexMask+1]++
		}
	}
	for id := 1; id < len(m.first); id++ {
		m.first[id] += m.first[id-1]
	}
	m.trans = make([]row, m.first[len(m.states)])
	next := append([]int32(nil), m.first...)
	for _, t := range b.trans {
		if i := t.From & indexMask; t.From != Any {
			m.trans[next[i]] = row{t, m.below(t.To, t.From)}
			next[i]++
		}
	}
	return m, nil
}

// Machine is a compiled (hierarchical) finite state machine: immutable and shared by
// every agent that runs it; each agent keeps a [Memory]. A Machine is safe for
// concurrent use on distinct Memory and Context values (hooks must be too).
//
// # Semantics
//
// The active configuration is a leaf state and all its ancestors.
//   - Start: the first Update (or Dispatch) of a zero Memory enters the initial
//     top-level state, then its initial substate, down to a leaf (Enter outer first).
//   - A transition from source S to target T exits the active states from the leaf up
//     to, not including, the least common proper ancestor of S and T (Exit inner
//     first), then enters from below that ancestor down to T and on through initial
//     substates to a leaf (Enter outer first). It is an external transition, as in UML:
//     a transition to S itself or to an ancestor of S exits and re-enters it (and is
//     counted in Memory.Reentries when it enters the leaf it left).
//   - Local transitions: a transition from S to a state T below S (a row "while in
//     Day, when hungry go to Eat", or an Update hook of Day returning Eat) does not
//     exit S: it exits the active states below S and enters from below S down to T
//     (UML's kind=local, SCXML's type="internal"; UML's default kind is external,
//     which would exit and re-enter Day). Such a row whose T is already active is
//     skipped, as an any-state row is, so it does not restart T while its guard holds.
//   - Priority, in both Update and Dispatch: any-state rows first, then the rows of
//     the active leaf, then those of its parent, and so on outward (the deepest state
//     decides first, as in UML and SCXML); within a state, rows in the order added.
//     The first row whose event matches and whose guard allows is taken; at most one
//     row per call. An any-state row whose target is already active (the leaf or one of
//     its ancestors) is skipped, so it does not restart its target on every update.
//   - Update: adds DT to Memory.Elapsed, takes at most one guard-only (NoEvent) row,
//     then runs the Update hooks of the active states, outer first; a hook returning a
//     state that is not active transitions there at once and the hooks below it are
//     skipped; one returning None or an active state stays (see [Hooks]).
//
// # Calls from hooks
//
// A hook, guard or observer may run other machines, or this one for another agent's
// Memory, even with the Context it was given: the Context's Memory and Event are the
// caller's again when such a call returns. It must not call [Machine.Update],
// [Machine.Dispatch] or [Machine.Stop] for the Memory being updated with that Context:
// the inner transition would run in the middle of the outer one, which would then go on
// entering states of a configuration already left. Such a call panics. To change state
// from a hook, return the state from an Update hook or add a transition row (a guard
// row is checked on every Update). A call for the same Memory through another Context
// is not detected; do not make one.
//
// # A hook that panics
//
// A hook, guard or observer that panics ends the call; the panic goes on to the caller
// (systems.FSM raises it in its Update), which may recover and go on. The Context is
// given back as it was (Memory, Event, and a DT and Time that Update replaced), and the
// Memory records what ran: a state is active from the moment its Enter is called until
// its Exit is called.
//   - A guard or an Update hook: no transition; Elapsed includes the update's DT.
//   - An Exit hook of state S, in a transition or Stop: S and the states below it were
//     left, its ancestors were not: Active is S's parent (None at the top level),
//     Previous the leaf left, Elapsed 0. The target is not entered.
//   - An Enter hook of state S: Active is S (entered, with its ancestors), Previous the
//     leaf left, Elapsed 0; the transition is not counted in Transitions nor observed.
//   - The observer: the transition is complete and counted.
//
// So Active may be left on a state that has substates. The next Update or Dispatch
// first enters its initial substates down to a leaf (a transition from Previous,
// counted and observed; in Update, before the guard rows), as for a Memory loaded or
// written with such an Active; Stop exits from it.
type Machine struct {
	name     string
	tag      StateID // the high bits of the machine's StateIDs (see StateID)
	states   []state // index 0 unused, so a StateID's Index indexes it
	initial  StateID
	any      []Transition
	trans    []row   // grouped by From, in order added
	first    []int32 // rows of state index i: trans[first[i]:first[i+1]]
	observer func(ctx *Context, from, to StateID)
}

// row is a Transition of the table and whether it is local (To below From: skipped
// while To is active, see [Machine]). Still 24 bytes: local fills padding.
type row struct {
	Transition
	local bool
}

type state struct {
	name    string
	parent  StateID
	initial StateID
	depth   uint8
	hooks   Hooks
}

// Name returns the name of state id, or "None", "Any", "StateID(n)" (n its index:
// out of range, or a number written by hand) or "StateID(n of another machine)".
func (m *Machine) Name(id StateID) string {
	switch {
	case id == None:
		return "None"
	case id == Any:
		return "Any"
	case m.valid(id):
		return m.states[id&indexMask].name
	}
	return describe(id, m.tag)
}

// FullName returns the names of state id and its ancestors, outermost first, joined
// by "/" ("Combat/Idle"): unique in the machine when no name holds a "/" (see
// [Builder.Build] on names). For None, Any or an unknown id it returns what
// [Machine.Name] does.
func (m *Machine) FullName(id StateID) string {
	if !m.valid(id) {
		return m.Name(id)
	}
	var path [MaxDepth]StateID
	n := m.path(id, &path)
	size := n - 1
	for _, s := range path[:n] {
		size += len(m.states[s&indexMask].name)
	}
	b := make([]byte, 0, size)
	for i, s := range path[:n] {
		if i > 0 {
			b = append(b, '/')
		}
		b = append(b, m.states[s&indexMask].name...)
	}
	return string(b)
}

// Lookup returns the state reached from the top level by the names in path, one a
// level ("Combat", "Idle"), and whether there is one. With a single name it finds a
// top-level state only: a substate is named with its parents, since its name may
// repeat under other parents. It scans the states (for tools, loaders and tests; keep
// the StateIDs Builder returns for the hooks).
func (m *Machine) Lookup(path ...string) (StateID, bool) {
	parent := None
	for _, name := range path {
		found := None
		for i := 1; i < len(m.states); i++ {
			if m.states[i].parent == parent && m.states[i].name == name {
				found = m.tag | StateID(i)
				break
			}
		}
		if found == None {
			return None, false
		}
		parent = found
	}
	return parent, parent != None
}

// MachineName returns the name given to [NewBuilder].
func (m *Machine) MachineName() string { return m.name }

// Len returns the number of states.
func (m *Machine) Len() int { return len(m.states) - 1 }

// State returns the StateID of the machine's state of index i (1 ≤ i ≤ Len, in the
// order the states were added; see [StateID.Index]), or None for any other i: for
// tools and loaders that walk the states.
func (m *Machine) State(i int) StateID {
	if i < 1 || i >= len(m.states) {
		return None
	}
	return m.tag | StateID(i)
}

// Activity returns the Activity of state id's [Hooks] (nil if it has none or id is
// no state of m).
func (m *Machine) Activity(id StateID) any {
	if !m.valid(id) {
		return nil
	}
	return m.states[id&indexMask].hooks.Activity
}

// Has reports whether id is a state of m: not None, Any, out of range, another
// machine's (see [StateID] on tags) nor a number written by hand.
func (m *Machine) Has(id StateID) bool { return m.valid(id) }

// Parent returns the parent of state id, None for a top-level or unknown state.
func (m *Machine) Parent(id StateID) StateID {
	if !m.valid(id) {
		return None
	}
	return m.states[id&indexMask].parent
}

// IsActive reports whether state id is active in mem: the active leaf or an ancestor.
func (m *Machine) IsActive(mem *Memory, id StateID) bool {
	for s := mem.Active; m.valid(s); s = m.states[s&indexMask].parent {
		if s == id {
			return true
		}
	}
	return false
}

// Path writes the active states of mem, outermost first, into dst and returns their
// count (0 for a machine not started). A count over len(dst) says dst was too short:
// only the outermost len(dst) states were written, and the count is the length
// needed. dst of length [MaxDepth] always suffices.
func (m *Machine) Path(mem *Memory, dst []StateID) int {
	var path [MaxDepth]StateID
	n := m.path(mem.Active, &path)
	copy(dst, path[:n])
	return n
}

// Update advances the agent's machine by one decision (see [Machine] for the order of
// things). ctx.Agent, ctx.DT and ctx.Time must be set by the caller. It allocates
// nothing (hooks aside). A Memory whose Active is not a state of m (another machine's
// included) is restarted; one
// whose Active has substates first enters them down to a leaf (see [Machine], "A hook
// that panics").
//
// Bad clocks, as in bt.Tree.Tick: a ctx.DT that is NaN, infinite or negative, or a
// ctx.Time that is NaN or infinite, is replaced by 0 for this update (Elapsed does not
// advance; hooks and guards see the replacement), [Context.ClockFaults] counts the
// update, and ctx.DT and ctx.Time hold the caller's values again when Update returns
// (or a hook panics).
// So one bad frame never leaves Elapsed NaN (a timed guard that never fires again),
// +Inf (one that fires at once) or running backwards. A Memory whose Elapsed is NaN,
// infinite or negative already (written by hand, or loaded from a file) counts from 0
// again, and ClockFaults counts that too.
//
// Panics: if called for mem from inside one of mem's own hooks, guards or observer (see
// [Machine], "Calls from hooks").
func (m *Machine) Update(mem *Memory, ctx *Context) {
	dt, now := ctx.DT, ctx.Time
	if goodDT(dt) && goodTime(now) {
		m.update(mem, ctx)
		return
	}
	m.updateBadClock(mem, ctx, dt, now)
}

// updateBadClock is Update with 0 for a bad dt or time, given back to ctx even if a
// hook panics.
func (m *Machine) updateBadClock(mem *Memory, ctx *Context, dt, now float64) {
	ctx.clockFaults++
	defer func() { ctx.DT, ctx.Time = dt, now }()
	if !goodDT(dt) {
		ctx.DT = 0
	}
	if !goodTime(now) {
		ctx.Time = 0
	}
	m.update(mem, ctx)
}

// goodDT reports whether dt is a usable step: finite and >= 0.
func goodDT(dt float64) bool { return dt >= 0 && dt <= math.MaxFloat64 }

// goodTime reports whether t is a usable time: finite.
func goodTime(t float64) bool { return t-t == 0 }

func (m *Machine) update(mem *Memory, ctx *Context) {
	defer m.done(mem, ctx, m.begin(mem, ctx, NoEvent, "Update"))
	before := mem.Transitions
	if a := mem.Active; !m.valid(a) || m.states[a&indexMask].initial != None {
		m.resume(mem, ctx)
	} else {
		if !goodDT(mem.Elapsed) { // NaN, infinite or negative: a Memory written by hand or loaded
			mem.Elapsed = 0
			ctx.clockFaults++
		}
		mem.Elapsed += ctx.DT
	}
	if src, to := m.find(mem, ctx, NoEvent); to != None {
		m.transition(mem, ctx, src, to)
	}
	var path [MaxDepth]StateID
	n := m.path(mem.Active, &path)
hooks:
	for _, s := range path[:n] {
		if u := m.states[s&indexMask].hooks.Update; u != nil {
			to := u(ctx)
			switch {
			case to == None:
				continue
			case !m.valid(to):
				ctx.badTargets++
			case m.IsActive(mem, to):
				continue // already there: stay, as with None
			default:
				m.transition(mem, ctx, s, to)
			}
			break hooks
		}
	}
	if mem.Transitions == before {
		mem.Reentries = 0 // an update that stays ends a run of re-entries
	}
}

// Dispatch sends event ev to the agent's machine and takes the first matching row (see
// [Machine] for the priority); it reports whether a transition was taken. ev must not
// be NoEvent (it returns false). A machine not started is started first.
//
// Panics: if called for mem from inside one of mem's own hooks, guards or observer (see
// [Machine], "Calls from hooks").
func (m *Machine) Dispatch(mem *Memory, ctx *Context, ev Event) bool {
	if ev == NoEvent {
		return false
	}
	defer m.done(mem, ctx, m.begin(mem, ctx, ev, "Dispatch"))
	m.resume(mem, ctx)
	src, to := m.find(mem, ctx, ev)
	if to == None {
		return false
	}
	m.transition(mem, ctx, src, to)
	return true
}

// Stop exits every active state, innermost first, and leaves mem not started (Active
// None): for agent death or swapping the machine. A machine not started is left as is.
//
// Panics: if called for mem from inside one of mem's own hooks, guards or observer (see
// [Machine], "Calls from hooks").
func (m *Machine) Stop(mem *Memory, ctx *Context) {
	if !m.valid(mem.Active) {
		return
	}
	defer m.done(mem, ctx, m.begin(mem, ctx, NoEvent, "Stop"))
	from := mem.Active
	m.exit(mem, ctx, from, None)
	*mem = Memory{Previous: from, Transitions: mem.Transitions}
	if m.observer != nil {
		m.observer(ctx, from, None)
	}
}
