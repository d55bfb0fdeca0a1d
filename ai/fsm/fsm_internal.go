package fsm

import (
	"fmt"
	"hash/fnv"
	"strconv"
)

// uniqueNames returns an error wrapping ErrDuplicateName for the first state whose
// name a sibling (a state of the same parent, or another top-level state) already has.
// It sorts nothing and allocates one map of the states' (parent, name) pairs.
func (b *Builder) uniqueNames() error {
	type key struct {
		parent StateID
		name   string
	}
	seen := make(map[key]int, len(b.states))
	for i, s := range b.states {
		id := i + 1 // the index
		k := key{s.parent, s.name}
		if first, ok := seen[k]; ok {
			where := "at the top level"
			if s.parent != None {
				where = "under " + strconv.Quote(b.states[s.parent.Index()-1].name)
			}
			return fmt.Errorf("states %d and %d both named %q %s: %w (Name, the debug viewer and transition logs could not tell them apart)",
				first, id, s.name, where, ErrDuplicateName)
		}
		seen[k] = id
	}
	return nil
}

// indexMask selects a StateID's index; the bits above it are the machine's tag.
const indexMask StateID = 1<<16 - 1

// tagOf returns the tag of the machine called name, in the high bits of a StateID: 1
// to 65,535 from FNV-1a (32 bits) of the name, so the same in every process.
func tagOf(name string) StateID {
	h := fnv.New32a()
	h.Write([]byte(name))
	return StateID(h.Sum32()%uint32(indexMask)+1) << 16
}

// valid reports whether id is a state of m: its tag, an index in 1..Len. One
// comparison: the states' IDs are m.tag+1 … m.tag+Len, and below m.tag+1 the
// difference wraps round (a Machine not made by Build has no states: none is valid).
// Compared as int64: on 32-bit builds (GOARCH=386) int(uint32(d)) of a difference
// that wrapped is negative, which made None and every other machine's state valid.
func (m *Machine) valid(id StateID) bool { return int64(uint32(id-m.tag-1)) < int64(len(m.states)-1) }

// describe names id for an error of the Builder.
func (b *Builder) describe(id StateID) string {
	if id == Any {
		return "Any"
	}
	if b.valid(id) {
		return strconv.Quote(b.states[id.Index()-1].name)
	}
	return describe(id, b.tag)
}

// describe names id, no state of the machine of tag: "None", "StateID(n)" (n its
// index: out of range, or written by hand) or "StateID(n of another machine)".
func describe(id, tag StateID) string {
	i := id & indexMask
	switch {
	case id == None:
		return "None"
	case id^i == tag || id^i == 0:
		return "StateID(" + strconv.Itoa(int(i)) + ")"
	}
	return "StateID(" + strconv.Itoa(int(i)) + " of another machine)"
}

// frame is a Context's private state during a call.
type frame struct {
	busy    bool    // inside an Update, Dispatch or Stop with this Context
	exiting StateID // the state whose Exit hook runs
	leaving StateID // the leaf a transition or Stop leaves
}

// call is what a Context held before a call, given back by done.
type call struct {
	mem *Memory
	ev  Event
	f   frame
}

// begin marks ctx as in a call of op for mem and returns what it held before, for done.
// It panics if ctx is already in a call for mem (a hook calling back into its own
// agent's machine; see Machine, "Calls from hooks").
func (m *Machine) begin(mem *Memory, ctx *Context, ev Event, op string) call {
	if ctx.f.busy && ctx.Memory == mem {
		m.reentered(mem, op)
	}
	outer := call{ctx.Memory, ctx.Event, ctx.f}
	ctx.Memory, ctx.Event, ctx.f = mem, ev, frame{busy: true}
	return outer
}

// reentered panics: see begin.
//
//go:noinline
func (m *Machine) reentered(mem *Memory, op string) {
	panic("fsm: machine " + strconv.Quote(m.name) + ": " + op + " called for the Memory being updated, from inside one of its hooks, guards or observer (state " +
		strconv.Quote(m.Name(mem.Active)) + "); return the next state from an Update hook or add a transition row instead")
}

// done gives ctx back what it held before the call (nil and NoEvent outside calls). It
// runs deferred, so also when a hook panics: if an Exit hook was running (ctx.exiting),
// the states from the leaf left up to that one have been left, and mem says so (see
// Machine, "A hook that panics").
func (m *Machine) done(mem *Memory, ctx *Context, outer call) {
	if s := ctx.f.exiting; s != None && m.valid(s) {
		mem.Active, mem.Previous, mem.Elapsed = m.states[s&indexMask].parent, ctx.f.leaving, 0
	}
	ctx.Memory, ctx.Event, ctx.f = outer.mem, outer.ev, outer.f
}

// resume brings mem to a leaf: it starts a machine not started (or whose Active is no
// state of m), and enters the initial substates of an Active that has substates (left
// there by a hook that panicked, or by a hand-made or loaded Memory) down to a leaf,
// as a transition from mem.Previous. A leaf Active is left as it is.
func (m *Machine) resume(mem *Memory, ctx *Context) {
	switch {
	case !m.valid(mem.Active):
		m.start(mem, ctx)
	case m.states[mem.Active&indexMask].initial != None:
		m.enter(mem, ctx, mem.Active, mem.Active, mem.Previous)
	}
}

// path writes the active path ending at leaf, outermost first, and returns its length.
func (m *Machine) path(leaf StateID, path *[MaxDepth]StateID) int {
	if !m.valid(leaf) {
		return 0
	}
	n := int(m.states[leaf&indexMask].depth)
	for s, k := leaf, n-1; s != None && k >= 0; s, k = m.states[s&indexMask].parent, k-1 {
		path[k] = s
	}
	return n
}

// start enters the initial configuration.
func (m *Machine) start(mem *Memory, ctx *Context) {
	*mem = Memory{Transitions: mem.Transitions}
	if !m.valid(m.initial) { // a Machine not made by Build
		return
	}
	m.enter(mem, ctx, None, m.initial, None)
}

// find returns the first row that fires for ev (NoEvent: guard-only rows) and its
// source state, or None.
func (m *Machine) find(mem *Memory, ctx *Context, ev Event) (src, to StateID) {
	leaf := mem.Active
	for i := range m.any {
		t := &m.any[i]
		if t.Event == ev && !m.IsActive(mem, t.To) && (t.Guard == nil || t.Guard(ctx)) {
			return leaf, t.To
		}
	}
	for s := leaf; s != None; s = m.states[s&indexMask].parent {
		i := s & indexMask
		rows := m.trans[m.first[i]:m.first[i+1]]
		for i := range rows {
			t := &rows[i]
			if t.Event == ev && !(t.local && m.IsActive(mem, t.To)) && (t.Guard == nil || t.Guard(ctx)) {
				return s, t.To
			}
		}
	}
	return None, None
}

// below reports whether state a is strictly below state b (b a proper ancestor of a).
func (m *Machine) below(a, b StateID) bool {
	for s := m.states[a&indexMask].parent; s != None; s = m.states[s&indexMask].parent {
		if s == b {
			return true
		}
	}
	return false
}

// transition takes the transition src → to (see [Machine]): local when to is below
// src (src is not left), else external.
func (m *Machine) transition(mem *Memory, ctx *Context, src, to StateID) {
	lca := src
	if !m.below(to, src) {
		lca = m.commonAncestor(src, to)
	}
	from := mem.Active
	m.exit(mem, ctx, from, lca)
	m.enter(mem, ctx, lca, to, from)
}

// exit runs the Exit hooks from leaf up to, not including, top (None: all). Hooks see
// mem as it was (Active the leaf); ctx.exiting names the state whose Exit runs, for
// done should it panic.
func (m *Machine) exit(mem *Memory, ctx *Context, leaf, top StateID) {
	ctx.f.leaving = leaf
	for s := leaf; s != top && s != None; s = m.states[s&indexMask].parent {
		if x := m.states[s&indexMask].hooks.Exit; x != nil {
			ctx.f.exiting = s
			x(ctx)
		}
	}
	ctx.f.exiting = None
}

// enter enters the states below top down to target, then target's initial substates
// down to a leaf, and records the new leaf.
func (m *Machine) enter(mem *Memory, ctx *Context, top, target, from StateID) {
	var path [MaxDepth]StateID
	n := m.path(target, &path)
	k := 0
	if top != None {
		k = int(m.states[top&indexMask].depth) // path[depth(top)-1] is top itself
	}
	back := mem.Previous // the leaf before from
	if ctx.Event != NoEvent {
		back = None // a bounce is two guard rows or Update hooks, not an event's transition (one a frame, or a batch)
	}
	mem.Previous, mem.Elapsed = from, 0
	for _, s := range path[k:n] {
		mem.Active = s // Enter hooks see the state being entered
		if e := m.states[s&indexMask].hooks.Enter; e != nil {
			e(ctx)
		}
	}
	for s := m.states[target&indexMask].initial; s != None; s = m.states[s&indexMask].initial {
		mem.Active = s
		if e := m.states[s&indexMask].hooks.Enter; e != nil {
			e(ctx)
		}
	}
	leaf := mem.Active
	mem.Transitions++
	if leaf == from || leaf == back && back != None {
		mem.Reentries++
	} else {
		mem.Reentries = 0
	}
	if m.observer != nil {
		m.observer(ctx, from, leaf)
	}
}

// commonAncestor returns the least common proper ancestor of a and b (None for the
// machine's root): the deepest state that is a strict ancestor of both.
func (m *Machine) commonAncestor(a, b StateID) StateID {
	a, b = m.states[a&indexMask].parent, m.states[b&indexMask].parent
	for a != b {
		if m.states[a&indexMask].depth >= m.states[b&indexMask].depth && a != None {
			a = m.states[a&indexMask].parent
		} else {
			b = m.states[b&indexMask].parent
		}
	}
	return a
}
