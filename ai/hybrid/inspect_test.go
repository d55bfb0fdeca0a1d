package hybrid

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/ai/utility"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// HTNAt and SelectorAt find, in a compiled tree, the domain and run function of an
// HTNAction and the reasoner and state function of a UtilitySelector, built in Go or
// loaded from a file: what systems.Diagnose reads to tell which plan or choice of an
// agent a hybrid node runs. Before, nothing of a compiled tree led back to them.
func TestHTNAtAndSelectorAtFindTheHybridNodes(t *testing.T) {
	d := patrolDomain(t)
	a := &planAgent{}
	run := func(c *bt.Context) (*htn.Run, *htn.State) { p := c.Agent.(*planAgent); return &p.run, &p.state }
	r, err := utility.New("pick", utility.Policy{}, utility.Action{Name: "patrol"}, utility.Action{Name: "rest"})
	require.NoError(t, err)
	var st utility.State
	state := func(*bt.Context) (*utility.State, utility.Source) { return &st, nil }
	rest := bt.Action("Rest", func(*bt.Context) bt.Status { return bt.Success })
	tree, err := bt.Compile("t", bt.Sequence(UtilitySelector("Pick", r, state, HTNAction("Patrol", d, run), rest)))
	require.NoError(t, err)

	for i := range tree.Len() {
		_, _, isHTN := HTNAt(tree, i)
		_, _, isSel := SelectorAt(tree, i)
		assert.Equal(t, tree.NodeName(i) == "Patrol", isHTN, "node %d %s", i, tree.NodeName(i))
		assert.Equal(t, tree.NodeName(i) == "Pick", isSel, "node %d %s", i, tree.NodeName(i))
	}
	gotD, gotRun, ok := HTNAt(tree, 2)
	require.True(t, ok)
	assert.Same(t, d, gotD)
	gr, gs := gotRun(&bt.Context{Agent: a})
	assert.Same(t, &a.run, gr, "the node's own run function")
	assert.Same(t, &a.state, gs)
	gotR, gotState, ok := SelectorAt(tree, 1)
	require.True(t, ok)
	assert.Same(t, r, gotR)
	s, _ := gotState(&bt.Context{})
	assert.Same(t, &st, s)
	assert.Nil(t, tree.Attached(0), "a plain Sequence carries nothing")

	reg := bt.NewRegistry(nil)
	require.NoError(t, RegisterHTN(reg, "Patrol", d, run))
	_, err = reg.LoadXML("t.xml", []byte(`<root BTCPP_format="4" main_tree_to_execute="Main">
	  <BehaviorTree ID="Main"><Sequence><AlwaysSuccess/><Patrol name="p"/></Sequence></BehaviorTree></root>`))
	require.NoError(t, err)
	loaded, err := reg.Tree("Main")
	require.NoError(t, err)
	gotD, gotRun, ok = HTNAt(loaded, 2)
	require.True(t, ok, "a registered HTNAction loaded from a file")
	assert.Same(t, d, gotD)
	gr, _ = gotRun(&bt.Context{Agent: a})
	assert.Same(t, &a.run, gr)
	_, _, ok = HTNAt(loaded, 1)
	assert.False(t, ok)
}

// GOAPAt finds the domain and run function of a GOAPAction, built in Go or
// registered with RegisterGOAP and loaded from a file (before, a GOAPAction's node
// carried nothing: Diagnose and the debug view could not find its plan).
func TestGOAPAtFindsTheGOAPActions(t *testing.T) {
	gb := goap.NewBuilder("g")
	f := gb.Fact("done")
	gb.Action(goap.Action{Name: "Do", Cost: 1, Effects: []goap.Effect{{Fact: f, Value: 1}}})
	gb.Goal(goap.Goal{Name: "Done", Want: []goap.Cond{{Fact: f, Op: goap.Eq, Value: 1}}})
	d, err := gb.Build()
	require.NoError(t, err)
	a := &planAgent{}
	run := func(c *bt.Context) (*goap.Run, *goap.State) { p := c.Agent.(*planAgent); return &p.grun, &p.gst }
	tree, err := bt.Compile("t", bt.Sequence(bt.Action("Rest", func(*bt.Context) bt.Status { return bt.Success }), GOAPAction("Work", d, run)))
	require.NoError(t, err)
	for i := range tree.Len() {
		_, _, ok := GOAPAt(tree, i)
		assert.Equal(t, tree.NodeName(i) == "Work", ok, "node %d %s", i, tree.NodeName(i))
		_, _, isHTN := HTNAt(tree, i)
		assert.False(t, isHTN)
	}
	gotD, gotRun, ok := GOAPAt(tree, 2)
	require.True(t, ok)
	assert.Same(t, d, gotD)
	gr, gs := gotRun(&bt.Context{Agent: a})
	assert.Same(t, &a.grun, gr)
	assert.Same(t, &a.gst, gs)

	reg := bt.NewRegistry(nil)
	require.NoError(t, RegisterGOAP(reg, "Work", d, run))
	_, err = reg.LoadXML("t.xml", []byte(`<root BTCPP_format="4" main_tree_to_execute="Main">
	  <BehaviorTree ID="Main"><Sequence><AlwaysSuccess/><Work name="w"/></Sequence></BehaviorTree></root>`))
	require.NoError(t, err)
	loaded, err := reg.Tree("Main")
	require.NoError(t, err)
	gotD, gotRun, ok = GOAPAt(loaded, 2)
	require.True(t, ok, "a registered GOAPAction loaded from a file")
	assert.Same(t, d, gotD)
	gr, _ = gotRun(&bt.Context{Agent: a})
	assert.Same(t, &a.grun, gr)
	_, _, ok = GOAPAt(loaded, 1)
	assert.False(t, ok)
}
