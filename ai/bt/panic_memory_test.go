package bt_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// leafLog is a scripted Action for the panic tests: it counts its starts, ticks and
// halts, and returns the statuses of script in turn ("panic" panics), Running after
// the last.
type leafLog struct {
	name                 string
	script               []string
	starts, ticks, halts int
}

func (l *leafLog) node() *bt.Node {
	return bt.Action(l.name, func(*bt.Context) bt.Status {
		l.ticks++
		s := "running"
		if l.ticks <= len(l.script) {
			s = l.script[l.ticks-1]
		}
		switch s {
		case "panic":
			panic("boom " + l.name)
		case "success":
			return bt.Success
		case "failure":
			return bt.Failure
		}
		return bt.Running
	}).OnStart(func(*bt.Context) { l.starts++ }).OnHalt(func(*bt.Context) { l.halts++ })
}

// tickRecover ticks the tree once and returns its status, or the panic's value.
func tickRecover(tree *bt.Tree, m *bt.Memory, ctx *bt.Context) (s bt.Status, p any) {
	defer func() { p = recover() }()
	return tree.Tick(m, ctx), nil
}

// orphans returns the Running nodes whose parent is not Running, or is a composite that
// resumes at its running child (not a Parallel, ParallelAll, WhileDoElse or reactive
// node, which tick their children again) and is running another child.
func orphans(tree *bt.Tree, m *bt.Memory) []int {
	var out []int
	for i := 1; i < m.Len(); i++ {
		if m.Status(i) != bt.Running {
			continue
		}
		p := tree.Parent(i)
		if m.Status(p) != bt.Running {
			out = append(out, i)
			continue
		}
		kids := tree.Children(nil, p)
		switch tree.NodeKind(p) {
		case "Parallel", "ParallelAll", "WhileDoElse", "ReactiveSequence", "ReactiveSelector":
			continue // several Running children, or (reactive) every child ticked again
		}
		if len(kids) > 1 && kids[m.Nodes()[p].Child] != i {
			out = append(out, i)
		}
	}
	return out
}

// A Sequence whose second child panics on its first tick: the panic reaches the caller,
// the first child's Success is recorded, the Sequence is not Running, so the next tick
// starts over at the first child and the second one starts again (OnStart twice).
func TestSequenceChildPanicsStartsOver(t *testing.T) {
	a := &leafLog{name: "a", script: []string{"success", "success"}}
	b := &leafLog{name: "b", script: []string{"panic", "success"}}
	tree, err := bt.Compile("p", bt.Sequence(a.node(), b.node()))
	require.NoError(t, err)
	m, ctx := tree.NewMemory(), &bt.Context{DT: 0.1}
	_, p := tickRecover(tree, &m, ctx)
	assert.Equal(t, "boom b", p)
	assert.Equal(t, bt.Success, m.Status(1))
	assert.Equal(t, bt.Idle, m.Status(0))
	s, p := tickRecover(tree, &m, ctx)
	require.Nil(t, p)
	assert.Equal(t, bt.Success, s)
	assert.Equal(t, []int{2, 2, 2, 2, 1}, []int{a.ticks, b.ticks, a.starts, b.starts, b.halts}, "b started, halted as the panic unwound, started again")
}

// A Sequence Running at its second child, which panics on its second tick: the Sequence
// stays Running at it, the next tick resumes there without ticking the first child again
// and the child goes on (no second OnStart, no halt).
func TestRunningSequenceChildPanicsResumes(t *testing.T) {
	a := &leafLog{name: "a", script: []string{"success"}}
	b := &leafLog{name: "b", script: []string{"running", "panic", "success"}}
	tree, err := bt.Compile("p", bt.Sequence(a.node(), b.node()))
	require.NoError(t, err)
	m, ctx := tree.NewMemory(), &bt.Context{DT: 0.1}
	s, _ := tickRecover(tree, &m, ctx)
	require.Equal(t, bt.Running, s)
	_, p := tickRecover(tree, &m, ctx)
	assert.Equal(t, "boom b", p)
	assert.Equal(t, bt.Running, m.Status(0))
	assert.Equal(t, bt.Running, m.Status(2))
	s, _ = tickRecover(tree, &m, ctx)
	assert.Equal(t, bt.Success, s)
	assert.Equal(t, []int{1, 3, 1, 0}, []int{a.ticks, b.ticks, b.starts, b.halts})
}

// A Selector whose first child fails and second panics: the next tick tries the first
// child again.
func TestSelectorChildPanicsStartsOver(t *testing.T) {
	a := &leafLog{name: "a", script: []string{"failure", "success"}}
	b := &leafLog{name: "b", script: []string{"panic"}}
	tree, err := bt.Compile("p", bt.Selector(a.node(), b.node()))
	require.NoError(t, err)
	m, ctx := tree.NewMemory(), &bt.Context{DT: 0.1}
	_, p := tickRecover(tree, &m, ctx)
	assert.Equal(t, "boom b", p)
	s, _ := tickRecover(tree, &m, ctx)
	assert.Equal(t, bt.Success, s)
	assert.Equal(t, []int{2, 1}, []int{a.ticks, b.ticks})
}

// A Parallel starting in the tick whose second child panics, its first child already
// Running: the Parallel never recorded Running, so nothing would ever resume or halt the
// first child: a ReactiveSelector whose condition then succeeds abandoned it without its
// halt hook (a reservation never released). It is halted as the panic unwinds, once, and
// starts again with the Parallel.
func TestParallelChildPanicsHaltsItsRunningSibling(t *testing.T) {
	calm := 0
	a := &leafLog{name: "a"}
	b := &leafLog{name: "b", script: []string{"panic"}}
	tree, err := bt.Compile("p", bt.ReactiveSelector(
		bt.Condition("calm", func(*bt.Context) bool { calm++; return calm >= 2 }),
		bt.Parallel(2, 1, a.node(), b.node())))
	require.NoError(t, err)
	m, ctx := tree.NewMemory(), &bt.Context{DT: 0.1}
	_, p := tickRecover(tree, &m, ctx)
	assert.Equal(t, "boom b", p)
	assert.Equal(t, 1, a.halts, "the Running child of the abandoned Parallel is halted")
	assert.Equal(t, bt.Idle, m.Status(3))
	assert.Empty(t, orphans(tree, &m))
	s, _ := tickRecover(tree, &m, ctx)
	assert.Equal(t, bt.Success, s)
	assert.Equal(t, 1, a.halts, "halted exactly once")
	require.NoError(t, tree.CheckMemory(m.Clone()))
}

// A Parallel that was Running when its second child panics keeps both going: the first
// child is not halted, the second resumes, neither starts again.
func TestRunningParallelChildPanicsResumes(t *testing.T) {
	a := &leafLog{name: "a"}
	b := &leafLog{name: "b", script: []string{"running", "panic", "success"}}
	tree, err := bt.Compile("p", bt.Parallel(1, 1, a.node(), b.node()))
	require.NoError(t, err)
	m, ctx := tree.NewMemory(), &bt.Context{DT: 0.1}
	tickRecover(tree, &m, ctx)
	_, p := tickRecover(tree, &m, ctx)
	assert.Equal(t, "boom b", p)
	assert.Equal(t, 0, a.halts)
	s, _ := tickRecover(tree, &m, ctx)
	assert.Equal(t, bt.Success, s, "b succeeds, a is halted by the Parallel")
	assert.Equal(t, []int{1, 1, 1, 3}, []int{a.starts, a.halts, b.starts, b.ticks})
}

// Decorators: a Timeout's timer holds the panicking tick's DT; a Repeat counts the
// iterations finished before the panic; an Inverter keeps its status from before.
func TestDecoratorChildPanics(t *testing.T) {
	t.Run("Timeout", func(t *testing.T) {
		a := &leafLog{name: "a", script: []string{"running", "running", "panic"}}
		tree, err := bt.Compile("p", bt.Timeout(1, a.node()))
		require.NoError(t, err)
		m, ctx := tree.NewMemory(), &bt.Context{DT: 0.1}
		for range 3 {
			tickRecover(tree, &m, ctx)
		}
		assert.InDelta(t, 0.2, m.Nodes()[0].Timer, 1e-12, "the panicking tick's DT counted")
		assert.Equal(t, bt.Running, m.Status(0))
		tickRecover(tree, &m, ctx)
		assert.InDelta(t, 0.3, m.Nodes()[0].Timer, 1e-12)
		assert.Equal(t, []int{1, 0}, []int{a.starts, a.halts})
	})
	t.Run("Repeat", func(t *testing.T) {
		a := &leafLog{name: "a", script: []string{"success", "running", "success", "panic", "success", "success"}}
		tree, err := bt.Compile("p", bt.Repeat(3, a.node()))
		require.NoError(t, err)
		m, ctx := tree.NewMemory(), &bt.Context{DT: 0.1}
		s, _ := tickRecover(tree, &m, ctx) // success, running
		require.Equal(t, bt.Running, s)
		_, p := tickRecover(tree, &m, ctx) // success (2 done), panic
		require.Equal(t, "boom a", p)
		assert.Equal(t, 2, int(m.Nodes()[0].Count), "two iterations finished")
		s, _ = tickRecover(tree, &m, ctx) // success: the third
		assert.Equal(t, bt.Success, s)
		assert.Equal(t, 5, a.ticks)
	})
	t.Run("Inverter", func(t *testing.T) {
		a := &leafLog{name: "a", script: []string{"running", "panic", "failure"}}
		tree, err := bt.Compile("p", bt.Inverter(a.node()))
		require.NoError(t, err)
		m, ctx := tree.NewMemory(), &bt.Context{DT: 0.1}
		tickRecover(tree, &m, ctx)
		tickRecover(tree, &m, ctx)
		assert.Equal(t, bt.Running, m.Status(0))
		s, _ := tickRecover(tree, &m, ctx)
		assert.Equal(t, bt.Success, s)
		assert.Equal(t, []int{1, 0}, []int{a.starts, a.halts})
	})
}

// Random trees of every composite and decorator kind whose leaves return random statuses
// and now and then panic: after every tick (panicked or not) and halt, no Running node
// has a parent that is not Running (so every Running leaf is on a path the next tick
// resumes or a halt reaches), every leaf's starts are matched by one finish or one halt
// (the halt contract), and the memory fits CheckMemory. Without haltOrphans a panic left
// Running leaves under idle Parallels that were never halted.
func TestLeafPanicsKeepTheHaltContract(t *testing.T) {
	for _, odds := range []int{0, 1} {
		t.Run(fmt.Sprint(odds, " in 20 panic"), func(t *testing.T) { testHaltContract(t, odds) })
	}
}

func testHaltContract(t *testing.T, panicOdds int) {
	rng := rand.New(rand.NewPCG(18, 18))
	type leafState struct{ running bool }
	var leaves []*leafState
	var faults []string
	raised := 0 // panics raised by leaves in this tick
	leaf := func() *bt.Node {
		st := &leafState{}
		k := len(leaves)
		leaves = append(leaves, st)
		return bt.Action(fmt.Sprint("leaf", k), func(*bt.Context) bt.Status {
			if !st.running {
				faults = append(faults, fmt.Sprintf("leaf %d ticked while not started", k))
			}
			switch r := rng.IntN(20); {
			case r < panicOdds:
				raised++
				panic("boom")
			case r < 8:
				return bt.Running
			case r < 14:
				st.running = false
				return bt.Success
			default:
				st.running = false
				return bt.Failure
			}
		}).OnStart(func(*bt.Context) {
			if st.running {
				faults = append(faults, fmt.Sprintf("leaf %d started twice", k))
			}
			st.running = true
		}).OnHalt(func(*bt.Context) {
			if !st.running {
				faults = append(faults, fmt.Sprintf("leaf %d halted while not running", k))
			}
			st.running = false
		})
	}
	var build func(depth int) *bt.Node
	build = func(depth int) *bt.Node {
		if depth == 0 || rng.IntN(4) == 0 {
			return leaf()
		}
		kids := func(lo, hi int) []*bt.Node {
			k := make([]*bt.Node, lo+rng.IntN(hi-lo+1))
			for i := range k {
				k[i] = build(depth - 1)
			}
			return k
		}
		switch rng.IntN(18) {
		case 14:
			k := kids(1, 4)
			n := len(k)
			return bt.Choose("pick", func(*bt.Context) int { return rng.IntN(n+2) - 1 }, k...)
		case 15:
			return bt.TryCatch(rng.IntN(2) == 0, kids(2, 4)...)
		case 16:
			return bt.Delay(0.15, build(depth-1))
		case 17:
			return bt.AsyncFallback(kids(1, 4)...)
		case 0:
			return bt.Sequence(kids(1, 4)...)
		case 1:
			return bt.Selector(kids(1, 4)...)
		case 2:
			return bt.SequenceWithMemory(kids(1, 4)...)
		case 3:
			return bt.ReactiveSequence(kids(1, 4)...)
		case 4:
			return bt.ReactiveSelector(kids(1, 4)...)
		case 5:
			return bt.AsyncSequence(kids(1, 4)...)
		case 6:
			k := kids(1, 4)
			return bt.Parallel(1+rng.IntN(len(k)), 1+rng.IntN(len(k)), k...)
		case 7:
			k := kids(1, 4)
			return bt.ParallelAll(1+rng.IntN(len(k)), k...)
		case 8:
			return bt.Timeout(0.3, build(depth-1))
		case 9:
			return bt.Repeat(1+rng.IntN(3), build(depth-1))
		case 10:
			return bt.Retry(1+rng.IntN(3), build(depth-1))
		case 11:
			return bt.IfThenElse(build(depth-1), build(depth-1), build(depth-1))
		case 12:
			return bt.WhileDoElse(build(depth-1), build(depth-1), build(depth-1))
		default:
			return bt.Inverter(build(depth - 1))
		}
	}
	n, twice, halts := 0, 0, 0 // ticks that panicked, of which with a second panic; Halts that panicked
	panics := func(f func()) (p bool) {
		defer func() { p = recover() != nil }()
		f()
		return false
	}
	for trial := range 1500 {
		leaves, faults = leaves[:0], faults[:0]
		tree, err := bt.Compile("random", build(4))
		require.NoError(t, err)
		m := tree.NewMemory()
		ctx := &bt.Context{DT: 0.1}
		for tick := range 30 {
			what := "tick"
			before := m.Clone()
			raised = 0
			if rng.IntN(12) == 0 {
				// a Halt runs the catch children of TryCatch nodes with catch-on-halt,
				// whose leaves may panic: halting again finishes the job
				what = "halt"
				for panics(func() { tree.Halt(&m, ctx) }) {
					halts++
				}
			} else if panics(func() { tree.Tick(&m, ctx) }) {
				what = "panic"
				raised0 := raised
				n++
				if raised0 > 1 {
					// a leaf of such a catch child, run as a try block was halted while
					// the first panic unwound, panicked too: that halting ended (the
					// documented rule: that leaf keeps an OnStart without a halt), and
					// Tree.Halt starts the agent over
					twice++
					for panics(func() { tree.Halt(&m, ctx) }) {
					}
					for _, l := range leaves {
						l.running = false
					}
					faults = faults[:0]
				}
			}
			if o := orphans(tree, &m); len(o) > 0 || len(faults) > 0 {
				for i := 0; i < m.Len(); i++ {
					t.Logf("%*s%d %s %v -> %v", 2*tree.Depth(i), "", i, tree.NodeName(i), before.Nodes()[i], m.Nodes()[i])
				}
			}
			require.Empty(t, orphans(tree, &m), "trial %d tick %d %s", trial, tick, what)
			require.Empty(t, faults, "trial %d tick %d", trial, tick)
			require.NoError(t, tree.CheckMemory(m.Clone()), "trial %d tick %d", trial, tick)
		}
	}
	if panicOdds > 0 {
		assert.Greater(t, n, 1000)
		t.Logf("%d ticks panicked, %d with a second panic while halting; %d Halts panicked", n, twice, halts)
	}
}
