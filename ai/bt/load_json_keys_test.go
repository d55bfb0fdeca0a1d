package bt_test

import (
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A key written twice is an error naming the file, the JSON path of the object and the
// key: encoding/json kept the last value silently, so a node pasted with two "type"s
// loaded as the second (a newcomer's file).
func TestLoadJSONRefusesADuplicateKey(t *testing.T) {
	for doc, want := range map[string]string{
		`{"main":"G","main":"H","trees":[{"id":"G","root":{"type":"AlwaysSuccess"}}]}`:                                                           `bt: f.json: $: syntax error: duplicate key "main"`,
		`{"trees":[{"id":"G","root":{"type":"Sequence","children":[{"type":"AlwaysSuccess"}],"type":"Fallback"}}]}`:                              `bt: f.json: $.trees[0].root: syntax error: duplicate key "type"`,
		`{"trees":[{"id":"G","root":{"type":"Sequence","children":[{"type":"AlwaysSuccess"},{"type":"AlwaysFailure","name":"a","name":"b"}]}}]}`: `bt: f.json: $.trees[0].root.children[1]: syntax error: duplicate key "name"`,
		`{"trees":[{"id":"G","root":{"type":"Repeat","ports":{"num_cycles":2,"num_cycles":3},"children":[{"type":"AlwaysSuccess"}]}}]}`:          `bt: f.json: $.trees[0].root.ports: syntax error: duplicate key "num_cycles"`,
		`{"trees":[{"id":"G","root":{"type":"AlwaysSuccess"}},{"id":"H","ID":"G","root":{"type":"AlwaysSuccess"}}]}`:                             `bt: f.json: $.trees[1]: syntax error: duplicate key "ID"`, // "ID" fills "id"
	} {
		_, err := bt.NewRegistry(blackboard.NewSchema()).LoadJSON("f.json", []byte(doc))
		require.ErrorIs(t, err, bt.ErrSyntax, doc)
		assert.Equal(t, want, err.Error(), doc)
	}
	// Ports are a map: two ports differing by case are two ports, not a duplicate.
	_, err := bt.NewRegistry(blackboard.NewSchema()).LoadJSON("f.json", []byte(`{"trees":[{"id":"G","root":{"type":"Repeat","ports":{"num_cycles":2,"Num_cycles":3},"children":[{"type":"AlwaysSuccess"}]}}]}`))
	if err != nil {
		assert.NotContains(t, err.Error(), "duplicate")
	}
}
