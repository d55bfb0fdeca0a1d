package bt

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRegisterLoop: a loop over the user's type (tutorial t18's LoopPose) takes a literal
// queue whose elements (between the ';') are parsed by the type's UnmarshalText, is named like the file, rejects a built-in or
// taken name, and its model must be a Decorator.
func TestRegisterLoop(t *testing.T) {
	r := NewRegistry(nil)
	require.NoError(t, RegisterLoop[tutPose2D](r, "LoopPose"))
	assert.ErrorIs(t, RegisterLoop[tutPose2D](r, "LoopPose"), ErrRegistration)
	assert.ErrorIs(t, RegisterLoop[int](r, "LoopInt"), ErrRegistration)
	require.NoError(t, RegisterLoop[point2D](r, "LoopPoint"))
	var got []point2D
	require.NoError(t, r.RegisterAction("Use", func(p *Ports) (func(*Context) Status, error) {
		wp := InputPort[point2D](p, "wp")
		return func(c *Context) Status {
			v, _ := wp.Get(c)
			got = append(got, v)
			return Success
		}, nil
	}))
	tree := tutorialTree(t, r, "loop.xml", `<root BTCPP_format="4"><BehaviorTree>
  <LoopPoint name="points" queue="1,2; 3,4" value="{p}" if_empty="FAILURE"><Use wp="{p}"/></LoopPoint>
</BehaviorTree></root>`, "")
	assert.Equal(t, "points", tree.NodeName(0))
	assert.Equal(t, "Loop", tree.NodeKind(0))
	assert.Equal(t, Failure, tutorialRun(t, tree, r.Schema().NewStore(), 0.1), "if_empty")
	assert.Equal(t, []point2D{{1, 2}, {3, 4}}, got)

	_, err := r.LoadXML("bad.xml", []byte(`<root BTCPP_format="4"><BehaviorTree>
  <LoopPoint queue="1,2;3" value="{p}"><Use wp="{p}"/></LoopPoint>
</BehaviorTree></root>`))
	require.NoError(t, err)
	_, err = r.Tree("bad")
	assert.ErrorIs(t, err, ErrPort, "an element that does not parse")

	_, err = r.LoadXML("model.xml", []byte(`<root BTCPP_format="4">
  <TreeNodesModel><Action ID="LoopPose"/></TreeNodesModel>
</root>`))
	assert.ErrorIs(t, err, ErrModel)
	_, err = r.LoadXML("model2.xml", []byte(`<root BTCPP_format="4">
  <TreeNodesModel><Decorator ID="LoopPose"><input_port name="queue"/></Decorator></TreeNodesModel>
</root>`))
	assert.NoError(t, err)
}
