package htn_test

import (
	"fmt"

	"github.com/archai-go/archai/ai/htn"
)

// A domain file: methods are tried in order; the plan's MTR records the choices.
func ExampleRegistry_LoadJSON() {
	var r htn.Registry
	op := func(*htn.Context) htn.Status { return htn.Success }
	for _, name := range []string{"Reload", "Shoot", "Patrol"} {
		if err := r.RegisterOperator(name, op, nil); err != nil {
			panic(err)
		}
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
	if err != nil {
		panic(err)
	}
	d := r.Domain(id)
	var p htn.Planner
	var plan htn.Plan
	for _, s := range []htn.State{{1, 2}, {1, 1}, {0, 5}} {
		if err := p.Plan(d, &s, &plan); err != nil {
			fmt.Println(err)
			continue
		}
		for _, t := range plan.TaskList() {
			fmt.Print(d.TaskName(t), " ")
		}
		fmt.Println(plan.MTR[:plan.MTRLen])
	}
	// Output:
	// Shoot Shoot [0 0]
	// Reload Shoot [0 1]
	// Patrol [1]
}
