package bt

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// FuzzReloadDocument: a hot reload of any edit is all or nothing. A refused edit leaves
// the registry as it was (the same tree IDs, each old tree building to the same number
// of nodes, the same keys of the same types in the schema, and no more slots); a taken one builds every tree it loaded, in any order, as
// ReloadDocument promises (its roots, and trees that use each other, are built before
// it returns). Run with:
//
//	go test -run XXX -fuzz FuzzReloadDocument -fuzztime 3m -fuzzminimizetime 5s -parallel 1 ./ai/bt
func FuzzReloadDocument(f *testing.F) {
	const base = `<root BTCPP_format="4" main_tree_to_execute="A">
<BehaviorTree ID="A"><Sequence><Ready/><SubTree ID="B" arrived="{arrived}"/></Sequence></BehaviorTree>
<BehaviorTree ID="B"><Move speed="2" arrived="{arrived}"/></BehaviorTree>
<BehaviorTree ID="C"><Sleep msec="100"/></BehaviorTree></root>`
	for _, edit := range []string{
		base,
		`<root BTCPP_format="4"><BehaviorTree ID="A"><SubTree ID="B"/></BehaviorTree><BehaviorTree ID="B"><SubTree ID="A"/></BehaviorTree></root>`,
		`<root BTCPP_format="4"><BehaviorTree ID="B"><Move speed="fast" arrived="{arrived}"/></BehaviorTree></root>`,
		`<root BTCPP_format="4"><BehaviorTree ID="B"><Move speed="{arrived}" arrived="{arrived}"/></BehaviorTree></root>`,
		`<root BTCPP_format="4"><BehaviorTree ID="D"><SubTree ID="C"/></BehaviorTree><BehaviorTree ID="C"><SubTree ID="E"/></BehaviorTree></root>`,
		`<root BTCPP_format="4"><BehaviorTree ID="C"><Sequence><SubTree ID="C"/><Ready/></Sequence></BehaviorTree><BehaviorTree ID="E"><Ready/></BehaviorTree></root>`,
		`<root BTCPP_format="4"><BehaviorTree ID="A"><Sequence><Ready flag="{x}"/><Move speed="{x}" arrived="{a}"/></Sequence></BehaviorTree></root>`,
	} {
		f.Add([]byte(edit))
	}
	f.Fuzz(func(t *testing.T, edit []byte) {
		dir := t.TempDir()
		path := filepath.Join(dir, "trees.xml")
		if err := os.WriteFile(path, []byte(base), 0o644); err != nil {
			t.Fatal(err)
		}
		r := fuzzRegistry()
		if _, err := r.LoadDocument(path); err != nil {
			t.Fatal(err)
		}
		sizes := func() map[string]int {
			m := map[string]int{}
			for _, id := range r.TreeIDs() {
				if tr, err := r.Tree(id); err == nil {
					m[id] = tr.Len()
				} else {
					m[id] = -1
				}
			}
			return m
		}
		keyNames := func() (names []string) {
			for i := range r.Schema().Len() {
				if name := r.Schema().Name(i); name != "" {
					names = append(names, name+" "+r.Schema().Type(name).String())
				}
			}
			return names
		}
		before := sizes()
		ids, keys, slots := r.TreeIDs(), keyNames(), r.Schema().Len()
		if err := os.WriteFile(path, edit, 0o644); err != nil {
			t.Fatal(err)
		}
		doc, err := r.ReloadDocument(path)
		if err != nil {
			checkShort(t, err)
			if !slices.Equal(ids, r.TreeIDs()) {
				t.Fatalf("refused edit changed the tree IDs: %v, was %v (%v)", r.TreeIDs(), ids, err)
			}
			if got := keyNames(); !slices.Equal(got, keys) {
				t.Fatalf("refused edit left the keys %v, were %v (%v)", got, keys, err)
			}
			if r.Schema().Len() != slots {
				t.Fatalf("refused edit left %d schema slots, were %d (%v)", r.Schema().Len(), slots, err)
			}
			after := sizes()
			for id, n := range before {
				if after[id] != n {
					t.Fatalf("refused edit changed tree %q: %d nodes, was %d (%v)", id, after[id], n, err)
				}
			}
			return
		}
		for _, id := range doc.Trees {
			if _, err := r.Tree(id); err != nil && loadedTreeMustBuild(r, doc.Trees, id) {
				t.Fatalf("edit taken but its tree %q does not build: %v", id, err)
			}
		}
	})
}

// loadedTreeMustBuild reports whether ReloadDocument promises that id builds: every tree
// of the load is built as a root or through one, but a subtree built through its parent's
// remapped ports may need them (a SubTree's model port without a default), so only
// roots are checked alone.
func loadedTreeMustBuild(r *Registry, trees []string, id string) bool {
	return slices.Contains(r.roots(trees), id)
}
