package htn

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A domain file's errors name file:line:col of the offending member beside its JSON
// path, as the utility loader's do; LoadFile and ReloadFile name the path as given
// (they named its base name only, and no line).
func TestLoadErrorsNameLineAndColumn(t *testing.T) {
	var r Registry
	require.NoError(t, r.RegisterOperator("Go", instant, nil))
	doc := `{
  "name": "merchant",
  "facts": ["goods"],
  "root": "Trade",
  "tasks": [
    {"name": "Trade", "methods": [
      {"name": "sell", "if": "goods > 0", "tasks": ["Go"]},
      {"name": "buy",  "if": "goosd == 0", "tasks": ["Go"]}
    ]},
    {"name": "Go"}
  ]
}`
	path := filepath.Join(t.TempDir(), "merchant.json")
	require.NoError(t, os.WriteFile(path, []byte(doc), 0o600))
	want := path + `:8:24: tasks[0].methods[1].if: script col 1: unknown fact "goosd" (the domain's facts: "goods")`
	for name, load := range map[string]func(string) (ID, error){"LoadFile": r.LoadFile, "ReloadFile": r.ReloadFile} {
		_, err := load(path)
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), "htn: "+want, name)
		assert.True(t, errors.Is(err, ErrSyntax), name)
	}

	cases := map[string]string{
		// a member not written (the operator defaults to the task's name): the task's place
		`{"name": "x", "facts": ["a"], "root": "R",
  "tasks": [
    {"name": "R"}]}`: `htn: f.json:3:5: tasks[0].operator: no operator "R" registered`,
		`{"name": "x", "facts": ["a"], "root": "R",
  "tasks": [{"name": "R", "operator": "Go",
     "efects": "a = 1"}]}`: `htn: f.json:3:6: tasks[0]: unknown field "efects"`,
		`{"name": "x", "facts": ["a"], "root": "R",
  "tasks": [{"name": "R", "operator": "Go", "effects": "a = 1",
             "Effects": "a = 2"}]}`: `htn: f.json:3:14: tasks[0]: duplicate key "Effects"`,
		`{"name": "x", "facts": ["a"],
  "root": "S", "tasks": [{"name": "R", "operator": "Go"}]}`: `htn: f.json:2:3: root: no root task: "S"`,
	}
	for doc, want := range cases {
		_, err := r.LoadJSON("f.json", []byte(doc))
		require.Error(t, err, doc)
		assert.Contains(t, err.Error(), want, doc)
	}
	_, err := r.LoadJSON("f.json", []byte(`{"name": "x", "facts": ["a"],
  "root": "S", "tasks": [{"name": "R", "operator": "Go"}]}`))
	assert.ErrorIs(t, err, ErrNoRoot)
	assert.ErrorIs(t, err, ErrSyntax)
}
