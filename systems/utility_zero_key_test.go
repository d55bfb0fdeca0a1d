package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A utility.KeyInput of the zero blackboard.Key (a key never declared: a struct field
// left unset) cannot read any agent and is counted in State.Unread, so Diagnose files
// it under utility_fact_wrong_type. Its example note must name that cause too, not
// only a Fact of another type, which this reasoner does not have.
func TestDiagnoseNamesAZeroKeyKeyInput(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	schema := blackboard.NewSchema()
	blackboard.MustDeclare[float64](schema, "danger")
	r, err := utility.New("villager", utility.Policy{},
		utility.Action{Name: "flee", Considerations: []utility.Consideration{
			{Name: "danger", Input: utility.KeyInput(blackboard.Key[float64]{}), Range: utility.Unit}}},
		utility.Action{Name: "idle", Weight: 0.1})
	require.NoError(t, err)
	sp, err := systems.NewSpawner(w, systems.Thinker{Reasoner: r, Schema: schema, Interval: 0.1})
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{X: 1, Y: 1}, nil)
	s := ecs.NewScheduler(ecs.NewClockSystem(0.1), &systems.Utility{})
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 3)
	rep := systems.Diagnose(w)
	require.Equal(t, 1, rep.Counts[systems.CauseUtilityFactWrongType], "%s", rep)
	assert.Equal(t, e, rep.Examples[systems.CauseUtilityFactWrongType])
	assert.Equal(t, "diagnostics: 1 agent, 1 of them misconfigured (1 finding): utility_fact_wrong_type 1 (e.g. entity 1, "+
		"a consideration's Input could not read the agent: a utility.Fact of another type than *systems.Agent, "+
		"or a utility.KeyInput of the zero blackboard.Key, a key never declared)", rep.String())
}
