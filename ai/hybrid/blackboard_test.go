package hybrid

import (
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTreeStatePassesTheMachinesBlackboard: a tree inside a state reads and writes the
// store of the machine's context, and a guard reads the same store.
func TestTreeStatePassesTheMachinesBlackboard(t *testing.T) {
	s := blackboard.NewSchema()
	alarm := blackboard.MustDeclare[bool](s, "alarm")
	shots := blackboard.MustDeclare[int](s, "shots")
	tree, err := bt.Compile("fire", bt.Sequence(
		bt.CheckBlackboard(bt.FromKey(shots), bt.Lt, bt.Literal(2)),
		bt.Action("shoot", func(c *bt.Context) bt.Status {
			n, _ := blackboard.Get(c.Blackboard, shots)
			blackboard.Set(c.Blackboard, shots, n+1)
			return bt.Success
		}),
	))
	require.NoError(t, err)
	var run TreeRun
	b := fsm.NewBuilder("guard")
	idle := b.State("Idle", fsm.Hooks{})
	combat := b.State("Combat", TreeState(tree, func(*fsm.Context) *TreeRun { return &run }, nil))
	b.When(idle, func(c *fsm.Context) bool { v, _ := blackboard.Get(c.Blackboard, alarm); return v }, combat)
	m, err := b.Build()
	require.NoError(t, err)

	st := s.NewStore()
	blackboard.Set(st, shots, 0)
	var mem fsm.Memory
	ctx := &fsm.Context{DT: 0.25, Blackboard: st}
	m.Update(&mem, ctx)
	m.Update(&mem, ctx)
	assert.Equal(t, idle, mem.Active, "the guard reads alarm: not set")
	blackboard.Set(st, alarm, true)
	for range 4 {
		m.Update(&mem, ctx)
	}
	assert.Equal(t, combat, mem.Active)
	n, _ := blackboard.Get(st, shots)
	assert.Equal(t, 2, n, "the tree read and wrote the machine's store")
	assert.Equal(t, bt.Failure, run.Status)
	assert.Same(t, st, run.Context.Blackboard)
}
