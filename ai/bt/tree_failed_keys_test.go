package bt_test

import (
	"reflect"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A tree that fails to build declares no key: a designer's file binding key x as a float
// in one node and an int in the next failed, and then its corrected version (x an int
// throughout) failed too, "x holds another type: float64", in a file that never said
// float, until the program restarted; and its writer hid that x was never written.
func TestAFailedTreeLeavesTheSchemaAsItWas(t *testing.T) {
	reg := bt.NewRegistry(blackboard.NewSchema())
	require.NoError(t, reg.RegisterAction("Patrol", func(p *bt.Ports) (func(*bt.Context) bt.Status, error) {
		bt.InputPort[float64](p, "speed")
		return func(*bt.Context) bt.Status { return bt.Success }, nil
	}))
	require.NoError(t, reg.RegisterAction("Count", func(p *bt.Ports) (func(*bt.Context) bt.Status, error) {
		bt.InputPort[int64](p, "n")
		return func(*bt.Context) bt.Status { return bt.Success }, nil
	}))
	require.NoError(t, reg.RegisterAction("Award", func(p *bt.Ports) (func(*bt.Context) bt.Status, error) {
		bt.OutputPort[int64](p, "gold")
		return func(*bt.Context) bt.Status { return bt.Success }, nil
	}))
	bad := `{"main":"Bad","trees":[{"id":"Bad","root":{"type":"Sequence","children":[
		{"type":"Patrol","ports":{"speed":"{x}"}},{"type":"Award","ports":{"gold":"{x}"}},{"type":"Award","ports":{"gold":"{y}"}}]}}]}`
	id, err := reg.LoadJSON("bad.json", []byte(bad))
	require.NoError(t, err)
	_, err = reg.Tree(id)
	require.ErrorIs(t, err, blackboard.ErrTypeMismatch)
	for i := range reg.Schema().Len() {
		assert.Equal(t, "", reg.Schema().Name(i), "the failed tree's keys are removed (their slots stay, unnamed)")
	}
	assert.Nil(t, reg.Schema().Type("x"))
	assert.Nil(t, reg.Schema().Type("y"))

	good := `{"main":"Good","trees":[{"id":"Good","root":{"type":"Sequence","children":[
		{"type":"Award","ports":{"gold":"{x}"}},{"type":"Count","ports":{"n":"{x}"}},{"type":"Count","ports":{"n":"{y}"}}]}}]}`
	id, err = reg.LoadJSON("good.json", []byte(good))
	require.NoError(t, err)
	tree, err := reg.Tree(id)
	require.NoError(t, err)
	assert.Equal(t, reflect.TypeFor[int64](), reg.Schema().Type("x"))
	key, unwritten := tree.UnwrittenKey(reg.Schema().NewStore())
	assert.True(t, unwritten, "y: only the failed tree wrote it")
	assert.Equal(t, "y", key)
}
