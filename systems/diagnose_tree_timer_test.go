package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func timerTree(t *testing.T, body string) *bt.Tree {
	t.Helper()
	reg := bt.NewRegistry(nil)
	id, err := reg.LoadXML("t.xml", []byte(`<root BTCPP_format="4"><BehaviorTree ID="T">`+body+`</BehaviorTree></root>`))
	require.NoError(t, err)
	tree, err := reg.Tree(id)
	require.NoError(t, err)
	return tree
}

// TestDiagnoseReportsATreeTimerInMilliseconds (designer trap): <Cooldown
// seconds="5000"> (5 s meant, milliseconds written for seconds) loaded and built
// silently, and the branch ran once every 83 minutes. Diagnose counts a Brain whose
// tree has a Wait, Sleep, Delay, Timeout or Cooldown over MaxTreeTimer (600 s) as
// tree_timer_too_long, naming the node and the value to write for milliseconds; 600 s
// and usual durations are taken as meant.
func TestDiagnoseReportsATreeTimerInMilliseconds(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	m := generic.NewMap1[components.Brain](w)
	var es []arche.Entity
	for _, body := range []string{
		`<Sequence><Wait seconds="2"/><Cooldown name="shout" seconds="5000"><AlwaysSuccess/></Cooldown></Sequence>`,
		`<Wait seconds="600"/>`,
		`<Timeout msec="1500"><AlwaysSuccess/></Timeout>`,
		`<AlwaysSuccess/>`,
	} {
		tree := timerTree(t, body)
		es = append(es, m.NewWith(&components.Brain{Tree: tree, Memory: tree.NewMemory()}))
	}
	r := systems.Diagnose(w)
	require.Equal(t, 1, r.Counts[systems.CauseTreeTimerLong], r.String())
	assert.Equal(t, es[0], r.Examples[systems.CauseTreeTimerLong])
	assert.Equal(t, "tree_timer_too_long", systems.CauseTreeTimerLong.String())
	s := r.String()
	assert.Contains(t, s, "tree_timer_too_long 1")
	assert.Contains(t, s, `node "shout" lasts 5000 s (83.3 min), over MaxTreeTimer (600 s): tree durations are seconds of simulation time; for 5000 ms write seconds="5" or msec="5000"`)
}
