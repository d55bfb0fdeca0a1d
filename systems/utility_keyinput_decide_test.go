package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A reasoner whose considerations read blackboard keys (utility.KeyInput), given to
// agents without a Blackboard or with a Store of another schema, vetoes its actions
// for good: every key reads NaN. Diagnose counts such agents under
// CauseBlackboardMissing; before, nothing did (the agent idled in silence).
func TestDiagnoseCountsUtilityAgentsWithoutTheirBlackboard(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	schema := blackboard.NewSchema()
	threat := blackboard.MustDeclare[float64](schema, "threat")
	r, err := utility.New("keys", utility.Policy{},
		utility.Action{Name: "flee", Considerations: []utility.Consideration{{Name: "threat", Input: utility.KeyInput(threat)}},
			Act: func(agent any) { systems.UtilityAgent(agent).Intent.Move = true }})
	require.NoError(t, err)
	m := generic.NewMap4[components.UtilityBrain, components.Think, components.Position, components.Intent](w)
	boardID := arche.ComponentID[components.Blackboard](w)
	var stores []*blackboard.Store // held here: Arche's byte copies hide them from the collector
	var without, other, with arche.Entity
	for i := range 3 {
		e := m.New()
		b, _, _, _ := m.Get(e)
		*b = components.UtilityBrain{Reasoner: r, State: r.NewState()}
		switch i {
		case 0:
			without = e
		case 1:
			other = e
			st := blackboard.NewSchema().NewStore()
			stores = append(stores, st)
			w.Assign(e, arche.Component{ID: boardID, Comp: &components.Blackboard{Store: st}})
		case 2:
			with = e
			st := schema.NewStore()
			blackboard.Set(st, threat, 0.8)
			stores = append(stores, st)
			w.Assign(e, arche.Component{ID: boardID, Comp: &components.Blackboard{Store: st}})
		}
	}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/10), &systems.Utility{})
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 2)
	rep := systems.Diagnose(w)
	assert.Equal(t, 2, rep.Counts[systems.CauseBlackboardMissing], "%s", rep)
	assert.Equal(t, without, rep.Examples[systems.CauseBlackboardMissing])
	assert.Zero(t, rep.Counts[systems.CauseUtilityFactWrongType], "the agent view is read: its store is what lacks")
	brains := generic.NewMap[components.UtilityBrain](w)
	assert.Equal(t, uint64(2), brains.Get(other).State.NoBlackboard, "one a decision")
	assert.Equal(t, uint64(0), brains.Get(with).State.NoBlackboard)
	intents := generic.NewMap[components.Intent](w)
	assert.True(t, intents.Get(with).Move)
	assert.False(t, intents.Get(without).Move, "the unread key vetoes")
	assert.Len(t, stores, 2)
}
