package htn

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A key written twice in a domain file is an error naming the file, the path of the
// object and the key: encoding/json kept the last value silently, so a method listed
// with two "if"s ran on the second alone (a newcomer's pasted line).
func TestLoadJSONRefusesADuplicateKey(t *testing.T) {
	var r Registry
	require.NoError(t, r.RegisterOperator("Go", instant, nil))
	for doc, want := range map[string]string{
		`{"name": "x", "facts": ["a"], "root": "R", "root": "G", "tasks": [{"name": "R", "operator": "Go"}, {"name": "G", "operator": "Go"}]}`:                                            `htn: bad.json:1:44: duplicate key "root"`,
		`{"name": "x", "facts": ["a"], "root": "R", "tasks": [{"name": "G", "operator": "Go"}, {"name": "R", "methods": [{"name": "m", "if": "a > 0", "if": "a < 0", "tasks": ["G"]}]}]}`: `htn: bad.json:1:142: tasks[1].methods[0]: duplicate key "if"`,
		`{"name": "x", "facts": ["a"], "root": "R", "tasks": [{"name": "R", "operator": "Go", "effects": "a = 1", "effects": "a = 2"}]}`:                                                  `htn: bad.json:1:106: tasks[0]: duplicate key "effects"`,
		// encoding/json fills a field from a key of any case: "If" is "if" written twice
		`{"name": "x", "facts": ["a"], "root": "R", "tasks": [{"name": "G", "operator": "Go"}, {"name": "R", "methods": [{"If": "a > 0", "if": "a < 0", "tasks": ["G"]}]}]}`: `htn: bad.json:1:129: tasks[1].methods[0]: duplicate key "if"`,
	} {
		_, err := r.LoadJSON("bad.json", []byte(doc))
		require.Error(t, err, doc)
		assert.Equal(t, want, err.Error(), doc)
	}
}

// An unknown field names the path of the object holding it, as the other load errors do
// (keys as the file writes them: encoding/json takes "Methods" for "methods").
func TestLoadJSONNamesThePathOfAnUnknownField(t *testing.T) {
	var r Registry
	require.NoError(t, r.RegisterOperator("Go", instant, nil))
	for doc, want := range map[string]string{
		`{"name": "x", "rot": "R"}`: `htn: bad.json:1:15: unknown field "rot"`,
		`{"name": "x", "facts": ["a"], "root": "R", "tasks": [{"name": "R", "operator": "Go", "efects": "a = 1"}]}`:                                       `htn: bad.json:1:86: tasks[0]: unknown field "efects"`,
		`{"name": "x", "facts": ["a"], "root": "R", "tasks": [{"name": "G"}, {"name": "R", "Methods": [{"name": "m", "iff": "a > 0", "tasks": ["G"]}]}]}`: `htn: bad.json:1:109: tasks[1].Methods[0]: unknown field "iff"`,
	} {
		_, err := r.LoadJSON("bad.json", []byte(doc))
		require.Error(t, err, doc)
		assert.Equal(t, want, err.Error(), doc)
	}
}

// The repository's domain files hold no duplicate key and no unknown field (they need
// their operators registered to load in full: their packages' tests do that).
func TestTheRepositoryDomainFilesHaveNoDuplicateKey(t *testing.T) {
	files, err := filepath.Glob("testdata/*.json")
	require.NoError(t, err)
	more, err := filepath.Glob("../../examples/*/*.json")
	require.NoError(t, err)
	files = append(files, more...)
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		if _, err := (&Registry{}).parse(f, data); err != nil {
			assert.NotContains(t, err.Error(), "duplicate key", f)
			assert.NotContains(t, err.Error(), "unknown field", f)
		}
	}
}
