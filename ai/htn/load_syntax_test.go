package htn

import (
	"errors"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every error of a domain file the loader refuses wraps ErrSyntax, beside the sentinel
// of the problem (ErrName, ErrTask, ...), so a caller tells a bad file from a missing
// one or from a domain name already registered.
func TestLoadJSONErrorsWrapErrSyntax(t *testing.T) {
	var r Registry
	require.NoError(t, r.RegisterOperator("Go", instant, nil))
	ok := `{"name": "x", "facts": ["a"], "root": "R", "tasks": [{"name": "R", "operator": "Go"}]}`
	for doc, also := range map[string]error{
		`{"name": "x",`:                                   nil, // JSON syntax
		`{"name": 7}`:                                     nil, // wrong type
		`{"name": "x", "rot": "R"}`:                       nil, // unknown field
		`{"name": "x", "name": "y"}`:                      nil, // duplicate key
		`{"name": "x", "root": "R", "tasks": []} extra`:   nil, // content after the document
		`{"name": "", "root": "R"}`:                       ErrName,
		`{"name": "x", "facts": ["a", "a"], "root": "R"}`: ErrName,
		`{"name": "x", "sensor": "Nope", "root": "R"}`:    nil,
		`{"name": "x", "root": "R", "tasks": [{"name": "R", "operator": "Nope"}]}`:                              nil,
		`{"name": "x", "root": "R", "tasks": [{"name": "R", "operator": "Go", "instant": true}]}`:               nil,
		`{"name": "x", "root": "R", "tasks": [{"name": "R", "methods": [{"tasks": []}]}]}`:                      nil,
		`{"name": "x", "root": "R", "tasks": [{"name": "R", "methods": [{"tasks": ["Z"]}]}]}`:                   ErrTask,
		`{"name": "x", "root": "Q", "tasks": [{"name": "R", "operator": "Go"}]}`:                                ErrNoRoot,
		`{"name": "x", "facts": ["a"], "root": "R", "tasks": [{"name": "R", "operator": "Go", "if": "a = 1"}]}`: ErrConditionWrites,
		`{"name": "x", "facts": ["a"], "root": "R", "tasks": [{"name": "R", "operator": "Go", "if": "a >"}]}`:   nil, // script syntax
	} {
		_, err := r.LoadJSON("bad.json", []byte(doc))
		require.Error(t, err, doc)
		assert.ErrorIs(t, err, ErrSyntax, doc)
		if also != nil {
			assert.ErrorIs(t, err, also, doc)
		}
	}
	// not a file error: the domain's name is taken, the file does not exist
	_, err := r.LoadJSON("ok.json", []byte(ok))
	require.NoError(t, err)
	_, err = r.LoadJSON("ok.json", []byte(ok))
	require.Error(t, err)
	assert.NotErrorIs(t, err, ErrSyntax)
	_, err = r.LoadFile(filepath.Join(t.TempDir(), "none.json"))
	require.Error(t, err)
	assert.NotErrorIs(t, err, ErrSyntax)
	assert.True(t, errors.Is(err, fs.ErrNotExist), err)
}

// Content after the domain (text, or a second JSON value, even a stray closing brace)
// is an error naming its line and column: encoding/json's Decoder stops after the first
// value, so the loader took a file of two domains, or a paste gone wrong, as the first.
func TestLoadJSONRefusesContentAfterTheDocument(t *testing.T) {
	var r Registry
	require.NoError(t, r.RegisterOperator("Go", instant, nil))
	doc := "{\"name\": \"x\", \"root\": \"R\",\n \"tasks\": [{\"name\": \"R\", \"operator\": \"Go\"}]}"
	for tail, want := range map[string]string{
		"\n\n  garbage":      `htn: bad.json:4:3: content after the document: "garbage"`,
		" {\"name\": \"y\"}": `htn: bad.json:2:46: content after the document: "{\"name\": \"y\"}"`,
		"}":                  `htn: bad.json:2:45: content after the document: "}"`,
		"\n]":                `htn: bad.json:3:1: content after the document: "]"`,
	} {
		_, err := r.LoadJSON("bad.json", []byte(doc+tail))
		require.Error(t, err, tail)
		assert.Equal(t, want, err.Error(), tail)
		assert.ErrorIs(t, err, ErrSyntax, tail)
	}
	// white space after the document is fine
	_, err := r.LoadJSON("ok.json", []byte(doc+"\n\t \r\n"))
	require.NoError(t, err)
}
