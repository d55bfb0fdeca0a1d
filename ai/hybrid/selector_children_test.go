package hybrid

import (
	"errors"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/utility"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A UtilitySelector given fewer children than its reasoner has actions compiled, and an
// agent whose winning action had no child failed every tick and never moved; extra
// children compiled too and never ran. bt.Compile now refuses both, naming the node, the
// reasoner, the numbers of actions and children, and the actions without a child.
func TestUtilitySelectorWantsOneChildPerAction(t *testing.T) {
	names := []string{"work", "socialise", "eat", "sleep", "pray"}
	reasoner := func(n int) *utility.Reasoner {
		var as []utility.Action
		for _, name := range names[:n] {
			as = append(as, utility.Action{Name: name, Weight: 0.5})
		}
		r, err := utility.New("day", utility.Policy{}, as...)
		require.NoError(t, err)
		return r
	}
	state := func(*bt.Context) (*utility.State, utility.Source) { return &utility.State{}, nil }
	kids := func(n int) []*bt.Node {
		var ks []*bt.Node
		for range n {
			ks = append(ks, bt.Action("go", func(*bt.Context) bt.Status { return bt.Success }))
		}
		return ks
	}

	_, err := bt.Compile("villager", bt.Sequence(bt.AlwaysSuccess(), UtilitySelector("DayChoice", reasoner(2), state, kids(1)...)))
	require.ErrorIs(t, err, ErrChildPerAction)
	require.ErrorIs(t, err, bt.ErrChildCount)
	assert.EqualError(t, err, `bt: tree "villager": root/Sequence[1]/UtilitySelector("DayChoice"): wrong number of children: `+
		`1 for the 2 actions of reasoner "day" (hybrid: a UtilitySelector wants one child per action, in the reasoner's order): `+
		`action 1 "socialise" has no child (an agent it wins for fails every tick)`)

	_, err = bt.Compile("villager", UtilitySelector("DayChoice", reasoner(5), state, kids(1)...))
	require.ErrorIs(t, err, ErrChildPerAction)
	assert.ErrorContains(t, err, `1 for the 5 actions of reasoner "day"`)
	assert.ErrorContains(t, err, `actions 1 "socialise", 2 "eat", 3 "sleep" and 1 more have no child`)

	_, err = bt.Compile("villager", UtilitySelector("DayChoice", reasoner(2), state, kids(3)...))
	require.ErrorIs(t, err, ErrChildPerAction)
	assert.ErrorContains(t, err, `root/UtilitySelector("DayChoice"): wrong number of children: 3 for the 2 actions of reasoner "day"`)
	assert.ErrorContains(t, err, `child 2 matches no action (it would never run)`)
	_, err = bt.Compile("villager", UtilitySelector("DayChoice", reasoner(2), state, kids(4)...))
	assert.ErrorContains(t, err, `children 2 to 3 match no action (they would never run)`)

	// a reasoner's nil function is still reported first, as before
	_, err = bt.Compile("villager", UtilitySelector("DayChoice", reasoner(2), nil, kids(1)...))
	require.ErrorIs(t, err, bt.ErrNilFunc)
	assert.False(t, errors.Is(err, ErrChildPerAction))

	// one child per action compiles and ticks as before
	tree, err := bt.Compile("villager", UtilitySelector("DayChoice", reasoner(2), state, kids(2)...))
	require.NoError(t, err)
	mem := tree.NewMemory()
	assert.Equal(t, bt.Success, tree.Tick(&mem, &bt.Context{}))
}

// A Go tree registered in a bt.Registry and used as a SubTree of a loaded file is
// checked when the registry builds the file's tree (a UtilitySelector cannot be named in
// a file itself: no factory registers one).
func TestLoadedTreeRefusesASubTreeSelectorMissingAChild(t *testing.T) {
	r, err := utility.New("day", utility.Policy{}, utility.Action{Name: "work", Weight: 1}, utility.Action{Name: "socialise"})
	require.NoError(t, err)
	state := func(*bt.Context) (*utility.State, utility.Source) { return &utility.State{}, nil }
	reg := bt.NewRegistry(nil)
	require.NoError(t, reg.RegisterTree("Day", UtilitySelector("DayChoice", r, state, bt.AlwaysSuccess())))
	_, err = reg.LoadXML("villager.xml", []byte(`<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main"><Sequence><SubTree ID="Day"/></Sequence></BehaviorTree>
</root>`))
	require.NoError(t, err)
	_, err = reg.Tree("Main")
	require.ErrorIs(t, err, ErrChildPerAction)
	require.ErrorIs(t, err, bt.ErrChildCount)
	assert.ErrorContains(t, err, `action 1 "socialise" has no child`)
}
