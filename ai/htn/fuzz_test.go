package htn

import (
	"os"
	"testing"
)

// FuzzLoadJSON: any file loads or fails with an error; a loaded domain plans and runs
// without panicking.
func FuzzLoadJSON(f *testing.F) {
	data, err := os.ReadFile("testdata/soldier.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte(`{"name": "x", "facts": ["a"], "root": "R", "tasks": [{"name": "R", "methods": [{"name": "m", "if": "a / 0 > 1", "tasks": ["R"]}]}]}`))
	f.Add([]byte(`{"name": "x", "facts": ["a"], "root": "P", "tasks": [{"name": "P", "instant": true, "effects": "a = a * 99999999999"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var r Registry
		run := func(*Context) Status { return Success }
		for _, name := range []string{"Reload", "MoveFlank", "Fire", "TakeCover", "Patrol", "P", "R"} {
			_ = r.RegisterOperator(name, run, nil)
		}
		id, err := r.LoadJSON("f.json", data)
		if err != nil {
			return
		}
		d := r.Domain(id)
		var p Planner
		var plan Plan
		var s State
		for i := range s {
			s[i] = int32(i % 3)
		}
		_ = p.Plan(d, &s, &plan)
		var rn Run
		ctx := Context{}
		for range 3 {
			d.Tick(&rn, &s, &p, &ctx)
		}
	})
}
