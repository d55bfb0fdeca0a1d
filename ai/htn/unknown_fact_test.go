package htn

import (
	"errors"
	"testing"

	"github.com/archai-go/archai/ai/script"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A misspelt fact in a domain file's effect used to get the script package's advice
// "unknown entry "carryng" (use := to create it)", and following it gave another error
// (ErrEffect: an effect's := may not create an entry). The error names the fact as
// unknown, lists the domain's facts and gives no := advice, in an effect and in a
// condition, in files and in Go.
func TestAMisspeltFactInAScriptIsAnUnknownFact(t *testing.T) {
	r := &Registry{}
	require.NoError(t, r.RegisterOperator("Chop", func(*Context) Status { return Success }, nil))
	for name, c := range map[string]struct{ doc, want string }{
		"effect": {`{"name": "d", "facts": ["carrying", "hungry"], "root": "R", "tasks": [
 {"name": "R", "methods": [{"name": "M", "tasks": ["Chop"]}]},
 {"name": "Chop", "effects": "carryng = 1"}]}`,
			`d.json:3:19: tasks[1].effects: script col 1: unknown fact "carryng" (the domain's facts: "carrying", "hungry"): declare it among the facts before the script uses it in ` + "`carryng = 1`"},
		"compound effect": {`{"name": "d", "facts": ["wood"], "root": "R", "tasks": [
 {"name": "R", "methods": [{"name": "M", "tasks": ["Chop"]}]},
 {"name": "Chop", "effects": "wood += 1; wod -= 1"}]}`,
			`script col 12: unknown fact "wod" (the domain's facts: "wood")`},
		"condition": {`{"name": "d", "facts": ["hungry"], "root": "R", "tasks": [
 {"name": "R", "methods": [{"name": "M", "if": "hungy && true", "tasks": ["Chop"]}]},
 {"name": "Chop"}]}`,
			`script col 1: unknown fact "hungy" (the domain's facts: "hungry")`},
	} {
		_, err := r.LoadJSON("d.json", []byte(c.doc))
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), c.want, name)
		assert.NotContains(t, err.Error(), ":=", name)
		assert.True(t, errors.Is(err, ErrFact), name)
		assert.True(t, errors.Is(err, script.ErrUnknownEntry), name)
		assert.True(t, errors.Is(err, ErrSyntax), name)
	}

	b := NewBuilder("go")
	b.Fact("ammo")
	_, err := b.ScriptEffect("amo -= 1", "Shoot")
	require.Error(t, err)
	assert.Equal(t, `Shoot: script col 1: unknown fact "amo" (the domain's facts: "ammo"): declare it among the facts before the script uses it in `+"`amo -= 1`", err.Error())
	assert.True(t, errors.Is(err, ErrFact))

	// A := of a name that is not a fact stays ErrEffect, and other script errors pass.
	_, err = b.ScriptEffect("amo := 1", "Shoot")
	assert.True(t, errors.Is(err, ErrEffect), "%v", err)
	_, err = b.Script("ammo >", "Shoot")
	assert.True(t, errors.Is(err, script.ErrSyntax), "%v", err)
	assert.False(t, errors.Is(err, ErrFact), "%v", err)
	// An empty domain says it has no facts.
	_, err = NewBuilder("none").Script("x > 1", "c")
	assert.ErrorContains(t, err, `unknown fact "x" (the domain's facts: none)`)
}
