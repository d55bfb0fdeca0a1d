package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A consideration wired to a component type instead of the Agent the Utility system
// passes scores 0 forever; Diagnose counts the agents it vetoes for, with an example,
// and the agents whose facts read are not counted.
func TestDiagnoseCountsUtilityFactsOfTheWrongType(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	wrong, err := utility.New("wrong", utility.Policy{},
		utility.Action{Name: "go", Considerations: []utility.Consideration{{Name: "x",
			Input: utility.Fact(func(p *components.Position) float64 { return p.X })}},
			Act: func(agent any) { systems.UtilityAgent(agent).Intent.Move = true }},
	)
	require.NoError(t, err)
	right, err := utility.New("right", utility.Policy{},
		utility.Action{Name: "go", Considerations: []utility.Consideration{{Name: "x",
			Input: utility.Fact(func(a *systems.Agent) float64 { return a.Position.X })}},
			Act: func(agent any) { systems.UtilityAgent(agent).Intent.Move = true }},
	)
	require.NoError(t, err)
	m := generic.NewMap4[components.UtilityBrain, components.Think, components.Position, components.Intent](w)
	var wrongs []arche.Entity
	for i := range 40 {
		e := m.New()
		b, _, pos, _ := m.Get(e)
		pos.X = 0.5
		r := right
		if i%4 == 1 {
			r = wrong
			wrongs = append(wrongs, e)
		}
		*b = components.UtilityBrain{Reasoner: r, State: r.NewState()}
	}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/10), &systems.Utility{Workers: 2})
	s.Initialize(w)
	defer s.Finalize(w)
	assert.Zero(t, systems.Diagnose(w).Counts[systems.CauseUtilityFactWrongType], "before any decision")
	s.Run(w, 3)
	r := systems.Diagnose(w)
	assert.Equal(t, 10, r.Counts[systems.CauseUtilityFactWrongType], "%s", r)
	assert.Equal(t, wrongs[0], r.Examples[systems.CauseUtilityFactWrongType])
	assert.Equal(t, "utility_fact_wrong_type", systems.CauseUtilityFactWrongType.String())
	intents := generic.NewMap[components.Intent](w)
	assert.False(t, intents.Get(wrongs[0]).Move, "the wrong fact vetoes")
	brains := generic.NewMap[components.UtilityBrain](w)
	assert.Equal(t, uint64(3), brains.Get(wrongs[0]).State.Unread, "one a decision")
}
