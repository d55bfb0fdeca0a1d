package bt_test

import (
	"fmt"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// goalRegistry is a registry with the program's key target_position declared and a
// MoveTo leaf reading its goal port.
func goalRegistry(t *testing.T) (*bt.Registry, blackboard.Key[float64]) {
	t.Helper()
	reg := bt.NewRegistry(nil)
	pos := blackboard.MustDeclare[float64](reg.Schema(), "target_position")
	require.NoError(t, reg.RegisterAction("MoveTo", func(p *bt.Ports) (func(*bt.Context) bt.Status, error) {
		goal := bt.InputPort[float64](p, "goal")
		return func(c *bt.Context) bt.Status {
			if _, ok := goal.Get(c); !ok {
				return bt.Failure
			}
			return bt.Success
		}, nil
	}))
	return reg, pos
}

func loadTree(t *testing.T, reg *bt.Registry, name, body string) *bt.Tree {
	t.Helper()
	id, err := reg.LoadXML(name, []byte(`<root BTCPP_format="4"><BehaviorTree ID="`+name+`">`+body+`</BehaviorTree></root>`))
	require.NoError(t, err)
	tree, err := reg.Tree(id)
	require.NoError(t, err)
	return tree
}

// TestUnwrittenKeyFindsAMisspeltKey: newbie22's guard tree read
// "{target_postion}" for the program's "target_position"; it loaded, and the
// guard never chased. UnwrittenKey names the misspelt key, and not the right one.
func TestUnwrittenKeyFindsAMisspeltKey(t *testing.T) {
	reg, pos := goalRegistry(t)
	typo := loadTree(t, reg, "typo", `<MoveTo goal="{target_postion}"/>`)
	right := loadTree(t, reg, "right", `<MoveTo goal="{target_position}"/>`)
	st := reg.Schema().NewStore()
	k, ok := typo.UnwrittenKey(st)
	assert.True(t, ok)
	assert.Equal(t, "target_postion", k)
	_, ok = right.UnwrittenKey(st)
	assert.False(t, ok, "a key the program declared before the load")
	blackboard.Set(st, pos, 3)
	_, ok = right.UnwrittenKey(st)
	assert.False(t, ok)
	// a store holding a value for it (the program declared the key after the
	// load and sets it) is not reported
	late := blackboard.MustDeclare[float64](reg.Schema(), "target_postion")
	blackboard.Set(st, late, 1)
	_, ok = typo.UnwrittenKey(st)
	assert.False(t, ok)
}

// TestUnwrittenKeyClearedByAWriterInAnotherTree: a key one tree only reads and
// another tree of the same registry writes (an output port, a SetBlackboard, a
// script) is not reported, whichever is built first.
func TestUnwrittenKeyClearedByAWriterInAnotherTree(t *testing.T) {
	for _, writer := range []string{
		`<SetBlackboard value="2.5" output_key="goal_x"/>`,
		`<Script code="goal_x := 2.5"/>`,
	} {
		reg, _ := goalRegistry(t)
		reader := loadTree(t, reg, "reader", `<MoveTo goal="{goal_x}"/>`)
		k, ok := reader.UnwrittenKey(nil)
		require.True(t, ok, writer)
		require.Equal(t, "goal_x", k)
		loadTree(t, reg, "writer", writer)
		_, ok = reader.UnwrittenKey(nil)
		assert.False(t, ok, "after %s", writer)

		reg2, _ := goalRegistry(t)
		loadTree(t, reg2, "writer", writer)
		reader2 := loadTree(t, reg2, "reader", `<MoveTo goal="{goal_x}"/>`)
		_, ok = reader2.UnwrittenKey(nil)
		assert.False(t, ok, "writer built first: %s", writer)
	}
}

// TestUnwrittenKeyAllocatesNothing: Diagnose calls it for every Brain.
func TestUnwrittenKeyAllocatesNothing(t *testing.T) {
	reg, _ := goalRegistry(t)
	typo := loadTree(t, reg, "typo", `<MoveTo goal="{target_postion}"/>`)
	st := reg.Schema().NewStore()
	assert.Zero(t, testing.AllocsPerRun(100, func() { typo.UnwrittenKey(st) }))
}

// A tree whose port reads a misspelt key loads; UnwrittenKey names the key.
func ExampleTree_UnwrittenKey() {
	reg := bt.NewRegistry(nil)
	blackboard.MustDeclare[float64](reg.Schema(), "target_position") // the program's key
	_ = reg.RegisterAction("MoveTo", func(p *bt.Ports) (func(*bt.Context) bt.Status, error) {
		goal := bt.InputPort[float64](p, "goal")
		return func(c *bt.Context) bt.Status {
			if _, ok := goal.Get(c); !ok {
				return bt.Failure
			}
			return bt.Success
		}, nil
	})
	id, _ := reg.LoadXML("guard.xml", []byte(`<root BTCPP_format="4"><BehaviorTree ID="Guard">
		<MoveTo goal="{target_postion}"/></BehaviorTree></root>`))
	tree, _ := reg.Tree(id)
	fmt.Println(tree.UnwrittenKey(reg.Schema().NewStore()))
	// Output: target_postion true
}
