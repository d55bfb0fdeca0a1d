package systems

import (
	"testing"

	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
)

// componentID makes the IDs Arche lists, in its order.
func TestComponentIDIsArchesNumbering(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.ComponentID[components.Position](w)
	arche.ComponentID[components.UtilityBrain](w)
	arche.ComponentID[components.Intent](w)
	for n, id := range arche.ComponentIDs(w) {
		assert.Equal(t, id, componentID(n))
	}
}

type twoChoices struct {
	A, B utility.State
}

// An agent whose UtilityBrain's State and own component's States count the same
// fault is counted once for it; a fault only its own State has is counted.
func TestOwnStatesCountAnAgentOncePerCause(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	e := w.NewEntity()
	brainID, ownID := arche.ComponentID[components.UtilityBrain](w), arche.ComponentID[twoChoices](w)
	w.Add(e, brainID, ownID)
	(*components.UtilityBrain)(w.Get(e, brainID)).State.NoBlackboard = 1
	own := (*twoChoices)(w.Get(e, ownID))
	own.A.NoBlackboard, own.B.NoBlackboard, own.B.Clamped = 1, 1, 1
	var c ownStateChecks
	var r Report
	c.check(w, &r)
	assert.Zero(t, r.Counts[CauseBlackboardMissing], "the UtilityBrain's, counted by unreadChecks")
	assert.Equal(t, 1, r.Counts[CauseUtilityInputOutOfRange])
	assert.Contains(t, r.notes[CauseUtilityInputOutOfRange].what, "twoChoices.B", "the field that has it")
	assert.Len(t, c.comps, 1, "the UtilityBrain is not examined")
	c.check(w, &r)
	assert.Len(t, c.types, len(arche.ComponentIDs(w)), "learnt once")
}
