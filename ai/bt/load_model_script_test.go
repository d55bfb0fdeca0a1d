package bt

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSubTreeModelScripts is BehaviorTree.CPP's tutorial t14 as written, with scripts:
// the SubTree model's defaults reach the subtree's scripts (sub_in_value the literal 42,
// sub_out_result remapped to out_result), the SubTree remaps the other two ports.
func TestSubTreeModelScripts(t *testing.T) {
	r := NewRegistry(nil)
	id, err := r.LoadXML("t14.xml", []byte(`<root BTCPP_format="4" main_tree_to_execute="MainTree">
  <TreeNodesModel>
    <SubTree ID="MySub">
      <input_port name="sub_in_value" default="42"/>
      <input_port name="sub_in_name"/>
      <output_port name="sub_out_result" default="{out_result}"/>
      <output_port name="sub_out_state"/>
    </SubTree>
  </TreeNodesModel>
  <BehaviorTree ID="MySub">
    <Sequence>
      <ScriptCondition code="sub_in_value==42 &amp;&amp; sub_in_name=='john'"/>
      <Script code="sub_out_result:=69; sub_out_state:='ACTIVE'"/>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="MainTree">
    <Sequence>
      <Script code="in_name:= 'john' "/>
      <SubTree ID="MySub" sub_in_name="{in_name}" sub_out_state="{out_state}"/>
      <ScriptCondition code=" out_result==69 &amp;&amp; out_state=='ACTIVE' "/>
    </Sequence>
  </BehaviorTree>
</root>`))
	require.NoError(t, err)
	tree, err := r.Tree(id)
	require.NoError(t, err)
	st := r.Schema().NewStore()
	m := tree.NewMemory()
	ctx := &Context{Blackboard: st}
	assert.Equal(t, Success, tree.Tick(&m, ctx))
	assert.Zero(t, ctx.ScriptErrors())
	v, _ := st.Value("out_result")
	assert.EqualValues(t, 69, v)
	v, _ = st.Value("out_state")
	assert.Equal(t, "ACTIVE", v)
	assert.False(t, st.Has("sub_out_result"), "remapped by the model's default")
}
