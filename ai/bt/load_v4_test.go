package bt

import (
	"fmt"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// v4Registry registers Record<Type> actions (logging their value port as "v=…" and
// succeeding), Gen (writing the []int of its out port), and the scripted leaves TestA,
// TestB, TestC of h.
func v4Registry(t *testing.T, h *harness, got *[]string) *Registry {
	t.Helper()
	r := NewRegistry(nil)
	record := func(name string, in func(p *Ports) func(*Context) any) {
		require.NoError(t, r.RegisterAction(name, func(p *Ports) (func(*Context) Status, error) {
			get := in(p)
			return func(c *Context) Status {
				*got = append(*got, fmt.Sprint(get(c)))
				return Success
			}, nil
		}))
	}
	record("RecordInt", func(p *Ports) func(*Context) any {
		v := InputPort[int](p, "value")
		return func(c *Context) any { x, _ := v.Get(c); return x }
	})
	record("RecordDouble", func(p *Ports) func(*Context) any {
		v := InputPort[float64](p, "value")
		return func(c *Context) any { x, _ := v.Get(c); return x }
	})
	record("RecordString", func(p *Ports) func(*Context) any {
		v := InputPort[string](p, "value")
		return func(c *Context) any { x, _ := v.Get(c); return x }
	})
	record("RecordBool", func(p *Ports) func(*Context) any {
		v := InputPort[bool](p, "value")
		return func(c *Context) any { x, _ := v.Get(c); return x }
	})
	require.NoError(t, r.RegisterAction("Gen", func(p *Ports) (func(*Context) Status, error) {
		out := OutputPort[[]int](p, "out")
		return func(c *Context) Status { out.Set(c, []int{3, 4}); return Success }, nil
	}))
	if h != nil {
		for _, name := range []string{"TestA", "TestB", "TestC"} {
			n := h.act(name)
			require.NoError(t, r.RegisterAction(name, func(p *Ports) (func(*Context) Status, error) {
				p.OnHalt(n.onHalt)
				return n.tick, nil
			}))
		}
	}
	return r
}

// runDoc loads doc into r, builds its main tree and ticks it ticks times (dt 0.25); it
// returns the root trace.
func runDoc(t *testing.T, r *Registry, h *harness, doc string, ticks int) string {
	t.Helper()
	main, err := r.LoadXML("t.xml", []byte(doc))
	require.NoError(t, err)
	tree, err := r.Tree(main)
	require.NoError(t, err)
	m := tree.NewMemory()
	ctx := &Context{DT: 0.25, Blackboard: r.Schema().NewStore()}
	var trace string
	for k := 1; k <= ticks; k++ {
		if h != nil {
			h.tick = k
		}
		ctx.Time = float64(k) * ctx.DT
		trace += letter(tree.Tick(&m, ctx))
		checkRunningParents(t, tree, &m)
	}
	return trace
}

func TestLoadLoops(t *testing.T) {
	cases := []struct {
		name, xml, trace string
		got              []string
	}{
		{"StaticIntQueue", `<LoopInt queue="1;2;3;4;5" value="{val}"><RecordInt value="{val}"/></LoopInt>`,
			"RRRRRS", []string{"1", "2", "3", "4", "5"}},
		{"StaticDoubleQueue", `<LoopDouble queue="1.5; 2;-3e2" value="{val}"><RecordDouble value="{val}"/></LoopDouble>`,
			"RRRS", []string{"1.5", "2", "-300"}},
		{"StaticStringQueue: elements are kept as written", `<LoopString queue="a;b c; d" value="{val}"><RecordString value="{val}"/></LoopString>`,
			"RRRS", []string{"a", "b c", " d"}},
		{"BoolQueue", `<LoopBool queue="true;false;1" value="{val}"><RecordBool value="{val}"/></LoopBool>`,
			"RRRS", []string{"true", "false", "true"}},
		{"EmptyQueue_ReturnsSuccess", `<LoopInt queue="" if_empty="SUCCESS" value="{val}"><RecordInt value="{val}"/></LoopInt>`,
			"S", nil},
		{"EmptyQueue_ReturnsFailure", `<LoopInt queue="" if_empty="FAILURE" value="{val}"><RecordInt value="{val}"/></LoopInt>`,
			"F", nil},
		{"EmptyQueue_ReturnsSkipped", `<LoopInt queue="" if_empty="SKIPPED" value="{val}"><RecordInt value="{val}"/></LoopInt>`,
			"K", nil},
		{"DynamicQueueFromBlackboard", `<Sequence><Gen out="{q}"/><LoopInt queue="{q}" value="{v}"><RecordInt value="{v}"/></LoopInt></Sequence>`,
			"RRS", []string{"3", "4"}},
		{"RestartAfterCompletion", `<LoopInt queue="1;2" value="{val}"><RecordInt value="{val}"/></LoopInt>`,
			"RRSRRS", []string{"1", "2", "1", "2"}},
		{"without a value port", `<LoopInt queue="1;2"><AlwaysSuccess/></LoopInt>`, "RRS", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			r := v4Registry(t, nil, &got)
			assert.Equal(t, c.trace, runDoc(t, r, nil, xmlDoc(c.xml), len(c.trace)))
			assert.Equal(t, c.got, got)
		})
	}
}

func TestLoadV4Nodes(t *testing.T) {
	cases := []struct {
		name, xml, trace string
		script           map[string]string
	}{
		{"TryCatch", `<TryCatch><TestA/><TestB/><TestC/></TryCatch>`, "RF",
			map[string]string{"TestA": "RF", "TestC": ".S"}},
		{"TryCatch catch_on_halt", `<ReactiveSequence><Inverter><TestB/></Inverter><TryCatch catch_on_halt="true"><TestA/><TestC/></TryCatch></ReactiveSequence>`,
			"RF", map[string]string{"TestB": "FS", "TestA": "R.", "TestC": ".S"}},
		{"ParallelAll", `<ParallelAll max_failures="2"><TestA/><TestB/><TestC/></ParallelAll>`, "RS",
			map[string]string{"TestA": "F.", "TestB": "RS", "TestC": "RS"}},
		{"ParallelAll max_failures=2 reached", `<ParallelAll max_failures="2"><TestA/><TestB/><TestC/></ParallelAll>`, "RF",
			map[string]string{"TestA": "F.", "TestB": "RS", "TestC": "RF"}},
		{"ParallelAll default max_failures=1", `<ParallelAll><TestA/><TestB/></ParallelAll>`, "F",
			map[string]string{"TestA": "F", "TestB": "S"}},
		{"AsyncSequence", `<AsyncSequence><TestA/><TestB/></AsyncSequence>`, "RS",
			map[string]string{"TestA": "S.", "TestB": ".S"}},
		{"Sleep", `<Sleep msec="500"/>`, "RRS", nil},
		{"WaitValueUpdate", `<Sequence><SetBlackboard output_key="A" value="1"/><WaitValueUpdate entry="{A}"><TestA/></WaitValueUpdate></Sequence>`,
			"SS", map[string]string{"TestA": "SS"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := &harness{t: t, script: c.script}
			r := v4Registry(t, h, new([]string))
			assert.Equal(t, c.trace, runDoc(t, r, h, xmlDoc(c.xml), len(c.trace)))
		})
	}
}

// TestLoadEntryUpdates re-creates BehaviorTree.CPP's tests/gtest_updates.cpp: a "Check"
// subtree with WasEntryUpdated and SkipUnlessUpdated on entry A, run under four mains.
// BehaviorTree.CPP writes A with a Script; SetBlackboard writes it here.
func TestLoadEntryUpdates(t *testing.T) {
	check := `<BehaviorTree ID="Check">
  <Sequence>
    <Fallback><WasEntryUpdated entry="A"/><TestA/></Fallback>
    <SkipUnlessUpdated entry="{A}"><TestB/></SkipUnlessUpdated>
  </Sequence>
</BehaviorTree>`
	cases := []struct {
		name, main string
		declare    bool
		a, b       int // TestA and TestB ticks
	}{
		// NoEntry: A declared (by the Go schema) but never written.
		{"NoEntry", `<Sequence><SubTree ID="Check" _autoremap="true"/></Sequence>`, true, 1, 0},
		{"Initialized", `<Sequence><SetBlackboard output_key="A" value="1"/><SubTree ID="Check" _autoremap="true"/></Sequence>`, false, 0, 1},
		{"UpdateOnce", `<Sequence><SetBlackboard output_key="A" value="1"/><Repeat num_cycles="2"><SubTree ID="Check" _autoremap="true"/></Repeat></Sequence>`, false, 1, 1},
		{"UpdateTwice", `<Repeat num_cycles="2"><Sequence><SetBlackboard output_key="A" value="1"/><SubTree ID="Check" _autoremap="true"/></Sequence></Repeat>`, false, 0, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			counts := map[string]int{}
			r := NewRegistry(nil)
			if c.declare {
				blackboard.MustDeclare[int](r.Schema(), "A")
			}
			for _, name := range []string{"TestA", "TestB"} {
				require.NoError(t, r.RegisterAction(name, func(*Ports) (func(*Context) Status, error) {
					return func(*Context) Status { counts[name]++; return Success }, nil
				}))
			}
			doc := `<root BTCPP_format="4" main_tree_to_execute="Main">` + check +
				`<BehaviorTree ID="Main">` + c.main + `</BehaviorTree></root>`
			assert.Equal(t, "S", runDoc(t, r, nil, doc, 1))
			assert.Equal(t, c.a, counts["TestA"], "TestA")
			assert.Equal(t, c.b, counts["TestB"], "TestB")
		})
	}
}

func TestLoadPreconditionScript(t *testing.T) {
	cases := []struct{ xml, trace string }{
		// t09_scripting's precondition, on entries set by SetBlackboard.
		{`<Sequence><SetBlackboard output_key="A" value="3"/><SetBlackboard output_key="B" value="2"/>
<SetBlackboard output_key="color" value="red"/>
<Precondition if="A > -B &amp;&amp; color != 'blue'" else="FAILURE"><AlwaysSuccess/></Precondition></Sequence>`, "S"},
		{`<Sequence><SetBlackboard output_key="A" value="3"/>
<Precondition if="A * 2 == 7" else="SUCCESS"><AlwaysFailure/></Precondition></Sequence>`, "S"},
		{`<Sequence><SetBlackboard output_key="A" value="3"/>
<Precondition if="A * 2 == 7"><AlwaysSuccess/></Precondition></Sequence>`, "F"},
		// Checked on entry only: the Sleep keeps running although A changes.
		{`<Sequence><SetBlackboard output_key="A" value="1"/>
<Precondition if="A == 1"><Sequence><Sleep msec="250"/><SetBlackboard output_key="A" value="2"/><Sleep msec="250"/></Sequence></Precondition></Sequence>`, "RRS"},
		// An evaluation error (entry declared, not set) counts as false.
		{`<Precondition if="n > 0" else="SUCCESS"><AlwaysFailure/></Precondition>`, "S"},
		// The archai 0.x form with braces still loads.
		{`<Sequence><SetBlackboard output_key="s" value="red"/><Precondition if="{s} == 'red'"><AlwaysSuccess/></Precondition></Sequence>`, "S"},
	}
	for _, c := range cases {
		t.Run(c.xml, func(t *testing.T) {
			r := NewRegistry(nil)
			blackboard.MustDeclare[int](r.Schema(), "n")
			assert.Equal(t, c.trace, runDoc(t, r, nil, xmlDoc(c.xml), len(c.trace)))
		})
	}
}

func TestLoadSwitchComparesNumbers(t *testing.T) {
	// SwitchStringEquality.RejectsTrailingCharacters: "5" matches "5.0"; trailing bytes
	// never match a number.
	sw := func(v string) string {
		return `<Sequence><SetBlackboard output_key="{var}" value="` + v + `"/>
<Switch2 variable="{var}" case_1="5" case_2="42"><AlwaysSuccess/><AlwaysFailure/><ForceSuccess><Sleep msec="250"/></ForceSuccess></Switch2></Sequence>`
	}
	r := NewRegistry(nil)
	blackboard.MustDeclare[string](r.Schema(), "var")
	for v, want := range map[string]string{"5": "S", "5.0": "S", "+5": "S", "42.000": "F", "4.2e1": "F",
		"5abc": "R", "5 ": "R", " 5": "R", "none": "R", "": "R", "1.0junk": "R"} {
		r := NewRegistry(nil)
		blackboard.MustDeclare[string](r.Schema(), "var")
		assert.Equal(t, want, runDoc(t, r, nil, xmlDoc(sw(v)), 1), "var=%q", v)
	}
	// An int key: the case "5.0" matches 5; a case that is no number is a load error.
	r = NewRegistry(nil)
	blackboard.MustDeclare[int](r.Schema(), "var")
	assert.Equal(t, "S", runDoc(t, r, nil, xmlDoc(`<Sequence><SetBlackboard output_key="var" value="5"/>
<Switch2 variable="{var}" case_1="5.0" case_2="42"><AlwaysSuccess/><AlwaysFailure/><AlwaysFailure/></Switch2></Sequence>`), 1))
	r = NewRegistry(nil)
	blackboard.MustDeclare[int](r.Schema(), "var")
	_, err := r.LoadXML("t.xml", []byte(xmlDoc(`<Switch2 variable="{var}" case_1="five" case_2="42"><AlwaysSuccess/><AlwaysFailure/><AlwaysFailure/></Switch2>`)))
	if err == nil {
		_, err = r.Tree("M")
	}
	require.ErrorIs(t, err, ErrPort)
	assert.Contains(t, err.Error(), `case_1: "five" is not a number`)
}

func TestLoadV4Errors(t *testing.T) {
	cases := []struct {
		name, xml string
		err       error
		msg       string
	}{
		{"loop element", `<LoopInt queue="1;x" value="{v}"><AlwaysSuccess/></LoopInt>`, ErrPort, `"queue" element 2`},
		{"loop if_empty", `<LoopInt queue="1" if_empty="RUNNING"><AlwaysSuccess/></LoopInt>`, ErrPort, "if_empty"},
		{"loop without queue", `<LoopInt value="{v}"><AlwaysSuccess/></LoopInt>`, ErrPort, `missing input port "queue"`},
		{"loop queue of another type", `<Sequence><RecordInt value="{q}"/><LoopInt queue="{q}"><AlwaysSuccess/></LoopInt></Sequence>`, ErrPort, "key holds another type"},
		{"entry nobody declares", `<WasEntryUpdated entry="{ghost}"/>`, ErrPort, `entry "ghost": no port or script`},
		{"entry missing", `<SkipUnlessUpdated><AlwaysSuccess/></SkipUnlessUpdated>`, ErrPort, `missing input port "entry"`},
		{"parallel all", `<ParallelAll max_failures="3"><AlwaysSuccess/><AlwaysSuccess/></ParallelAll>`, ErrInvalidCount, "max_failures 3 with 2 children"},
		{"try catch", `<TryCatch catch_on_halt="maybe"><AlwaysSuccess/><AlwaysSuccess/></TryCatch>`, ErrPort, "catch_on_halt"},
		{"script syntax", `<Precondition if="A &gt;&gt; 2"><AlwaysSuccess/></Precondition>`, ErrPort, `t.xml:3`},
		{"script unknown entry", `<Precondition if="ghost == 2"><AlwaysSuccess/></Precondition>`, ErrPort, "ghost"},
		{"script string value", `<Sequence><SetBlackboard output_key="s" value="x"/><Precondition if="s"><AlwaysSuccess/></Precondition></Sequence>`, ErrPort, "not a condition"},
		{"sleep", `<Sleep msec="-1"/>`, ErrPort, "duration"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := v4Registry(t, nil, new([]string))
			_, err := r.LoadXML("t.xml", []byte(xmlDoc(c.xml)))
			if err == nil {
				_, err = r.Tree("M")
			}
			require.Error(t, err)
			assert.ErrorIs(t, err, c.err)
			assert.Contains(t, err.Error(), c.msg)
		})
	}
}

func TestLoadV4JSON(t *testing.T) {
	var got []string
	r := v4Registry(t, nil, &got)
	doc := `{"trees": [{"id": "M", "root": {"type": "Sequence", "children": [
  {"type": "TryCatch", "ports": {"catch_on_halt": true}, "children": [
    {"type": "LoopString", "ports": {"queue": "x;y", "value": "{s}"}, "children": [{"type": "RecordString", "ports": {"value": "{s}"}}]},
    {"type": "AlwaysSuccess"}]},
  {"type": "ParallelAll", "ports": {"max_failures": 1}, "children": [{"type": "Sleep", "ports": {"msec": 250}}, {"type": "AsyncSequence", "children": [{"type": "AlwaysSuccess"}, {"type": "AlwaysSuccess"}]}]}
]}}]}`
	main, err := r.LoadJSON("t.json", []byte(doc))
	require.NoError(t, err)
	tree, err := r.Tree(main)
	require.NoError(t, err)
	m := tree.NewMemory()
	ctx := &Context{DT: 0.25, Blackboard: r.Schema().NewStore()}
	var trace string
	for range 5 {
		trace += letter(tree.Tick(&m, ctx))
	}
	assert.Equal(t, "RRRSR", trace)
	assert.Equal(t, []string{"x", "y", "x"}, got)
	assert.Equal(t, "LoopString", tree.NodeName(2))
}

// TestLoadPreconditionDecorator re-creates BehaviorTree.CPP's
// PreconditionsDecorator cases (tests/gtest_preconditions.cpp); its Script nodes become
// SetBlackboard, its KeepRunning with _while="B==0" an action Running while B is 0.
func TestLoadPreconditionDecorator(t *testing.T) {
	cases := []struct {
		name, xml string
		counts    map[string]int
	}{
		{"Integers", `<Sequence>
  <SetBlackboard output_key="A" value="1"/><SetBlackboard output_key="B" value="1"/><SetBlackboard output_key="C" value="3"/>
  <Precondition if="A==B" else="FAILURE"><TestA/></Precondition>
  <Precondition if="A==C" else="SUCCESS"><TestB/></Precondition>
  <Precondition if="A!=C" else="FAILURE"><TestC/></Precondition>
</Sequence>`, map[string]int{"TestA": 1, "TestB": 0, "TestC": 1}},
		{"DoubleEquals", `<Sequence>
  <SetBlackboard output_key="A" value="1.1"/><SetBlackboard output_key="B" value="1.1"/><SetBlackboard output_key="C" value="2.0"/>
  <Precondition if="A==B" else="FAILURE"><TestA/></Precondition>
  <Precondition if="A==C" else="SUCCESS"><TestB/></Precondition>
  <Precondition if="A!=C &amp;&amp; B == 1.0 + 0.1" else="FAILURE"><TestC/></Precondition>
</Sequence>`, map[string]int{"TestA": 1, "TestB": 0, "TestC": 1}},
		{"StringEquals", `<Sequence>
  <SetBlackboard output_key="A" value="hello"/><SetBlackboard output_key="B" value="world"/><SetBlackboard output_key="C" value="world"/>
  <Precondition if=" A==B " else="SUCCESS"><TestA/></Precondition>
  <Precondition if=" B==C " else="FAILURE"><TestB/></Precondition>
</Sequence>`, map[string]int{"TestA": 0, "TestB": 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			counts := map[string]int{}
			r := NewRegistry(nil)
			for _, name := range []string{"TestA", "TestB", "TestC"} {
				require.NoError(t, r.RegisterAction(name, func(*Ports) (func(*Context) Status, error) {
					return func(*Context) Status { counts[name]++; return Success }, nil
				}))
			}
			assert.Equal(t, "S", runDoc(t, r, nil, xmlDoc(c.xml), 1))
			for name, n := range c.counts {
				assert.Equal(t, n, counts[name], name)
			}
		})
	}

	t.Run("ChecksConditionOnce", func(t *testing.T) {
		r := NewRegistry(nil)
		require.NoError(t, r.RegisterAction("KeepRunning", func(p *Ports) (func(*Context) Status, error) {
			b := InputPort[int](p, "b")
			return func(c *Context) Status {
				if v, _ := b.Get(c); v == 0 {
					return Running
				}
				return Success
			}, nil
		}))
		main, err := r.LoadXML("t.xml", []byte(xmlDoc(`<Sequence>
  <SetBlackboard output_key="A" value="0"/><SetBlackboard output_key="B" value="0"/>
  <Precondition if=" A==0 " else="FAILURE"><KeepRunning b="{B}"/></Precondition>
</Sequence>`)))
		require.NoError(t, err)
		tree, err := r.Tree(main)
		require.NoError(t, err)
		a, err := blackboard.Lookup[int](r.Schema(), "A")
		require.NoError(t, err)
		b, err := blackboard.Lookup[int](r.Schema(), "B")
		require.NoError(t, err)
		m := tree.NewMemory()
		ctx := &Context{Blackboard: r.Schema().NewStore()}
		assert.Equal(t, Running, tree.Tick(&m, ctx))
		blackboard.Set(ctx.Blackboard, a, 1) // the child runs: the condition is not asked again
		assert.Equal(t, Running, tree.Tick(&m, ctx))
		blackboard.Set(ctx.Blackboard, b, 1)
		assert.Equal(t, Success, tree.Tick(&m, ctx))
	})
}

// TestLoadSwitch1And9: the loader registers Switch1 to Switch9 (BehaviorTree.CPP
// registers Switch2 to Switch6), the README's table says so.
func TestLoadSwitch1And9(t *testing.T) {
	r := NewRegistry(nil)
	blackboard.MustDeclare[string](r.Schema(), "var")
	assert.Equal(t, "S", runDoc(t, r, nil, xmlDoc(`<Sequence><SetBlackboard output_key="var" value="a"/>
<Switch1 variable="{var}" case_1="a"><AlwaysSuccess/><AlwaysFailure/></Switch1></Sequence>`), 1))
	r = NewRegistry(nil)
	blackboard.MustDeclare[string](r.Schema(), "var")
	assert.Equal(t, "F", runDoc(t, r, nil, xmlDoc(`<Sequence><SetBlackboard output_key="var" value="i"/>
<Switch9 variable="{var}" case_1="a" case_2="b" case_3="c" case_4="d" case_5="e" case_6="f" case_7="g" case_8="h" case_9="i">
<AlwaysSuccess/><AlwaysSuccess/><AlwaysSuccess/><AlwaysSuccess/><AlwaysSuccess/><AlwaysSuccess/><AlwaysSuccess/><AlwaysSuccess/><AlwaysFailure/><AlwaysSuccess/></Switch9></Sequence>`), 1))
	_, err := NewRegistry(nil).LoadXML("t.xml", []byte(xmlDoc(`<Switch10 variable="x"><AlwaysSuccess/></Switch10>`)))
	require.Error(t, err, "Switch10 is not a node")
}
