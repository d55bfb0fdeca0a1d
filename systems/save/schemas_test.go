package save_test

import (
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A world whose agents' blackboard stores come from two schemas (the guards' from
// their tree registry, the workers' made by hand; newbie20 finding 3) saved, and
// the load failed with `"alarm": unknown key`. Save refuses it now, naming an entity
// of each schema and the fix; stores of one schema (and nil stores) save and load.
func TestSaveRefusesStoresOfTwoSchemas(t *testing.T) {
	guards, workers := blackboard.NewSchema(), blackboard.NewSchema()
	blackboard.MustDeclare[bool](guards, "target_visible")
	alarm := blackboard.MustDeclare[bool](workers, "alarm")
	world := arche.NewWorld()
	w := &world
	m := generic.NewMap1[components.Blackboard](w)
	g := m.NewWith(&components.Blackboard{Store: guards.NewStore()})
	m.NewWith(&components.Blackboard{}) // a nil store: no schema
	st := guards.NewStore()
	m.NewWith(&components.Blackboard{Store: st})
	data, err := save.Save(w, nil)
	require.NoError(t, err, "one schema")
	_, err = save.Load(data, save.Registry{Schema: guards})
	require.NoError(t, err)

	ws := workers.NewStore()
	blackboard.Set(ws, alarm, true)
	wk := m.NewWith(&components.Blackboard{Store: ws})
	_, err = save.Save(w, nil)
	require.ErrorIs(t, err, save.ErrSchemas)
	assert.ErrorContains(t, err, "entity 1's Blackboard and entity 4's")
	assert.ErrorContains(t, err, "declare every agent's keys in one schema")
	assert.Equal(t, uint32(1), uint32(g.ID()))
	assert.Equal(t, uint32(4), uint32(wk.ID()))
}
