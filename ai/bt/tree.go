package bt

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/script"
)

// MaxNodes is the largest number of nodes a compiled tree may have.
const MaxNodes = 1<<16 - 1

// Errors returned (wrapped, with the tree name and node path) by [Compile].
var (
	ErrNilNode          = errors.New("nil node")
	ErrInvalidNode      = errors.New("node not made by a bt constructor")
	ErrEmptyComposite   = errors.New("composite without children")
	ErrInvalidDuration  = errors.New("duration must be finite and >= 0")
	ErrNilFunc          = errors.New("leaf function is nil")
	ErrHookNotAction    = errors.New("OnStart/OnHalt hook on a node that is not an Action")
	ErrTooManyNodes     = errors.New("too many nodes")
	ErrTooManyChildren  = errors.New("too many children")
	ErrChildCount       = errors.New("wrong number of children")
	ErrInvalidCount     = errors.New("invalid count or threshold")
	ErrUnreachableCase  = errors.New("Switch case that can never be picked")
	ErrName             = errors.New("tree name empty or blank")
	errMemoryMismatched = "bt: Memory was not made by this Tree's NewMemory (another tree's, or of another length)"
)

// Context is what a leaf sees when it is ticked or halted. The caller owns it: set Agent,
// DT and Time, then call [Tree.Tick]. One Context may be reused for every agent, but not
// by two goroutines at once.
type Context struct {
	// Agent is the caller's per-agent view (e.g. a pointer to a struct of the agent's
	// components and blackboard). bt never inspects it.
	Agent any
	// DT is the seconds of simulation time since this agent last ticked this tree: finite
	// and >= 0. [Tree.Tick] counts a DT that is NaN, infinite or negative as 0 (no time
	// passed) and reports it in [Context.ClockFaults].
	DT float64
	// Time is the simulation time in seconds. Cooldown needs it. [Tree.Tick] counts a
	// Time that is NaN or infinite as 0 and reports it in [Context.ClockFaults].
	Time float64
	// Blackboard is the agent's blackboard store, read and written by ports ([In], [Out])
	// and the blackboard nodes. It may be nil: ports then read as missing. A caller may
	// give a store that holds nothing instead (a blackboard.Probe's, which systems.Decision
	// gives an agent without one, to learn whether its tree reads keys): it reads and
	// writes as nil, so test Blackboard.Schema() == nil, not Blackboard == nil.
	Blackboard *blackboard.Store

	mem         *NodeMemory
	node        int
	ticks       *tickRecord // the ticking Memory's record, if it records ticks
	visits      uint64
	clockFaults uint64

	scriptErrors   uint64
	lastScriptErr  error
	lastScriptNode int32
}

// Visits returns the number of nodes ticked with this Context since it was made: for
// profiling (nodes visited per agent tick). It costs one increment per node.
func (c *Context) Visits() uint64 { return c.visits }

// ClockFaults returns the number of [Tree.Tick] calls with this Context whose DT was NaN,
// infinite or negative or whose Time was NaN or infinite, and which therefore ran with 0
// in their place. A correct caller sees 0; a decision system can report a non-zero count
// as a misconfiguration.
func (c *Context) ClockFaults() uint64 { return c.clockFaults }

// Node returns the memory of the leaf being ticked or halted (or of the Choose or
// Precondition node whose function is called), for its own timers and counters. It is nil
// outside such a call.
func (c *Context) Node() *NodeMemory { return c.mem }

// NodeIndex returns the pre-order index of the leaf being ticked or halted (see
// [Tree.NodeName]); it is meaningless outside a leaf call.
func (c *Context) NodeIndex() int { return c.node }

// NodeMemory is one agent's state of one node: 16 bytes.
type NodeMemory struct {
	// Status is the last status the node returned; Running means it is in progress.
	// It is Idle before the first tick and after a halt.
	Status Status
	// Child is the index (among the node's children) of the running child of a composite.
	Child uint16
	// Count is a counter for decorators (Cooldown: 1 while cooling down) and actions.
	Count uint16
	// Timer is seconds: the waited time of Wait, the ready time of Cooldown; free for actions.
	Timer float64
}

// Memory is one agent's state for one tree: a NodeMemory per node, in pre-order. Make it
// once with [Tree.NewMemory] and keep it in the agent's component; the zero Memory is not
// usable. Copying a Memory copies a reference to the same nodes.
//
// A Memory belongs to one tree ([Memory.Tree]): the one whose NewMemory made it, or, for
// a Memory over saved nodes ([MemoryOf]), the first to tick or halt it. Another tree,
// even one with as many nodes, panics on it (its running children and timers mean
// nothing there): to give an agent another tree, halt the old one and make a memory for
// the new ([Tree.ResetMemory]); systems.Decision does this when a Brain's Tree is
// replaced.
type Memory struct {
	nodes []NodeMemory
	tree  *Tree
	ticks *tickRecord // which nodes the latest Tick ticked, while recorded (RecordTicks)
}

// tickRecord is which nodes a Memory's Ticks ticked ([Memory.RecordTicks]).
type tickRecord struct {
	tick  uint64   // Ticks recorded; 0: none yet
	last  []uint64 // per node, the recorded Tick that last ticked it (0: none)
	start []uint64 // per node, the recorded Tick that began its last run (ticked while not Running)
}

// RecordTicks turns on (or off) the recording of which nodes each [Tree.Tick] of m
// ticks, for a debugger: a node's Status is the status it returned when it was last
// ticked, which may be many ticks ago (the children of a Cooldown that is cooling down,
// the Action after the Running one from the Sequence's last run), and [Memory.Ticked]
// and [Memory.Current] tell them apart. Turning it on allocates once (16 bytes a node);
// a recorded Tick then allocates nothing, and an unrecorded one pays a nil check per
// node. The record is neither saved nor part of the node memory; copies of m share it;
// [Tree.ResetMemory] clears it (keeping it on).
func (m *Memory) RecordTicks(on bool) {
	switch {
	case !on:
		m.ticks = nil
	case m.ticks == nil:
		m.ticks = &tickRecord{last: make([]uint64, len(m.nodes)), start: make([]uint64, len(m.nodes))}
	}
}

// RecordingTicks reports whether m records its ticks ([Memory.RecordTicks]).
func (m *Memory) RecordingTicks() bool { return m.ticks != nil }

// Ticked reports whether node i (pre-order index) was ticked in m's latest [Tree.Tick]
// (a node a precondition skipped counts as ticked: it returned Skipped); known is false
// while m does not record ticks ([Memory.RecordTicks]) or has not been ticked since it
// started to, and then ticked is false too.
//
// Panics: if i is out of range.
func (m *Memory) Ticked(i int) (ticked, known bool) {
	_ = m.nodes[i]
	r := m.recorded()
	if r == nil {
		return false, false
	}
	return r.last[i] == r.tick, true
}

// Current reports whether node i's Status belongs to the tree's latest [Tree.Tick]: the
// root was ticked in it, and every other node on the way down to i was ticked during
// its parent's latest run (a run begins with a tick of a node that was not Running and
// ends when it returns anything else). So a node ticked in the latest tick is current,
// and so are the finished children of a Sequence that is still Running (as
// BehaviorTree.CPP keeps them until the Sequence ends); the child of a Cooldown cooling
// down, the Bite of the last run while Chase runs again, and everything below them, are
// not: their Status is what they returned in a run that is over, and Groot2 would show
// them Idle. known is as for [Memory.Ticked].
//
// Panics: if i is out of range.
func (m *Memory) Current(i int) (current, known bool) {
	_ = m.nodes[i]
	r := m.recorded()
	if r == nil || m.tree == nil {
		return false, false
	}
	for p := m.tree.Parent(i); p >= 0; i, p = p, m.tree.Parent(p) {
		if r.last[i] < r.start[p] { // (both 0: a run begun before the recording, the child not ticked since: shown)
			return false, true
		}
	}
	return r.last[i] == r.tick, true // i is the root
}

// recorded returns m's tick record if it holds a recorded Tick of m's nodes.
func (m *Memory) recorded() *tickRecord {
	if r := m.ticks; r != nil && r.tick > 0 && len(r.last) == len(m.nodes) {
		return r
	}
	return nil
}

// Tree returns the tree m belongs to, or nil for a Memory over saved nodes ([MemoryOf])
// that no tree has ticked or halted yet.
func (m *Memory) Tree() *Tree { return m.tree }

// Status returns the last status of node i (pre-order index, 0 is the root).
//
// Panics: if i is out of range.
func (m *Memory) Status(node int) Status { return m.nodes[node].Status }

// Nodes returns the node memories in pre-order, aliasing m: for debugging, tracing, and
// saving and loading state. Do not change it during a tick.
func (m *Memory) Nodes() []NodeMemory { return m.nodes }

// Len returns the number of nodes m holds.
func (m *Memory) Len() int { return len(m.nodes) }

// Tree is a compiled behavior tree: an immutable flat pre-order array of nodes shared by
// every agent that runs it. Agents keep their state in a [Memory]. A Tree is safe for
// concurrent Tick and Halt calls on distinct Memory and Context values (leaves must be
// safe for that too).
type Tree struct {
	reg    *Registry // the registry that built it, or nil (Compile)
	reads  []string  // the keys its input ports bind (registry-built trees)
	schema *blackboard.Schema
	name   string
	nodes  []node
	kids   []int32 // children of every composite, concatenated; node.kids indexes it
	parent []int32 // parent of every node (-1 for the root), for Parent and Depth
	// attached holds Node.Attach's value of each node, nil when no node has one: kept
	// beside nodes, which the ticks walk, not in them
	attached []any
}

// node is a compiled node. Children of node i occupy indices i+1 … end-1 (pre-order).
type node struct {
	kind    kind
	nkids   uint16
	kidOff  int32 // first child in Tree.kids
	end     int32 // one past the last node of this subtree
	seconds float64
	n1, n2  int32  // Repeat/Retry count; Parallel thresholds (resolved)
	other   Status // Precondition
	cond    func(*Context) bool
	choose  func(*Context) int
	tick    func(*Context) Status
	onStart func(*Context)
	onHalt  func(*Context)
	name    string
	tag     string          // the type written in a loaded file, such as "Fallback"
	prog    *script.Program // Script, ScriptCondition
	conds   *conds          // pre- and post-conditions; nil if none
	neg     bool            // Parallel: the success threshold counts from the end
	leaf    bool            // a registered leaf loaded from a file: tag is its registered type
}

// Compile validates the tree rooted at root and compiles it into a [Tree]. Nodes are
// numbered in pre-order (root 0, then the first child's subtree, then the next …).
//
// name must hold a character other than white space: an empty or blank name is an
// error wrapping ErrName (a saved Brain with ID "" has no tree, and "tree \"\"" in a
// message names none).
//
// It returns an error wrapping one of ErrName, ErrNilNode, ErrInvalidNode, ErrEmptyComposite,
// ErrChildCount, ErrInvalidCount, ErrUnreachableCase, ErrInvalidDuration, ErrNilFunc, ErrHookNotAction,
// ErrTooManyNodes (more than [MaxNodes]) or ErrTooManyChildren, or the error of a node's
// own check ([Node.Validate]: a hybrid.UtilitySelector whose children are not one per
// action of its reasoner wraps ErrChildCount), naming the tree and the
// path to the bad node, such as root/Sequence("guard")[1]/Wait: each step is a node's
// type as [Tree.NodeType] gives it (the type given with [Node.Typed], such as
// UtilitySelector, else its kind) and its name, if any, then the index of the child.
// It never panics (but for a panic in a node's check given to [Node.Validate]).
func Compile(name string, root *Node) (*Tree, error) {
	if strings.TrimSpace(name) == "" {
		return nil, fmt.Errorf("bt: tree %s: %w: give the tree a name, its key in registries and saves", quote(name), ErrName)
	}
	c := compiler{tree: &Tree{name: name}}
	// One allocation of the nodes, not a doubling slice copied log n times over (a
	// loaded tree of tens of thousands of nodes spent a third of its build there).
	c.tree.nodes = make([]node, 0, countNodes(root, MaxNodes+1))
	if err := c.add(root); err != nil {
		return nil, err
	}
	t := c.tree
	if t.attached != nil { // one entry per node, Attached's index
		for len(t.attached) < len(t.nodes) {
			t.attached = append(t.attached, nil)
		}
		t.attached = t.attached[:len(t.nodes):len(t.nodes)]
	}
	t.parent = make([]int32, len(t.nodes))
	t.parent[0] = -1
	for p := range t.nodes {
		n := &t.nodes[p]
		for _, k := range t.kids[n.kidOff : n.kidOff+int32(n.nkids)] {
			t.parent[k] = int32(p)
		}
	}
	if work, i := tickWork(c.tree); work > MaxTickCycles {
		return nil, fmt.Errorf("bt: %s: %s: %w: up to %.0f node ticks in one tick, more than %d (finite Repeat and Retry counts multiply the ticks of children that can complete at once)",
			quote(name), c.tree.NodeName(i), ErrInvalidCount, work, MaxTickCycles)
	}
	return c.tree, nil
}

// Name returns the name given to [Compile].
func (t *Tree) Name() string { return t.name }

// Schema returns the blackboard schema a loaded tree's ports are bound to (from its
// [Registry]), or nil for a tree compiled from Go nodes.
func (t *Tree) Schema() *blackboard.Schema { return t.schema }

// Attached returns the value attached to node i with [Node.Attach] (or [Ports.Attach]
// for a loaded node), nil if none.
//
// Panics: if i is out of range.
func (t *Tree) Attached(i int) any {
	_ = t.nodes[i]
	if t.attached == nil {
		return nil
	}
	return t.attached[i]
}

// Len returns the number of nodes.
func (t *Tree) Len() int { return len(t.nodes) }

// NodeName returns the display name of node i: the name given with [Node.Named] or to
// [Condition] / [Action] (a loaded node's name attribute), else for a node loaded from a
// file the type as written there ("Fallback", "RetryUntilSuccessful", "Sleep") or the
// type given with [Node.Typed], else the kind name ("Sequence", "Wait", …).
//
// Panics: if i is out of range.
func (t *Tree) NodeName(i int) string {
	n := &t.nodes[i]
	if n.name != "" {
		return n.name
	}
	if n.tag != "" {
		return n.tag
	}
	return n.kind.String()
}

// NodeKind returns the kind name of node i ("Sequence", "Action", …).
//
// Panics: if i is out of range.
func (t *Tree) NodeKind(i int) string { return t.nodes[i].kind.String() }

// NodeType returns the type of node i as the user wrote it: a loaded node's type in
// the file ("Fallback", "RetryUntilSuccessful"), for a registered leaf the name it was
// registered under ("TargetSeen" for <TargetSeen name="sees thief"/> and for
// <Condition ID="TargetSeen"/>, where [Tree.NodeKind] is "Condition"), the type given
// with [Node.Typed] ("UtilitySelector" for a hybrid.UtilitySelector), else its kind
// ([Tree.NodeKind]).
//
// Panics: if i is out of range.
func (t *Tree) NodeType(i int) string {
	if n := &t.nodes[i]; n.tag != "" {
		return n.tag
	}
	return t.nodes[i].kind.String()
}

// Parent returns the pre-order index of node i's parent, or -1 for the root.
//
// Panics: if i is out of range.
func (t *Tree) Parent(i int) int {
	return int(t.parent[i])
}

// Depth returns the number of ancestors of node i (0 for the root).
//
// Panics: if i is out of range.
func (t *Tree) Depth(i int) int {
	d := 0
	for p := t.Parent(i); p >= 0; p = t.Parent(p) {
		d++
	}
	return d
}

// Children returns the pre-order indices of node i's children, appended to dst.
//
// Panics: if i is out of range.
func (t *Tree) Children(dst []int, i int) []int {
	n := &t.nodes[i]
	for _, k := range t.kids[n.kidOff : n.kidOff+int32(n.nkids)] {
		dst = append(dst, int(k))
	}
	return dst
}

// NewMemory allocates one agent's memory for t, every node Idle.
func (t *Tree) NewMemory() Memory { return Memory{nodes: make([]NodeMemory, len(t.nodes)), tree: t} }

// ResetMemory makes m a memory of t with every node Idle, as [Tree.NewMemory] would, but
// on m's own node storage when it has room for t's nodes (then it allocates nothing and
// reports true). It runs no halt hook: a memory that may hold Running nodes of its own
// tree is halted with that tree first ([Tree.Halt] with m.Tree()).
func (t *Tree) ResetMemory(m *Memory) (reused bool) {
	if n := len(t.nodes); cap(m.nodes) >= n {
		m.nodes = m.nodes[:n]
		clear(m.nodes)
		reused = true
	} else {
		m.nodes = make([]NodeMemory, n)
	}
	if r := m.ticks; r != nil { // still recorded, from the next Tick
		if n := len(t.nodes); cap(r.last) >= n && cap(r.start) >= n {
			r.last, r.start = r.last[:n], r.start[:n]
			clear(r.last)
			clear(r.start)
		} else {
			r.last, r.start = make([]uint64, n), make([]uint64, n)
		}
		r.tick = 0
	}
	m.tree = t
	return reused
}

// owns reports whether t may tick or halt m, making m t's if it belongs to no tree yet.
func (t *Tree) owns(m *Memory) bool {
	if len(m.nodes) != len(t.nodes) || m.tree != t && m.tree != nil {
		return false
	}
	m.tree = t
	return true
}

// Tick ticks the tree once for one agent and returns the root's status. ctx.Agent,
// ctx.DT and ctx.Time must be set by the caller. A root that returned Success, Failure or
// Skipped (a precondition skipped it, or all its children) starts over on the next Tick.
// Tick allocates nothing (leaves aside, and scripts that build strings).
//
// Bad clocks: a ctx.DT that is NaN, infinite or negative, or a ctx.Time that is NaN or
// infinite, is replaced by 0 for this tick (timers do not advance; a Cooldown compares
// against time 0), leaves see the replacement, and [Context.ClockFaults] counts the tick;
// ctx.DT and ctx.Time hold the caller's values again when Tick returns (or a leaf
// panics). So a Wait never
// runs backwards or stalls on NaN, and a Cooldown never stores a NaN or infinite ready time.
//
// # A leaf that panics
//
// A leaf (an Action, a Condition, an OnStart hook, a Choose function, a Precondition's
// test, a halt hook run in the tick) that panics ends the tick; the panic goes on to the
// caller (systems.Decision raises it in its Update), which may recover and go on. The
// Memory records what ran, as if the tick had stopped there:
//   - The nodes that finished before the panic in this tick hold their new status (an
//     earlier child of a Sequence its Success, a Parallel's earlier children theirs), and
//     the halts done before it are done.
//   - The panicking leaf's ancestors hold the status and running child they had before
//     the tick; counts of work finished in the tick stay (a Repeat counts the iterations
//     that succeeded before the panic); the timers of a Timeout, Delay or Wait on the
//     way hold this tick's DT (so a caller recovering should count the tick as done and
//     give the next one the seconds since this one, as systems.Decision does).
//   - The panicking Action, if it was Running before the tick, is still Running and goes
//     on (no second OnStart) when next ticked. One that started in this tick (its memory
//     zeroed, OnStart called, OnStart or its tick panicking) gets its halt hook as the
//     panic unwinds (so its OnHalt pairs its OnStart), is Idle and starts again when next
//     ticked.
//   - A node left Running under an ancestor that is not Running (a Parallel's first
//     child Running when its second one panicked, the Parallel starting in this tick) is
//     halted as the panic unwinds, deepest first, as any abandoned subtree: its halt hook
//     runs once and its memory is reset. So every Running node has a Running parent, as
//     after any tick, and the halt contract holds: the next tick either resumes the
//     Running path or halts it, and every OnStart is followed by one finish or one halt.
//     A halt hook that panics there too ends the halting; its panic goes on instead.
//
// So the next Tick runs as after a tick that had stopped at the leaf: a Sequence or
// Selector that was Running resumes at the child it was running before the tick (the
// children that finished in the panicking tick run again), one that was not starts over
// at its first child; a Parallel that was Running ticks its
// unfinished children, one that was not starts all of them again; a decorator (Inverter,
// Repeat, Retry, Timeout, ...) holds its status from before the tick, its timer advanced
// by the tick's DT. [Tree.Halt] after a recovered panic halts every Running node and
// starts the agent over.
//
// Panics: if m was not made by t.NewMemory.
func (t *Tree) Tick(m *Memory, ctx *Context) Status {
	if !t.owns(m) {
		panic(errMemoryMismatched)
	}
	done := false
	outer := ctx.ticks // a leaf may tick another tree with the same Context
	defer func() {
		ctx.ticks = outer
		if !done {
			t.haltOrphans(m.nodes, ctx)
		}
	}()
	ctx.ticks = nil
	if r := m.ticks; r != nil && len(r.last) == len(m.nodes) && len(r.start) == len(m.nodes) {
		r.tick++
		ctx.ticks = r
	}
	dt, now := ctx.DT, ctx.Time
	var s Status
	if goodDT(dt) && goodTime(now) {
		s = t.tick(m.nodes, 0, ctx)
	} else {
		ctx.clockFaults++
		s = t.tickBadClock(m, ctx, dt, now)
	}
	ctx.mem = nil
	done = true
	return s
}

// tickBadClock is Tick with 0 for a bad dt or time, given back to ctx even if a leaf
// panics (the caller may recover and reuse the Context).
func (t *Tree) tickBadClock(m *Memory, ctx *Context, dt, now float64) Status {
	defer func() { ctx.DT, ctx.Time = dt, now }()
	if !goodDT(dt) {
		ctx.DT = 0
	}
	if !goodTime(now) {
		ctx.Time = 0
	}
	return t.tick(m.nodes, 0, ctx)
}

// goodDT reports whether dt is finite and >= 0.
func goodDT(dt float64) bool { return dt >= 0 && dt <= math.MaxFloat64 }

// goodTime reports whether t is finite.
func goodTime(t float64) bool { return t >= -math.MaxFloat64 && t <= math.MaxFloat64 }

// Halt stops the agent's tree (tree swap, agent death, a state machine leaving the state
// that runs it): every Running node gets its halt hook exactly once, deepest first (a child
// before its parent), then every node's memory is reset to Idle, clearing what survives
// ordinary halts too: the position of a SequenceWithMemory, the result of a RunOnce. A
// Cooldown that is cooling down keeps its ready time: a cooldown limits how often its child
// runs, and a tree halted and ticked again (a state left and re-entered) would otherwise
// run it again at once. A new memory ([Tree.NewMemory], [Tree.ResetMemory]) has none.
//
// A halt hook that panics (or a leaf of a TryCatch's catch child, run as its try block
// is halted) ends the halting; the panic goes on to the caller. The nodes halted before
// it are Idle, the hook's node and the others keep their memory (an Action of the catch
// child started there is halted as the panic unwinds, as in [Tree.Tick]); calling Halt
// again halts the rest.
//
// A memory of another tree (m.Tree(): a Brain whose Tree was replaced since its last think)
// is halted by that tree, whose nodes it holds; it stays that tree's.
//
// Panics: if m was made for neither t nor a tree of its length.
func (t *Tree) Halt(m *Memory, ctx *Context) {
	if o := m.tree; o != nil && o != t && len(m.nodes) == len(o.nodes) {
		o.Halt(m, ctx) // the tree that runs in m: a Brain's Tree replaced, its memory still the old tree's
		return
	}
	if !t.owns(m) {
		panic(errMemoryMismatched)
	}
	done := false
	defer func() {
		if !done {
			t.haltOrphans(m.nodes, ctx)
		}
	}()
	t.haltRange(m.nodes, 0, int32(len(t.nodes)), ctx)
	for i := range m.nodes {
		if mem := &m.nodes[i]; t.nodes[i].kind == kindCooldown && mem.Count != 0 {
			*mem = NodeMemory{Count: mem.Count, Timer: mem.Timer} // still cooling down
		} else {
			*mem = NodeMemory{}
		}
	}
	ctx.mem = nil
	done = true
}

// LongestTimer returns the timer node (Wait, Sleep, Delay, Timeout, Cooldown) of the
// longest duration, that duration in seconds, and whether the tree has a timer. Durations
// are seconds of simulation time, so one of thousands of seconds is most often
// milliseconds written for seconds (a Cooldown of 5000 meant 5 s and waits 83 minutes):
// systems.Diagnose reports one over its limit (tree_timer_too_long). It allocates nothing.
func (t *Tree) LongestTimer() (node int, seconds float64, ok bool) {
	if t == nil {
		return 0, 0, false
	}
	for i := range t.nodes {
		switch n := &t.nodes[i]; n.kind {
		case kindWait, kindSleep, kindDelay, kindTimeout, kindCooldown:
			if !ok || n.seconds > seconds {
				node, seconds, ok = i, n.seconds, true
			}
		}
	}
	return node, seconds, ok
}

// UnwrittenKey returns a blackboard key that one of the tree's input ports reads
// and that nothing will set: an input port of a tree built from the tree's
// registry declared it (it was not in the schema before), no output port,
// SetBlackboard, queue port or script of any tree built from that registry
// binds it, and st holds no value for it (st nil: not checked). Such a key is
// most often misspelt ("{target_postion}"): the port reads nothing, and the
// node fails, or does what it does without its input, on every tick. A key a
// program declares itself and sets from Go code is not returned once st holds
// its value. ("", false) when there is none, and for trees made by [Compile].
// It allocates nothing.
func (t *Tree) UnwrittenKey(st *blackboard.Store) (string, bool) {
	if t == nil || t.reg == nil {
		return "", false
	}
	for _, k := range t.reads {
		if t.reg.inputOnly[k] && (st == nil || !st.Has(k)) {
			return k, true
		}
	}
	return "", false
}

// countNodes returns the number of nodes under root (nil children counted, as Compile
// fails on them), stopping at limit.
func countNodes(root *Node, limit int) int {
	n := 0
	var walk func(*Node)
	walk = func(x *Node) {
		if n++; n >= limit || x == nil {
			return
		}
		for _, c := range x.children {
			walk(c)
			if n >= limit {
				return
			}
		}
	}
	walk(root)
	return min(n, limit)
}
