package systems_test

import (
	"math"
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

// Decision sums its workers' bt.Context counters: a script reading an entry no agent
// sets fails on every think; a Think.Last after the clock's time is one clock fault
// (Decision then sets Last to now).
func TestDecisionScriptErrorsAndClockFaults(t *testing.T) {
	reg := bt.NewRegistry(nil)
	blackboard.MustDeclare[float64](reg.Schema(), "hp") // declared, never set
	main, err := reg.LoadXML("hp.xml", []byte(`<root BTCPP_format="4"><BehaviorTree ID="M">
		<Fallback><ScriptCondition code="hp > 10"/><AlwaysSuccess/></Fallback>
	</BehaviorTree></root>`))
	require.NoError(t, err)
	tree, err := reg.Tree(main)
	require.NoError(t, err)

	world := arche.NewWorld()
	spawner, err := systems.NewSpawner(&world, systems.Thinker{Tree: tree, Registry: reg, Interval: 0.125})
	require.NoError(t, err)
	var es []arche.Entity
	for range 3 {
		es = append(es, spawner.Spawn(r2.Vec{}, nil))
	}
	thinks := generic.NewMap[components.Think](&world)
	thinks.Get(es[1]).Last = math.Inf(1)

	dec := &systems.Decision{Workers: 2}
	s := ecs.NewScheduler(ecs.NewClockSystem(0.125), dec)
	s.Initialize(&world)
	defer s.Finalize(&world)
	s.Run(&world, 4)
	require.Equal(t, int64(12), dec.TotalThought, "every agent thinks every frame")
	assert.Equal(t, uint64(12), dec.ScriptErrors, "one per think")
	assert.Equal(t, uint64(1), dec.ClockFaults, "agent 1's first think")
	brains := generic.NewMap[components.Brain](&world)
	assert.Equal(t, bt.Success, brains.Get(es[0]).Memory.Status(0),
		"the failed condition is a Failure: the Fallback goes on")
	// Diagnose tells the failing scripts as one finding, not per agent (before, it
	// said "no misconfiguration": a newcomer's colony whose needs system, the only
	// writer of its declared keys, was left out never acted, silently)
	rep := systems.Diagnose(&world)
	assert.Equal(t, 1, rep.Total())
	assert.Zero(t, rep.Misconfigured, "agents are not counted")
	assert.Equal(t, uint64(12), rep.ScriptErrors)
	assert.Contains(t, rep.String(), "tree scripts failed 12 times since the decision system's Initialize "+
		"(each such node fails on every tick; the last, node 1: ")
	assert.Contains(t, rep.String(), `"hp"`)
}
