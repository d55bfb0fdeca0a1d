package htn

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A file's error says "htn:" once: a domain name registered already and a Builder's
// error (a cycle of compound tasks) read "htn: f.json: htn: ..." before.
func TestFileErrorsSayHTNOnce(t *testing.T) {
	r := &Registry{}
	dom := `{"name":"a","root":"R","tasks":[{"name":"R","methods":[{"tasks":["R"]}]}]}`
	_, err := r.LoadJSON("cycle.json", []byte(dom))
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), "htn: cycle.json: "), err.Error())
	assert.Equal(t, 1, strings.Count(err.Error(), "htn:"), err.Error())
	assert.ErrorIs(t, err, ErrSyntax)

	ok := `{"name":"b","root":"R","tasks":[{"name":"R","methods":[{"tasks":["P"]}]},{"name":"P","operator":"Op"}]}`
	require.NoError(t, r.RegisterOperator("Op", func(*Context) Status { return Success }, nil))
	_, err = r.LoadJSON("b.json", []byte(ok))
	require.NoError(t, err)
	_, err = r.LoadJSON("b2.json", []byte(ok))
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), "htn: b2.json: "), err.Error())
	assert.Equal(t, 1, strings.Count(err.Error(), "htn:"), err.Error())
}

// A Builder's error met while the loader reads the facts (more than MaxFacts) read
// "htn: f.json:1:204: facts[32]: htn: domain ...".
func TestFactErrorsSayHTNOnce(t *testing.T) {
	facts := make([]string, MaxFacts+1)
	for i := range facts {
		facts[i] = `"f` + strings.Repeat("x", i) + `"`
	}
	dom := `{"name":"x","facts":[` + strings.Join(facts, ",") + `],"root":"P","tasks":[{"name":"P","instant":true}]}`
	_, err := (&Registry{}).LoadJSON("f.json", []byte(dom))
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrSyntax)
	assert.Equal(t, 1, strings.Count(err.Error(), "htn:"), err.Error())
	assert.Contains(t, err.Error(), "facts["+strconv.Itoa(MaxFacts)+"]: domain \"x\": fact", err.Error())
}
