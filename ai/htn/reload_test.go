package htn_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/archai-go/archai/ai/htn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ReloadFile replaces the domain of the edited file's name under its ID (LoadFile
// refuses the name), keeps the old domain when the edit does not load, and adds a
// domain of a new name.
func TestReloadFileReplacesTheDomain(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "guard.json")
	write := func(s string) { require.NoError(t, os.WriteFile(path, []byte(s), 0o600)) }
	reg := &htn.Registry{}
	run := func(*htn.Context) htn.Status { return htn.Success }
	require.NoError(t, reg.RegisterOperator("Wait", run, nil))
	require.NoError(t, reg.RegisterOperator("Shout", run, nil))
	write(`{"name": "guard", "facts": ["alarm"], "root": "Guard", "tasks": [
	  {"name": "Guard", "methods": [{"tasks": ["Wait"]}]}, {"name": "Wait"}]}`)
	id, err := reg.LoadFile(path)
	require.NoError(t, err)
	_, err = reg.LoadFile(path)
	require.Error(t, err, "LoadFile refuses a name registered")
	old := reg.Domain(id)

	write(`{"name": "guard", "facts": ["alarm"], "root": "Guard", "tasks": [
	  {"name": "Guard", "methods": [{"tasks": ["Shout", "Wait"]}]}, {"name": "Shout"}, {"name": "Wait"}]}`)
	nid, err := reg.ReloadFile(path)
	require.NoError(t, err)
	assert.Equal(t, id, nid)
	d := reg.Domain(id)
	assert.NotSame(t, old, d)
	_, ok := d.TaskIndex("Shout")
	assert.True(t, ok)

	write(`{"name": "guard", "facts": ["alarm"], "root": "Guard", "tasks": [
	  {"name": "Guard", "methods": [{"tasks": ["Sing"]}]}, {"name": "Sing"}]}`) // no operator Sing
	_, err = reg.ReloadFile(path)
	assert.True(t, errors.Is(err, htn.ErrSyntax), "%v", err)
	assert.ErrorContains(t, err, "guard.json")
	assert.Same(t, d, reg.Domain(id), "a broken edit keeps the domain")

	_, err = reg.ReloadFile(filepath.Join(dir, "missing.json"))
	assert.True(t, errors.Is(err, os.ErrNotExist), "%v", err)

	write(`{"name": "scout", "facts": ["x"], "root": "Go", "tasks": [
	  {"name": "Go", "methods": [{"tasks": ["Wait"]}]}, {"name": "Wait"}]}`)
	sid, err := reg.ReloadFile(path)
	require.NoError(t, err)
	assert.Equal(t, htn.ID(2), sid, "a new name is added")
	assert.Equal(t, []string{"guard", "scout"}, reg.Names())

	_, err = reg.Replace(nil)
	assert.Error(t, err)
}
