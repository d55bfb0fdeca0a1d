package bt

import (
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAsyncFallback(t *testing.T) {
	abc := func(h *harness) *Node { return AsyncFallback(h.act("A"), h.act("B"), h.act("C")) }
	checkCases(t, []scriptCase{
		{name: "returns Running after each child that failed at once", build: abc,
			script: map[string]string{"A": "F..", "B": ".F.", "C": "..F"}, trace: "RRF",
			log: []string{"A", "B", "C"}},
		{name: "the last child failing at once ends it in the same tick", build: abc,
			script: map[string]string{"A": "F..", "B": ".F.", "C": "..S"}, trace: "RRS",
			log: []string{"A", "B", "C"}},
		{name: "a child that ran over several ticks is followed in the same tick", build: abc,
			script: map[string]string{"A": "RF.", "B": ".F.", "C": "..S"}, trace: "RRS",
			log: []string{"A", "A B", "C"}},
		{name: "a success resets to child 0", build: abc,
			script: map[string]string{"A": "F.F", "B": ".S."}, trace: "RSR",
			log: []string{"A", "B", "A"}},
		{name: "a first child succeeding at once: Success in one tick", build: abc,
			script: map[string]string{"A": "S"}, trace: "S", log: []string{"A"}},
		{name: "preempted between children, it starts over",
			build: func(h *harness) *Node {
				return ReactiveSequence(h.cond("G"), AsyncFallback(h.act("A"), h.act("B")))
			},
			script: map[string]string{"G": "SFS", "A": "F.F"}, trace: "RFR",
			log: []string{"G A", "G", "G A"}},
	})
}

func TestAsyncFallbackSkipped(t *testing.T) {
	checkCondCases(t, []condCase{{
		name:   "every child skipped: Skipped in one tick",
		build:  func(h *harness) *Node { return AsyncFallback(h.skip("A"), h.skip("B")) },
		script: map[string]string{"skipA": "T", "skipB": "T"},
		trace:  "K",
		log:    []string{""},
	}, {
		name:   "a skipped child does not yield; a fresh Failure does",
		build:  func(h *harness) *Node { return AsyncFallback(h.skip("A"), h.act("B"), h.act("C")) },
		script: map[string]string{"skipA": "T", "B": "F", "C": ".F"},
		trace:  "RF",
		log:    []string{"B", "C"},
	}, {
		name:   "skipped children and failures: Failure, not Skipped",
		build:  func(h *harness) *Node { return AsyncFallback(h.act("A"), h.skip("B")) },
		script: map[string]string{"A": "F", "skipB": ".T"},
		trace:  "RF",
		log:    []string{"A", ""},
	}, {
		name: "the skipped count survives Running",
		build: func(h *harness) *Node {
			return AsyncFallback(h.skip("A"), h.act("B").While(h.flag("w")))
		},
		script: map[string]string{"skipA": "T", "w": "TF", "B": "R"},
		trace:  "RK",
		log:    []string{"B", "halt:B"},
	}})
}

func TestUnsetBlackboard(t *testing.T) {
	s := blackboard.NewSchema()
	name := blackboard.MustDeclare[string](s, "name")
	pos := blackboard.MustDeclare[[2]float64](s, "pos")
	st := s.NewStore()
	blackboard.Set(st, name, "x")
	blackboard.Set(st, pos, [2]float64{1, 2})
	tree, err := Compile("t", Sequence(UnsetBlackboard(blackboard.EntryOf(name)), UnsetBlackboard(blackboard.EntryOf(pos))))
	require.NoError(t, err)
	m := tree.NewMemory()
	ctx := &Context{DT: 0.1, Blackboard: st}
	seq, _ := blackboard.Seq(st, pos)
	assert.Equal(t, Success, tree.Tick(&m, ctx))
	assert.False(t, st.Has("name"))
	assert.False(t, st.Has("pos"))
	seq2, set := blackboard.Seq(st, pos)
	assert.Equal(t, seq, seq2, "unsetting is not a write")
	assert.False(t, set)
	assert.Equal(t, Success, tree.Tick(&m, ctx), "a key not set: Success")
	assert.Equal(t, Success, tree.Tick(&m, &Context{}), "no blackboard: Success")
	assert.Zero(t, testing.AllocsPerRun(100, func() {
		blackboard.Set(st, pos, [2]float64{3, 4})
		tree.Tick(&m, ctx)
	}))

	_, err = Compile("t", &Node{kind: kindUnsetBlackboard})
	assert.ErrorIs(t, err, ErrNilFunc)
}

func TestLoadAsyncFallbackAndUnsetBlackboard(t *testing.T) {
	cases := []struct {
		name, xml, trace string
		script           map[string]string
	}{
		{"AsyncFallback", `<AsyncFallback><TestA/><TestB/></AsyncFallback>`, "RS",
			map[string]string{"TestA": "F.", "TestB": ".S"}},
		{"UnsetBlackboard: a key then missing", `<Sequence>
  <SetBlackboard output_key="A" value="1"/>
  <UnsetBlackboard key="A"/>
  <Fallback><ScriptCondition code="A == 1"/><TestA/></Fallback>
</Sequence>`, "F", map[string]string{"TestA": "F"}},
		{"UnsetBlackboard {key}, then set again", `<Sequence>
  <UnsetBlackboard key="{A}"/>
  <SetBlackboard output_key="A" value="1"/>
  <ScriptCondition code="A == 1"/>
</Sequence>`, "S", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := &harness{t: t, script: c.script}
			r := v4Registry(t, h, new([]string))
			assert.Equal(t, c.trace, runDoc(t, r, h, xmlDoc(c.xml), len(c.trace)))
		})
	}

	t.Run("JSON", func(t *testing.T) {
		r := NewRegistry(nil)
		_, err := r.LoadJSON("t.json", []byte(`{"trees": [{"id": "M", "root": {"type": "Sequence", "children": [
  {"type": "SetBlackboard", "ports": {"output_key": "A", "value": "1"}},
  {"type": "UnsetBlackboard", "ports": {"key": "A"}},
  {"type": "AsyncFallback", "children": [{"type": "AlwaysFailure"}, {"type": "AlwaysSuccess"}]}]}}]}`))
		require.NoError(t, err)
		tree, err := r.Tree("M")
		require.NoError(t, err)
		m := tree.NewMemory()
		st := r.Schema().NewStore()
		ctx := &Context{DT: 0.1, Blackboard: st}
		assert.Equal(t, Running, tree.Tick(&m, ctx))
		assert.False(t, st.Has("A"))
		assert.Equal(t, Success, tree.Tick(&m, ctx))
	})

	for _, c := range []struct{ xml, msg string }{
		{`<UnsetBlackboard/>`, `missing input port "key"`},
		{`<UnsetBlackboard key="nope"/>`, `key "nope": no port or script of the tree declares this key`},
	} {
		r := NewRegistry(nil)
		main, err := r.LoadXML("t.xml", []byte(xmlDoc(c.xml)))
		if err == nil {
			_, err = r.Tree(main)
		}
		require.ErrorIs(t, err, ErrPort, c.xml)
		assert.Contains(t, err.Error(), c.msg)
	}
}

func TestAsyncFallbackZeroAllocs(t *testing.T) {
	k := 0
	fail := Action("A", func(*Context) Status {
		k++
		if k%5 == 0 {
			return Running
		}
		return Failure
	})
	tree, err := Compile("t", AsyncFallback(fail, AlwaysFailure(), AlwaysSuccess()))
	require.NoError(t, err)
	m := tree.NewMemory()
	ctx := &Context{DT: 0.1}
	assert.Zero(t, testing.AllocsPerRun(200, func() { tree.Tick(&m, ctx) }))
}
