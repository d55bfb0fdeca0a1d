package save_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/archai-go/archai/systems/save"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rawState is a user's State whose SaveState returns fixed JSON.
type rawState struct{ raw string }

func (s rawState) Name() string                        { return "raw" }
func (s rawState) SaveState() (json.RawMessage, error) { return json.RawMessage(s.raw), nil }
func (s rawState) LoadState(raw json.RawMessage) error { return nil }

// A file holding a key twice is refused: encoding/json (and a map of the
// components) keeps the last silently, so an edited or badly merged file
// would load another world than the one it shows.
func TestLoadRefusesDuplicateKeys(t *testing.T) {
	f := newFixture(t)
	data, err := save.Save(f.w, json.RawMessage(`{"a":1,"A":2}`))
	require.NoError(t, err)
	_, err = save.Load(data, f.reg)
	require.NoError(t, err, "keys equal but for case in the caller's meta are data")

	edit := func(old, repl string) []byte {
		t.Helper()
		require.Contains(t, string(data), old)
		return bytes.Replace(data, []byte(old), []byte(repl), 1)
	}
	cases := []struct {
		name string
		data []byte
		says string
	}{
		{"a component's field", edit(`"Current":100,"Max":100`, `"Current":100,"Current":5,"Max":100`),
			`components[0]["14"] holds the key "Current" twice`},
		{"a component index", edit(`"13":{"Team":1}`, `"13":{"Team":2},"13":{"Team":1}`),
			`components[0] holds the key "13" twice`},
		{"a top-level key, by case", edit(`{"format":"archai-world",`, `{"format":"archai-world","FORMAT":"archai-world",`),
			`the document holds the key "FORMAT" twice`},
		{"the meta", edit(`"meta":{"a":1,"A":2}`, `"meta":{"a":1,"A":2,"a":3}`),
			`meta holds the key "a" twice`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, err := save.Load(c.data, f.reg)
			require.Error(t, err)
			assert.Nil(t, l)
			assert.ErrorIs(t, err, save.ErrFormat)
			assert.Contains(t, err.Error(), c.says)
		})
	}
	// ReadMeta and ReadClock read the head alone, and refuse as Load does
	twice := edit(`"meta":{"a":1,"A":2}`, `"meta":{"a":1},"meta":{"a":1,"A":2}`)
	_, err = save.ReadMeta(twice)
	assert.ErrorIs(t, err, save.ErrFormat)
	assert.Contains(t, err.Error(), `the document holds the key "meta" twice`)
	_, _, err = save.ReadClock(twice)
	assert.ErrorIs(t, err, save.ErrFormat)
}

// Save refuses to write what Load would refuse: a meta given as raw JSON, or a
// State's JSON, holding a key twice.
func TestSaveRefusesDuplicateKeys(t *testing.T) {
	f := newFixture(t)
	_, err := save.Save(f.w, json.RawMessage(`{"door":{"open":true,"open":false}}`))
	require.Error(t, err)
	assert.ErrorIs(t, err, save.ErrDomain)
	assert.Contains(t, err.Error(), `save: meta`)
	assert.Contains(t, err.Error(), `door holds the key "open" twice`)

	_, err = save.Save(f.w, nil, rawState{`{"n":1,"n":2}`})
	require.Error(t, err)
	assert.ErrorIs(t, err, save.ErrState)
	assert.Contains(t, err.Error(), `save: state of raw`)
	assert.Contains(t, err.Error(), `the document holds the key "n" twice`)

	_, err = save.Save(f.w, nil, rawState{`{"n":1,"N":2}`})
	assert.NoError(t, err, "keys equal but for case are a State's own data")
}
