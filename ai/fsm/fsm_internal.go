package fsm

import "strconv"

func (m *Machine) valid(id StateID) bool { return id != None && int(id) < len(m.states) }

// begin marks ctx as in a call of op for mem and returns what it held before, for done.
// It panics if ctx is already in a call for mem (a hook calling back into its own
// agent's machine; see Machine, "Calls from hooks").
func (m *Machine) begin(mem *Memory, ctx *Context, ev Event, op string) (*Memory, Event, bool) {
	if ctx.busy && ctx.Memory == mem {
		panic("fsm: machine " + strconv.Quote(m.name) + ": " + op + " called for the Memory being updated, from inside one of its hooks, guards or observer (state " +
			strconv.Quote(m.Name(mem.Active)) + "); return the next state from an Update hook or add a transition row instead")
	}
	outer, outerEv, outerBusy := ctx.Memory, ctx.Event, ctx.busy
	ctx.Memory, ctx.Event, ctx.busy = mem, ev, true
	return outer, outerEv, outerBusy
}

// done gives ctx back what it held before the call (nil and NoEvent outside calls).
func (m *Machine) done(ctx *Context, outer *Memory, outerEv Event, outerBusy bool) {
	ctx.Memory, ctx.Event, ctx.busy = outer, outerEv, outerBusy
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
	for s := from; s != lca && s != None; s = m.states[s].parent {
		if x := m.states[s].hooks.Exit; x != nil {
			x(ctx)
		}
	}
	m.enter(mem, ctx, lca, to, from)
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
