package htn

import (
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
