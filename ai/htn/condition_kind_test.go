package htn

import (
	"testing"

	"github.com/archai-go/archai/ai/script"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A condition whose value is a string ("if": "'seen'", quotes slipped in from a
// designer's notes) is a load error, as a tree's precondition is: it loaded, and the
// method was never taken (each planning a script error, the next method planned).
func TestAStringConditionIsALoadError(t *testing.T) {
	var r Registry
	require.NoError(t, r.RegisterOperator("Go", instant, nil))
	for _, c := range []struct{ json, want string }{
		{`{"name": "x", "facts": ["seen"], "root": "R", "tasks": [{"name": "R", "methods": [{"name": "m", "if": "'seen'", "tasks": ["G"]}]}, {"name": "G", "operator": "Go"}]}`,
			`htn: bad.json:1:97: tasks[0].methods[0].if: `},
		{`{"name": "x", "facts": ["seen"], "root": "R", "tasks": [{"name": "R", "if": "seen > 0 ? 'a' : 'b'", "operator": "Go"}]}`,
			`htn: bad.json:1:71: tasks[0].if: `},
		{`{"name": "x", "facts": ["seen"], "root": "R", "tasks": [{"name": "R", "while": "'seen'", "operator": "Go"}]}`,
			`htn: bad.json:1:71: tasks[0].while: `},
	} {
		_, err := r.LoadJSON("bad.json", []byte(c.json))
		require.ErrorIs(t, err, script.ErrType, c.json)
		assert.Contains(t, err.Error(), c.want, c.json)
		assert.Contains(t, err.Error(), "a string, not a condition", c.json)
	}
	b := NewBuilder("x")
	b.Fact("seen")
	_, err := b.Script("'seen'", "go")
	require.ErrorIs(t, err, script.ErrType)
}
