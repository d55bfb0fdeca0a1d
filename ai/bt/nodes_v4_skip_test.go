package bt

import (
	"testing"

	"github.com/archai-go/archai/ai/blackboard"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The BehaviorTree.CPP 4.x nodes of nodes_v4.go with skipped children (BehaviorTree.CPP's
// try_catch_node.cpp, parallel_all_node.cpp, sequence_node.cpp with asynch, loop_node.h).

func TestTryCatchSkipped(t *testing.T) {
	checkCondCases(t, []condCase{{
		name:   "every try child skipped: Skipped, the catch child is not ticked",
		build:  func(h *harness) *Node { return TryCatch(false, h.skip("A"), h.skip("B"), h.act("C")) },
		script: map[string]string{"skipA": "T", "skipB": "T"},
		trace:  "K",
		log:    []string{""},
	}, {
		name:   "a skipped try child then a success: Success",
		build:  func(h *harness) *Node { return TryCatch(false, h.skip("A"), h.act("B"), h.act("C")) },
		script: map[string]string{"skipA": "T", "B": "S"},
		trace:  "S",
		log:    []string{"B"},
	}, {
		name: "the skipped count survives Running (B skipped by _while on tick 2)",
		build: func(h *harness) *Node {
			return TryCatch(false, h.skip("A"), h.act("B").While(h.flag("w")), h.act("C"))
		},
		script: map[string]string{"skipA": "T", "w": "TF", "B": "R"},
		trace:  "RK",
		log:    []string{"B", "halt:B"},
	}, {
		name:   "a skipped try child then a failure: catch, Failure",
		build:  func(h *harness) *Node { return TryCatch(false, h.skip("A"), h.act("B"), h.act("C")) },
		script: map[string]string{"skipA": "T", "B": "F", "C": "S"},
		trace:  "F",
		log:    []string{"B C"},
	}, {
		name:   "a skipped catch child counts as finished: Failure",
		build:  func(h *harness) *Node { return TryCatch(false, h.act("A"), h.skip("C")) },
		script: map[string]string{"A": "F", "skipC": "T"},
		trace:  "F",
		log:    []string{"A"},
	}, {
		name:   "a catch child Running, then done: Failure; entered again at try child 0",
		build:  func(h *harness) *Node { return TryCatch(false, h.act("A"), h.act("C")) },
		script: map[string]string{"A": "F.S", "C": "RS"},
		trace:  "RFS",
		log:    []string{"A C", "C", "A"},
	}})
}

func TestAsyncSequenceSkipped(t *testing.T) {
	checkCondCases(t, []condCase{{
		name:   "every child skipped: Skipped in one tick",
		build:  func(h *harness) *Node { return AsyncSequence(h.skip("A"), h.skip("B")) },
		script: map[string]string{"skipA": "T", "skipB": "T"},
		trace:  "K",
		log:    []string{""},
	}, {
		name:   "a skipped child does not yield; a fresh Success does",
		build:  func(h *harness) *Node { return AsyncSequence(h.skip("A"), h.act("B"), h.act("C")) },
		script: map[string]string{"skipA": "T", "B": "S", "C": ".S"},
		trace:  "RS",
		log:    []string{"B", "C"},
	}, {
		name: "the skipped count survives Running",
		build: func(h *harness) *Node {
			return AsyncSequence(h.skip("A"), h.act("B").While(h.flag("w")))
		},
		script: map[string]string{"skipA": "T", "w": "TF", "B": "R"},
		trace:  "RK",
		log:    []string{"B", "halt:B"},
	}})
}

func TestParallelAllSkipped(t *testing.T) {
	checkCondCases(t, []condCase{{
		name:   "every child skipped: Skipped",
		build:  func(h *harness) *Node { return ParallelAll(1, h.skip("A"), h.skip("B")) },
		script: map[string]string{"skipA": "T", "skipB": "T"},
		trace:  "K",
		log:    []string{""},
	}, {
		name:   "skipped + finished = children: done",
		build:  func(h *harness) *Node { return ParallelAll(1, h.skip("A"), h.act("B")) },
		script: map[string]string{"skipA": "T", "B": "F"},
		trace:  "F",
		log:    []string{"B"},
	}, {
		name:   "a skipped child is ticked again while another runs",
		build:  func(h *harness) *Node { return ParallelAll(2, h.skip("A"), h.act("B")) },
		script: map[string]string{"skipA": "TF", "A": ".F", "B": "RS"},
		trace:  "RS", // one failure < 2
		log:    []string{"B", "A B"},
	}, {
		name: "a child finished earlier is not ticked again; the rest skipped: done",
		build: func(h *harness) *Node {
			return ParallelAll(1, h.act("A"), h.act("B").While(h.flag("w")))
		},
		script: map[string]string{"A": "S", "w": "TF", "B": "R"},
		trace:  "RS",
		log:    []string{"A B", "halt:B"},
	}})
}

func TestLoopSkipped(t *testing.T) {
	checkCondCases(t, []condCase{{
		name: "a skipped child: Running, the next element is taken on the next tick",
		build: func(h *harness) *Node {
			return Loop(Literal([]int{1, 2}), Out[int]{}, Success, h.skip("A"))
		},
		script: map[string]string{"skipA": "TF", "A": ".S"},
		trace:  "RRS",
		log:    []string{"", "A", ""},
	}, {
		name: "ifEmpty Skipped: a Selector goes on to its next child",
		build: func(h *harness) *Node {
			return Selector(Loop(Literal([]int{}), Out[int]{}, Skipped, h.act("A")), h.act("B"))
		},
		script: map[string]string{"B": "S"},
		trace:  "S",
		log:    []string{"B"},
	}})
}

func TestSkipUnlessUpdatedIsSkipped(t *testing.T) {
	checkCondCases(t, []condCase{{
		name: "not updated: Skipped, so a Selector ticks its next child",
		build: func(h *harness) *Node {
			e := blackboard.EntryOf(blackboard.MustDeclare[int](h.schema(), "never"))
			return Selector(SkipUnlessUpdated(e, h.act("A")), h.act("B"))
		},
		script: map[string]string{"B": "SS"},
		trace:  "SS",
		log:    []string{"B", "B"},
	}})
}

// Every node of nodes_v4.go runs its post-conditions (they are ticked by the main tick
// function's default case, which must fall through to them).
func TestV4NodesRunPostConditions(t *testing.T) {
	post := func(h *harness, n *Node, name string) *Node {
		return n.OnSuccess(h.note("s:" + name)).OnFailure(h.note("f:" + name)).Post(h.note("p:" + name))
	}
	updated := func(h *harness) blackboard.Entry {
		h.flag("u") // written before every tick
		return blackboard.EntryOf(blackboard.MustDeclare[bool](h.schema(), "u"))
	}
	checkCondCases(t, []condCase{{
		name:   "TryCatch",
		build:  func(h *harness) *Node { return post(h, TryCatch(false, h.act("A"), h.act("C")), "X") },
		script: map[string]string{"A": "SF", "C": ".S"},
		trace:  "SF",
		notes:  []string{"s:X p:X", "f:X p:X"},
	}, {
		name:   "ParallelAll",
		build:  func(h *harness) *Node { return post(h, ParallelAll(1, h.act("A")), "X") },
		script: map[string]string{"A": "RSF"},
		trace:  "RSF",
		notes:  []string{"", "s:X p:X", "f:X p:X"},
	}, {
		name:   "AsyncSequence",
		build:  func(h *harness) *Node { return post(h, AsyncSequence(h.act("A"), h.act("B")), "X") },
		script: map[string]string{"A": "S.F", "B": ".S"},
		trace:  "RSF",
		notes:  []string{"", "s:X p:X", "f:X p:X"},
	}, {
		name: "Loop",
		build: func(h *harness) *Node {
			return post(h, Loop(Literal([]int{1}), Out[int]{}, Success, h.act("A")), "X")
		},
		script: map[string]string{"A": "S"},
		trace:  "RS",
		notes:  []string{"", "s:X p:X"},
	}, {
		name:  "WasEntryUpdated",
		build: func(h *harness) *Node { return post(h, WasEntryUpdated(updated(h)), "X") },
		trace: "SS",
		notes: []string{"s:X p:X", "s:X p:X"},
	}, {
		name: "SkipUnlessUpdated",
		build: func(h *harness) *Node {
			return post(h, SkipUnlessUpdated(updated(h), h.act("A")), "X")
		},
		script: map[string]string{"A": "SF"},
		trace:  "SF",
		notes:  []string{"s:X p:X", "f:X p:X"},
	}, {
		name: "WaitValueUpdate",
		build: func(h *harness) *Node {
			return post(h, WaitValueUpdate(updated(h), h.act("A")), "X")
		},
		script: map[string]string{"A": "S"},
		trace:  "S",
		notes:  []string{"s:X p:X"},
	}, {
		name:  "Sleep",
		build: func(h *harness) *Node { return post(h, Sleep(0.25), "X") },
		trace: "RS",
		notes: []string{"", "s:X p:X"},
	}})
}

// The same from a file: _onSuccess on every BehaviorTree.CPP 4.x tag.
func TestLoadV4NodesRunPostConditions(t *testing.T) {
	r := NewRegistry(nil)
	run := loadCpp(t, r, cppDoc(`<Sequence>
		<Script code="n := 0; x := 1"/>
		<TryCatch _onSuccess="n += 1"><AlwaysSuccess/><AlwaysSuccess/></TryCatch>
		<ParallelAll _onSuccess="n += 1"><AlwaysSuccess/></ParallelAll>
		<AsyncSequence _onSuccess="n += 1"><AlwaysSuccess/></AsyncSequence>
		<WasEntryUpdated entry="{x}" _onSuccess="n += 1"/>
		<SkipUnlessUpdated entry="{x}" _onSuccess="n += 1"><AlwaysSuccess/></SkipUnlessUpdated>
		<WaitValueUpdate entry="{x}" _onSuccess="n += 1"><AlwaysSuccess/></WaitValueUpdate>
		<Sleep msec="0" _onSuccess="n += 1"/>
		<LoopInt queue="1" _post="n += 1"><AlwaysSuccess/></LoopInt>
		<LoopInt queue="" if_empty="SKIPPED" _post="n += 100"><AlwaysSuccess/></LoopInt>
		<ScriptCondition code="n == 8"/>
	</Sequence>`), "")
	assert.Equal(t, Running, run.tickOnce(), "the first LoopInt runs its element")
	assert.Equal(t, Success, run.tickOnce(), "8 post-conditions, none after Skipped")
	require.Zero(t, run.ctx.ScriptErrors())
}

// The v4-and-scripts seed of the fuzz corpus runs without script errors, and its v4 nodes
// see Skipped (a LoopInt with if_empty SKIPPED, a SkipUnlessUpdated, skipped children of
// ParallelAll and AsyncSequence) while the tree still completes.
func TestV4ScriptSeedRuns(t *testing.T) {
	r := fuzzRegistry()
	tree, err := r.LoadFile("testdata/seed/v4scripts.xml")
	require.NoError(t, err)
	m := tree.NewMemory()
	ctx := &Context{DT: 0.1, Blackboard: r.Schema().NewStore()}
	seen := map[string]map[Status]bool{}
	for _, name := range []string{"M", "LoopInt", "SkipUnlessUpdated", "ParallelAll", "TryCatch"} {
		seen[name] = map[Status]bool{}
	}
	for range 40 {
		ctx.Time += ctx.DT
		s := tree.Tick(&m, ctx)
		seen["M"][s] = true
		for name := range seen {
			if name != "M" {
				seen[name][m.Status(index(t, tree, name))] = true
			}
		}
	}
	_, lastErr := ctx.LastScriptError()
	assert.NoError(t, lastErr)
	assert.Zero(t, ctx.ScriptErrors())
	assert.True(t, seen["M"][Success], "the tree completes")
	assert.True(t, seen["LoopInt"][Skipped])
	assert.True(t, seen["SkipUnlessUpdated"][Skipped])
	assert.True(t, seen["ParallelAll"][Success], "with a skipped loop among its children")
	assert.True(t, seen["TryCatch"][Success])
}
