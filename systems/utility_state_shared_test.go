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

// Agents given one utility State (a components.UtilityBrain copied from a template whose
// State was made once with Reasoner.NewState) score into the same Scores: every agent's
// State shows the scores of the last agent decided (the debugger's "utility score of
// every option" is another agent's), and with several workers an agent may choose from
// scores another is writing. Diagnose counted it for a Brain's node memory only; it
// counts such a UtilityBrain under CauseMemoryShared too.
func TestSharedUtilityStateIsCounted(t *testing.T) {
	r, err := utility.New("r", utility.Policy{},
		utility.Action{Name: "near", Considerations: []utility.Consideration{{Name: "x", Range: utility.Range{Max: 10},
			Input: utility.Fact(func(a *systems.Agent) float64 { return a.Position.X })}}},
		utility.Action{Name: "idle", Weight: 0.5})
	require.NoError(t, err)
	w := arche.NewWorld()
	m := generic.NewMap4[components.UtilityBrain, components.Think, components.Position, components.Intent](&w)
	template := components.UtilityBrain{Reasoner: r, State: r.NewState()}
	a := m.NewWith(&template, &components.Think{}, &components.Position{}, &components.Intent{})
	b := m.NewWith(&template, &components.Think{}, &components.Position{}, &components.Intent{})
	_, _, pos, _ := m.Get(b)
	pos.X = 8
	sc := ecs.NewScheduler(ecs.NewClockSystem(0.05), &systems.Utility{})
	sc.Initialize(&w)
	defer sc.Finalize(&w)
	sc.Run(&w, 1)
	ua, _, _, _ := m.Get(a)
	assert.Equal(t, 0.8, ua.State.Scores[0], "what a shared State shows: b's scores (a, at x = 0, scores 0)")
	rep := systems.Diagnose(&w)
	assert.Equal(t, 1, rep.Counts[systems.CauseMemoryShared], "%s", rep)
	assert.Equal(t, b, rep.Examples[systems.CauseMemoryShared])
}
