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

// Save writes the components straight into the file (no longer each entity's value
// and then the whole document through json.Marshal, some seven times the file in memory
// at the peak): the bytes are still those json.Marshal writes for the document, HTML
// characters and U+2028 in strings escaped alike, and a world without entities still
// writes "components":null.
func TestSaveWritesTheBytesJSONMarshalWrites(t *testing.T) {
	f := newFixture(t)
	name, err := blackboard.Lookup[string](f.reg.Schema, "name")
	require.NoError(t, err)
	q := generic.NewFilter1[components.Blackboard]().Query(f.w)
	for q.Next() {
		blackboard.Set(q.Get().Store, name, "<b>&amp;\u2028")
	}
	data, err := save.Save(f.w, map[string]string{"note": "a<b"})
	require.NoError(t, err)
	want, err := save.Remarshal(data)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(data))
	assert.Contains(t, string(data), `\u003cb\u003e\u0026amp;\u2028`)

	empty := arche.NewWorld()
	data, err = save.Save(&empty, nil)
	require.NoError(t, err)
	assert.Contains(t, string(data), `,"components":null,"systems":{}}`)
	want, err = save.Remarshal(data)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(data))
}
