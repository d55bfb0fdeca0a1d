package bt

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// doublingDocs returns a tree file of levels+2 trees, as XML and as JSON: D0 is a
// Sequence of two Count leaves, each Di a Sequence of two SubTrees of Di-1, and R
// (main_tree_to_execute) one SubTree of D<levels>: under 2 KB naming about 2^(levels+2)
// nodes.
func doublingDocs(levels int) (xmlDoc, jsonDoc string) {
	var x, j strings.Builder
	x.WriteString(`<root BTCPP_format="4" main_tree_to_execute="R">` + "\n")
	x.WriteString(`<BehaviorTree ID="D0"><Sequence><Count/><Count/></Sequence></BehaviorTree>` + "\n")
	j.WriteString(`{"main": "R", "trees": [` + "\n")
	j.WriteString(`{"id": "D0", "root": {"type": "Sequence", "children": [{"type": "Count"}, {"type": "Count"}]}},` + "\n")
	for i := 1; i <= levels; i++ {
		fmt.Fprintf(&x, `<BehaviorTree ID="D%d"><Sequence><SubTree ID="D%d"/><SubTree ID="D%d"/></Sequence></BehaviorTree>`+"\n", i, i-1, i-1)
		fmt.Fprintf(&j, `{"id": "D%d", "root": {"type": "Sequence", "children": [{"type": "SubTree", "ports": {"ID": "D%d"}}, {"type": "SubTree", "ports": {"ID": "D%d"}}]}},`+"\n", i, i-1, i-1)
	}
	fmt.Fprintf(&x, `<BehaviorTree ID="R"><SubTree ID="D%d"/></BehaviorTree>`+"\n</root>\n", levels)
	fmt.Fprintf(&j, `{"id": "R", "root": {"type": "SubTree", "ports": {"ID": "D%d"}}}]}`+"\n", levels)
	return x.String(), j.String()
}

// countingRegistry returns a registry whose Count leaf counts its factory's calls: a
// refusal up front calls it never.
func countingRegistry(t *testing.T) (*Registry, *int) {
	calls := new(int)
	r := NewRegistry(nil)
	require.NoError(t, r.RegisterAction("Count", func(p *Ports) (func(*Context) Status, error) {
		*calls++
		return func(*Context) Status { return Success }, nil
	}))
	return r, calls
}

// No load path builds a doubling document's 2^42 nodes, nor the first 65,535 of them:
// LoadDocument, LoadXML, LoadXMLFrom and LoadJSON register its trees without building
// any (linear in the file), and Tree, LoadFile and ReloadDocument refuse a tree of more
// than MaxNodes nodes with its subtrees before building any node (the leaf factory is
// never called), with an error wrapping ErrTooManyNodes; a refused LoadFile leaves no
// tree registered. Within MaxNodes the same shape builds.
func TestEveryLoadPathRefusesADoublingDocumentUpFront(t *testing.T) {
	xmlDoc, jsonDoc := doublingDocs(40)
	require.Less(t, len(xmlDoc), 4<<10)
	dir := t.TempDir()
	xmlPath, jsonPath := filepath.Join(dir, "bomb.xml"), filepath.Join(dir, "bomb.json")
	require.NoError(t, os.WriteFile(xmlPath, []byte(xmlDoc), 0o644))
	require.NoError(t, os.WriteFile(jsonPath, []byte(jsonDoc), 0o644))
	const refused = `BehaviorTree "R": too many nodes: the tree with its subtrees has more than 65535 nodes (MaxNodes), counted from the definitions before building any`

	loads := map[string]func(r *Registry) (string, error){
		"LoadDocument xml":  func(r *Registry) (string, error) { d, err := r.LoadDocument(xmlPath); return d.Main, err },
		"LoadDocument json": func(r *Registry) (string, error) { d, err := r.LoadDocument(jsonPath); return d.Main, err },
		"LoadXML":           func(r *Registry) (string, error) { return r.LoadXML("bomb.xml", []byte(xmlDoc)) },
		"LoadXMLFrom": func(r *Registry) (string, error) {
			d, err := r.LoadXMLFrom(dir, "bomb.xml", []byte(xmlDoc))
			return d.Main, err
		},
		"LoadJSON": func(r *Registry) (string, error) { return r.LoadJSON("bomb.json", []byte(jsonDoc)) },
	}
	for _, name := range slices.Sorted(maps.Keys(loads)) {
		r, calls := countingRegistry(t)
		main, err := loads[name](r)
		require.NoError(t, err, name)
		assert.Equal(t, "R", main, name)
		assert.Len(t, r.TreeIDs(), 42, name)
		_, err = r.Tree(main)
		require.ErrorIs(t, err, ErrTooManyNodes, name)
		assert.ErrorContains(t, err, refused, name)
		assert.Zero(t, *calls, "%s: nothing built", name)
		assert.Zero(t, r.Schema().Len(), name)
	}

	for _, path := range []string{xmlPath, jsonPath} {
		r, calls := countingRegistry(t)
		_, err := r.LoadFile(path)
		require.ErrorIs(t, err, ErrTooManyNodes, path)
		assert.ErrorContains(t, err, refused, path)
		assert.Zero(t, *calls, path)
		assert.Empty(t, r.TreeIDs(), "%s: a refused LoadFile registers nothing", path)

		_, err = r.ReloadDocument(path)
		require.ErrorIs(t, err, ErrTooManyNodes, path)
		assert.ErrorContains(t, err, refused, path)
		assert.Zero(t, *calls, path)
		assert.Empty(t, r.TreeIDs(), path)
	}

	// D13: 2^14 Count leaves, 2^14-1 Sequences, 2^14-2 SubTrees; with R's SubTree,
	// 3*2^14-2 nodes, within MaxNodes.
	xmlDoc, _ = doublingDocs(13)
	require.NoError(t, os.WriteFile(xmlPath, []byte(xmlDoc), 0o644))
	r, calls := countingRegistry(t)
	tr, err := r.LoadFile(xmlPath)
	require.NoError(t, err)
	assert.Equal(t, 3*(1<<14)-2, tr.Len())
	assert.Equal(t, 1<<14, *calls)
}

// registryState is what a refused load or reload must leave as it was: the schema (its
// Len, slot names and types), the trees and their order, the node models, the SubTree
// instance count (which names the private keys of the next tree built) and the notes
// of keys read and written.
func registryState(r *Registry) string {
	var b strings.Builder
	fmt.Fprintf(&b, "schema len %d keys %d:", r.schema.Len(), r.schema.Keys())
	for i := range r.schema.Len() {
		name := r.schema.Name(i)
		fmt.Fprintf(&b, " %q %v", name, r.schema.Type(name))
	}
	fmt.Fprintf(&b, "\nids %q\ninstances %d\nmodels %q\ninputOnly %q\nwritten %q\n", r.ids, r.instances,
		slices.Sorted(maps.Keys(r.models)), slices.Sorted(maps.Keys(r.inputOnly)), slices.Sorted(maps.Keys(r.written)))
	for _, id := range slices.Sorted(maps.Keys(r.trees)) {
		fmt.Fprintf(&b, "tree %q %p\n", id, r.trees[id])
	}
	return b.String()
}

// A refused reload leaves the registry exactly as it was: before, an edit whose first
// root built (declaring the keys count and a SubTree's private key) and whose second
// did not left two unnamed slots in the schema (Len grew by two at each such refusal,
// and every store with it) and two SubTree instances counted, so the next build of
// Guard named its private key Sub#4._p where one without the refusal names Sub#2._p.
// Refusals by size, by a syntax error and by an unknown node leave it as it was too.
func TestRefusalsLeaveTheRegistryAsItWas(t *testing.T) {
	path := filepath.Join(t.TempDir(), "guard.xml")
	write := func(s string) {
		require.NoError(t, os.WriteFile(path, []byte(`<root BTCPP_format="4">`+s+`</root>`), 0o644))
	}
	const first = `<BehaviorTree ID="Guard"><SubTree ID="Sub"/></BehaviorTree>
<BehaviorTree ID="Sub"><Count out="{_p}"/></BehaviorTree>
<TreeNodesModel><Action ID="Count"><output_port name="out" type="int"/></Action></TreeNodesModel>`
	fresh := func() *Registry {
		r := NewRegistry(nil)
		require.NoError(t, r.RegisterAction("Count", func(p *Ports) (func(*Context) Status, error) {
			out := OutputPort[int](p, "out")
			return func(c *Context) Status { out.Set(c, 1); return Success }, nil
		}))
		write(first)
		_, err := r.LoadDocument(path)
		require.NoError(t, err)
		_, err = r.Tree("Guard")
		require.NoError(t, err)
		return r
	}
	dump := func(r *Registry) string { // the schema after one more build of Guard
		_, err := r.Tree("Guard")
		require.NoError(t, err)
		return strings.SplitN(registryState(r), "\n", 2)[0]
	}
	want := dump(fresh())
	require.Contains(t, want, "Sub#2._p", "the second build of Guard numbers its SubTree 2")

	bomb, _ := doublingDocs(40)
	for _, c := range []struct{ name, edit, err string }{
		{"a root that does not build after one that does",
			`<BehaviorTree ID="Tally"><Sequence><SubTree ID="Sub"/><Count out="{count}"/></Sequence></BehaviorTree>
<BehaviorTree ID="Guard"><SubTree ID="Greeet"/></BehaviorTree>`, `unknown tree "Greeet"`},
		{"a root too large", strings.TrimSuffix(strings.TrimPrefix(bomb, `<root BTCPP_format="4" main_tree_to_execute="R">`), "</root>\n"), "more than 65535 nodes (MaxNodes)"},
		{"a syntax error", `<BehaviorTree ID="Guard"><Count out="{x}"></BehaviorTree>`, "syntax error"},
		{"an unknown node", `<BehaviorTree ID="Guard"><Sequence><Count out="{x}"/><Cuont/></Sequence></BehaviorTree>`, `unknown node type "Cuont"`},
		{"a model of another port type", `<BehaviorTree ID="Guard"><Count out="{x}"/></BehaviorTree>
<TreeNodesModel><Action ID="Count"><output_port name="out" type="std::string"/></Action></TreeNodesModel>`, "model"},
	} {
		r := fresh()
		before := registryState(r)
		write(c.edit)
		_, err := r.ReloadDocument(path)
		require.Error(t, err, c.name)
		assert.ErrorContains(t, err, c.err, c.name)
		assert.Equal(t, before, registryState(r), c.name)
		assert.Equal(t, want, dump(r), "%s: Guard builds as if the refused edit had not been tried", c.name)
	}

	// A taken edit declares its keys in the registry's schema as before, and a refused
	// LoadFile unloads its document: the corrected file then loads (its IDs are free).
	r := fresh()
	write(`<BehaviorTree ID="Tally"><Sequence><SubTree ID="Sub"/><Count out="{count}"/></Sequence></BehaviorTree>` + first)
	doc, err := r.ReloadDocument(path)
	require.NoError(t, err)
	assert.Equal(t, []string{"Tally", "Guard", "Sub"}, doc.Trees)
	assert.Equal(t, "schema len 4 keys 4: \"Sub#1._p\" int \"Sub#2._p\" int \"count\" int \"Sub#3._p\" int",
		strings.SplitN(registryState(r), "\n", 2)[0], "the roots Tally and Guard built in order, their keys kept")

	r = fresh()
	before := registryState(r)
	write(`<BehaviorTree ID="X"><Sequence><Count out="{n}"/><Count/></Sequence></BehaviorTree>`)
	_, err = r.LoadFile(path)
	require.ErrorIs(t, err, ErrPort)
	after := registryState(r)
	assert.NotEqual(t, before, after, "the refused build's key keeps its slot, unnamed, as a refused Tree's")
	assert.Equal(t, strings.SplitN(before, "\n", 2)[1], strings.SplitN(after, "\n", 2)[1], "all else as it was")
	assert.Equal(t, r.Schema().Keys(), 1)
	write(`<BehaviorTree ID="X"><Count out="{n}"/></BehaviorTree>`)
	_, err = r.LoadFile(path)
	require.NoError(t, err)
	assert.Equal(t, []string{"Guard", "Sub", "X"}, r.TreeIDs())
}
