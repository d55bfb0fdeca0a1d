package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An agent given a Brain and a UtilityBrain (a program that adds a reasoner to a
// Thinker) thinks with one of them only: Decision moves the shared Think.Next on, and
// Utility never finds it due. Before, Diagnose reported "no misconfiguration" while the
// reasoner never decided; it counts CauseDecisionModels now.
func TestTwoDecisionModelsAreCounted(t *testing.T) {
	w := arche.NewWorld()
	ticks, decides := 0, 0
	tree, err := bt.Compile("t", bt.Action("a", func(*bt.Context) bt.Status { ticks++; return bt.Running }))
	require.NoError(t, err)
	r, err := utility.New("r", utility.Policy{}, utility.Action{Name: "x", Act: func(any) { decides++ }})
	require.NoError(t, err)
	m := generic.NewMap5[components.Brain, components.UtilityBrain, components.Think, components.Position, components.Intent](&w)
	e := m.NewWith(&components.Brain{Tree: tree}, &components.UtilityBrain{Reasoner: r, State: r.NewState()},
		&components.Think{Interval: 0.1}, &components.Position{}, &components.Intent{})
	sc := ecs.NewScheduler(ecs.NewClockSystem(0.05), &systems.Decision{}, &systems.Utility{})
	sc.Initialize(&w)
	defer sc.Finalize(&w)
	sc.Run(&w, 40)
	assert.Equal(t, 20, ticks, "the tree thinks at 10 Hz")
	assert.Zero(t, decides, "the reasoner never finds the agent due")
	rep := systems.Diagnose(&w)
	assert.Equal(t, 1, rep.Counts[systems.CauseDecisionModels], "%s", rep)
	assert.Equal(t, e, rep.Examples[systems.CauseDecisionModels])
	assert.Equal(t, "decision_models_too_many", systems.CauseDecisionModels.String())
}
