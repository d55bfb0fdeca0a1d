package htn_test

import (
	"testing"

	"github.com/archai-go/archai/ai/htn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A JSON domain's conditions are scripts, and WhyNoPlan explained a failing one by its
// source alone: `method Gather needs "forest == 1" (false)`, with neither the fact's
// value nor the note that no task's effect changes forest, which the same condition
// written with Is gets (the doc promises both for "a condition on a fact"). A script
// condition now names the value of each fact it reads, and each one no effect changes.
func TestWhyNoPlanNamesTheFactsAScriptConditionReads(t *testing.T) {
	reg := &htn.Registry{}
	id, err := reg.LoadJSON("village.json", []byte(`{"name": "village", "facts": ["forest", "wood"],
	  "root": "Live", "tasks": [
	    {"name": "Live", "methods": [{"name": "Gather", "if": "forest == 1 && wood < 9", "tasks": ["Chop"]}]},
	    {"name": "Chop", "effects": "wood += 1", "instant": true}]}`))
	require.NoError(t, err)
	d := reg.Domain(id)
	var s htn.State
	s[1] = 4
	assert.Equal(t, `root "Live" does not decompose: method Gather needs "forest == 1 && wood < 9" `+
		`(false; forest is 0, wood is 4; no task's effect changes forest: only the sensor or a system `+
		`writing the state can)`, d.WhyNoPlan(&s))
}
