package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A tree with scripts, pre- and post-conditions runs on each agent's Blackboard under
// Decision, and every agent ends the same whatever the number of workers.
const scriptedXML = `<root BTCPP_format="4">
  <BehaviorTree ID="Count">
    <Sequence>
      <Script code="seed := 0; step := 1"/>
      <Script code="seed = id * 3 + 1" _skipIf="seed != 0"/>
      <Script code="count := 0"/>
      <Repeat num_cycles="5">
        <Script code="count += step" _post="last := count * 2"/>
      </Repeat>
      <ScriptCondition code="count == 5 &amp;&amp; last == 10" _onSuccess="done := true"/>
    </Sequence>
  </BehaviorTree>
</root>`

func runScripted(t *testing.T, workers int) []map[string]any {
	reg := bt.NewRegistry(nil)
	idKey := blackboard.MustDeclare[int](reg.Schema(), "id") // set by the game at spawn
	id, err := reg.LoadXML("scripted.xml", []byte(scriptedXML))
	require.NoError(t, err)
	tree, err := reg.Tree(id)
	require.NoError(t, err)
	world := arche.NewWorld()
	sp, err := systems.NewSpawner(&world, systems.Thinker{Tree: tree, Registry: reg, Interval: 0.1})
	require.NoError(t, err)
	var agents []arche.Entity
	for i := range 64 {
		agents = append(agents, sp.Spawn(r2.Vec{}, func(a *systems.Spawned) {
			blackboard.Set(a.Blackboard.Store, idKey, i)
		}))
	}
	dec := &systems.Decision{Workers: workers}
	s := ecs.NewScheduler(ecs.NewClockSystem(0.05), dec)
	s.Initialize(&world)
	defer s.Finalize(&world)
	s.Run(&world, 10)
	assert.Zero(t, dec.ScriptErrors)
	boards := generic.NewMap[components.Blackboard](&world)
	out := make([]map[string]any, len(agents))
	for i, e := range agents {
		st := boards.Get(e).Store
		out[i] = map[string]any{}
		for _, k := range []string{"seed", "count", "last", "done"} {
			v, _ := st.Value(k)
			out[i][k] = v
		}
	}
	return out
}

func TestScriptedTreeSameForAnyWorkers(t *testing.T) {
	one, two := runScripted(t, 1), runScripted(t, 2)
	assert.Equal(t, one, two)
	assert.Equal(t, map[string]any{"seed": 3*7 + 1, "count": 5, "last": 10, "done": true}, one[7], "agent 7")
}
