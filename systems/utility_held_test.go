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

// TestUtilityHoldsScoresSizedAtFirstDecision: a UtilityBrain written by hand with a zero
// State (documented as usable) is sized by its first decision, after any hold; the
// Utility system then holds the new scores in the Arena, as a spawn's would be.
func TestUtilityHoldsScoresSizedAtFirstDecision(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	r, err := utility.New("idle", utility.Policy{},
		utility.Action{Name: "wait", Act: func(any) {}},
		utility.Action{Name: "go", Act: func(any) {}})
	require.NoError(t, err)
	m := generic.NewMap4[components.UtilityBrain, components.Think, components.Position, components.Intent](w)
	e := m.New()
	b, _, _, _ := m.Get(e)
	*b = components.UtilityBrain{Reasoner: r}
	arena := systems.ArenaOf(w)
	arena.HoldAll(w)
	require.Nil(t, arena.HeldScores(e))
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/10), &systems.Utility{Workers: 2})
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 2)
	b, _, _, _ = m.Get(e)
	require.Len(t, b.State.Scores, 2)
	held := arena.HeldScores(e)
	require.Len(t, held, 2)
	assert.Same(t, &b.State.Scores[0], &held[0], "the State's own scores are held")
}
