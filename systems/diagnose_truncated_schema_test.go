package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
)

// A tree that failed to build declared a key, which Truncate removed (its slot kept,
// unnamed): the registry's schema then has no key, and an agent of a tree reading none
// needs no blackboard, as before the failed build.
func TestDiagnoseNoBlackboardNeededAfterAFailedBuild(t *testing.T) {
	reg := bt.NewRegistry(nil)
	_, err := reg.LoadXML("t.xml", []byte(`<root BTCPP_format="4">
<BehaviorTree ID="Bad"><Sequence><SetBlackboard output_key="x" value="1"/><SubTree ID="Missing"/></Sequence></BehaviorTree>
<BehaviorTree ID="Good"><AlwaysSuccess/></BehaviorTree></root>`))
	require.NoError(t, err)
	_, err = reg.Tree("Bad")
	require.Error(t, err)
	tree, err := reg.Tree("Good")
	require.NoError(t, err)

	world := arche.NewWorld()
	w := &world
	m := generic.NewMap1[components.Brain](w)
	m.NewWith(&components.Brain{Tree: tree, Memory: tree.NewMemory()})
	r := systems.Diagnose(w)
	require.Zero(t, r.Counts[systems.CauseBlackboardMissing], r.String())
}
