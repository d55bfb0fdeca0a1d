package bt

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// docRegistry registers the leaves the document tests use: Move (speed, arrived, tries
// with a default, target defaulting to {goal}) and Ready.
func docRegistry(t *testing.T) *Registry {
	t.Helper()
	r := NewRegistry(nil)
	require.NoError(t, r.RegisterAction("Move", func(p *Ports) (func(*Context) Status, error) {
		InputPort[float64](p, "speed")
		OutputPort[bool](p, "arrived")
		InputPortOr(p, "tries", 3)
		InputPortDefault[string](p, "target", "{goal}")
		return func(*Context) Status { return Success }, nil
	}))
	require.NoError(t, r.RegisterCondition("Ready", func(*Ports) (func(*Context) bool, error) {
		return func(*Context) bool { return true }, nil
	}))
	return r
}

func TestLoadXMLDocumentShapes(t *testing.T) {
	cases := []struct {
		name, file, doc string
		main            string
		trees           []string
		build           []string // IDs that must build
	}{
		{"a lone tree without ID takes the file's name", "trees/patrol.xml",
			`<root BTCPP_format="4"><BehaviorTree><Ready/></BehaviorTree></root>`,
			"patrol", []string{"patrol"}, []string{"patrol"}},
		{"several trees, no main (Groot2 drops main_tree_to_execute)", "t.xml",
			`<root BTCPP_format="4">
  <BehaviorTree ID="A"><SubTree ID="B"/></BehaviorTree>
  <BehaviorTree ID="B"><Ready/></BehaviorTree>
  <BehaviorTree ID="C"><Ready/></BehaviorTree>
</root>`, "", []string{"A", "B", "C"}, []string{"A", "B", "C"}},
		{"main named", "t.xml",
			`<root BTCPP_format="4" main_tree_to_execute="B"><BehaviorTree ID="A"><Ready/></BehaviorTree><BehaviorTree ID="B"><Ready/></BehaviorTree></root>`,
			"B", []string{"A", "B"}, []string{"B"}},
		{"a palette only", "t.xml",
			`<root BTCPP_format="4"><TreeNodesModel><Condition ID="Ready"/></TreeNodesModel></root>`,
			"", nil, nil},
		{"_description on every element", "t.xml",
			`<root BTCPP_format="4" _description="root">
  <BehaviorTree ID="A" _description="the tree">
    <Sequence _description="a sequence">
      <Ready _description="a leaf"/>
      <SubTree ID="B" _description="a subtree" name="b"/>
      <Timeout msec="10" _description="a decorator"><Move speed="1" arrived="{a}" _description="x"/></Timeout>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="B" _description="another"><Ready/></BehaviorTree>
  <TreeNodesModel><Condition ID="Ready" _description="model"/></TreeNodesModel>
</root>`, "", []string{"A", "B"}, []string{"A"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := docRegistry(t)
			doc, err := r.LoadXMLFrom("", c.file, []byte(c.doc))
			require.NoError(t, err)
			assert.Equal(t, c.main, doc.Main)
			assert.Equal(t, c.trees, doc.Trees)
			assert.Equal(t, []string{c.file}, doc.Files)
			for _, id := range c.build {
				tree, err := r.Tree(id)
				require.NoError(t, err, id)
				assert.Equal(t, id, tree.Name())
			}
			main, err := r.LoadXML("again.xml", []byte(`<root><BehaviorTree ID="Z"><Ready/></BehaviorTree></root>`))
			require.NoError(t, err)
			assert.Equal(t, "Z", main)
		})
	}
}

func TestNoMainTree(t *testing.T) {
	r := docRegistry(t)
	const doc = `<root BTCPP_format="4"><BehaviorTree ID="A"><Ready/></BehaviorTree><BehaviorTree ID="B"><Ready/></BehaviorTree></root>`
	main, err := r.LoadXML("two.xml", []byte(doc))
	require.NoError(t, err, "every tree is registered")
	assert.Equal(t, "", main)
	assert.Equal(t, []string{"A", "B"}, r.TreeIDs())
	_, err = r.Tree(main)
	assert.ErrorIs(t, err, ErrNoMainTree)
	assert.ErrorContains(t, err, "build one by ID")
	_, err = r.Tree("B")
	assert.NoError(t, err)

	d, err := NewRegistry(nil).LoadXMLFrom("", "two.xml", []byte(strings.ReplaceAll(doc, "<Ready/>", "<AlwaysSuccess/>")))
	require.NoError(t, err)
	_, err = d.MainTree()
	require.ErrorIs(t, err, ErrNoMainTree)
	var le *LoadError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, "two.xml", le.File)
	assert.Contains(t, err.Error(), `no main_tree_to_execute and 2 trees ("A", "B")`)

	// LoadFile needs the main tree: the error names the trees, which stay loaded.
	dir := t.TempDir()
	path := filepath.Join(dir, "two.xml")
	require.NoError(t, os.WriteFile(path, []byte(doc), 0o600))
	r2 := docRegistry(t)
	_, err = r2.LoadFile(path)
	assert.ErrorIs(t, err, ErrNoMainTree)
	assert.Equal(t, []string{"A", "B"}, r2.TreeIDs())
}

func TestNodeNamesReadLikeTheFile(t *testing.T) {
	r := docRegistry(t)
	main, err := r.LoadXML("n.xml", []byte(xmlDoc(`<Fallback>
  <RetryUntilSuccessful num_attempts="2"><AlwaysFailure/></RetryUntilSuccessful>
  <Sleep msec="10"/>
  <Action ID="Ready"/>
  <ReactiveFallback name="guard"><Ready/></ReactiveFallback>
  <Switch2 variable="{v}" case_1="1" case_2="2"><Ready/><Ready/><Ready/></Switch2>
  <SubTree ID="Other"/>
</Fallback>`+"\n</BehaviorTree><BehaviorTree ID=\"Other\"><KeepRunningUntilFailure><Ready/></KeepRunningUntilFailure>")))
	require.NoError(t, err)
	tree, err := r.Tree(main)
	require.NoError(t, err)
	var names, kinds []string
	for i := range tree.Len() {
		names = append(names, tree.NodeName(i))
		kinds = append(kinds, tree.NodeKind(i))
	}
	assert.Equal(t, []string{"Fallback", "RetryUntilSuccessful", "AlwaysFailure", "Sleep", "Ready", "guard", "Ready",
		"Switch2", "Ready", "Ready", "Ready", "Other", "KeepRunningUntilFailure", "RepeatUntilFailure", "Ready"}, names)
	assert.Equal(t, []string{"Selector", "Retry", "AlwaysFailure", "Sleep", "Condition", "ReactiveSelector", "Condition",
		"Switch", "Condition", "Condition", "Condition", "SubTree", "ForceFailure", "RepeatUntilFailure", "Condition"}, kinds)
	var b strings.Builder
	require.NoError(t, tree.Dump(&b, nil))
	assert.True(t, strings.HasPrefix(b.String(), "Fallback\n├── RetryUntilSuccessful\n│   └── AlwaysFailure\n├── Sleep\n├── Ready\n├── ReactiveFallback \"guard\"\n"), b.String())
}

// writeFiles writes name → content under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o700))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o600))
	}
}

func TestInclude(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"main.xml": `<root BTCPP_format="4" main_tree_to_execute="Main">
  <include path="lib/moves.xml"/>
  <include path="lib/talk.xml"/>
  <BehaviorTree ID="Main"><Sequence><SubTree ID="Walk"/><SubTree ID="Talk"/></Sequence></BehaviorTree>
</root>`,
		// lib/moves.xml includes talk.xml relative to itself; main.xml includes it too:
		// it is read once.
		"lib/moves.xml": `<root BTCPP_format="4" main_tree_to_execute="Walk">
  <include path="talk.xml"/>
  <BehaviorTree ID="Walk"><Move speed="1" arrived="{arrived}"/></BehaviorTree>
</root>`,
		"lib/talk.xml": `<root><BehaviorTree ID="Talk"><Ready/></BehaviorTree></root>`,
		// A lone main tree and an include: the document's own tree is main.
		"single.xml": `<root BTCPP_format="4"><include path="lib/talk.xml"/><BehaviorTree ID="Solo"><SubTree ID="Talk"/></BehaviorTree></root>`,
		// Only included trees, several: no main.
		"only.xml": `<root BTCPP_format="4"><include path="lib/moves.xml"/></root>`,
	})
	r := docRegistry(t)
	tree, err := r.LoadFile(filepath.Join(dir, "main.xml"))
	require.NoError(t, err)
	assert.Equal(t, "Main", tree.Name())
	assert.Equal(t, []string{"Talk", "Walk", "Main"}, r.TreeIDs(), "included trees first, each file once")

	r = docRegistry(t)
	doc, err := r.LoadDocument(filepath.Join(dir, "main.xml"))
	require.NoError(t, err)
	assert.Equal(t, "Main", doc.Main, "the included file's main_tree_to_execute is ignored")
	assert.Equal(t, []string{"Talk", "Walk", "Main"}, doc.Trees)
	assert.Equal(t, []string{filepath.Join(dir, "main.xml"), filepath.Join(dir, "lib", "moves.xml"), filepath.Join(dir, "lib", "talk.xml")}, doc.Files)

	// Bytes with a base directory resolve includes the same way.
	data, err := os.ReadFile(filepath.Join(dir, "main.xml"))
	require.NoError(t, err)
	r = docRegistry(t)
	doc, err = r.LoadXMLFrom(dir, "main.xml", data)
	require.NoError(t, err)
	assert.Equal(t, []string{"Talk", "Walk", "Main"}, doc.Trees)

	r = docRegistry(t)
	doc, err = r.LoadDocument(filepath.Join(dir, "single.xml"))
	require.NoError(t, err)
	assert.Equal(t, "Solo", doc.Main)

	r = docRegistry(t)
	doc, err = r.LoadDocument(filepath.Join(dir, "only.xml"))
	require.NoError(t, err)
	assert.Equal(t, "", doc.Main)
	assert.Equal(t, []string{"Talk", "Walk"}, doc.Trees)
}

func TestIncludeErrors(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a.xml":       "<root>\n<include path=\"sub/b.xml\"/>\n<BehaviorTree ID=\"A\"><Ready/></BehaviorTree>\n</root>",
		"sub/b.xml":   "<root>\n\n<include path=\"../a.xml\"/>\n</root>",
		"self.xml":    "<root>\n<include path=\"self.xml\"/>\n</root>",
		"missing.xml": "<root>\n<BehaviorTree ID=\"M\"><Ready/></BehaviorTree>\n<include path=\"nope.xml\"/>\n</root>",
		"bad.xml":     "<root>\n<include path=\"broken.xml\"/>\n<BehaviorTree ID=\"Good\"><Ready/></BehaviorTree>\n</root>",
		"broken.xml":  "<root>\n<BehaviorTree ID=\"X\">\n<Jump/>\n</BehaviorTree>\n</root>",
		"nopath.xml":  "<root>\n<include/>\n</root>",
		"ros.xml":     "<root>\n<include ros_pkg=\"p\" path=\"x.xml\"/>\n</root>",
	})
	cases := []struct {
		file     string
		err      error
		errFile  string
		line     int
		contains []string
	}{
		{"a.xml", ErrInclude, "sub/b.xml", 3, []string{"include cycle", "a.xml -> " + filepath.Join(dir, "sub", "b.xml") + " -> " + filepath.Join(dir, "a.xml")}},
		{"self.xml", ErrInclude, "self.xml", 2, []string{"include cycle", "self.xml -> " + filepath.Join(dir, "self.xml")}},
		{"missing.xml", fs.ErrNotExist, "missing.xml", 3, []string{`include "nope.xml"`}},
		{"bad.xml", ErrUnknownNode, "broken.xml", 3, []string{`"Jump"`}},
		{"nopath.xml", ErrInclude, "nopath.xml", 2, []string{"missing path"}},
		{"ros.xml", ErrInclude, "ros.xml", 2, []string{"ros_pkg is not supported"}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			r := docRegistry(t)
			_, err := r.LoadDocument(filepath.Join(dir, c.file))
			require.Error(t, err)
			assert.ErrorIs(t, err, c.err)
			var le *LoadError
			require.ErrorAs(t, err, &le)
			assert.Equal(t, filepath.Join(dir, filepath.FromSlash(c.errFile)), le.File)
			assert.Equal(t, c.line, le.Line)
			for _, s := range c.contains {
				assert.Contains(t, err.Error(), s)
			}
			assert.Empty(t, r.TreeIDs(), "nothing added")
		})
	}

	// Bytes without a base directory: includes are rejected, naming the line.
	_, err := NewRegistry(nil).LoadXML("mem.xml", []byte("<root>\n<include path=\"lib.xml\"/>\n</root>"))
	require.ErrorIs(t, err, ErrInclude)
	var le *LoadError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, "mem.xml", le.File)
	assert.Equal(t, 2, le.Line)
	assert.Contains(t, err.Error(), "LoadXMLFrom")
}

func TestDocumentErrors(t *testing.T) {
	cases := []struct {
		name, doc string
		err       error
		line      int
		msg       []string
	}{
		{"anonymous among several", "<root>\n<BehaviorTree ID=\"A\"><Ready/></BehaviorTree>\n<BehaviorTree><Ready/></BehaviorTree>\n</root>",
			ErrSyntax, 3, []string{"missing ID (required when a document has several trees)"}},
		{"empty ID", "<root>\n<BehaviorTree ID=\"\"><Ready/></BehaviorTree>\n</root>", ErrSyntax, 2, []string{"empty ID"}},
		{"anonymous tree clashes", "<root>\n<BehaviorTree><Ready/></BehaviorTree>\n</root>",
			ErrDuplicateID, 2, []string{`duplicate ID "t"`, "takes its file's name"}},
		{"two sibling SubTrees with one name", "<root main_tree_to_execute=\"M\">\n<BehaviorTree ID=\"M\">\n<Sequence>\n<SubTree ID=\"W\" name=\"task\"/>\n<Fallback><SubTree ID=\"W\" name=\"task\"/></Fallback>\n</Sequence>\n</BehaviorTree>\n<BehaviorTree ID=\"W\"><Ready/></BehaviorTree>\n</root>",
			ErrDuplicateID, 5, []string{`SubTree "task"`, `two SubTrees named "task" in tree "M" (the other at t.xml:4)`}},
		{"unknown model element", "<root>\n<TreeNodesModel>\n<Leaf ID=\"x\"/>\n</TreeNodesModel>\n</root>", ErrSyntax, 3, []string{"<Leaf> in <TreeNodesModel>"}},
		{"model without ID", "<root>\n<TreeNodesModel>\n<Action/>\n</TreeNodesModel>\n</root>", ErrSyntax, 3, []string{"missing ID"}},
		{"model port without name", "<root>\n<TreeNodesModel>\n<Action ID=\"Z\">\n<input_port type=\"int\"/>\n</Action>\n</TreeNodesModel>\n</root>", ErrSyntax, 4, []string{"<input_port> without name"}},
		{"model port twice", "<root>\n<TreeNodesModel>\n<Action ID=\"Z\">\n<input_port name=\"a\"/>\n<output_port name=\"a\"/>\n</Action>\n</TreeNodesModel>\n</root>", ErrSyntax, 5, []string{`port "a" declared twice (line 4)`}},
		{"model twice", "<root>\n<TreeNodesModel>\n<Action ID=\"Z\"/>\n<Action ID=\"Z\"/>\n</TreeNodesModel>\n</root>", ErrDuplicateID, 4, []string{`duplicate ID "Z" in TreeNodesModel (also t.xml:3)`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := docRegistry(t)
			require.NoError(t, r.RegisterTree("t", AlwaysSuccess()))
			_, err := r.LoadXML("t.xml", []byte(c.doc))
			require.Error(t, err)
			assert.ErrorIs(t, err, c.err)
			var le *LoadError
			require.ErrorAs(t, err, &le)
			assert.Equal(t, "t.xml", le.File)
			assert.Equal(t, c.line, le.Line)
			for _, m := range c.msg {
				assert.Contains(t, err.Error(), m)
			}
		})
	}
}

func TestTreeNodesModel(t *testing.T) {
	const good = `<Action ID="Move">
      <input_port name="speed" type="double"/>
      <output_port name="arrived" type="bool"/>
      <input_port name="tries" type="int" default="3"/>
      <input_port name="target" type="std::string" default="{goal}">Where to go</input_port>
    </Action>`
	model := func(m string) string {
		return "<root>\n  <TreeNodesModel>\n    " + m + "\n    <Condition ID=\"Ready\"/>\n    <Action ID=\"Elsewhere\"><input_port name=\"x\" type=\"Pose2D\"/></Action>\n  </TreeNodesModel>\n</root>"
	}
	r := docRegistry(t)
	_, err := r.LoadXML("t.xml", []byte(model(good)))
	require.NoError(t, err, "a model that agrees, and one of a type not registered here")
	assert.Equal(t, 0, r.Schema().Len(), "probing the leaf declares no key")

	cases := []struct {
		name, from, to string
		msg            []string
	}{
		{"port the leaf lacks", `name="speed"`, `name="sped"`, []string{
			`line 4: the model declares input port "sped", the leaf "Move" does not`,
			`the leaf "Move" declares input port "speed" (float64), the model does not`}},
		{"other type", `type="double"`, `type="std::string"`, []string{`line 4: port "speed" has type "std::string" in the model, float64 in the leaf "Move"`}},
		{"other direction", `<output_port name="arrived" type="bool"/>`, `<input_port name="arrived" type="bool"/>`, []string{`port "arrived" is input in the model, output in the leaf "Move"`}},
		{"other default", `default="3"`, `default="4"`, []string{`port "tries" has default "4" in the model, "3" in the leaf "Move"`}},
		{"default key", `default="{goal}"`, `default="{=}"`, []string{`port "target" has default "{=}" in the model, "{goal}" in the leaf "Move"`}},
		{"default the leaf lacks", `type="double"/>`, `type="double" default="1"/>`, []string{`port "speed" has default "1" in the model, none in the leaf "Move"`}},
		{"no default in the model", ` default="3"`, ``, []string{`port "tries" has no default in the model, "3" in the leaf "Move"`}},
		{"other node kind", `<Action ID="Move">`, `<Condition ID="Move">`, []string{`a <Condition> in the model, the leaf "Move" is registered as an Action`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bad := strings.Replace(good, c.from, c.to, 1)
			require.NotEqual(t, good, bad)
			if strings.HasPrefix(bad, "<Condition") {
				bad = strings.Replace(bad, "</Action>", "</Condition>", 1)
			}
			r := docRegistry(t)
			_, err := r.LoadXML("t.xml", []byte(model(bad)))
			require.ErrorIs(t, err, ErrModel)
			var le *LoadError
			require.ErrorAs(t, err, &le)
			assert.Equal(t, "t.xml", le.File)
			assert.Equal(t, 3, le.Line, "the model's line")
			assert.Contains(t, err.Error(), "TreeNodesModel ")
			for _, m := range c.msg {
				assert.Contains(t, err.Error(), m)
			}
			assert.Empty(t, r.TreeIDs())
		})
	}
}

func TestTreeNodesModelInoutAndLists(t *testing.T) {
	r := NewRegistry(nil)
	require.NoError(t, r.RegisterAction("PushIntoVector", func(p *Ports) (func(*Context) Status, error) {
		InputPort[[]int](p, "vector")
		OutputPort[[]int](p, "vector")
		InputPort[int](p, "value")
		return func(*Context) Status { return Success }, nil
	}))
	_, err := r.LoadXML("t.xml", []byte(`<root><TreeNodesModel><Action ID="PushIntoVector">
  <inout_port name="vector" type="std::vector&lt;int&gt;"/><input_port name="value" type="int"/>
</Action></TreeNodesModel></root>`))
	require.NoError(t, err)
	_, err = r.LoadXML("u.xml", []byte(`<root><TreeNodesModel><Action ID="PushIntoVector">
  <input_port name="vector" type="std::vector&lt;double&gt;"/><input_port name="value" type="int"/>
</Action></TreeNodesModel></root>`))
	require.ErrorIs(t, err, ErrModel)
	assert.ErrorContains(t, err, `port "vector" is input in the model, inout in the leaf "PushIntoVector"`)

	// A factory that panics on the model's values is an error, not a panic.
	require.NoError(t, r.RegisterAction("Fragile", func(p *Ports) (func(*Context) Status, error) {
		var m map[string]int
		if p.Has("x") {
			m["x"] = 1
		}
		return nil, nil
	}))
	_, err = r.LoadXML("v.xml", []byte(`<root><TreeNodesModel><Action ID="Fragile"><input_port name="x"/></Action></TreeNodesModel></root>`))
	require.ErrorIs(t, err, ErrModel)
	assert.ErrorContains(t, err, "panicked when probed")
}

func TestModelTypeMatches(t *testing.T) {
	type meters float64
	cases := []struct {
		model string
		typ   any
		want  bool
	}{
		{"", 0, true}, {"BT::AnyTypeAllowed", "", true},
		{"int", 0, true}, {"int64_t", 0, true}, {"double", 0, false},
		{"double", 0.0, true}, {"float64", 0.0, true}, {"float", 0.0, false},
		{"float", float32(0), true},
		{"std::string", "", true}, {"string", "", true}, {"bool", true, true}, {"bool", "", false},
		{"std::vector<int>", []int{}, true}, {"std::vector<std::string>", []string{}, true},
		{"std::vector<double>", []int{}, false}, {"[]float64", []float64{}, true},
		{"double", meters(0), true}, {"meters", meters(0), true}, {"bt.meters", meters(0), true},
		{"Pose2D", 0.0, false},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, modelTypeMatches(c.model, reflect.TypeOf(c.typ)), "%q vs %T", c.model, c.typ)
	}
}

// TestSubTreeModel is the model of tutorial t14 (TestTutorialT14SubTreeModel) with
// SetBlackboard and CheckBlackboard for its scripts, and its errors: the model gives sub_in_value and sub_out_result defaults; the SubTree remaps
// the other two.
func TestSubTreeModel(t *testing.T) {
	const model = `<root BTCPP_format="4">
  <TreeNodesModel>
    <SubTree ID="MySub">
      <input_port name="sub_in_value" default="42"/>
      <input_port name="sub_in_name"/>
      <output_port name="sub_out_result" default="{out_result}"/>
      <output_port name="sub_out_state"/>
    </SubTree>
  </TreeNodesModel>
  <BehaviorTree ID="MySub">
    <Sequence>
      <CheckBlackboard value_A="{sub_in_value}" op="==" value_B="42"/>
      <CheckBlackboard value_A="{sub_in_name}" op="==" value_B="john"/>
      <SetBlackboard output_key="sub_out_result" value="69"/>
      <SetBlackboard output_key="sub_out_state" value="ACTIVE"/>
    </Sequence>
  </BehaviorTree>
</root>`
	main := func(remaps string) string {
		return `<root BTCPP_format="4">
  <BehaviorTree ID="MainTree">
    <Sequence>
      <SetBlackboard output_key="in_name" value="john"/>
      <SubTree ID="MySub" ` + remaps + `/>
      <CheckBlackboard value_A="{out_result}" op="==" value_B="69"/>
      <CheckBlackboard value_A="{out_state}" op="==" value_B="ACTIVE"/>
    </Sequence>
  </BehaviorTree>
</root>`
	}
	r := NewRegistry(nil)
	_, err := r.LoadXML("sub.xml", []byte(model))
	require.NoError(t, err)
	id, err := r.LoadXML("main.xml", []byte(main(`sub_in_name="{in_name}" sub_out_state="{out_state}"`)))
	require.NoError(t, err)
	tree, err := r.Tree(id)
	require.NoError(t, err)
	st := r.Schema().NewStore()
	m := tree.NewMemory()
	assert.Equal(t, Success, tree.Tick(&m, &Context{Blackboard: st}))
	v, _ := st.Value("out_result")
	assert.Equal(t, 69, v, "the model's default remap {out_result}")
	v, _ = st.Value("out_state")
	assert.Equal(t, "ACTIVE", v)

	// A port of the model without default must be remapped.
	r = NewRegistry(nil)
	_, err = r.LoadXML("sub.xml", []byte(model))
	require.NoError(t, err)
	id, err = r.LoadXML("main.xml", []byte(main(`sub_out_state="{out_state}"`)))
	require.NoError(t, err)
	_, err = r.Tree(id)
	require.ErrorIs(t, err, ErrPort)
	var le *LoadError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, "main.xml", le.File)
	assert.Equal(t, 5, le.Line)
	assert.Contains(t, err.Error(), `missing port "sub_in_name": the SubTree model of "MySub" (sub.xml:5) gives it no default`)

	// _autoremap skips the model, as in BehaviorTree.CPP.
	id, err = r.LoadXML("auto.xml", []byte(strings.ReplaceAll(main(`_autoremap="true"`), "MainTree", "AutoTree")))
	require.NoError(t, err)
	_, err = r.Tree(id)
	assert.NoError(t, err)
	_, err = blackboard.Lookup[string](r.Schema(), "sub_in_name")
	assert.NoError(t, err, "autoremapped to the parent's key")
}
