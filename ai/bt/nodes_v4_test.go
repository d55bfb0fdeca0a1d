package bt

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Per-tick traces of the BehaviorTree.CPP 4.x nodes of nodes_v4.go. Case names follow the
// BehaviorTree.CPP tests they re-create (tests/gtest_try_catch.cpp, gtest_loop.cpp,
// gtest_parallel.cpp, gtest_updates.cpp); BehaviorTree.CPP's wall-clock actions become
// scripted leaves that are Running for as many ticks.

func TestTryCatch(t *testing.T) {
	abc := func(h *harness) *Node { return TryCatch(false, h.act("A"), h.act("B"), h.act("C")) }
	guarded := func(onHalt bool) func(h *harness) *Node {
		return func(h *harness) *Node {
			return ReactiveSequence(h.cond("G"), TryCatch(onHalt, h.act("A"), h.act("C")))
		}
	}
	checkCases(t, []scriptCase{
		{name: "AllTryChildrenSucceed", build: abc,
			script: map[string]string{"A": "S", "B": "S"}, trace: "S", log: []string{"A B"}},
		{name: "FirstChildFails_CatchExecuted", build: abc,
			script: map[string]string{"A": "F", "C": "S"}, trace: "F", log: []string{"A C"}},
		{name: "SecondChildFails_CatchExecuted", build: abc,
			script: map[string]string{"A": "S", "B": "F", "C": "S"}, trace: "F", log: []string{"A B C"}},
		{name: "CatchReturnsFailure_NodeStillReturnsFAILURE", build: abc,
			script: map[string]string{"A": "F", "C": "F"}, trace: "F"},
		{name: "TryChildRunning resumes at the running child", build: abc,
			script: map[string]string{"A": "S.", "B": "RS"}, trace: "RS", log: []string{"A B", "B"}},
		{name: "CatchChildRunning", build: abc,
			script: map[string]string{"A": "F.", "C": "RF"}, trace: "RF", log: []string{"A C", "C"}},
		{name: "ReExecuteAfterSuccess", build: abc,
			script: map[string]string{"A": "SS", "B": "SS"}, trace: "SS", log: []string{"A B", "A B"}},
		{name: "ReExecuteAfterFailure", build: abc,
			script: map[string]string{"A": "FS", "B": ".S", "C": "S."}, trace: "FS", log: []string{"A C", "A B"}},
		{name: "ManyTryChildren_ThirdFails",
			build: func(h *harness) *Node {
				return TryCatch(false, h.act("A"), h.act("B"), h.act("D"), h.act("E"), h.act("C"))
			},
			script: map[string]string{"A": "S", "B": "S", "D": "F", "C": "S"}, trace: "F", log: []string{"A B D C"}},
		{name: "SingleTryChild_Success", build: func(h *harness) *Node { return TryCatch(false, h.act("A"), h.act("C")) },
			script: map[string]string{"A": "S"}, trace: "S", log: []string{"A"}},
		{name: "CatchOnHalt_Disabled", build: guarded(false),
			script: map[string]string{"G": "SF", "A": "R."}, trace: "RF", log: []string{"G A", "G halt:A"}},
		{name: "CatchOnHalt_Enabled: the catch child runs after the try block is halted", build: guarded(true),
			script: map[string]string{"G": "SF", "A": "R.", "C": ".S"}, trace: "RF", log: []string{"G A", "G halt:A C"}},
		{name: "CatchOnHalt_Enabled: a catch child still Running is halted at once", build: guarded(true),
			script: map[string]string{"G": "SF", "A": "R.", "C": ".R"}, trace: "RF", log: []string{"G A", "G halt:A C halt:C"}},
		{name: "CatchOnHalt_NotTriggeredWhenAlreadyInCatch", build: guarded(true),
			script: map[string]string{"G": "SF", "A": "F.", "C": "R."}, trace: "RF", log: []string{"G A C", "G halt:C"}},
		{name: "AsyncCatchCompletesInsideSequence",
			build: func(h *harness) *Node {
				return Sequence(TryCatch(false, AlwaysFailure(), h.act("C")), h.act("B"))
			},
			script: map[string]string{"C": "RRRRRS"}, trace: "RRRRRF",
			log: []string{"C", "C", "C", "C", "C", "C"}},
	})
}

func TestTryCatchCatchOnHaltWithTreeHalt(t *testing.T) {
	// Tree.Halt (tree swap) runs the catch child too, once, after the try block's hooks.
	h := &harness{t: t, script: map[string]string{"A": "R", "C": ".S"}}
	tree, err := Compile("tc", TryCatch(true, h.act("A"), h.act("C")))
	require.NoError(t, err)
	m := tree.NewMemory()
	ctx := &Context{DT: 0.1}
	h.tick = 1
	assert.Equal(t, Running, tree.Tick(&m, ctx))
	h.tick, h.events = 2, nil
	tree.Halt(&m, ctx)
	assert.Equal(t, []string{"halt:A", "C"}, h.events)
	for i := range tree.Len() {
		assert.Equal(t, Idle, m.Status(i))
	}
}

func TestTryCatchNeedsTwoChildren(t *testing.T) {
	// MinimumTwoChildren_ParseTimeValidation.
	_, err := Compile("tc", TryCatch(false, AlwaysSuccess()))
	require.ErrorIs(t, err, ErrChildCount)
	r := NewRegistry(nil)
	_, err = r.LoadXML("t.xml", []byte(xmlDoc(`<TryCatch><AlwaysSuccess/></TryCatch>`)))
	if err == nil {
		_, err = r.Tree("M")
	}
	require.ErrorIs(t, err, ErrChildren)
	assert.Contains(t, err.Error(), "1, want at least 2")
}

func TestParallelAll(t *testing.T) {
	// Parallel.ParallelAll: a bad child finishing first, two good ones finishing later.
	abc := func(maxFailures int) func(h *harness) *Node {
		return func(h *harness) *Node { return ParallelAll(maxFailures, h.act("A"), h.act("B"), h.act("C")) }
	}
	checkCases(t, []scriptCase{
		{name: "ParallelAll max_failures=1 waits for every child, then fails", build: abc(1),
			script: map[string]string{"A": "RF.", "B": "RRS", "C": "RRS"}, trace: "RRF",
			log: []string{"A B C", "A B C", "B C"}},
		{name: "ParallelAll max_failures=2 succeeds with one failure", build: abc(2),
			script: map[string]string{"A": "RF.", "B": "RRS", "C": "RRS"}, trace: "RRS"},
		{name: "two failures reach max_failures=2", build: abc(2),
			script: map[string]string{"A": "F", "B": "F", "C": "S"}, trace: "F"},
		{name: "max_failures=-1 fails only if all fail", build: abc(-1),
			script: map[string]string{"A": "FF", "B": "FF", "C": "SF"}, trace: "SF"},
		{name: "halted by a reactive parent: its Running children are halted",
			build: func(h *harness) *Node {
				return ReactiveSequence(h.cond("G"), ParallelAll(1, h.act("A"), h.act("B")))
			},
			script: map[string]string{"G": "SSF", "A": "RS.", "B": "RR."}, trace: "RRF",
			log: []string{"G A B", "G A B", "G halt:B"}},
		{name: "re-entered, every child runs again",
			build: abc(1), script: map[string]string{"A": "SS", "B": "SS", "C": "SS"}, trace: "SS",
			log: []string{"A B C", "A B C"}},
	})
	for _, f := range []int{0, 4, -4} {
		_, err := Compile("pa", ParallelAll(f, AlwaysSuccess(), AlwaysSuccess(), AlwaysSuccess()))
		assert.ErrorIs(t, err, ErrInvalidCount, "max_failures %d", f)
	}
}

func TestAsyncSequence(t *testing.T) {
	abc := func(h *harness) *Node { return AsyncSequence(h.act("A"), h.act("B"), h.act("C")) }
	checkCases(t, []scriptCase{
		{name: "returns Running after each child that finished at once", build: abc,
			script: map[string]string{"A": "S..", "B": ".S.", "C": "..S"}, trace: "RRS",
			log: []string{"A", "B", "C"}},
		{name: "a child that ran over several ticks is followed in the same tick", build: abc,
			script: map[string]string{"A": "RS.", "B": ".S.", "C": "..S"}, trace: "RRS",
			log: []string{"A", "A B", "C"}},
		{name: "a failure resets to child 0", build: abc,
			script: map[string]string{"A": "S.S", "B": ".F."}, trace: "RFR",
			log: []string{"A", "B", "A"}},
		{name: "Reactive.RunningChildren (gtest_reactive.cpp, ticked with tickExactlyOnce)",
			build: func(h *harness) *Node {
				return ReactiveSequence(
					Sequence(h.act("A"), h.act("B"), h.act("C")),
					AsyncSequence(h.act("D"), h.act("E"), h.act("F")))
			},
			script: map[string]string{"A": "SSS", "B": "SSS", "C": "SSS", "D": "S..", "E": ".S.", "F": "..S"},
			trace:  "RRS", log: []string{"A B C D", "A B C E", "A B C F"}},
		{name: "preempted between children, it starts over",
			build: func(h *harness) *Node {
				return ReactiveSequence(h.cond("G"), AsyncSequence(h.act("A"), h.act("B")))
			},
			script: map[string]string{"G": "SFS", "A": "S.S"}, trace: "RFR",
			log: []string{"G A", "G", "G A"}},
	})
}

// recLoop builds a loop over queue whose child logs the element it sees as "v=…".
func recLoop(h *harness, s *blackboard.Schema, queue In[[]int], ifEmpty Status) *Node {
	val := blackboard.MustDeclare[int](s, "val")
	h.store = s.NewStore()
	return Loop(queue, ToKey(val), ifEmpty, Action("A", func(c *Context) Status {
		v, _ := blackboard.Get(c.Blackboard, val)
		h.log("v=" + strconv.Itoa(v))
		return h.outcome("A")
	}).OnHalt(func(*Context) { h.log("halt:A") }))
}

func TestLoop(t *testing.T) {
	static := func(q ...int) func(h *harness) *Node {
		return func(h *harness) *Node { return recLoop(h, blackboard.NewSchema(), Literal(q), Success) }
	}
	checkCases(t, []scriptCase{
		{name: "StaticIntQueue: one element per tick, then if_empty", build: static(1, 2, 3),
			script: map[string]string{"A": "SSS"}, trace: "RRRS", log: []string{"v=1", "v=2", "v=3", ""}},
		{name: "EmptyQueue_ReturnsSuccess", build: static(), script: map[string]string{}, trace: "S", log: []string{""}},
		{name: "EmptyQueue_ReturnsFailure",
			build:  func(h *harness) *Node { return recLoop(h, blackboard.NewSchema(), Literal([]int{}), Failure) },
			script: map[string]string{}, trace: "F"},
		{name: "ChildFailure_StopsLoop, and the next entry starts over", build: static(1, 2, 3),
			script: map[string]string{"A": "SFS"}, trace: "RFR", log: []string{"v=1", "v=2", "v=1"}},
		{name: "a Running child keeps its element", build: static(1, 2),
			script: map[string]string{"A": "RSS"}, trace: "RRRS", log: []string{"v=1", "v=1", "v=2", ""}},
		{name: "RestartAfterCompletion", build: static(1, 2),
			script: map[string]string{"A": "SS.SS"}, trace: "RRSRRS", log: []string{"v=1", "v=2", "", "v=1", "v=2", ""}},
		{name: "halted, it starts over at element 0",
			build: func(h *harness) *Node {
				s := blackboard.NewSchema()
				return ReactiveSequence(h.cond("G"), recLoop(h, s, Literal([]int{1, 2, 3}), Success))
			},
			script: map[string]string{"G": "SSFS", "A": "SR.S"}, trace: "RRFR",
			log: []string{"G v=1", "G v=2", "G halt:A", "G v=1"}},
	})
}

func TestLoopDynamicQueueFromBlackboard(t *testing.T) {
	// DynamicQueueFromBlackboard and VectorInput_Issue969: the queue is a []int entry, read
	// (never consumed) when each element is taken, so it may change between elements.
	s := blackboard.NewSchema()
	q := blackboard.MustDeclare[[]int](s, "queue")
	r := runScript(t, func(h *harness) *Node {
		n := recLoop(h, s, FromKey(q), Failure)
		blackboard.Set(h.store, q, []int{5, 6})
		return n
	}, map[string]string{"A": "SS.SS"}, 5, 0.25, nil)
	assert.Equal(t, "RRFRR", r.trace)
	assert.Equal(t, []string{"v=5", "v=6", "", "v=5", "v=6"}, r.log)

	// Missing queue: if_empty. A queue that shrinks ends the loop early.
	h := &harness{t: t, script: map[string]string{"A": "SS"}}
	tree, err := Compile("loop", recLoop(h, s, FromKey(q), Success))
	require.NoError(t, err)
	m := tree.NewMemory()
	ctx := &Context{Blackboard: h.store}
	h.tick = 1
	assert.Equal(t, Success, tree.Tick(&m, ctx), "queue not set")
	blackboard.Set(h.store, q, []int{1, 2, 3})
	assert.Equal(t, Running, tree.Tick(&m, ctx))
	blackboard.Set(h.store, q, []int{1})
	h.tick = 2
	assert.Equal(t, Success, tree.Tick(&m, ctx), "the queue shrank below the position")
	v, _ := blackboard.Get(h.store, q)
	assert.Equal(t, []int{1}, v, "the queue is not consumed")

	// No blackboard to write the element to: Failure, child not ticked.
	tr2, err := Compile("lit", recLoop(h, blackboard.NewSchema(), Literal([]int{1}), Success))
	require.NoError(t, err)
	m = tr2.NewMemory()
	assert.Equal(t, Failure, tr2.Tick(&m, &Context{}))

	_, err = Compile("bad", Loop(Literal([]int{1}), Out[int]{}, Running, AlwaysSuccess()))
	assert.ErrorIs(t, err, ErrInvalidStatus)
	assert.Equal(t, "LoopInt", func() string {
		tr, _ := Compile("n", Loop(Literal([]int{1}), Out[int]{}, Success, AlwaysSuccess()))
		return tr.NodeName(0)
	}())
}

func TestSleep(t *testing.T) {
	checkCases(t, []scriptCase{
		{name: "counts simulation time like Wait", build: func(*harness) *Node { return Sleep(0.5) }, trace: "RRSRRS"},
		{name: "Sleep(0) succeeds at once", build: func(*harness) *Node { return Sleep(0) }, trace: "S"},
		{name: "halted, it sleeps its full time again",
			build:  func(h *harness) *Node { return ReactiveSequence(h.cond("G"), Sleep(0.5)) },
			script: map[string]string{"G": "SSFSSS"}, trace: "RRFRRS"},
	})
	_, err := Compile("s", Sleep(-1))
	assert.ErrorIs(t, err, ErrInvalidDuration)
	tr, err := Compile("s", Sleep(1))
	require.NoError(t, err)
	assert.Equal(t, "Sleep", tr.NodeName(0))
}

func TestWasEntryUpdatedAndSkipUnlessUpdated(t *testing.T) {
	s := blackboard.NewSchema()
	a := blackboard.MustDeclare[int](s, "A")
	var st *blackboard.Store
	build := func(h *harness) *Node {
		h.store = s.NewStore()
		st = h.store
		e := blackboard.EntryOf(a)
		return Sequence(
			Selector(WasEntryUpdated(e), h.act("TestA")),
			SkipUnlessUpdated(e, h.act("TestB")),
		)
	}
	// Tick 1: A not set (EntryUpdates.NoEntry): TestA runs, TestB is skipped.
	// Tick 2: A written (Initialized): both see the update, TestB runs (Running).
	// Tick 3: TestB still Running: it is ticked without looking at A.
	// Tick 4: no write since: TestA runs, TestB skipped (UpdateOnce).
	// Tick 5, 6: a write before each (UpdateTwice): TestB runs each time.
	h := &harness{t: t, script: map[string]string{"TestA": "S..S..", "TestB": ".RS.SS"}}
	tree, err := Compile("upd", build(h))
	require.NoError(t, err)
	m := tree.NewMemory()
	ctx := &Context{Blackboard: st}
	var trace string
	var log []string
	for h.tick = 1; h.tick <= 6; h.tick++ {
		h.events = h.events[:0]
		if h.tick == 2 || h.tick == 5 || h.tick == 6 {
			blackboard.Set(st, a, 1) // the same value: still an update
		}
		trace += letter(tree.Tick(&m, ctx))
		checkRunningParents(t, tree, &m)
		log = append(log, strings.Join(h.events, " "))
	}
	assert.Equal(t, "SRSSSS", trace)
	assert.Equal(t, []string{"TestA", "TestB", "TestB", "TestA", "TestB", "TestB"}, log)
}

func TestSkipUnlessUpdatedKeepsWhatItSawAcrossHalts(t *testing.T) {
	s := blackboard.NewSchema()
	a := blackboard.MustDeclare[int](s, "A")
	h := &harness{t: t, script: map[string]string{"G": "SFS", "B": "R.."}}
	h.store = s.NewStore()
	tree, err := Compile("h", ReactiveSequence(h.cond("G"), SkipUnlessUpdated(blackboard.EntryOf(a), h.act("B"))))
	require.NoError(t, err)
	m := tree.NewMemory()
	ctx := &Context{Blackboard: h.store}
	blackboard.Set(h.store, a, 1)
	var log []string
	for h.tick = 1; h.tick <= 3; h.tick++ {
		h.events = h.events[:0]
		tree.Tick(&m, ctx)
		log = append(log, strings.Join(h.events, " "))
	}
	// Tick 3: no write since tick 1, so B is not run again although the node was halted.
	assert.Equal(t, []string{"G B", "G halt:B", "G"}, log)
}

func TestWaitValueUpdate(t *testing.T) {
	s := blackboard.NewSchema()
	a := blackboard.MustDeclare[int](s, "A")
	h := &harness{t: t, script: map[string]string{"B": "..S"}}
	h.store = s.NewStore()
	tree, err := Compile("w", WaitValueUpdate(blackboard.EntryOf(a), h.act("B")))
	require.NoError(t, err)
	m := tree.NewMemory()
	ctx := &Context{Blackboard: h.store}
	var trace string
	for h.tick = 1; h.tick <= 3; h.tick++ {
		if h.tick == 3 {
			blackboard.Set(h.store, a, 7)
		}
		trace += letter(tree.Tick(&m, ctx))
	}
	assert.Equal(t, "RRS", trace)
	assert.Equal(t, "WaitValueUpdate", tree.NodeName(0))
}

// v4All is a tree with every node of nodes_v4.go, a script Precondition and a Switch on a
// string key, for the allocation test.
const v4All = `<root BTCPP_format="4" main_tree_to_execute="M">
<BehaviorTree ID="M">
  <ReactiveFallback>
    <Inverter><RecordBool value="{alert}"/></Inverter>
    <TryCatch catch_on_halt="true">
      <AsyncSequence>
        <SetBlackboard output_key="n" value="2"/>
        <Fallback><WasEntryUpdated entry="{alert}"/><AlwaysSuccess/></Fallback>
        <Precondition if="n * 2 &gt; 3 &amp;&amp; alert == false" else="SUCCESS">
          <ParallelAll max_failures="2">
            <LoopInt queue="1;2;3" value="{i}"><RecordInt value="{i}"/></LoopInt>
            <LoopString queue="{words}" value="{w}"><RecordString value="{w}"/></LoopString>
            <LoopDouble queue="0.5;1.5" if_empty="FAILURE" value="{d}"><Sleep msec="100"/></LoopDouble>
            <LoopBool queue="true;false"><AlwaysFailure/></LoopBool>
          </ParallelAll>
        </Precondition>
        <SkipUnlessUpdated entry="{alert}"><Sleep msec="50"/></SkipUnlessUpdated>
        <Switch2 variable="{mode}" case_1="1" case_2="2.0"><Sleep msec="30"/><AlwaysFailure/><AlwaysSuccess/></Switch2>
      </AsyncSequence>
      <Sleep msec="20"/>
    </TryCatch>
  </ReactiveFallback>
</BehaviorTree>
</root>`

func TestV4NodesTickWithoutAllocating(t *testing.T) {
	r := NewRegistry(nil)
	// Recording leaves that record nothing: the tree's own cost is measured.
	for _, rec := range []struct {
		name string
		bind func(p *Ports)
	}{
		{"RecordBool", func(p *Ports) { InputPort[bool](p, "value") }},
		{"RecordInt", func(p *Ports) { InputPort[int](p, "value") }},
		{"RecordString", func(p *Ports) { InputPort[string](p, "value") }},
	} {
		require.NoError(t, r.RegisterAction(rec.name, func(p *Ports) (func(*Context) Status, error) {
			rec.bind(p)
			return func(*Context) Status { return Success }, nil
		}))
	}
	words := blackboard.MustDeclare[[]string](r.Schema(), "words")
	mode := blackboard.MustDeclare[string](r.Schema(), "mode")
	main, err := r.LoadXML("all.xml", []byte(v4All))
	require.NoError(t, err)
	tree, err := r.Tree(main)
	require.NoError(t, err)
	alert, err := blackboard.Lookup[bool](r.Schema(), "alert")
	require.NoError(t, err)

	mems := make([]Memory, 16)
	stores := make([]*blackboard.Store, len(mems))
	for i := range mems {
		mems[i] = tree.NewMemory()
		stores[i] = r.Schema().NewStore()
		blackboard.Set(stores[i], words, []string{"a", "b", "c"}[:i%4])
		blackboard.Set(stores[i], mode, []string{"1", "2", "x", "2.0"}[i%4])
		blackboard.Set(stores[i], alert, false)
	}
	ctx := &Context{DT: 0.05}
	k := 0
	seen := make([]bool, tree.Len())
	allocs := testing.AllocsPerRun(3000, func() {
		i := k % len(mems)
		ctx.Blackboard = stores[i]
		ctx.Time += 0.01
		tree.Tick(&mems[i], ctx)
		if k%53 == 0 {
			blackboard.Set(stores[i], alert, true)
		} else if k%53 == 1 {
			blackboard.Set(stores[i], alert, false)
		}
		if k%97 == 0 {
			tree.Halt(&mems[(i+5)%len(mems)], ctx)
		}
		for n, m := range mems[i].Nodes() {
			seen[n] = seen[n] || m.Status != Idle
		}
		k++
	})
	assert.Zero(t, allocs)
	for n, s := range seen {
		assert.True(t, s, "node %d %s was ticked", n, tree.NodeName(n))
	}
}

func TestV4CorruptMemoryNeverPanics(t *testing.T) {
	// A Memory loaded from a save may hold anything: positions and indices out of range,
	// NaN or infinite timers. The v4 nodes treat them as finished or empty, never panic.
	s := blackboard.NewSchema()
	a := blackboard.MustDeclare[int](s, "A")
	st := s.NewStore()
	blackboard.Set(st, a, 1)
	roots := []*Node{
		TryCatch(true, Wait(1), AlwaysSuccess()),
		ParallelAll(1, Wait(1), AlwaysSuccess()),
		AsyncSequence(AlwaysSuccess(), Wait(1)),
		Loop(Literal([]int{1, 2}), ToKey(a), Success, Wait(1)),
		SkipUnlessUpdated(blackboard.EntryOf(a), Wait(1)),
		WasEntryUpdated(blackboard.EntryOf(a)),
		Sleep(1),
	}
	bad := []NodeMemory{
		{Status: Running, Child: 65535, Count: 65535, Timer: math.NaN()},
		{Status: Running, Child: 7, Count: 1, Timer: math.Inf(1)},
		{Status: Running, Timer: math.Inf(-1)},
		{Status: Running, Timer: -3},
		{Status: Status(9), Timer: 1e300},
	}
	for _, root := range roots {
		tree, err := Compile("corrupt", root)
		require.NoError(t, err)
		for _, b := range bad {
			m := tree.NewMemory()
			for i := range m.Nodes() {
				m.Nodes()[i] = b
			}
			ctx := &Context{DT: 0.1, Blackboard: st}
			assert.NotPanics(t, func() {
				for range 3 {
					tree.Tick(&m, ctx)
				}
				for i := range m.Nodes() {
					m.Nodes()[i] = b
				}
				tree.Halt(&m, ctx)
			}, "%s with %+v", tree.NodeName(0), b)
		}
	}
}
