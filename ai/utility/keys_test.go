package utility_test

import (
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/utility"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Reasoner.Keys lists the keys its KeyInputs read, once each, in order, so that
// systems.Diagnose can tell a key no agent's store ever holds (a silent veto for every
// agent); Facts, the zero Key and an Input of the program's own that panics on an
// agent it was not written for read none.
func TestReasonerKeysListsKeyInputs(t *testing.T) {
	schema := blackboard.NewSchema()
	threat := blackboard.MustDeclare[float64](schema, "threat")
	ammo := blackboard.MustDeclare[int](schema, "ammo")
	type me struct{ hp float64 }
	r, err := utility.New("keys", utility.Policy{},
		utility.Action{Name: "flee", Considerations: []utility.Consideration{
			{Name: "threat", Input: utility.KeyInput(threat)},
			{Name: "hp", Input: utility.Fact(func(m *me) float64 { return m.hp })},
			{Name: "own", Input: func(agent any) float64 { return agent.(*me).hp }},
		}},
		utility.Action{Name: "fight", Considerations: []utility.Consideration{
			{Name: "ammo", Input: utility.KeyInput(ammo)},
			{Name: "threat", Input: utility.KeyInput(threat)},
			{Name: "zero", Input: utility.KeyInput(blackboard.Key[float64]{})},
		}})
	require.NoError(t, err)
	keys := r.Keys()
	require.Len(t, keys, 2)
	assert.Equal(t, "threat", keys[0].Name())
	assert.Equal(t, "ammo", keys[1].Name())
	assert.Equal(t, blackboard.EntryOf(threat), keys[0])
	assert.Zero(t, testing.AllocsPerRun(10, func() { r.Keys() }))

	r, err = utility.New("none", utility.Policy{}, utility.Action{Name: "idle"})
	require.NoError(t, err)
	assert.Nil(t, r.Keys())
}
