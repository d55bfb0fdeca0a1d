package bt

import (
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/script"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// BehaviorTree.CPP's tests of scripts, pre- and post-conditions (tests/gtest_preconditions.cpp,
// gtest_postconditions.cpp, gtest_skipping.cpp), re-created on our loader with leaves
// like theirs: TestA…TestD count their ticks and succeed, KeepRunning is always Running,
// AsyncActionTest is Running once then succeeds, SimpleOutput writes true to its port.

type cppLeaves struct {
	counters [4]int
	halted   int
}

func cppRegistry(t *testing.T) (*Registry, *cppLeaves) {
	t.Helper()
	r := NewRegistry(nil)
	l := &cppLeaves{}
	for i, name := range []string{"TestA", "TestB", "TestC", "TestD"} {
		require.NoError(t, r.RegisterAction(name, func(*Ports) (func(*Context) Status, error) {
			return func(*Context) Status { l.counters[i]++; return Success }, nil
		}))
	}
	require.NoError(t, r.RegisterAction("KeepRunning", func(p *Ports) (func(*Context) Status, error) {
		p.OnHalt(func(*Context) { l.halted++ })
		return func(*Context) Status { return Running }, nil
	}))
	require.NoError(t, r.RegisterAction("AsyncActionTest", func(*Ports) (func(*Context) Status, error) {
		return func(c *Context) Status {
			if c.Node().Count++; c.Node().Count == 1 {
				return Running
			}
			return Success
		}, nil
	}))
	require.NoError(t, r.RegisterAction("SimpleOutput", func(p *Ports) (func(*Context) Status, error) {
		out := OutputPort[bool](p, "output")
		return func(c *Context) Status { out.Set(c, true); return Success }, nil
	}))
	return r, l
}

// cppTree loads xml (a whole document) and builds tree id ("" for the main tree), with
// a store of the registry's schema; setup, if set, declares root entries first.
type cppRun struct {
	tree *Tree
	mem  Memory
	ctx  *Context
	st   *blackboard.Store
}

func loadCpp(t *testing.T, r *Registry, xml, id string) *cppRun {
	t.Helper()
	main, err := r.LoadXML("t.xml", []byte(xml))
	require.NoError(t, err)
	if id == "" {
		id = main
	}
	tree, err := r.Tree(id)
	require.NoError(t, err)
	st := r.Schema().NewStore()
	return &cppRun{tree: tree, mem: tree.NewMemory(), ctx: &Context{DT: 0.1, Blackboard: st}, st: st}
}

func (c *cppRun) tickOnce() Status {
	c.ctx.Time += c.ctx.DT
	return c.tree.Tick(&c.mem, c.ctx)
}

// tickWhileRunning ticks until the root is not Running (at most 100 ticks).
func (c *cppRun) tickWhileRunning() Status {
	s := c.tickOnce()
	for k := 0; s == Running && k < 100; k++ {
		s = c.tickOnce()
	}
	return s
}

func set[T any](t *testing.T, c *cppRun, name string, v T) {
	t.Helper()
	k, err := blackboard.Lookup[T](c.st.Schema(), name)
	require.NoError(t, err)
	blackboard.Set(c.st, k, v)
}

func get[T any](t *testing.T, c *cppRun, name string) T {
	t.Helper()
	k, err := blackboard.Lookup[T](c.st.Schema(), name)
	require.NoError(t, err)
	v, ok := blackboard.Get(c.st, k)
	require.True(t, ok, "%s not set", name)
	return v
}

func cppDoc(body string) string {
	return `<root BTCPP_format="4"><BehaviorTree ID="MainTree">` + body + `</BehaviorTree></root>`
}

func TestPreconditionsDecoratorIntegersDoublesStrings(t *testing.T) {
	for _, c := range []struct{ name, init, if1, if2, if3 string }{
		{"Integers", "A:=1; B:=1; C:=3", "A==B", "A==C", "A!=C"},
		{"DoubleEquals", " A:=1.1; B:=(1.0+0.1); C:= 2.0 ", "A==B", "A==C", "A!=C"},
		{"StringEquals", "A:='hello'; B:='world'; C:='hello'", "A==C", "A==B", "B!=C"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, l := cppRegistry(t)
			run := loadCpp(t, r, cppDoc(`<Sequence>
				<Script code="`+c.init+`" />
				<Precondition if="`+c.if1+`" else="FAILURE"><TestA/></Precondition>
				<Precondition if="`+c.if2+`" else="SUCCESS"><TestB/></Precondition>
				<Precondition if="`+c.if3+`" else="FAILURE"><TestC/></Precondition>
			</Sequence>`), "")
			assert.Equal(t, Success, run.tickWhileRunning())
			assert.Equal(t, [4]int{1, 0, 1, 0}, l.counters)
		})
	}
}

func TestPreconditionsDecoratorChecksConditionOnce(t *testing.T) {
	r, _ := cppRegistry(t)
	run := loadCpp(t, r, cppDoc(`<Sequence>
		<Script code="A:=0" />
		<Script code="B:=0" />
		<Precondition if=" A==0 " else="FAILURE">
			<KeepRunning _while="B==0" />
		</Precondition>
	</Sequence>`), "")
	assert.Equal(t, Running, run.tickOnce())
	set(t, run, "A", 1) // the condition is not asked again while the child runs
	assert.Equal(t, Running, run.tickOnce())
	set(t, run, "B", 1) // _while turns false: the child is skipped, the Sequence succeeds
	assert.Equal(t, Success, run.tickOnce())
}

func TestPreconditionsDecoratorCanRunChildrenMultipleTimes(t *testing.T) {
	r, l := cppRegistry(t)
	run := loadCpp(t, r, cppDoc(`<Sequence>
		<Script code="A:=0" />
		<Script code="B:=0" />
		<Script code="C:=1" />
		<Repeat num_cycles="3">
			<Sequence>
				<Precondition if=" A==0 " else="SUCCESS"><TestA/></Precondition>
				<KeepRunning _while="C==0" />
				<KeepRunning _while="B==0" />
			</Sequence>
		</Repeat>
	</Sequence>`), "")
	assert.Equal(t, Running, run.tickOnce())
	assert.Equal(t, 1, l.counters[0])
	set(t, run, "A", 1)
	set(t, run, "B", 1)
	set(t, run, "C", 0)
	assert.Equal(t, Running, run.tickOnce())
	assert.Equal(t, 1, l.counters[0])
	set(t, run, "A", 0)
	set(t, run, "C", 1)
	assert.Equal(t, Success, run.tickOnce())
	assert.Equal(t, 2, l.counters[0])
}

func TestPreconditionsBasic(t *testing.T) {
	r, l := cppRegistry(t)
	run := loadCpp(t, r, cppDoc(`<Sequence>
		<Script code = "A:=1" />
		<TestA _successIf= "A==1"/>
		<TestB _successIf= "A==2"/>
		<Fallback>
			<TestC _failureIf= "A==1"/>
			<TestD _failureIf= "A!=1"/>
		</Fallback>
	</Sequence>`), "")
	assert.Equal(t, Success, run.tickWhileRunning())
	assert.Equal(t, [4]int{0, 1, 0, 1}, l.counters)
}

func TestPreconditionsIssue533(t *testing.T) {
	r, l := cppRegistry(t)
	blackboard.MustDeclare[int](r.Schema(), "A")
	run := loadCpp(t, r, cppDoc(`<Sequence>
		<TestA _skipIf="A!=1" />
		<TestB _skipIf="A!=2" _onSuccess="A=1"/>
		<TestC _skipIf="A!=3" _onSuccess="A=2"/>
	</Sequence>`), "")
	set(t, run, "A", 3)
	run.tickOnce()
	assert.Equal(t, [4]int{0, 0, 1, 0}, l.counters)
	run.tickOnce()
	assert.Equal(t, [4]int{0, 1, 1, 0}, l.counters)
	run.tickOnce()
	assert.Equal(t, [4]int{1, 1, 1, 0}, l.counters)
}

func TestPreconditionsIssue615NoSkipWhenRunningA(t *testing.T) {
	r, _ := cppRegistry(t)
	blackboard.MustDeclare[bool](r.Schema(), "check")
	run := loadCpp(t, r, `<root BTCPP_format="4"><BehaviorTree ID="T">
		<KeepRunningUntilFailure _skipIf="check == true"><AlwaysSuccess/></KeepRunningUntilFailure>
	</BehaviorTree></root>`, "")
	set(t, run, "check", false)
	assert.Equal(t, Running, run.tickOnce())
	set(t, run, "check", true) // not checked: the node is Running
	assert.Equal(t, Running, run.tickOnce())
}

func TestPreconditionsRemapping(t *testing.T) {
	r, l := cppRegistry(t)
	run := loadCpp(t, r, `<root BTCPP_format="4" main_tree_to_execute="Main">
		<BehaviorTree ID="Main">
			<Sequence>
				<SimpleOutput  output="{param}" />
				<Script  code="value:=true" />
				<SubTree ID="Sub1" param="{param}"/>
				<SubTree ID="Sub1" param="{value}"/>
				<SubTree ID="Sub1" param="true"/>
				<TestA/>
			</Sequence>
		</BehaviorTree>
		<BehaviorTree ID="Sub1">
			<Sequence>
				<SubTree ID="Sub2" _skipIf="param != true" />
			</Sequence>
		</BehaviorTree>
		<BehaviorTree ID="Sub2">
			<TestB/>
		</BehaviorTree>
	</root>`, "Main")
	assert.Equal(t, Success, run.tickWhileRunning())
	assert.Equal(t, 1, l.counters[0])
	assert.Equal(t, 3, l.counters[1])
}

func TestPreconditionsWhileCallsOnHaltXML(t *testing.T) {
	r, l := cppRegistry(t)
	blackboard.MustDeclare[int](r.Schema(), "A")
	blackboard.MustDeclare[int](r.Schema(), "B")
	run := loadCpp(t, r, cppDoc(`<Sequence><KeepRunning _while="A==1" _onHalted="B=69" /></Sequence>`), "")
	set(t, run, "A", 1)
	set(t, run, "B", 0)
	assert.Equal(t, Running, run.tickOnce())
	assert.Equal(t, 0, get[int](t, run, "B"))
	set(t, run, "A", 0)
	assert.Equal(t, Skipped, run.tickOnce())
	assert.Equal(t, 69, get[int](t, run, "B"))
	assert.Equal(t, 1, l.halted)
}

func TestPreconditionsSkippedSequence(t *testing.T) {
	r, _ := cppRegistry(t)
	blackboard.MustDeclare[bool](r.Schema(), "skip")
	run := loadCpp(t, r, cppDoc(`<Sequence><AlwaysSuccess _skipIf="skip"/></Sequence>`), "")
	for _, skip := range []bool{true, false, true, false} {
		set(t, run, "skip", skip)
		want := Success
		if skip {
			want = Skipped
		}
		assert.Equal(t, want, run.tickWhileRunning())
	}
}

func TestPostConditionsBasicTestXML(t *testing.T) {
	r, _ := cppRegistry(t)
	run := loadCpp(t, r, cppDoc(`<Sequence>
		<Script code = "A:=1; B:=1; C:=1; D:=1" />
		<AlwaysSuccess _onSuccess="B=42"/>
		<ForceSuccess><AlwaysSuccess _failureIf="A!=0" _onFailure="C=42"/></ForceSuccess>
		<ForceSuccess><AlwaysFailure _onFailure="D=42"/></ForceSuccess>
	</Sequence>`), "")
	assert.Equal(t, Success, run.tickWhileRunning())
	assert.Equal(t, 42, get[int](t, run, "B"))
	assert.Equal(t, 42, get[int](t, run, "C"))
	assert.Equal(t, 42, get[int](t, run, "D"))
}

func TestPostConditionsIssue539XML(t *testing.T) {
	r, _ := cppRegistry(t)
	run := loadCpp(t, r, cppDoc(`<Sequence>
		<Script code = "x:=0; y:=0" />
		<RetryUntilSuccessful num_attempts="5">
			<AlwaysFailure _onFailure="x  += 1"  _post="y  += 1" />
		</RetryUntilSuccessful>
	</Sequence>`), "")
	assert.Equal(t, Failure, run.tickWhileRunning())
	assert.Equal(t, 5, get[int](t, run, "x"))
	assert.Equal(t, 5, get[int](t, run, "y"))
}

func TestPostConditionsIssue601(t *testing.T) {
	r, _ := cppRegistry(t)
	run := loadCpp(t, r, cppDoc(`<Sequence>
		<Script code="test := 'start'"/>
		<Parallel failure_count="1" success_count="-1">
			<Sleep msec="1000" _onHalted="test = 'halted'" _post="test = 'post'"/>
			<AlwaysFailure/>
		</Parallel>
	</Sequence>`), "")
	assert.Equal(t, Failure, run.tickWhileRunning())
	assert.Equal(t, "halted", get[string](t, run, "test"))
}

func TestSkippingLogicXML(t *testing.T) {
	t.Run("Sequence", func(t *testing.T) {
		r, l := cppRegistry(t)
		run := loadCpp(t, r, cppDoc(`<Sequence>
			<Script code = "A:=1"/>
			<TestA _successIf="A==2" _failureIf="A!=1" _skipIf="A==1"/>
			<TestB/>
		</Sequence>`), "")
		assert.Equal(t, Success, run.tickWhileRunning())
		assert.Equal(t, [4]int{0, 1, 0, 0}, l.counters)
	})
	t.Run("SkipAll", func(t *testing.T) {
		r, l := cppRegistry(t)
		blackboard.MustDeclare[int](r.Schema(), "A")
		run := loadCpp(t, r, cppDoc(`<Sequence>
			<TestA _skipIf="A==1"/>
			<TestB _skipIf="A&lt;2"/>
			<TestC _skipIf="A>0"/>
		</Sequence>`), "")
		set(t, run, "A", 1)
		assert.Equal(t, Skipped, run.tickWhileRunning())
		assert.Equal(t, [4]int{}, l.counters)
	})
	t.Run("SkipSubtree", func(t *testing.T) {
		r, l := cppRegistry(t)
		run := loadCpp(t, r, `<root BTCPP_format="4" main_tree_to_execute="main">
			<BehaviorTree ID="main">
				<Sequence>
					<TestA/>
					<Script code=" data:=true "/>
					<SubTree ID="sub" _skipIf="data"/>
				</Sequence>
			</BehaviorTree>
			<BehaviorTree ID="sub"><TestB/></BehaviorTree>
		</root>`, "main")
		assert.Equal(t, Success, run.tickWhileRunning())
		assert.Equal(t, [4]int{1, 0, 0, 0}, l.counters)
	})
	t.Run("ReactiveSingleChild", func(t *testing.T) {
		r, _ := cppRegistry(t)
		blackboard.MustDeclare[bool](r.Schema(), "flag")
		run := loadCpp(t, r, cppDoc(`<ReactiveSequence><AlwaysSuccess _skipIf="flag"/></ReactiveSequence>`), "")
		set(t, run, "flag", true)
		assert.Equal(t, Skipped, run.tickWhileRunning())
	})
	t.Run("SkippingReactiveSequence", func(t *testing.T) {
		for _, c := range []struct {
			value string
			ticks int
		}{{"50", 6}, {"10", 0}} {
			r, l := cppRegistry(t)
			run := loadCpp(t, r, cppDoc(`<ReactiveSequence>
				<Script code=" value:=`+c.value+` "/>
				<TestA _skipIf="value &lt; 25"/>
				<AsyncActionTest/>
			</ReactiveSequence>`), "")
			for range 3 {
				assert.Equal(t, Success, run.tickWhileRunning())
			}
			assert.Equal(t, c.ticks, l.counters[0], "value %s", c.value)
		}
	})
	t.Run("WhileSkip", func(t *testing.T) {
		for _, doit := range []string{"true", "false"} {
			r, l := cppRegistry(t)
			run := loadCpp(t, r, cppDoc(`<Sequence>
				<Script code=" doit:=`+doit+` "/>
				<Sequence><TestA _while="doit"/></Sequence>
			</Sequence>`), "")
			assert.Equal(t, Success, run.tickWhileRunning())
			want := 0
			if doit == "true" {
				want = 1
			}
			assert.Equal(t, want, l.counters[0])
		}
	})
}

// A script is parsed once at load: `int_val + 1 == 43` used to be read as a string.
func TestScriptConditionArithmetic(t *testing.T) {
	r, _ := cppRegistry(t)
	blackboard.MustDeclare[int](r.Schema(), "int_val")
	run := loadCpp(t, r, cppDoc(`<ScriptCondition code="int_val + 1 == 43"/>`), "")
	set(t, run, "int_val", 42)
	assert.Equal(t, Success, run.tickOnce())
	set(t, run, "int_val", 41)
	assert.Equal(t, Failure, run.tickOnce())
}

// Entries a script reads may be declared by a script later in the file, in another
// tree, or by a blackboard node; @name is the root scope; a remapped port is the
// parent's key.
func TestScriptDeclarationOrderAndScopes(t *testing.T) {
	r, l := cppRegistry(t)
	run := loadCpp(t, r, `<root BTCPP_format="4" main_tree_to_execute="Main">
		<BehaviorTree ID="Main">
			<Sequence>
				<TestA _skipIf="later > 1 || fromSet"/>
				<Script code="later := 3; score := 0; health := 20"/>
				<SubTree ID="Sub" hp="{health}"/>
				<SetBlackboard output_key="fromSet" value="true"/>
			</Sequence>
		</BehaviorTree>
		<BehaviorTree ID="Sub">
			<Sequence>
				<ScriptCondition code="hp > 10"/>
				<Script code="@score += 1; score := 10; hp -= 5"/>
				<TestB _skipIf="@later == 3"/>
			</Sequence>
		</BehaviorTree>
	</root>`, "")
	set(t, run, "later", 0)
	set(t, run, "fromSet", false)
	assert.Equal(t, Success, run.tickOnce())
	assert.Equal(t, [4]int{1, 0, 0, 0}, l.counters, "TestA ran (later was 0), TestB skipped (@later is 3)")
	assert.Equal(t, 1, get[int](t, run, "score"), "@score is the root's")
	assert.Equal(t, 10, get[int](t, run, "Sub#1.score"), "score in Sub is its own")
	assert.Equal(t, 15, get[int](t, run, "health"), "hp is remapped to health")
	assert.Equal(t, Success, run.tickOnce())
	assert.Equal(t, 1, l.counters[0], "skipped now: later is 3")
}

func TestScriptJSON(t *testing.T) {
	r, l := cppRegistry(t)
	main, err := r.LoadJSON("t.json", []byte(`{"trees": [{"id": "T", "root": {"type": "Sequence", "children": [
		{"type": "Script", "ports": {"code": "n := 0"}},
		{"type": "TestA", "ports": {"_skipIf": "n > 0", "_onSuccess": "n += 1"}}
	]}}]}`))
	require.NoError(t, err)
	tree, err := r.Tree(main)
	require.NoError(t, err)
	m := tree.NewMemory()
	ctx := &Context{Blackboard: r.Schema().NewStore()}
	assert.Equal(t, Success, tree.Tick(&m, ctx))
	assert.Equal(t, 1, l.counters[0])

	main, err = r.LoadJSON("u.json", []byte(`{"trees": [{"id": "U", "root": {"type": "Sequence", "children": [
		{"type": "TestA", "ports": {"_while": "nope"}}]}}]}`))
	require.NoError(t, err)
	_, err = r.Tree(main)
	assert.ErrorIs(t, err, script.ErrUnknownEntry)
	assert.ErrorContains(t, err, `u.json: $.trees[0].root.children[0]: TestA: script error: _while: script col 1: unknown entry "nope"`)
}

func TestScriptLoadErrors(t *testing.T) {
	type vec struct{ X, Y float64 }
	cases := []struct {
		name, body string
		is         error
		msg        []string
	}{
		{"syntax", `<Script code="x := 1 +"/>`, script.ErrSyntax, []string{"t.xml:1", `Script: script error: code: script col 9`}},
		{"unknown entry", `<Sequence>
			<AlwaysSuccess _skipIf="nope > 1"/></Sequence>`, script.ErrUnknownEntry,
			[]string{"t.xml:2", `AlwaysSuccess: script error: _skipIf: script col 1: unknown entry "nope"`}},
		{"entry of a type scripts do not know", `<AlwaysSuccess _while="pos > 1"/>`, script.ErrType, []string{"_while", `entry "pos" has type bt.vec`}},
		{"a condition that is a string", `<AlwaysSuccess _failureIf="'a'"/>`, ErrScript, []string{"_failureIf: the script's value is a string"}},
		{"ScriptCondition of a string", `<ScriptCondition code="s"/>`, ErrScript, []string{"code: the script's value is a string"}},
		{"missing code", `<Script/>`, ErrPort, []string{`missing port "code"`}},
		{"assignment to a literal remap", `<SubTree ID="S" k="3"/>`, script.ErrType, []string{"cannot assign to k"}},
		{"entries that wait for each other", `<Sequence><Script code="a := b"/><Script code="b := a"/></Sequence>`,
			script.ErrUnknownEntry, []string{`unknown entry "b"`, `unknown entry "a"`}},
		{"a type conflict between scripts", `<Sequence><Script code="q := 1"/><Script code="q := 'x'"/></Sequence>`,
			script.ErrConversion, []string{`does not fit entry "q" (int)`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, _ := cppRegistry(t)
			blackboard.MustDeclare[vec](r.Schema(), "pos")
			blackboard.MustDeclare[string](r.Schema(), "s")
			doc := `<root BTCPP_format="4" main_tree_to_execute="MainTree"><BehaviorTree ID="MainTree">` + c.body + `</BehaviorTree>` +
				`<BehaviorTree ID="S"><Script code="k := 4"/></BehaviorTree></root>`
			main, err := r.LoadXML("t.xml", []byte(doc))
			require.NoError(t, err)
			_, err = r.Tree(main)
			require.Error(t, err)
			assert.ErrorIs(t, err, c.is)
			if c.is != ErrPort {
				assert.ErrorIs(t, err, ErrScript)
				assert.ErrorIs(t, err, ErrPort, "a script attribute is a port")
			}
			for _, m := range c.msg {
				assert.Contains(t, err.Error(), m)
			}
		})
	}
}

func TestBareNames(t *testing.T) {
	assert.Equal(t, " x  < 3", bareNames("{x} < 3"))
	assert.Equal(t, "!  @flag  ", bareNames("!{ @flag }"))
	assert.Equal(t, "s == '{a}'", bareNames("s == '{a}'"))
	assert.Equal(t, "{1} + {a", bareNames("{1} + {a"))
	assert.Equal(t, "no braces", bareNames("no braces"))
}

// RunOnce's then_skip defaults to true, as in BehaviorTree.CPP.
func TestRunOnceThenSkipXML(t *testing.T) {
	for _, c := range []struct{ attr, trace string }{{"", "FK"}, {` then_skip="true"`, "FK"}, {` then_skip="false"`, "FF"}} {
		r, _ := cppRegistry(t)
		run := loadCpp(t, r, cppDoc(`<RunOnce`+c.attr+`><AlwaysFailure/></RunOnce>`), "")
		got := letter(run.tickOnce()) + letter(run.tickOnce())
		assert.Equal(t, c.trace, got, "RunOnce%s", c.attr)
	}
}

// The scripts seed of the fuzz corpus runs without script errors and skips nodes.
func TestScriptSeedRuns(t *testing.T) {
	r := fuzzRegistry()
	tree, err := r.LoadFile("testdata/seed/scripts.xml")
	require.NoError(t, err)
	m := tree.NewMemory()
	ctx := &Context{DT: 0.1, Blackboard: r.Schema().NewStore()}
	skipped := 0
	for range 30 {
		ctx.Time += ctx.DT
		tree.Tick(&m, ctx)
		for _, nm := range m.Nodes() {
			if nm.Status == Skipped {
				skipped++
			}
		}
	}
	_, lastErr := ctx.LastScriptError()
	assert.NoError(t, lastErr)
	assert.Zero(t, ctx.ScriptErrors())
	assert.Positive(t, skipped)
	ticks, err := blackboard.Lookup[int](r.Schema(), "ticks")
	require.NoError(t, err)
	v, _ := blackboard.Get(ctx.Blackboard, ticks)
	assert.Positive(t, v)
}

func TestPreconditionElseSkipped(t *testing.T) {
	r, l := cppRegistry(t)
	run := loadCpp(t, r, cppDoc(`<Sequence>
		<Script code="go := false"/>
		<Precondition if="go" else="SKIPPED"><TestA/></Precondition>
	</Sequence>`), "")
	assert.Equal(t, Success, run.tickOnce(), "the Script succeeded, the Precondition was skipped")
	assert.Equal(t, Skipped, run.mem.Status(2))
	assert.Zero(t, l.counters[0])
	_, err := r.LoadXML("u.xml", []byte(`<root BTCPP_format="4"><BehaviorTree ID="U"><Precondition if="true" else="RUNNING"><TestA/></Precondition></BehaviorTree></root>`))
	require.NoError(t, err)
	_, err = r.Tree("U")
	assert.ErrorIs(t, err, ErrPort)
}

func TestRegisterEnum(t *testing.T) {
	r, l := cppRegistry(t)
	require.NoError(t, r.RegisterEnum("PISTOL", 1))
	require.NoError(t, r.RegisterEnum("RIFLE", 2))
	require.NoError(t, r.RegisterEnum("RIFLE", 2))
	assert.ErrorIs(t, r.RegisterEnum("RIFLE", 3), ErrRegistration)
	assert.ErrorIs(t, r.RegisterEnum("2x", 3), ErrRegistration)
	assert.ErrorIs(t, r.RegisterEnum("", 3), ErrRegistration)
	run := loadCpp(t, r, cppDoc(`<Sequence>
		<Script code="weapon := RIFLE"/>
		<TestA _skipIf="weapon == PISTOL"/>
		<TestB _skipIf="weapon == RIFLE"/>
	</Sequence>`), "")
	require.NoError(t, r.RegisterEnum("LATER", 7)) // a built tree keeps its enums
	assert.Equal(t, Success, run.tickOnce())
	assert.Equal(t, [4]int{1, 0, 0, 0}, l.counters)
	assert.Equal(t, 2, get[int](t, run, "weapon"))
}
