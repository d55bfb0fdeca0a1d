package bt_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMemoryCloneIsDeepAndCheckMemoryFindsMisfits(t *testing.T) {
	idle := func(*bt.Context) bt.Status { return bt.Running }
	tree, err := bt.Compile("t", bt.Sequence(bt.Action("a", idle), bt.Action("b", idle)))
	require.NoError(t, err)
	m := tree.NewMemory()
	m.Nodes()[1].Timer = math.NaN()
	c := m.Clone()
	c.Nodes()[0].Status = bt.Running
	assert.Equal(t, bt.Idle, m.Status(0), "a clone shares no node")
	assert.True(t, math.IsNaN(c.Nodes()[1].Timer))
	assert.NoError(t, tree.CheckMemory(c), "a NaN timer fits")

	assert.ErrorIs(t, tree.CheckMemory(bt.MemoryOf(make([]bt.NodeMemory, 2))), bt.ErrMemoryMismatch)
	bad := bt.MemoryOf(make([]bt.NodeMemory, 3))
	bad.Nodes()[2].Status = bt.Skipped + 1
	err = tree.CheckMemory(bad)
	assert.ErrorIs(t, err, bt.ErrMemoryMismatch)
	assert.ErrorContains(t, err, `node 2 (b)`)
	assert.Equal(t, bt.Memory{}, bt.Memory{}.Clone())
}

// A saved composite whose running child is past its last child (a hand-edited or
// corrupt save) is refused: ticked, the Sequence would succeed without running
// either child. A RunOnce remembering no defined status is refused too.
func TestCheckMemoryRefusesARunningChildPastTheLast(t *testing.T) {
	var ticks int
	act := func(*bt.Context) bt.Status { ticks++; return bt.Running }
	tree, err := bt.Compile("t", bt.Sequence(bt.Action("a", act), bt.Action("b", act)))
	require.NoError(t, err)
	m := tree.NewMemory()
	tree.Tick(&m, &bt.Context{DT: 0.1})
	require.Equal(t, 1, ticks)
	require.NoError(t, tree.CheckMemory(m), "a real running state fits")
	require.Equal(t, uint16(0), m.Nodes()[0].Child)

	m.Nodes()[0].Child = 2 // the Sequence has children 0 and 1
	err = tree.CheckMemory(m)
	assert.ErrorIs(t, err, bt.ErrMemoryMismatch)
	assert.ErrorContains(t, err, "running child 2 of 2 children")
	m.Nodes()[0].Child = 1
	assert.NoError(t, tree.CheckMemory(m))

	once, err := bt.Compile("once", bt.RunOnce(bt.Action("a", act)))
	require.NoError(t, err)
	om := once.NewMemory()
	om.Nodes()[0].Count, om.Nodes()[0].Child = 1, uint16(bt.Skipped)+1
	assert.ErrorIs(t, once.CheckMemory(om), bt.ErrMemoryMismatch)
	om.Nodes()[0].Child = uint16(bt.Success)
	assert.NoError(t, once.CheckMemory(om))
}

// A Running Wait whose counted time is negative (a hand-edited or corrupt save: ticks
// only add a DT >= 0 to it from 0) is refused. Before, CheckMemory took any timer, and
// a Wait(1) saved with -1e300 s (or -Inf) counted stayed Running for good: the agent
// waited forever, and nothing said why. A NaN timer still fits (the wait is over).
func TestCheckMemoryRefusesANegativeWaitedTime(t *testing.T) {
	acted := 0
	tree, err := bt.Compile("t", bt.Sequence(bt.Wait(1),
		bt.Timeout(5, bt.Delay(1, bt.Action("act", func(*bt.Context) bt.Status { acted++; return bt.Success })))))
	require.NoError(t, err)
	m := tree.NewMemory()
	ctx := &bt.Context{DT: 0.1}
	require.Equal(t, bt.Running, tree.Tick(&m, ctx))
	require.NoError(t, tree.CheckMemory(m), "a real running state fits")
	for _, node := range []int{1, 2, 3} { // the Wait; the Timeout and the Delay, entered
		for _, timer := range []float64{-1e300, math.Inf(-1), -0.5} {
			bad := m.Clone()
			if node > 1 {
				bad.Nodes()[0].Child = 1
				bad.Nodes()[1].Status = bt.Success
				bad.Nodes()[2].Status, bad.Nodes()[3].Status = bt.Running, bt.Running
			}
			bad.Nodes()[node].Timer = timer
			err := tree.CheckMemory(bad)
			assert.ErrorIs(t, err, bt.ErrMemoryMismatch, "node %d timer %v", node, timer)
			assert.ErrorContains(t, err, "below 0")
		}
	}
	nan := m.Clone()
	nan.Nodes()[1].Timer = math.NaN()
	assert.NoError(t, tree.CheckMemory(nan), "a NaN timer: the wait is over")
	idle := tree.NewMemory()
	idle.Nodes()[1].Timer = -3
	assert.NoError(t, tree.CheckMemory(idle), "a timer of a node not Running is reset on entry")

	// what the refused memory did: a Wait that never ends
	stuck := m.Clone()
	stuck.Nodes()[1].Timer = -1e300
	for range 1000 {
		tree.Tick(&stuck, ctx)
	}
	assert.Equal(t, bt.Running, stuck.Status(1))
	assert.Zero(t, acted)
}

// Two states no tick leaves are refused (a hand-edited or corrupt save). A Running
// action under a Selector that is not Running: before, it loaded, was never ticked
// again nor halted (its OnHalt never ran) while the Selector went on with its first
// child. A Running Parallel whose finished children already decide it: before, it
// loaded and returned Running for good without ticking a child.
func TestCheckMemoryRefusesStatesNoTickLeaves(t *testing.T) {
	ticks, halts := 0, 0
	act := func(*bt.Context) bt.Status { ticks++; return bt.Running }
	orphan, err := bt.Compile("o", bt.Selector(bt.AlwaysSuccess(), bt.Action("a", act).OnHalt(func(*bt.Context) { halts++ })))
	require.NoError(t, err)
	m := orphan.NewMemory()
	m.Nodes()[2].Status = bt.Running
	err = orphan.CheckMemory(m)
	assert.ErrorIs(t, err, bt.ErrMemoryMismatch)
	assert.ErrorContains(t, err, "node 2 (a): memory does not fit the tree: Running under node 0 (Selector), which is Idle")
	ctx := &bt.Context{DT: 0.1}
	for range 10 {
		orphan.Tick(&m, ctx)
	}
	assert.Equal(t, bt.Running, m.Status(2), "what the refused memory did: never ticked")
	assert.Zero(t, halts+ticks, "nor halted")

	par, err := bt.Compile("p", bt.Parallel(2, 2, bt.Action("a", act), bt.Action("b", act), bt.Action("c", act)))
	require.NoError(t, err)
	pm := par.NewMemory()
	require.Equal(t, bt.Running, par.Tick(&pm, ctx))
	require.NoError(t, par.CheckMemory(pm), "a real running state fits")
	pm.Nodes()[1].Status, pm.Nodes()[3].Status = bt.Success, bt.Failure
	require.NoError(t, par.CheckMemory(pm), "1 success, 1 failure, 1 running: undecided")
	pm.Nodes()[2].Status = bt.Success
	err = par.CheckMemory(pm)
	assert.ErrorIs(t, err, bt.ErrMemoryMismatch)
	assert.ErrorContains(t, err, "Running with 2 of 3 children succeeded and 1 failed, which decides it")
	ticks = 0
	for range 10 {
		assert.Equal(t, bt.Running, par.Tick(&pm, ctx), "what the refused memory did")
	}
	assert.Zero(t, ticks)
}
