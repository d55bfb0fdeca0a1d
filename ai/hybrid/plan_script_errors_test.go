package hybrid

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/htn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An HTN script that fails at run time (a division by zero in a condition) under
// HTNAction was counted in a pooled htn.Planner that nobody reads: the tree's
// bt.Context.ScriptErrors, which systems.Decision sums into Decision.ScriptErrors,
// stayed 0, so the failing script went unseen. The action now passes the count (and
// the error) on to the tree's Context.
func TestHTNActionCountsScriptErrors(t *testing.T) {
	b := htn.NewBuilder("divide")
	b.Fact("zero")
	b.Fact("done")
	bad, err := b.Script("10 / zero > 1", "divide: If")
	require.NoError(t, err)
	ok, err := b.Script("done == 0", "divide: If")
	require.NoError(t, err)
	set, err := b.ScriptEffect("done = 1", "divide: Effects")
	require.NoError(t, err)
	act := b.Primitive("Act", htn.Primitive{If: []htn.Condition{ok}, Effects: []htn.Effect{set}})
	root := b.Compound("Root")
	b.Method(root, htn.Method{Name: "Divide", If: []htn.Condition{bad}, Tasks: []htn.TaskID{act}})
	b.Method(root, htn.Method{Name: "Plain", Tasks: []htn.TaskID{act}})
	b.Root(root)
	d, err := b.Build()
	require.NoError(t, err)

	a := &planAgent{}
	tree, err := bt.Compile("t", HTNAction("Plan", d, func(c *bt.Context) (*htn.Run, *htn.State) {
		return &a.run, &a.state
	}))
	require.NoError(t, err)
	mem := tree.NewMemory()
	ctx := bt.Context{Agent: a}
	assert.Equal(t, bt.Success, tree.Tick(&mem, &ctx), "the second method plans")
	assert.Equal(t, uint64(1), ctx.ScriptErrors(), "the condition that divided by zero")
	node, lastErr := ctx.LastScriptError()
	assert.Equal(t, 0, node)
	assert.ErrorContains(t, lastErr, "zero")
}
