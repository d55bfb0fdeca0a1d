package bt

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// scriptedRegistry registers the harness's scripted leaves: conditions and actions by name.
func scriptedRegistry(t *testing.T, h *harness, conds, acts []string) *Registry {
	t.Helper()
	r := NewRegistry(nil)
	for _, name := range conds {
		require.NoError(t, r.RegisterCondition(name, func(*Ports) (func(*Context) bool, error) {
			return h.check(name), nil
		}))
	}
	for _, name := range acts {
		n := h.act(name)
		require.NoError(t, r.RegisterAction(name, func(p *Ports) (func(*Context) Status, error) {
			if name == "Run" { // the guard's Run declares ports
				InputPort[string](p, "target")
				InputPort[float64](p, "speed")
			}
			p.OnHalt(n.onHalt)
			return n.tick, nil
		}))
	}
	return r
}

// guardGo is testdata/guard.xml built in Go with the same leaves.
func guardGo(h *harness, ammo blackboard.Key[int]) *Node {
	return ReactiveSelector(
		ReactiveSequence(
			h.cond("Hurt"),
			SubTree("Flee", SequenceWithMemory(
				h.act("Run"),
				Retry(2, h.act("Hide")),
			)),
		).Named("flee"),
		Sequence(
			h.cond("EnemyNear"),
			Inverter(CheckBlackboard(FromKey(ammo), Eq, Literal(0))),
			Cooldown(0.5, h.act("Shoot")),
		).Named("attack"),
		Parallel(1, All,
			Timeout(1.5, h.act("Patrol")),
			Sleep(1), // <Sleep msec="1000"/>
		),
	).Named("guard")
}

// statusTrace ticks tree for len(script) ticks and returns every node's status letters per
// tick, plus the leaf log.
func statusTrace(t *testing.T, h *harness, tree *Tree, ticks int, setup func(*Context)) ([]string, []string) {
	t.Helper()
	m := tree.NewMemory()
	ctx := &Context{DT: 0.25}
	if setup != nil {
		setup(ctx)
	}
	var rows, log []string
	for h.tick = 1; h.tick <= ticks; h.tick++ {
		h.events = h.events[:0]
		ctx.Time = float64(h.tick) * ctx.DT
		tree.Tick(&m, ctx)
		checkRunningParents(t, tree, &m)
		var b strings.Builder
		for i := range tree.Len() {
			b.WriteString(letter(m.Status(i)))
		}
		rows = append(rows, b.String())
		log = append(log, strings.Join(h.events, " "))
	}
	return rows, log
}

func TestXMLAndGoTreesGiveIdenticalTraces(t *testing.T) {
	// Every leaf has a letter for every tick: the point is that both trees tick the same
	// leaves in the same order and every node's status matches, whatever the outcomes.
	script := map[string]string{
		"Hurt":      "FFFSSSFFFFFFFFFFSSFSSSFF",
		"Run":       "RRRRSRRRRRRRRRRRRRRRRRRR",
		"Hide":      "FFFFFFSSSSSSSSSSFSSSFFSS",
		"EnemyNear": "FFFFFFSSSSSFFFFFFFFFFFFF",
		"Shoot":     "SSSSSSSSSSSSSSSSSSSSSSSS",
		"Patrol":    "RRRRRRRRRRRRRRRRRRRRRRRR",
	}
	ticks := len(script["Hurt"])
	hx := &harness{t: t, script: script}
	reg := scriptedRegistry(t, hx, []string{"Hurt", "EnemyNear"}, []string{"Run", "Hide", "Shoot", "Patrol"})
	data, err := os.ReadFile("testdata/guard.xml")
	require.NoError(t, err)
	main, err := reg.LoadXML("guard.xml", data)
	require.NoError(t, err)
	assert.Equal(t, "Guard", main)
	xtree, err := reg.Tree(main)
	require.NoError(t, err)
	ammoX, err := blackboard.Lookup[int](reg.Schema(), "ammo")
	require.NoError(t, err)
	store := reg.Schema().NewStore()
	blackboard.Set(store, ammoX, 5)
	xrows, xlog := statusTrace(t, hx, xtree, ticks, func(c *Context) { c.Blackboard = store })

	hg := &harness{t: t, script: script}
	schema := blackboard.NewSchema()
	ammo := blackboard.MustDeclare[int](schema, "ammo")
	gtree, err := Compile("guard", guardGo(hg, ammo))
	require.NoError(t, err)
	gstore := schema.NewStore()
	blackboard.Set(gstore, ammo, 5)
	grows, glog := statusTrace(t, hg, gtree, ticks, func(c *Context) { c.Blackboard = gstore })

	require.Equal(t, gtree.Len(), xtree.Len())
	for i := range gtree.Len() {
		assert.Equal(t, gtree.NodeKind(i), xtree.NodeKind(i), "node %d", i)
		want := gtree.NodeName(i)
		switch want { // a loaded node is named by its type as the file writes it
		case "Retry":
			want = "RetryUntilSuccessful"
		case "Wait":
			want = "Sleep"
		}
		assert.Equal(t, want, xtree.NodeName(i), "node %d", i)
	}
	assert.Equal(t, grows, xrows, "every node's status per tick")
	assert.Equal(t, glog, xlog, "leaf events per tick")
	// The run covers every branch: flee (with the subtree), attack, patrol, timeouts.
	joined := strings.Join(xlog, " ")
	for _, leaf := range []string{"Run", "Hide", "Shoot", "Patrol", "halt:Patrol", "halt:Run"} {
		assert.Contains(t, joined, leaf)
	}
	t.Logf("root trace %s", func() string {
		s := ""
		for _, r := range xrows {
			s += r[:1]
		}
		return s
	}())
}

func TestSubTreeScopes(t *testing.T) {
	const doc = `<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main">
    <Sequence>
      <SetBlackboard output_key="goal" value="7"/>
      <SubTree ID="Inner" target="{goal}" speed="2.5" tag="red"/>
      <SubTree ID="Inner" target="{other}" speed="1"/>
      <SubTree ID="Auto" _autoremap="true"/>
      <Report value="{goal}" out="{seen}"/>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="Inner">
    <Sequence>
      <SetBlackboard output_key="{private}" value="{target}"/>
      <Report value="{target}" speed="{speed}" out="{private_copy}"/>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="Auto">
    <SetBlackboard output_key="{goal}" value="9"/>
  </BehaviorTree>
</root>`
	var speeds []float64
	r := NewRegistry(nil)
	require.NoError(t, r.RegisterAction("Report", func(p *Ports) (func(*Context) Status, error) {
		v := InputPort[int](p, "value")
		sp := InputPortOr(p, "speed", -1.0)
		out := OutputPort[int](p, "out")
		return func(c *Context) Status {
			x, ok := v.Get(c)
			s, _ := sp.Get(c)
			speeds = append(speeds, s)
			if !ok || !out.Set(c, x) {
				return Failure
			}
			return Success
		}, nil
	}))
	main, err := r.LoadXML("scopes.xml", []byte(doc))
	require.NoError(t, err)
	tree, err := r.Tree(main)
	require.NoError(t, err)
	st := r.Schema().NewStore()
	other, err := blackboard.Lookup[int](r.Schema(), "other")
	require.NoError(t, err)
	blackboard.Set(st, other, 4)
	m := tree.NewMemory()
	assert.Equal(t, Success, tree.Tick(&m, &Context{Blackboard: st}))
	assert.Equal(t, []float64{2.5, 1, -1}, speeds, "literal remaps reach the subtree's ports")

	get := func(name string) any {
		v, ok := st.Value(name)
		if !ok {
			return nil
		}
		return v
	}
	assert.Equal(t, 9, get("goal"), "autoremap writes the parent's key")
	assert.Equal(t, 9, get("seen"))
	assert.Equal(t, 7, get("Inner#1.private"), "first instance's private key")
	assert.Equal(t, 4, get("Inner#2.private"), "second instance has its own scope")
	assert.Equal(t, 7, get("Inner#1.private_copy"))
	assert.Nil(t, get("private"), "private keys do not leak to the parent")
	assert.Equal(t, "SubTree", tree.NodeKind(2))
	assert.Equal(t, "Inner", tree.NodeName(2))
}

// loadErr loads doc (XML if it starts with '<') into a registry with a few leaves, builds
// its main tree, and returns the error.
func loadErr(t *testing.T, doc string) error {
	t.Helper()
	r := NewRegistry(nil)
	require.NoError(t, r.RegisterAction("Move", func(p *Ports) (func(*Context) Status, error) {
		InputPort[float64](p, "speed")
		OutputPort[bool](p, "arrived")
		return func(*Context) Status { return Success }, nil
	}))
	require.NoError(t, r.RegisterCondition("Ready", func(p *Ports) (func(*Context) bool, error) {
		if p.Has("fail") {
			return nil, errors.New("factory says no")
		}
		return func(*Context) bool { return true }, nil
	}))
	var main string
	var err error
	if strings.HasPrefix(doc, "<") {
		main, err = r.LoadXML("t.xml", []byte(doc))
	} else {
		main, err = r.LoadJSON("t.json", []byte(doc))
	}
	if err != nil {
		return err
	}
	_, err = r.Tree(main)
	return err
}

func xmlDoc(body string) string {
	return `<root BTCPP_format="4" main_tree_to_execute="M">
<BehaviorTree ID="M">
` + body + `
</BehaviorTree>
</root>`
}

func TestLoadXMLErrors(t *testing.T) {
	cases := []struct {
		name, doc string
		err       error
		msg       []string // substrings: file, line, node, problem
	}{
		{"unknown node", xmlDoc(`<Sequence>
  <Jump/>
</Sequence>`), ErrUnknownNode, []string{"t.xml:4", "Jump", `unknown node type "Jump"`}},
		{"inverter with two children", xmlDoc(`<Inverter name="inv"><Ready/><Ready/></Inverter>`),
			ErrChildren, []string{"t.xml:3", `Inverter "inv"`, "2, want 1"}},
		{"leaf with a child", xmlDoc(`<Ready><Ready/></Ready>`), ErrChildren, []string{"Ready", "want 0"}},
		{"missing port", xmlDoc(`<Move arrived="{a}"/>`), ErrPort, []string{"t.xml:3", "Move", `missing input port "speed"`}},
		{"ill-typed literal", xmlDoc(`<Move speed="fast" arrived="{a}"/>`), ErrPort, []string{`port "speed"`, `"fast" cannot be read as float64`}},
		{"key of another type", xmlDoc(`<Sequence><Move speed="{x}" arrived="{a}"/><Move speed="{a}" arrived="{b}"/></Sequence>`),
			ErrPort, []string{`port "speed"`, `"a"`, "bool, not float64"}},
		{"unknown port", xmlDoc(`<Move speed="1" arrived="{a}" sped="2"/>`), ErrPort, []string{`unknown port "sped"`}},
		{"factory error", xmlDoc(`<Ready fail="1"/>`), nil, []string{"t.xml:3", "factory says no"}},
		{"unknown subtree", xmlDoc(`<SubTree ID="Nope"/>`), ErrUnknownTree, []string{"t.xml:3", `SubTree "Nope"`, `unknown tree "Nope"`}},
		{"recursion", `<root BTCPP_format="4" main_tree_to_execute="A">
<BehaviorTree ID="A"><Sequence><SubTree ID="B"/></Sequence></BehaviorTree>
<BehaviorTree ID="B"><SubTree ID="A"/></BehaviorTree>
</root>`, ErrRecursion, []string{"t.xml:3", "A -> B -> A"}},
		{"self recursion", xmlDoc(`<SubTree ID="M"/>`), ErrRecursion, []string{"M -> M"}},
		{"duplicate ID", `<root BTCPP_format="4" main_tree_to_execute="A">
<BehaviorTree ID="A"><Ready/></BehaviorTree>
<BehaviorTree ID="A"><Ready/></BehaviorTree>
</root>`, ErrDuplicateID, []string{"t.xml:3", `duplicate ID "A"`}},
		{"unknown main", `<root BTCPP_format="4" main_tree_to_execute="X"><BehaviorTree ID="A"><Ready/></BehaviorTree></root>`,
			ErrUnknownTree, []string{`"X"`}},
		{"two roots", xmlDoc(`<Ready/><Ready/>`), ErrChildren, []string{`BehaviorTree "M"`, "2 root nodes"}},
		{"format 3", `<root BTCPP_format="3"/>`, ErrSyntax, []string{"BTCPP_format"}},
		{"syntax", xmlDoc(`<Sequence>`), ErrSyntax, []string{"t.xml:"}},
		{"bad duration", xmlDoc(`<Timeout msec="-5"><Ready/></Timeout>`), ErrPort, []string{"Timeout", "duration -0.005"}},
		{"duration from key", xmlDoc(`<Timeout msec="{t}"><Ready/></Timeout>`), ErrPort, []string{"must be a literal"}},
		{"bad parallel", xmlDoc(`<Parallel success_count="3"><Ready/></Parallel>`), ErrPort, []string{"success_count 3"}},
		{"switch children", xmlDoc(`<Switch2 variable="{v}" case_1="a" case_2="b"><Ready/></Switch2>`), ErrChildren, []string{"Switch2", "want 3"}},
		{"bad precondition", xmlDoc(`<Precondition if="ready" else="FAILURE"><Ready/></Precondition>`), ErrScript, []string{"t.xml:3", `if: script col 1: unknown entry "ready"`}},
		{"compare bools with <", xmlDoc(`<CheckBlackboard value_A="{f}" op="&lt;" value_B="true"/>`), ErrPort, []string{"< on booleans"}},
		{"output to literal remap", `<root BTCPP_format="4" main_tree_to_execute="A">
<BehaviorTree ID="A"><SubTree ID="B" arrived="yes"/></BehaviorTree>
<BehaviorTree ID="B"><Move speed="1" arrived="{arrived}"/></BehaviorTree>
</root>`, ErrPort, []string{"t.xml:3", "bound to the literal"}},
		{"text", xmlDoc(`hello`), ErrSyntax, []string{"unexpected text"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := loadErr(t, c.doc)
			require.Error(t, err)
			if c.err != nil {
				assert.ErrorIs(t, err, c.err)
			}
			var le *LoadError
			require.ErrorAs(t, err, &le, "a LoadError")
			assert.Equal(t, "t.xml", le.File)
			for _, m := range c.msg {
				assert.Contains(t, err.Error(), m)
			}
		})
	}
}

func TestLoadJSON(t *testing.T) {
	doc := `{
  "main": "M",
  "trees": [
    {"id": "M", "root": {"type": "Sequence", "name": "top", "children": [
      {"type": "Ready"},
      {"type": "Move", "ports": {"speed": 1.5, "arrived": "{done}"}},
      {"type": "Wait", "ports": {"seconds": 0.5}}
    ]}}
  ]
}`
	require.NoError(t, loadErr(t, doc))

	cases := []struct {
		name, doc string
		err       error
		msg       []string
	}{
		{"unknown node", `{"trees":[{"id":"M","root":{"type":"Sequence","children":[{"type":"Ready"},{"type":"Jump"}]}}]}`,
			ErrUnknownNode, []string{"t.json: $.trees[0].root.children[1]", "Jump"}},
		{"ill-typed port", `{"trees":[{"id":"M","root":{"type":"Move","ports":{"speed":"x","arrived":"{a}"}}}]}`,
			ErrPort, []string{"$.trees[0].root", "Move", `"x" cannot be read as float64`}},
		{"syntax", "{\n\"trees\": [\n}", ErrSyntax, []string{"t.json:3"}},
		{"unknown field", `{"trees":[{"id":"M","root":{"type":"Ready","kids":[]}}]}`, ErrSyntax, []string{"kids"}},
		{"wrong type", `{"trees":[{"id":"M","root":{"type":7}}]}`, ErrSyntax, []string{"t.json:1", "trees.root.type"}},
		{"missing id", `{"trees":[{"root":{"type":"Ready"}}]}`, ErrSyntax, []string{"$.trees[0]", "without \"id\""}},
		{"port object", `{"trees":[{"id":"M","root":{"type":"Ready","ports":{"a":{}}}}]}`, ErrPort, []string{`port "a"`}},
		{"two trees, no main", `{"trees":[{"id":"A","root":{"type":"Ready"}},{"id":"B","root":{"type":"Ready"}}]}`,
			ErrNoMainTree, []string{"no tree ID given"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := loadErr(t, c.doc)
			require.Error(t, err)
			assert.ErrorIs(t, err, c.err)
			for _, m := range c.msg {
				assert.Contains(t, err.Error(), m)
			}
		})
	}
}

func TestLoadBuiltins(t *testing.T) {
	// Every built-in type loads, and behaves as its Go constructor.
	cases := []struct{ xml, trace string }{
		{`<AlwaysSuccess/>`, "SS"},
		{`<AlwaysFailure/>`, "FF"},
		{`<ForceSuccess><AlwaysFailure/></ForceSuccess>`, "S"},
		{`<ForceFailure><AlwaysSuccess/></ForceFailure>`, "F"},
		{`<Inverter><AlwaysSuccess/></Inverter>`, "F"},
		{`<KeepRunningUntilFailure><AlwaysSuccess/></KeepRunningUntilFailure>`, "RR"},
		{`<KeepRunningUntilFailure><AlwaysFailure/></KeepRunningUntilFailure>`, "F"},
		{`<RepeatUntilFailure><AlwaysFailure/></RepeatUntilFailure>`, "S"},
		{`<RepeatUntilSuccess><AlwaysFailure/></RepeatUntilSuccess>`, "RR"},
		{`<Repeat num_cycles="3"><AlwaysSuccess/></Repeat>`, "S"},
		{`<Repeat num_cycles="-1"><AlwaysSuccess/></Repeat>`, "RR"},
		{`<Retry num_attempts="2"><AlwaysFailure/></Retry>`, "F"},
		{`<Wait seconds="0.5"/>`, "RRS"},
		{`<Sleep msec="500"/>`, "RRS"},
		{`<Delay delay_msec="250"><AlwaysSuccess/></Delay>`, "RS"},
		{`<Timeout msec="500"><Sleep msec="1000"/></Timeout>`, "RRF"},
		{`<Cooldown seconds="1"><AlwaysSuccess/></Cooldown>`, "SFFFS"},
		{`<RunOnce then_skip="false"><AlwaysFailure/></RunOnce>`, "FF"},
		{`<SequenceWithMemory><AlwaysSuccess/><Sleep msec="250"/></SequenceWithMemory>`, "RS"},
		{`<Fallback><AlwaysFailure/><AlwaysSuccess/></Fallback>`, "S"},
		{`<ReactiveFallback><AlwaysFailure/><AlwaysFailure/></ReactiveFallback>`, "F"},
		{`<IfThenElse><AlwaysFailure/><AlwaysFailure/><AlwaysSuccess/></IfThenElse>`, "S"},
		{`<WhileDoElse><AlwaysSuccess/><Sleep msec="250"/></WhileDoElse>`, "RS"},
		{`<Parallel success_count="1" failure_count="1"><Sleep msec="250"/><Sleep msec="500"/></Parallel>`, "RS"},
		{`<Sequence><SetBlackboard output_key="x" value="3"/><CheckBlackboard value_A="{x}" op="&gt;=" value_B="3"/></Sequence>`, "S"},
		{`<Sequence><SetBlackboard output_key="x" value="2.5"/><ScriptCondition code="{x} &lt; 3"/></Sequence>`, "S"},
		{`<Sequence><SetBlackboard output_key="f" value="true"/><ScriptCondition code="!{f}"/></Sequence>`, "F"},
		{`<Sequence><SetBlackboard output_key="s" value="red"/><Precondition if="{s} == 'red'" else="FAILURE"><AlwaysSuccess/></Precondition></Sequence>`, "S"},
		{`<Sequence><SetBlackboard output_key="s" value="red"/><Precondition if="{s} != 'red'" else="SUCCESS"><AlwaysFailure/></Precondition></Sequence>`, "S"},
		{`<Sequence><SetBlackboard output_key="m" value="2"/><Switch2 variable="{m}" case_1="1" case_2="2"><AlwaysFailure/><Sleep msec="250"/><AlwaysFailure/></Switch2></Sequence>`, "RS"},
		{`<Switch3 variable="{unset}" case_1="a" case_2="b" case_3="c"><AlwaysFailure/><AlwaysFailure/><AlwaysFailure/><AlwaysSuccess/></Switch3>`, "S"},
		{`<Action ID="AlwaysSuccess"/>`, "S"},
	}
	for _, c := range cases {
		t.Run(c.xml, func(t *testing.T) {
			r := NewRegistry(nil)
			main, err := r.LoadXML("b.xml", []byte(xmlDoc(c.xml)))
			require.NoError(t, err)
			tree, err := r.Tree(main)
			require.NoError(t, err)
			m := tree.NewMemory()
			ctx := &Context{DT: 0.25, Blackboard: r.Schema().NewStore()}
			var got string
			for k := range len(c.trace) {
				ctx.Time = float64(k) * ctx.DT
				got += letter(tree.Tick(&m, ctx))
			}
			assert.Equal(t, c.trace, got)
		})
	}
}

func TestRegistryErrors(t *testing.T) {
	r := NewRegistry(nil)
	ok := func(*Ports) (func(*Context) Status, error) { return nil, nil }
	assert.NoError(t, r.RegisterAction("A", ok))
	assert.ErrorIs(t, r.RegisterAction("A", ok), ErrRegistration)
	assert.ErrorIs(t, r.RegisterAction("Sequence", ok), ErrRegistration)
	// a newcomer's "Sleep" leaf: the message says it is the built-in and what to do
	assert.EqualError(t, r.RegisterAction("Sleep", ok), `bt: register "Sleep": bad registration: a built-in node type `+
		`(a tree file's <Sleep> is the built-in one, as in BehaviorTree.CPP; register your leaf under another name, e.g. "SleepLeaf")`)
	assert.ErrorIs(t, r.RegisterAction("", ok), ErrRegistration)
	assert.ErrorIs(t, r.RegisterCondition("C", nil), ErrRegistration)
	assert.NoError(t, r.RegisterTree("T", AlwaysSuccess()))
	assert.ErrorIs(t, r.RegisterTree("T", AlwaysSuccess()), ErrDuplicateID)
	_, err := r.Tree("nope")
	assert.ErrorIs(t, err, ErrUnknownTree)

	// A Go tree used as a SubTree from a file, and a registered chooser.
	require.NoError(t, r.RegisterChooser("Pick", func(p *Ports) (func(*Context) int, error) {
		k := InputPort[int](p, "index")
		return func(c *Context) int { v, _ := k.Get(c); return v }, nil
	}))
	main, err := r.LoadXML("go.xml", []byte(xmlDoc(`<Pick index="1"><AlwaysFailure/><SubTree ID="T"/></Pick>`)))
	require.NoError(t, err)
	tree, err := r.Tree(main)
	require.NoError(t, err)
	m := tree.NewMemory()
	assert.Equal(t, Success, tree.Tick(&m, &Context{}))
	assert.Equal(t, "Choose", tree.NodeKind(0))
	_, err = r.LoadXML("again.xml", []byte(xmlDoc(`<AlwaysSuccess/>`)))
	assert.ErrorIs(t, err, ErrDuplicateID, "tree M already loaded")
}

func TestLoadFile(t *testing.T) {
	h := &harness{t: t, script: map[string]string{}}
	r := scriptedRegistry(t, h, []string{"Hurt", "EnemyNear"}, []string{"Run", "Hide", "Shoot", "Patrol"})
	tree, err := r.LoadFile("testdata/guard.xml")
	require.NoError(t, err)
	assert.Equal(t, "Guard", tree.Name())
	_, err = blackboard.Lookup[int](tree.Schema(), "ammo")
	assert.NoError(t, err, "the tree's schema declares the keys its ports use")
	_, err = NewRegistry(nil).LoadFile("testdata/missing.xml")
	assert.ErrorIs(t, err, fs.ErrNotExist)

	// testdata/guard.json is guard.xml in the JSON format: the same nodes in the same order.
	hj := &harness{t: t, script: map[string]string{}}
	rj := scriptedRegistry(t, hj, []string{"Hurt", "EnemyNear"}, []string{"Run", "Hide", "Shoot", "Patrol"})
	jtree, err := rj.LoadFile("testdata/guard.json")
	require.NoError(t, err)
	assert.Equal(t, "Guard", jtree.Name())
	require.Equal(t, tree.Len(), jtree.Len())
	for i := range tree.Len() {
		assert.Equal(t, tree.NodeKind(i), jtree.NodeKind(i), "node %d", i)
	}

	// Without the leaves registered, every unknown leaf is named with its JSON path.
	_, err = NewRegistry(nil).LoadFile("testdata/guard.json")
	require.ErrorIs(t, err, ErrUnknownNode)
	var le *LoadError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, "testdata/guard.json", le.File)
	assert.Contains(t, err.Error(), "$.trees[0].root.children[0].children[0]: Hurt: ")
	for _, leaf := range []string{"Run", "Hide", "EnemyNear", "Shoot", "Patrol"} {
		assert.Contains(t, err.Error(), ": "+leaf+": unknown node type")
	}
}

func TestSubTreeExplosionIsAnError(t *testing.T) {
	// Ten levels of a tree using the next one ten times would be 10^10 nodes.
	var b strings.Builder
	b.WriteString(`<root BTCPP_format="4" main_tree_to_execute="T0">`)
	for i := range 10 {
		fmt.Fprintf(&b, `<BehaviorTree ID="T%d"><Sequence>`, i)
		for range 10 {
			if i == 9 {
				b.WriteString(`<AlwaysSuccess/>`)
			} else {
				fmt.Fprintf(&b, `<SubTree ID="T%d"/>`, i+1)
			}
		}
		b.WriteString(`</Sequence></BehaviorTree>`)
	}
	b.WriteString(`</root>`)
	r := NewRegistry(nil)
	main, err := r.LoadXML("big.xml", []byte(b.String()))
	require.NoError(t, err)
	_, err = r.Tree(main)
	assert.ErrorIs(t, err, ErrTooManyNodes)
}
