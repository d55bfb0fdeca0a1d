package bt

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/archai-go/archai/ai/blackboard"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// harness runs a tree against scripted leaf outcomes and records what the leaves saw.
//
// A script maps a leaf name to one letter per tick (tick 1 first): 'S' Success, 'F'
// Failure, 'R' Running (Conditions: 'S' true, 'F' false). '.' or a missing letter means the
// leaf must not be ticked on that tick; ticking it anyway fails the test.
type harness struct {
	t      *testing.T
	store  *blackboard.Store // set by a build function that uses a blackboard
	script map[string]string
	tick   int      // current tick, 1-based
	events []string // leaf events of the current tick: "A" tick, "halt:A", "start:A"
	before func()   // if set, runs before each tick (script_test.go: condition flags)
}

func (h *harness) log(event string) { h.events = append(h.events, event) }

func (h *harness) outcome(name string) Status {
	seq := h.script[name]
	letter := byte('.')
	if h.tick-1 < len(seq) {
		letter = seq[h.tick-1]
	}
	switch letter {
	case 'S':
		return Success
	case 'F':
		return Failure
	case 'R':
		return Running
	}
	h.t.Errorf("tick %d: leaf %q ticked, script %q says it must not be", h.tick, name, seq)
	return Failure
}

// act is a scripted Action that logs its ticks and halts. It counts its ticks in its node
// memory, so a memory that is not reset shows.
func (h *harness) act(name string) *Node {
	return Action(name, func(c *Context) Status {
		h.log(name)
		c.Node().Count++
		c.Node().Timer += c.DT
		return h.outcome(name)
	}).OnHalt(func(*Context) { h.log("halt:" + name) })
}

// cond is a scripted Condition that logs its ticks.
func (h *harness) cond(name string) *Node { return Condition(name, h.check(name)) }

// check is a scripted condition function that logs its calls.
func (h *harness) check(name string) func(*Context) bool {
	return func(*Context) bool {
		h.log(name)
		return h.outcome(name) == Success
	}
}

// digit returns the script letter of name for the current tick as a number ('x' is 9).
func (h *harness) digit(name string) int {
	seq := h.script[name]
	if h.tick-1 < len(seq) && seq[h.tick-1] >= '0' && seq[h.tick-1] <= '9' {
		return int(seq[h.tick-1] - '0')
	}
	return 9
}

// run is the result of running a scripted tree.
type run struct {
	trace string   // root status per tick: I, R, S, F
	log   []string // leaf events per tick, space separated
	tree  *Tree
	mem   Memory
}

// runScript builds, compiles and ticks a tree for the given number of ticks. Tick k
// (1-based) has ctx.DT = dt and ctx.Time = k*dt. after, if not nil, runs after each tick.
func runScript(t *testing.T, build func(h *harness) *Node, script map[string]string, ticks int, dt float64, after func(tick int, r *run)) *run {
	t.Helper()
	h := &harness{t: t, script: script}
	tree, err := Compile(t.Name(), build(h))
	require.NoError(t, err)
	r := &run{tree: tree, mem: tree.NewMemory()}
	ctx := &Context{DT: dt, Blackboard: h.store}
	for h.tick = 1; h.tick <= ticks; h.tick++ {
		h.events = h.events[:0]
		ctx.Time = float64(h.tick) * dt
		if h.before != nil {
			h.before()
		}
		ctx.Blackboard = h.store
		s := tree.Tick(&r.mem, ctx)
		checkRunningParents(t, tree, &r.mem)
		r.trace += letter(s)
		r.log = append(r.log, strings.Join(h.events, " "))
		if after != nil {
			after(h.tick, r)
		}
	}
	return r
}

// checkRunningParents asserts the invariant of the halt contract: a Running node's
// parent is Running, so no Running subtree is left behind unticked and unhalted.
func checkRunningParents(t *testing.T, tree *Tree, m *Memory) {
	t.Helper()
	for i := 1; i < tree.Len(); i++ {
		if m.Status(i) == Running {
			p := tree.Parent(i)
			assert.Equal(t, Running, m.Status(p), "node %d %s is Running under %d %s", i, tree.NodeName(i), p, tree.NodeName(p))
		}
	}
}

// letter is the trace letter of s: I, R, S, F, and K for Skipped.
func letter(s Status) string {
	if s == Skipped {
		return "K"
	}
	return s.String()[:1]
}

// index returns the pre-order index of the node named name.
func index(t *testing.T, tree *Tree, name string) int {
	t.Helper()
	for i := range tree.Len() {
		if tree.NodeName(i) == name {
			return i
		}
	}
	t.Fatalf("no node %q", name)
	return -1
}

// scriptCase is one table row: a tree, a script and the expected trace and log.
type scriptCase struct {
	name   string
	build  func(h *harness) *Node
	script map[string]string
	dt     float64 // 0.25 if zero
	trace  string
	log    []string
}

func checkCases(t *testing.T, cases []scriptCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dt := c.dt
			if dt == 0 {
				dt = 0.25
			}
			r := runScript(t, c.build, c.script, len(c.trace), dt, nil)
			assert.Equal(t, c.trace, r.trace, "root status per tick")
			if c.log != nil {
				assert.Equal(t, c.log, r.log, "leaf events per tick")
			}
		})
	}
}

func TestNodeMemoryIs16Bytes(t *testing.T) {
	assert.Equal(t, uintptr(16), unsafe.Sizeof(NodeMemory{}))
}

func TestStatusString(t *testing.T) {
	assert.Equal(t, "Idle", Idle.String())
	assert.Equal(t, "Running", Running.String())
	assert.Equal(t, "Success", Success.String())
	assert.Equal(t, "Failure", Failure.String())
	assert.Equal(t, "Status(9)", Status(9).String())
}

func TestSequence(t *testing.T) {
	abc := func(h *harness) *Node { return Sequence(h.act("A"), h.act("B"), h.act("C")) }
	checkCases(t, []scriptCase{{
		name:   "resumes at the running child without re-ticking earlier ones",
		build:  abc,
		script: map[string]string{"A": "S..S", "B": "RRSF", "C": "..S."},
		trace:  "RRSF",
		log:    []string{"A B", "B", "B C", "A B"},
	}, {
		// BehaviorTree.CPP v4 Sequence: a failure resets to child 0. SequenceWithMemory
		// would resume at B on tick 3 and never tick A again.
		name:   "a failure resets to the first child",
		build:  abc,
		script: map[string]string{"A": "S.S", "B": "RFS", "C": "..S"},
		trace:  "RFS",
		log:    []string{"A B", "B", "A B C"},
	}, {
		name:   "first child fails",
		build:  abc,
		script: map[string]string{"A": "FS", "B": ".S", "C": ".S"},
		trace:  "FS",
		log:    []string{"A", "A B C"},
	}})
}

func TestSelector(t *testing.T) {
	abc := func(h *harness) *Node { return Selector(h.act("A"), h.act("B"), h.act("C")) }
	checkCases(t, []scriptCase{{
		name:   "resumes at the running child, a later failure falls through",
		build:  abc,
		script: map[string]string{"A": "F.F", "B": "RFS", "C": ".S."},
		trace:  "RSS",
		log:    []string{"A B", "B C", "A B"},
	}, {
		name:   "all fail",
		build:  abc,
		script: map[string]string{"A": "FS", "B": "F.", "C": "F."},
		trace:  "FS",
		log:    []string{"A B C", "A"},
	}})
}

func TestReactiveSequence(t *testing.T) {
	checkCases(t, []scriptCase{{
		name: "guard flips to false: running action halted exactly once",
		build: func(h *harness) *Node {
			return ReactiveSequence(h.cond("G"), h.act("X"))
		},
		script: map[string]string{"G": "SSFFS", "X": "RR..R"},
		trace:  "RRFFR",
		log:    []string{"G X", "G X", "G halt:X", "G", "G X"},
	}, {
		name: "guard becomes Running: later running action halted",
		build: func(h *harness) *Node {
			return ReactiveSequence(h.act("G"), h.act("X"))
		},
		script: map[string]string{"G": "SRRS", "X": "R..S"},
		trace:  "RRRS",
		log:    []string{"G X", "G halt:X", "G", "G X"},
	}})

	t.Run("halted action memory is reset", func(t *testing.T) {
		var x int
		r := runScript(t, func(h *harness) *Node {
			return ReactiveSequence(h.cond("G"), h.act("X"))
		}, map[string]string{"G": "SF", "X": "R."}, 2, 0.25, func(tick int, r *run) {
			x = index(t, r.tree, "X")
			want := []NodeMemory{{Status: Running, Count: 1, Timer: 0.25}, {}}[tick-1]
			assert.Equal(t, want, r.mem.Nodes()[x], "X memory after tick %d", tick)
			assert.Equal(t, []Status{Success, Failure}[tick-1], r.mem.Status(1), "G is never Running")
		})
		assert.Equal(t, NodeMemory{}, r.mem.Nodes()[x])
	})
}

func TestReactiveSelector(t *testing.T) {
	checkCases(t, []scriptCase{{
		name: "higher-priority branch preempts a running lower one",
		build: func(h *harness) *Node {
			return ReactiveSelector(Sequence(h.cond("C"), h.act("A")), h.act("B"))
		},
		// The Sequence has memory: on tick 4 it resumes at A without re-checking C.
		script: map[string]string{"C": "FFS.F", "A": "..RS.", "B": "RR..R"},
		trace:  "RRRSR",
		log:    []string{"C B", "C B", "C A halt:B", "A", "C B"},
	}, {
		name: "higher-priority success preempts",
		build: func(h *harness) *Node {
			return ReactiveSelector(h.cond("C"), h.act("B"))
		},
		script: map[string]string{"C": "FSF", "B": "R.F"},
		trace:  "RSF",
		log:    []string{"C B", "C halt:B", "C B"},
	}, {
		// Wait(1) with dt 0.25 needs 4 Running ticks. It runs on ticks 1-2, is preempted on
		// tick 3, and when re-entered on tick 4 waits its full time again: Running on ticks
		// 4-7, Success on tick 8. Without the reset it would succeed on tick 6.
		name: "preempted Wait restarts from zero",
		build: func(h *harness) *Node {
			return ReactiveSelector(Sequence(h.cond("C"), h.act("A")), Wait(1))
		},
		script: map[string]string{"C": "FFSFFFFF", "A": "..S....."},
		trace:  "RRSRRRRS",
		log:    []string{"C", "C", "C A", "C", "C", "C", "C", "C"},
	}})

	t.Run("halt called once per preemption", func(t *testing.T) {
		r := runScript(t, func(h *harness) *Node {
			return ReactiveSelector(h.cond("C"), h.act("B"))
		}, map[string]string{"C": "FSSSFS", "B": "R...R."}, 6, 0.25, nil)
		assert.Equal(t, []string{"C B", "C halt:B", "C", "C", "C B", "C halt:B"}, r.log)
	})
}

func TestInverter(t *testing.T) {
	checkCases(t, []scriptCase{{
		name:   "swaps success and failure, keeps running",
		build:  func(h *harness) *Node { return Inverter(h.act("A")) },
		script: map[string]string{"A": "SFR"},
		trace:  "FSR",
	}, {
		name: "halting the inverter halts its child",
		build: func(h *harness) *Node {
			return ReactiveSelector(h.cond("C"), Inverter(h.act("A")))
		},
		script: map[string]string{"C": "FS", "A": "R."},
		trace:  "RS",
		log:    []string{"C A", "C halt:A"},
	}})
}

func TestCondition(t *testing.T) {
	checkCases(t, []scriptCase{{
		name:   "true is Success, false is Failure",
		build:  func(h *harness) *Node { return h.cond("C") },
		script: map[string]string{"C": "SFS"},
		trace:  "SFS",
		log:    []string{"C", "C", "C"},
	}})
}

func TestWait(t *testing.T) {
	cases := []struct {
		seconds, dt float64
		trace       string
	}{
		{0, 0.25, "SS"},
		{1, 0.25, "RRRRS"},
		{1, 0.3, "RRRRS"},         // ceil(1/0.3) = 4
		{1, 0.1, "RRRRRRRRRRS"},   // ten sums of 0.1 fall short of 1 by 1e-16: tolerated
		{0.5, 0.25, "RRSRRS"},     // restarts after Success
		{1, 1, "RS"},              // the first tick's dt is not counted
		{1, 2, "RSRS"},            // overshoot
		{2.5, 1, "RRRSRRRS"},      // ceil(2.5) = 3
		{0.75, 0.25, "RRRSRRRSR"}, // exact multiples
	}
	for _, c := range cases {
		t.Run("", func(t *testing.T) {
			r := runScript(t, func(*harness) *Node { return Wait(c.seconds) }, nil, len(c.trace), c.dt, nil)
			assert.Equal(t, c.trace, r.trace, "Wait(%v) with dt %v", c.seconds, c.dt)
		})
	}
}

func TestCooldown(t *testing.T) {
	checkCases(t, []scriptCase{{
		// Success at t=0.25 starts the cooldown; ticks at 0.5, 0.75, 1.0 fail without
		// ticking A; at 1.25 = 0.25+1 A is available again.
		name:   "available again exactly seconds after completion",
		build:  func(h *harness) *Node { return Cooldown(1, h.act("A")) },
		script: map[string]string{"A": "S...F...S"},
		trace:  "SFFFFFFFS",
		log:    []string{"A", "", "", "", "A", "", "", "", "A"},
	}, {
		name:   "cooldown starts when a running child completes",
		build:  func(h *harness) *Node { return Cooldown(0.5, h.act("A")) },
		script: map[string]string{"A": "RRF.R"},
		trace:  "RRFFR",
		log:    []string{"A", "A", "A", "", "A"},
	}, {
		name:   "dt 0.1: available at the first tick with Time >= completion + seconds",
		build:  func(h *harness) *Node { return Cooldown(0.3, h.act("A")) },
		script: map[string]string{"A": "S..S"},
		dt:     0.1,
		trace:  "SFFS",
	}, {
		name: "a halted cooldown does not start cooling",
		build: func(h *harness) *Node {
			return ReactiveSelector(h.cond("C"), Cooldown(10, h.act("A")))
		},
		script: map[string]string{"C": "FSFF", "A": "R.SF"},
		trace:  "RSSF",
		log:    []string{"C A", "C halt:A", "C A", "C"},
	}, {
		name:   "zero seconds never cools down",
		build:  func(h *harness) *Node { return Cooldown(0, h.act("A")) },
		script: map[string]string{"A": "SFS"},
		trace:  "SFS",
		log:    []string{"A", "A", "A"},
	}})

	// A cooldown survives Tree.Halt (a state machine state left and re-entered every
	// update let a Cooldown(10 s) run its child 5 times in 1 s: a reviewer); a new
	// memory has none.
	t.Run("Tree.Halt keeps the cooldown", func(t *testing.T) {
		ticks := 0
		tree, err := Compile("cd", Cooldown(100, Action("A", func(*Context) Status { ticks++; return Success })))
		require.NoError(t, err)
		m := tree.NewMemory()
		ctx := &Context{Time: 1}
		assert.Equal(t, Success, tree.Tick(&m, ctx))
		assert.Equal(t, Failure, tree.Tick(&m, ctx))
		tree.Halt(&m, ctx)
		assert.Equal(t, Failure, tree.Tick(&m, ctx), "still cooling down")
		ctx.Time = 101
		tree.Halt(&m, ctx)
		assert.Equal(t, Success, tree.Tick(&m, ctx), "ready at 101")
		assert.Equal(t, 2, ticks)
		tree.ResetMemory(&m)
		assert.Equal(t, Success, tree.Tick(&m, ctx), "a new memory")
		assert.Equal(t, 3, ticks)
	})
}

func TestActionHooksAndMemory(t *testing.T) {
	var events []string
	var counts []uint16
	a := Action("A", func(c *Context) Status {
		c.Node().Count++
		counts = append(counts, c.Node().Count)
		events = append(events, "tick")
		if c.Node().Count == 3 {
			return Success
		}
		return Running
	}).OnStart(func(c *Context) {
		events = append(events, "start")
		assert.Equal(t, NodeMemory{}, *c.Node(), "memory is zeroed before OnStart")
	}).OnHalt(func(c *Context) {
		events = append(events, "halt")
		assert.Equal(t, Running, c.Node().Status, "halt hook sees the memory before reset")
		assert.Equal(t, uint16(1), c.Node().Count)
	})
	tree, err := Compile("hooks", a)
	require.NoError(t, err)
	m := tree.NewMemory()
	ctx := &Context{}

	got := []Status{tree.Tick(&m, ctx), tree.Tick(&m, ctx), tree.Tick(&m, ctx), tree.Tick(&m, ctx)}
	assert.Equal(t, []Status{Running, Running, Success, Running}, got)
	assert.Equal(t, []uint16{1, 2, 3, 1}, counts, "memory is zeroed when re-entered after Success")
	assert.Equal(t, []string{"start", "tick", "tick", "tick", "start", "tick"}, events)
	assert.Equal(t, 0, ctx.NodeIndex())
	assert.Nil(t, ctx.Node(), "Node is nil outside a leaf call")

	events = nil
	tree.Halt(&m, ctx)
	tree.Halt(&m, ctx)
	assert.Equal(t, []string{"halt"}, events, "halted once; an Idle action is not halted")
	assert.Equal(t, Idle, m.Status(0))
}

func TestActionInvalidStatusIsFailure(t *testing.T) {
	for _, s := range []Status{Idle, Status(7)} {
		tree, err := Compile("bad", Action("A", func(*Context) Status { return s }))
		require.NoError(t, err)
		m := tree.NewMemory()
		assert.Equal(t, Failure, tree.Tick(&m, &Context{}))
		assert.Equal(t, Failure, m.Status(0))
	}
}

func TestTreeHalt(t *testing.T) {
	// Pre-order: 0 Sequence, 1 A, 2 ReactiveSequence, 3 G, 4 Inverter, 5 Selector,
	// 6 F, 7 X.
	var tree *Tree
	var m Memory
	var order []string
	hook := func(name string) func(*Context) {
		return func(c *Context) {
			// Deepest first: every ancestor is still Running when a node is halted.
			for _, anc := range []int{0, 2, 4, 5} {
				assert.Equal(t, Running, m.Status(anc), "ancestor %d of %s", anc, name)
			}
			assert.Equal(t, name, tree.NodeName(c.NodeIndex()))
			order = append(order, "halt:"+name)
		}
	}
	root := Sequence(
		Action("A", func(*Context) Status { return Success }).OnHalt(hook("A")),
		ReactiveSequence(
			Condition("G", func(*Context) bool { return true }),
			Inverter(Selector(
				Condition("F", func(*Context) bool { return false }),
				Action("X", func(*Context) Status { return Running }).OnHalt(hook("X")),
			)),
		),
	)
	var err error
	tree, err = Compile("halt", root)
	require.NoError(t, err)
	require.Equal(t, 8, tree.Len())
	m = tree.NewMemory()
	ctx := &Context{}

	assert.Equal(t, Running, tree.Tick(&m, ctx))
	want := []Status{Running, Success, Running, Success, Running, Running, Failure, Running}
	for i, s := range want {
		assert.Equal(t, s, m.Status(i), "node %d %s", i, tree.NodeName(i))
	}
	assert.Equal(t, uint16(1), m.Nodes()[0].Child, "sequence remembers its running child")

	tree.Halt(&m, ctx)
	assert.Equal(t, []string{"halt:X"}, order, "only the Running action is halted, A completed")
	assert.Equal(t, make([]NodeMemory, 8), m.Nodes(), "all memory reset to Idle")
}

func TestTreeIntrospection(t *testing.T) {
	c := Condition("", func(*Context) bool { return true })
	tree, err := Compile("intro", Sequence(
		Condition("ready", func(*Context) bool { return true }),
		Inverter(c).Named("not"),
		Wait(1),
	).Named("root"))
	require.NoError(t, err)
	assert.Equal(t, "intro", tree.Name())
	assert.Equal(t, 5, tree.Len())
	var names, kinds []string
	for i := range tree.Len() {
		names = append(names, tree.NodeName(i))
		kinds = append(kinds, tree.NodeKind(i))
	}
	assert.Equal(t, []string{"root", "ready", "not", "Condition", "Wait"}, names)
	assert.Equal(t, []string{"Sequence", "Condition", "Inverter", "Condition", "Wait"}, kinds)
	assert.Equal(t, []int{1, 2, 4}, tree.Children(nil, 0))
	assert.Equal(t, []int{3}, tree.Children(nil, 2))
	assert.Empty(t, tree.Children(nil, 4))
	m := tree.NewMemory()
	assert.Equal(t, 5, m.Len())
}

func TestSharedNodeCompiledTwice(t *testing.T) {
	ticks := 0
	leaf := Action("A", func(*Context) Status { ticks++; return Success })
	tree, err := Compile("shared", Sequence(leaf, leaf))
	require.NoError(t, err)
	assert.Equal(t, 3, tree.Len())
	m := tree.NewMemory()
	assert.Equal(t, Success, tree.Tick(&m, &Context{}))
	assert.Equal(t, 2, ticks)
}

func TestVariadicSliceIsCopied(t *testing.T) {
	kids := []*Node{Wait(0)}
	n := Sequence(kids...)
	kids[0] = nil // must not reach the node
	_, err := Compile("copy", n)
	assert.NoError(t, err)
}

func TestTickPanicsOnForeignMemory(t *testing.T) {
	a, err := Compile("a", Wait(1))
	require.NoError(t, err)
	b, err := Compile("b", Sequence(Wait(1), Wait(1)))
	require.NoError(t, err)
	m := a.NewMemory()
	assert.Panics(t, func() { b.Tick(&m, &Context{}) })
	assert.NotPanics(t, func() { b.Halt(&m, &Context{}) }, "a memory of a is halted by a")
	assert.Same(t, a, m.Tree())
	var zero Memory
	assert.Panics(t, func() { b.Halt(&zero, &Context{}) })
	assert.Panics(t, func() { a.Tick(&zero, &Context{}) })
}

func TestChoose(t *testing.T) {
	// pick scripts the chosen index per tick: a digit, or 'x' for out of range (9).
	chooser := func(h *harness, pick string) func(*Context) int {
		return func(c *Context) int {
			c.Node().Count++ // Count is free for choose and survives ticks
			if p := pick[h.tick-1]; p >= '0' && p <= '9' {
				return int(p - '0')
			}
			return 9
		}
	}
	checkCases(t, []scriptCase{{
		name: "switching branch halts the running one before ticking the new one",
		build: func(h *harness) *Node {
			return Choose("utility", chooser(h, "00110x0"), h.act("A"), h.act("B"))
		},
		script: map[string]string{"A": "RR..R.S", "B": "..RS..."},
		trace:  "RRRSRFS",
		log:    []string{"A", "A", "halt:A B", "B", "A", "halt:A", "A"},
	}, {
		name: "same index keeps the running child; completed child is not halted",
		build: func(h *harness) *Node {
			return Choose("c", chooser(h, "0011"), h.act("A"), h.act("B"))
		},
		script: map[string]string{"A": "RS..", "B": "..SR"},
		trace:  "RSSR",
		log:    []string{"A", "A", "B", "B"},
	}})

	t.Run("choose sees its own memory", func(t *testing.T) {
		r := runScript(t, func(h *harness) *Node {
			return Choose("c", chooser(h, "000"), h.act("A"))
		}, map[string]string{"A": "RRR"}, 3, 0.25, nil)
		assert.Equal(t, uint16(3), r.mem.Nodes()[0].Count)
		assert.Equal(t, "Choose", r.tree.NodeKind(0))
		assert.Equal(t, "c", r.tree.NodeName(0))
	})
}
