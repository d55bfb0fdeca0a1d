package bt_test

import (
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An unknown field is an error naming the JSON path of the object holding it, as the
// doc promises (it named none: "unknown field \"prots\""; a newcomer).
func TestLoadJSONNamesThePathOfAnUnknownField(t *testing.T) {
	for doc, want := range map[string]string{
		`{"main":"G","trees":[{"id":"G","root":{"type":"Sequence","children":[{"type":"AlwaysSuccess"},{"type":"AlwaysSuccess","prots":{"a":"1"}}]}}]}`: `$.trees[0].root.children[1]`,
		`{"main":"G","tres":[]}`:                                            `$`,
		`{"trees":[{"id":"G","rot":{"type":"AlwaysSuccess"}}]}`:             `$.trees[0]`,
		`{"trees":[{"id":"G","root":{"type":"AlwaysSuccess","child":[]}}]}`: `$.trees[0].root`,
	} {
		_, err := bt.NewRegistry(blackboard.NewSchema()).LoadJSON("f.json", []byte(doc))
		require.ErrorIs(t, err, bt.ErrSyntax, doc)
		assert.Contains(t, err.Error(), want+":", doc)
		assert.Contains(t, err.Error(), "unknown field", doc)
	}
}
