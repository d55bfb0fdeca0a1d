package htn_test

import (
	"testing"

	"github.com/archai-go/archai/ai/htn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Domain.Choices replays a plan's MTR over its domain: which method each compound task
// took, in the order the planner decomposed them.
func TestChoicesNameTheMethodOfEachDecomposition(t *testing.T) {
	var r htn.Registry
	op := func(*htn.Context) htn.Status { return htn.Success }
	for _, name := range []string{"Reload", "Shoot", "Patrol"} {
		require.NoError(t, r.RegisterOperator(name, op, nil))
	}
	id, err := r.LoadJSON("guard.json", []byte(`{
	  "name": "guard", "facts": ["enemy", "ammo"], "root": "Guard",
	  "tasks": [
	    {"name": "Guard", "methods": [
	      {"name": "Fight", "if": "enemy", "tasks": ["Attack"]},
	      {"name": "Idle", "tasks": ["Patrol"]}]},
	    {"name": "Attack", "methods": [
	      {"name": "Loaded", "if": "ammo > 0", "tasks": ["Shoot", "Shoot"]},
	      {"name": "Empty", "tasks": ["Reload", "Shoot"]}]},
	    {"name": "Reload", "effects": "ammo = 1"},
	    {"name": "Shoot", "if": "ammo > 0", "effects": "ammo -= 1"},
	    {"name": "Patrol"}]}`))
	require.NoError(t, err)
	d := r.Domain(id)
	var p htn.Planner
	var plan htn.Plan
	names := func(cs []htn.Choice) []string {
		var out []string
		for _, c := range cs {
			out = append(out, d.TaskName(c.Task)+":"+c.Name+"#"+string(rune('0'+c.Method))+"@"+string(rune('0'+c.Depth)))
		}
		return out
	}
	for _, tc := range []struct {
		s    htn.State
		want []string
	}{
		{htn.State{1, 2}, []string{"Guard:Fight#0@0", "Attack:Loaded#0@1"}},
		{htn.State{1, 1}, []string{"Guard:Fight#0@0", "Attack:Empty#1@1"}}, // Loaded's second Shoot has no round
		{htn.State{0, 5}, []string{"Guard:Idle#1@0"}},
	} {
		require.NoError(t, p.Plan(d, &tc.s, &plan))
		got, ok := d.Choices(nil, &plan)
		require.True(t, ok)
		assert.Equal(t, tc.want, names(got), "%v", tc.s)
	}
	assert.Equal(t, "Empty", d.MethodName(1, 1))
	assert.Equal(t, "", d.MethodName(3, 0), "a primitive task has no method")

	// a plan that is not of d
	bad := plan
	bad.MTR[0] = 7
	got, ok := d.Choices([]htn.Choice{{Name: "kept"}}, &bad)
	assert.False(t, ok)
	assert.Equal(t, []htn.Choice{{Name: "kept"}}, got)
	_, ok = d.Choices(nil, &htn.Plan{})
	assert.False(t, ok, "no plan")
}
