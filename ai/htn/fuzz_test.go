package htn

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzLoadJSON: any file loads or fails with a short error (each of the errors joined in
// it at most maxFuzzMessage bytes, whatever the length of the names it quotes); a
// loaded domain plans and runs without panicking. The seeds are testdata/soldier.json
// and testdata/seed/*.json: files that load, and files that are broken (bad_*.json).
// Run with:
//
//	go test -run XXX -fuzz FuzzLoadJSON -fuzztime 3m -parallel 1 ./ai/htn
func FuzzLoadJSON(f *testing.F) {
	for _, file := range fuzzSeedFiles(f) {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"name": "x", "facts": ["a"], "root": "R", "tasks": [{"name": "R", "methods": [{"name": "m", "if": "a / 0 > 1", "tasks": ["R"]}]}]}`))
	f.Add([]byte(`{"name": "x", "facts": ["a"], "root": "P", "tasks": [{"name": "P", "instant": true, "effects": "a = a * 99999999999"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := fuzzRegistry()
		id, err := r.LoadJSON("f.json", data)
		if err != nil {
			checkShort(t, err)
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

// maxFuzzMessage bounds each error a file makes: names are quoted cut to 64 bytes,
// another package's message to about 256, script text by package script.
const maxFuzzMessage = 1024

// checkShort fails when one of the errors joined in err has a long message.
func checkShort(t *testing.T, err error) {
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	for _, e := range errs {
		if n := len(e.Error()); n > maxFuzzMessage {
			t.Fatalf("error message of %d bytes: %.300q", n, e.Error())
		}
	}
}

// fuzzRegistry registers the operators the seeds name.
func fuzzRegistry() *Registry {
	var r Registry
	run := func(*Context) Status { return Success }
	for _, name := range []string{"Reload", "MoveFlank", "Fire", "TakeCover", "Patrol", "P", "R"} {
		_ = r.RegisterOperator(name, run, nil)
	}
	return &r
}

func fuzzSeedFiles(tb testing.TB) []string {
	files, err := filepath.Glob("testdata/seed/*.json")
	if err != nil || len(files) == 0 {
		tb.Fatalf("no seed files in testdata/seed (%v)", err)
	}
	return append(files, "testdata/soldier.json")
}

// The seeds are what their names say: bad_*.json fail to load with a short error, the
// others load and plan.
func TestFuzzSeeds(t *testing.T) {
	for _, file := range fuzzSeedFiles(t) {
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		r := fuzzRegistry()
		id, err := r.LoadJSON(filepath.Base(file), data)
		if strings.HasPrefix(filepath.Base(file), "bad_") {
			if err == nil {
				t.Errorf("%s loaded", file)
				continue
			}
			checkShort(t, err)
			continue
		}
		require.NoError(t, err, file)
		var p Planner
		var plan Plan
		var s State
		if err := p.Plan(r.Domain(id), &s, &plan); err != nil && !errors.Is(err, ErrLength) {
			t.Errorf("%s: %v", file, err)
		}
	}
}
