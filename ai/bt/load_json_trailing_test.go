package bt

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Content after the document is refused naming its line and column. The check used
// json.Decoder.More, which reports nothing for a stray '}' or ']': a file ending in
// "}}" (a paste, a brace too many) loaded as if the extra brace were not there.
func TestLoadJSONRefusesContentAfterTheDocument(t *testing.T) {
	doc := "{\"trees\": [\n{\"id\": \"M\", \"root\": {\"type\": \"AlwaysSuccess\"}}]}"
	for tail, want := range map[string]string{
		"}":           `bt: t.json:2: syntax error: content after the document at column 49: "}"`,
		"\n ]":        `bt: t.json:3: syntax error: content after the document at column 2: "]"`,
		"\n\ngarbage": `bt: t.json:4: syntax error: content after the document at column 1: "garbage"`,
		" {}":         `bt: t.json:2: syntax error: content after the document at column 50: "{}"`,
	} {
		_, err := NewRegistry(nil).LoadJSON("t.json", []byte(doc+tail))
		require.Error(t, err, tail)
		assert.ErrorIs(t, err, ErrSyntax, tail)
		assert.Equal(t, want, err.Error(), tail)
	}
	_, err := NewRegistry(nil).LoadJSON("t.json", []byte(doc+"\r\n\t "))
	require.NoError(t, err)
}
