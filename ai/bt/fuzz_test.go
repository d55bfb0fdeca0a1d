package bt

import (
	"os"
	"path/filepath"
	"testing"
)

// fuzzRegistry has a few leaves with ports of several types, so fuzzed files reach port
// binding, scopes and the blackboard built-ins.
func fuzzRegistry() *Registry {
	r := NewRegistry(nil)
	_ = r.RegisterAction("Move", func(p *Ports) (func(*Context) Status, error) {
		sp := InputPortOr(p, "speed", 1.0)
		out := OutputPort[bool](p, "arrived")
		return func(c *Context) Status {
			v, _ := sp.Get(c)
			out.Set(c, v > 1)
			return Running
		}, nil
	})
	_ = r.RegisterCondition("Ready", func(p *Ports) (func(*Context) bool, error) {
		k := InputPortOr(p, "flag", true)
		return func(c *Context) bool { v, _ := k.Get(c); return v }, nil
	})
	_ = r.RegisterChooser("Pick", func(p *Ports) (func(*Context) int, error) {
		k := InputPortOr(p, "index", 0)
		return func(c *Context) int { v, _ := k.Get(c); return v }, nil
	})
	return r
}

// fuzzLoad loads, builds and runs whatever loaded: no input may panic.
func fuzzLoad(t *testing.T, data []byte, load func(r *Registry, data []byte) (string, error)) {
	r := fuzzRegistry()
	main, err := load(r, data)
	if err != nil {
		checkShort(t, err)
		return
	}
	tree, err := r.Tree(main)
	if err != nil {
		checkShort(t, err)
		return
	}
	if loopWork(tree, 0) > 1e6 {
		return // nested finite Repeat/Retry: legal, but too slow to tick while fuzzing
	}
	m := tree.NewMemory()
	ctx := &Context{DT: 0.1, Blackboard: r.Schema().NewStore()}
	for k := range 8 {
		ctx.Time = float64(k) * ctx.DT
		tree.Tick(&m, ctx)
	}
	tree.Halt(&m, ctx)
}

// checkShort fails when one of the errors joined in err has a long message: quoted file
// text is cut, so none needs more than its position, node label and reason.
func checkShort(t *testing.T, err error) {
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	for _, e := range errs {
		if n := len(e.Error()); n > 2*maxMessage+300 {
			t.Fatalf("error message of %d bytes: %.200q", n, e.Error())
		}
	}
}

// addSeeds adds every file matching pattern to the corpus; a pattern that matches
// nothing or a file that cannot be read fails the fuzz test rather than shrink the corpus.
func addSeeds(f *testing.F, pattern string) {
	f.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil || len(files) == 0 {
		f.Fatalf("no seed files match %s (%v)", pattern, err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

func FuzzLoadXML(f *testing.F) {
	addSeeds(f, "testdata/*.xml")
	addSeeds(f, "testdata/seed/*.xml")
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzLoad(t, data, func(r *Registry, d []byte) (string, error) { return r.LoadXML("fuzz.xml", d) })
	})
}

func FuzzLoadJSON(f *testing.F) {
	addSeeds(f, "testdata/*.json")
	addSeeds(f, "testdata/seed/*.json")
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzLoad(t, data, func(r *Registry, d []byte) (string, error) { return r.LoadJSON("fuzz.json", d) })
	})
}

// TestFuzzSeedsLoad keeps the seed corpus meaningful: every seed loads, builds and runs.
func TestFuzzSeedsLoad(t *testing.T) {
	for _, pattern := range []string{"testdata/seed/*.xml", "testdata/seed/*.json"} {
		files, err := filepath.Glob(pattern)
		if err != nil || len(files) == 0 {
			t.Fatalf("no seed files match %s (%v)", pattern, err)
		}
		for _, file := range files {
			r := fuzzRegistry()
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var main string
			if filepath.Ext(file) == ".xml" {
				main, err = r.LoadXML(file, data)
			} else {
				main, err = r.LoadJSON(file, data)
			}
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if _, err := r.Tree(main); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
		}
	}
}

// loopWork bounds the leaf ticks one tick of node i may take through finite Repeat and
// Retry loops, which run their cycles back to back.
func loopWork(t *Tree, i int) float64 {
	n := &t.nodes[i]
	w := 1.0
	for _, k := range t.Children(nil, i) {
		w += loopWork(t, k)
	}
	if (n.kind == kindRepeat || n.kind == kindRetry) && n.n1 > 0 {
		w *= float64(n.n1)
	}
	return w
}
