package fsm

import (
	"fmt"
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
	seen := make(map[key]StateID, len(b.states))
	for i, s := range b.states {
		id := StateID(i + 1)
		k := key{s.parent, s.name}
		if first, ok := seen[k]; ok {
			where := "at the top level"
			if s.parent != None {
				where = "under " + strconv.Quote(b.states[s.parent-1].name)
			}
			return fmt.Errorf("states %d and %d both named %q %s: %w (Name, the debug viewer and transition logs could not tell them apart)",
				first, id, s.name, where, ErrDuplicateName)
		}
		seen[k] = id
	}
	return nil
}

func (m *Machine) valid(id StateID) bool { return id != None && int(id) < len(m.states) }

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
		mem.Active, mem.Previous, mem.Elapsed = m.states[s].parent, ctx.f.leaving, 0
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
	case m.states[mem.Active].initial != None:
		m.enter(mem, ctx, mem.Active, mem.Active, mem.Previous)
	}
}

// path writes the active path ending at leaf, outermost first, and returns its length.
func (m *Machine) path(leaf StateID, path *[MaxDepth]StateID) int {
	if !m.valid(leaf) {
		return 0
	}
	n := int(m.states[leaf].depth)
	for s, k := leaf, n-1; s != None && k >= 0; s, k = m.states[s].parent, k-1 {
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
	for s := leaf; s != None; s = m.states[s].parent {
		rows := m.trans[m.first[s]:m.first[s+1]]
		for i := range rows {
			t := &rows[i]
			if t.Event == ev && (t.Guard == nil || t.Guard(ctx)) {
				return s, t.To
			}
		}
	}
	return None, None
}

// transition takes the external transition src → to (see [Machine]).
func (m *Machine) transition(mem *Memory, ctx *Context, src, to StateID) {
	lca := m.commonAncestor(src, to)
	from := mem.Active
	m.exit(mem, ctx, from, lca)
	m.enter(mem, ctx, lca, to, from)
}

// exit runs the Exit hooks from leaf up to, not including, top (None: all). Hooks see
// mem as it was (Active the leaf); ctx.exiting names the state whose Exit runs, for
// done should it panic.
func (m *Machine) exit(mem *Memory, ctx *Context, leaf, top StateID) {
	ctx.f.leaving = leaf
	for s := leaf; s != top && s != None; s = m.states[s].parent {
		if x := m.states[s].hooks.Exit; x != nil {
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
		k = int(m.states[top].depth) // path[depth(top)-1] is top itself
	}
	mem.Previous, mem.Elapsed = from, 0
	for _, s := range path[k:n] {
		mem.Active = s // Enter hooks see the state being entered
		if e := m.states[s].hooks.Enter; e != nil {
			e(ctx)
		}
	}
	for s := m.states[target].initial; s != None; s = m.states[s].initial {
		mem.Active = s
		if e := m.states[s].hooks.Enter; e != nil {
			e(ctx)
		}
	}
	leaf := mem.Active
	mem.Transitions++
	if m.observer != nil {
		m.observer(ctx, from, leaf)
	}
}

// commonAncestor returns the least common proper ancestor of a and b (None for the
// machine's root): the deepest state that is a strict ancestor of both.
func (m *Machine) commonAncestor(a, b StateID) StateID {
	a, b = m.states[a].parent, m.states[b].parent
	for a != b {
		if m.states[a].depth >= m.states[b].depth && a != None {
			a = m.states[a].parent
		} else {
			b = m.states[b].parent
		}
	}
	return a
}
