package bt

import (
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSequenceWithMemory(t *testing.T) {
	checkCases(t, []scriptCase{{
		name: "a failure keeps the position: the next tick retries the failed child",
		build: func(h *harness) *Node {
			return SequenceWithMemory(h.act("A"), h.act("B"), h.act("C"))
		},
		script: map[string]string{"A": "S..S", "B": "FS.S", "C": ".RSS"},
		trace:  "FRSS",
		log:    []string{"A B", "B C", "C", "A B C"},
	}, {
		// The case: the guard flickers on tick 2, the plan is halted at B, and on
		// tick 3 it resumes at B (its second step) without redoing A.
		name: "inside a ReactiveSequence it resumes at its second step after the guard flickers",
		build: func(h *harness) *Node {
			return ReactiveSequence(h.cond("G"), SequenceWithMemory(h.act("A"), h.act("B"), h.act("C")))
		},
		script: map[string]string{"G": "SFSS", "A": "S...", "B": "R.S.", "C": "..RS"},
		trace:  "RFRS",
		log:    []string{"G A B", "G halt:B", "G B C", "G C"},
	}, {
		// Contrast, pinned: a plain Sequence starts over at A after the same flicker.
		name: "a plain Sequence in the same place restarts at its first step",
		build: func(h *harness) *Node {
			return ReactiveSequence(h.cond("G"), Sequence(h.act("A"), h.act("B"), h.act("C")))
		},
		script: map[string]string{"G": "SFSS", "A": "S.S.", "B": "R.RS", "C": "...S"},
		trace:  "RFRS",
		log:    []string{"G A B", "G halt:B", "G A B", "G B C"},
	}})
}

func TestParallel(t *testing.T) {
	checkCases(t, []scriptCase{{
		name: "children finish on different ticks; a finished child is not ticked again",
		build: func(h *harness) *Node {
			return Parallel(All, 1, h.act("A"), h.act("B"), h.act("C"))
		},
		script: map[string]string{"A": "S..", "B": "RRS", "C": "RS."},
		trace:  "RRS",
		log:    []string{"A B C", "B C", "B"},
	}, {
		name: "success threshold reached: still-running children are halted",
		build: func(h *harness) *Node {
			return Parallel(2, 2, h.act("A"), h.act("B"), h.act("C"))
		},
		script: map[string]string{"A": "RS", "B": "S.", "C": "R."},
		trace:  "RS",
		log:    []string{"A B C", "A halt:C"},
	}, {
		name: "failure threshold reached: running child halted, later children not ticked",
		build: func(h *harness) *Node {
			return Parallel(All, 1, h.act("A"), h.act("B"), h.act("C"))
		},
		script: map[string]string{"A": "R", "B": "F"},
		trace:  "F",
		log:    []string{"A B halt:A"},
	}, {
		name: "fails as soon as success can no longer be reached",
		build: func(h *harness) *Node {
			return Parallel(2, 3, h.act("A"), h.act("B"), h.act("C"))
		},
		script: map[string]string{"A": "F", "B": "F"},
		trace:  "F",
		log:    []string{"A B"},
	}, {
		name: "re-entered after completion: every child is ticked afresh",
		build: func(h *harness) *Node {
			return Parallel(All, 1, h.act("A"), h.act("B"))
		},
		script: map[string]string{"A": "S.S", "B": "RSS"},
		trace:  "RSS",
		log:    []string{"A B", "B", "A B"},
	}, {
		name: "-2 means all but one",
		build: func(h *harness) *Node {
			return Parallel(-2, All, h.act("A"), h.act("B"), h.act("C"))
		},
		script: map[string]string{"A": "F", "B": "S", "C": "S"},
		trace:  "S",
	}})
}

func TestTimeoutOverParallel(t *testing.T) {
	// Timeout(0.5) with dt 0.25 ticks its child on ticks 1-2 and fires on tick 3, when
	// the Parallel below has two Running children: both are halted, deepest first and
	// later sibling first (reverse pre-order), while the Parallel itself is still Running.
	var tree *Tree
	var mem *Memory
	build := func(h *harness) *Node {
		hook := func(name string) func(*Context) {
			return func(c *Context) {
				h.log("halt:" + name)
				assert.Equal(t, Running, mem.Status(1), "Parallel still Running while %s is halted", name)
				assert.Equal(t, Running, c.Node().Status, "halted node sees its memory")
			}
		}
		a := Action("A", func(c *Context) Status { h.log("A"); return h.outcome("A") }).OnHalt(hook("A"))
		b := Action("B", func(c *Context) Status { h.log("B"); return h.outcome("B") }).OnHalt(hook("B"))
		return Timeout(0.5, Parallel(All, 1, a, b))
	}
	h := &harness{t: t, script: map[string]string{"A": "RR.R", "B": "RR.R"}}
	var err error
	tree, err = Compile("timeout", build(h))
	require.NoError(t, err)
	m := tree.NewMemory()
	mem = &m
	ctx := &Context{DT: 0.25}
	var trace string
	var log []string
	for h.tick = 1; h.tick <= 4; h.tick++ {
		h.events = h.events[:0]
		trace += letter(tree.Tick(&m, ctx))
		checkRunningParents(t, tree, &m)
		log = append(log, joinEvents(h.events))
	}
	assert.Equal(t, "RRFR", trace)
	assert.Equal(t, []string{"A B", "A B", "halt:B halt:A", "A B"}, log)
}

func joinEvents(e []string) string {
	s := ""
	for i, x := range e {
		if i > 0 {
			s += " "
		}
		s += x
	}
	return s
}

func TestHaltOrderDeepestFirst(t *testing.T) {
	// A preemption halts a nested running subtree: every hook runs exactly once, children
	// before their ancestors, and only Running nodes are halted.
	checkCases(t, []scriptCase{{
		name: "nested subtree halted once, deepest first",
		build: func(h *harness) *Node {
			return ReactiveSelector(
				h.cond("C"),
				Sequence(h.act("A"), Parallel(All, 1, Inverter(h.act("X")), h.act("Y")), h.act("Z")),
			)
		},
		script: map[string]string{"C": "FFSS", "A": "S...", "X": "RR..", "Y": "RS.."},
		trace:  "RRSS",
		log:    []string{"C A X Y", "C X Y", "C halt:X", "C"},
	}})
}

func TestIfThenElse(t *testing.T) {
	checkCases(t, []scriptCase{{
		name: "branch resumes without re-checking the condition",
		build: func(h *harness) *Node {
			return IfThenElse(h.act("C"), h.act("A"), h.act("B"))
		},
		script: map[string]string{"C": "S.FF.", "A": "RS...", "B": "..FRS"},
		trace:  "RSFRS",
		log:    []string{"C A", "A", "C B", "C B", "B"},
	}, {
		name: "no else: a false condition fails",
		build: func(h *harness) *Node {
			return IfThenElse(h.cond("C"), h.act("A"), nil)
		},
		script: map[string]string{"C": "FS", "A": ".S"},
		trace:  "FS",
		log:    []string{"C", "C A"},
	}, {
		name: "running condition is ticked again",
		build: func(h *harness) *Node {
			return IfThenElse(h.act("C"), h.act("A"), nil)
		},
		script: map[string]string{"C": "RS", "A": ".S"},
		trace:  "RS",
		log:    []string{"C", "C A"},
	}})
}

func TestWhileDoElse(t *testing.T) {
	checkCases(t, []scriptCase{{
		name: "condition checked every tick; the other branch is halted before ticking",
		build: func(h *harness) *Node {
			return WhileDoElse(h.act("C"), h.act("A"), h.act("B"))
		},
		script: map[string]string{"C": "SFSRS", "A": "R.R.S", "B": ".R..."},
		trace:  "RRRRS",
		log:    []string{"C A", "C halt:A B", "C halt:B A", "C", "C A"},
	}, {
		name: "no else: a false condition halts do and fails",
		build: func(h *harness) *Node {
			return WhileDoElse(h.cond("C"), h.act("A"), nil)
		},
		script: map[string]string{"C": "SF", "A": "R."},
		trace:  "RF",
		log:    []string{"C A", "C halt:A"},
	}})
}

func TestSwitch(t *testing.T) {
	build := func(h *harness) *Node {
		s := blackboard.NewSchema()
		mode := blackboard.MustDeclare[int](s, "mode")
		h.store = s.NewStore()
		set := Action("set", func(c *Context) Status {
			if d := h.digit("mode"); d != 9 {
				blackboard.Set(c.Blackboard, mode, d)
			} else {
				blackboard.Unset(c.Blackboard, mode)
			}
			return Success
		})
		return ReactiveSequence(set, Switch(FromKey(mode), []int{1, 2}, h.act("A"), h.act("B"), h.act("D")))
	}
	checkCases(t, []scriptCase{{
		name:   "picks the matching case, default otherwise, halts the one it leaves",
		build:  build,
		script: map[string]string{"mode": "1120x", "A": "RR...", "B": "..R..", "D": "...RS"},
		trace:  "RRRRS",
		log:    []string{"A", "A", "halt:A B", "halt:B D", "D"},
	}})
}

func TestChooseCases(t *testing.T) {
	checkCases(t, []scriptCase{{
		name: "out of range fails after halting the running child",
		build: func(h *harness) *Node {
			return Choose("c", func(*Context) int { return h.digit("pick") }, h.act("A"), h.act("B"))
		},
		script: map[string]string{"pick": "0x1", "A": "R..", "B": "..S"},
		trace:  "RFS",
		log:    []string{"A", "halt:A", "B"},
	}})
}

func TestForce(t *testing.T) {
	checkCases(t, []scriptCase{
		{name: "ForceSuccess", build: func(h *harness) *Node { return ForceSuccess(h.act("A")) },
			script: map[string]string{"A": "SFR"}, trace: "SSR"},
		{name: "ForceFailure", build: func(h *harness) *Node { return ForceFailure(h.act("A")) },
			script: map[string]string{"A": "SFR"}, trace: "FFR"},
		{name: "AlwaysSuccess", build: func(*harness) *Node { return AlwaysSuccess() }, trace: "SS"},
		{name: "AlwaysFailure", build: func(*harness) *Node { return AlwaysFailure() }, trace: "FF"},
	})
}

func TestRepeatRetry(t *testing.T) {
	checkCases(t, []scriptCase{{
		name:   "Repeat(3): a child that succeeds at once runs three times in one tick",
		build:  func(h *harness) *Node { return Repeat(3, h.act("A")) },
		script: map[string]string{"A": "S"},
		trace:  "S",
		log:    []string{"A A A"},
	}, {
		name:   "Repeat(3): a running cycle counts when it succeeds",
		build:  func(h *harness) *Node { return Repeat(3, h.act("A")) },
		script: map[string]string{"A": "RSR"},
		trace:  "RSR",
		log:    []string{"A", "A A A", "A"},
	}, {
		name:   "Repeat: a failure fails and restarts the count",
		build:  func(h *harness) *Node { return Repeat(2, h.act("A")) },
		script: map[string]string{"A": "RFS"},
		trace:  "RFS",
		log:    []string{"A", "A", "A A"},
	}, {
		name:   "Repeat(Forever): one cycle per tick",
		build:  func(h *harness) *Node { return Repeat(Forever, h.act("A")) },
		script: map[string]string{"A": "SSRF"},
		trace:  "RRRF",
		log:    []string{"A", "A", "A", "A"},
	}, {
		name:  "Repeat(0) succeeds without ticking",
		build: func(h *harness) *Node { return Repeat(0, h.act("A")) },
		trace: "S",
		log:   []string{""},
	}, {
		name:   "Retry(3): three attempts in one tick, then Failure",
		build:  func(h *harness) *Node { return Retry(3, h.act("A")) },
		script: map[string]string{"A": "FS"},
		trace:  "FS",
		log:    []string{"A A A", "A"},
	}, {
		name:   "Retry(3): a running attempt counts when it fails",
		build:  func(h *harness) *Node { return Retry(3, h.act("A")) },
		script: map[string]string{"A": "RFR"},
		trace:  "RFR",
		log:    []string{"A", "A A A", "A"},
	}, {
		name:   "Retry(Forever): one attempt per tick",
		build:  func(h *harness) *Node { return Retry(Forever, h.act("A")) },
		script: map[string]string{"A": "FFS"},
		trace:  "RRS",
	}, {
		name:  "Retry(0) fails without ticking",
		build: func(h *harness) *Node { return Retry(0, h.act("A")) },
		trace: "F",
		log:   []string{""},
	}, {
		name:   "RepeatUntilFailure",
		build:  func(h *harness) *Node { return RepeatUntilFailure(h.act("A")) },
		script: map[string]string{"A": "SSRFS"},
		trace:  "RRRSR",
	}, {
		name:   "RepeatUntilSuccess",
		build:  func(h *harness) *Node { return RepeatUntilSuccess(h.act("A")) },
		script: map[string]string{"A": "FFRSF"},
		trace:  "RRRSR",
	}})
}

func TestTimeout(t *testing.T) {
	checkCases(t, []scriptCase{{
		name:   "fires after seconds: child halted, Failure",
		build:  func(h *harness) *Node { return Timeout(1, h.act("A")) },
		script: map[string]string{"A": "RRRR.R"},
		trace:  "RRRRFR",
		log:    []string{"A", "A", "A", "A", "halt:A", "A"},
	}, {
		name:   "child finishing in time passes its status through",
		build:  func(h *harness) *Node { return Timeout(1, h.act("A")) },
		script: map[string]string{"A": "RFRS"},
		trace:  "RFRS",
	}, {
		name:  "a Timeout racing a Wait of the same length fires first",
		build: func(*harness) *Node { return Timeout(1, Wait(1)) },
		trace: "RRRRFR",
	}})
}

func TestDelay(t *testing.T) {
	checkCases(t, []scriptCase{{
		name:   "ticks the child after seconds",
		build:  func(h *harness) *Node { return Delay(1, h.act("A")) },
		script: map[string]string{"A": "....RS"},
		trace:  "RRRRRS",
		log:    []string{"", "", "", "", "A", "A"},
	}, {
		name:   "same trace as Sequence(Wait, child)",
		build:  func(h *harness) *Node { return Sequence(Wait(1), h.act("A")) },
		script: map[string]string{"A": "....RS"},
		trace:  "RRRRRS",
		log:    []string{"", "", "", "", "A", "A"},
	}, {
		name: "a halted Delay starts over",
		build: func(h *harness) *Node {
			return ReactiveSelector(h.cond("C"), Delay(0.5, h.act("A")))
		},
		script: map[string]string{"C": "FFSFFF", "A": ".....S"},
		trace:  "RRSRRS",
	}})
}

func TestRunOnce(t *testing.T) {
	checkCases(t, []scriptCase{
		{name: "runs once, then replays its result", build: func(h *harness) *Node { return RunOnce(h.act("A")) },
			script: map[string]string{"A": "RS"}, trace: "RSSS", log: []string{"A", "A", "", ""}},
		{name: "a failure is replayed too", build: func(h *harness) *Node { return RunOnce(h.act("A")) },
			script: map[string]string{"A": "F"}, trace: "FF"},
	})
}

func TestPrecondition(t *testing.T) {
	checkCases(t, []scriptCase{{
		name: "checked on entry only",
		build: func(h *harness) *Node {
			return Precondition("P", h.check("P"), Failure, h.act("A"))
		},
		script: map[string]string{"P": "FS.F", "A": ".RS."},
		trace:  "FRSF",
		log:    []string{"P", "P A", "A", "P"},
	}, {
		name: "otherwise Success",
		build: func(h *harness) *Node {
			return Precondition("P", h.check("P"), Success, h.act("A"))
		},
		script: map[string]string{"P": "F"},
		trace:  "S",
	}})
}

func TestSubTreeNode(t *testing.T) {
	checkCases(t, []scriptCase{{
		name: "passes its root's status through and is halted with it",
		build: func(h *harness) *Node {
			return ReactiveSelector(h.cond("C"), SubTree("patrol", h.act("A")))
		},
		script: map[string]string{"C": "FS", "A": "R."},
		trace:  "RS",
		log:    []string{"C A", "C halt:A"},
	}})
}

func TestBlackboardNodes(t *testing.T) {
	s := blackboard.NewSchema()
	ammo := blackboard.MustDeclare[int](s, "ammo")
	alert := blackboard.MustDeclare[string](s, "alert")
	tree, err := Compile("bb", Sequence(
		SetBlackboard(ToKey(ammo), Literal(3)),
		CheckBlackboard(FromKey(ammo), Gt, Literal(2)),
		CheckBlackboard(FromKey(alert), Eq, Literal("red")),
	))
	require.NoError(t, err)
	st := s.NewStore()
	m := tree.NewMemory()
	ctx := &Context{Blackboard: st}
	assert.Equal(t, Failure, tree.Tick(&m, ctx), "alert missing")
	v, _ := blackboard.Get(st, ammo)
	assert.Equal(t, 3, v)
	blackboard.Set(st, alert, "red")
	assert.Equal(t, Success, tree.Tick(&m, ctx))
	assert.Equal(t, "SetBlackboard", tree.NodeKind(1))
	assert.Equal(t, "CheckBlackboard", tree.NodeKind(2))

	// No blackboard: a clear Failure, never a panic.
	m2 := tree.NewMemory()
	assert.Equal(t, Failure, tree.Tick(&m2, &Context{}))

	ops := []struct {
		op   Op
		a, b float64
		want bool
	}{{Eq, 1, 1, true}, {Ne, 1, 1, false}, {Lt, 1, 2, true}, {Le, 2, 2, true}, {Gt, 2, 2, false}, {Ge, 2, 2, true}, {Op(99), 1, 1, false}}
	for _, o := range ops {
		tr, err := Compile("op", CheckBlackboard(Literal(o.a), o.op, Literal(o.b)))
		require.NoError(t, err)
		mm := tr.NewMemory()
		assert.Equal(t, o.want, tr.Tick(&mm, &Context{}) == Success, "%v %v %v", o.a, o.op, o.b)
	}
}

func TestEveryNodeKindTicksWithoutAllocating(t *testing.T) {
	r := fuzzRegistry()
	tree, err := r.LoadFile("testdata/seed/all.xml")
	require.NoError(t, err)
	mems := make([]Memory, 16)
	stores := make([]*blackboard.Store, len(mems))
	choice, err := blackboard.Declare[int](r.Schema(), "choice")
	require.NoError(t, err)
	alert, err := blackboard.Declare[bool](r.Schema(), "alert")
	require.NoError(t, err)
	for i := range mems {
		mems[i] = tree.NewMemory()
		stores[i] = r.Schema().NewStore()
		blackboard.Set(stores[i], choice, i%3)
		blackboard.Set(stores[i], alert, i%2 == 0)
	}
	ctx := &Context{DT: 0.05}
	k := 0
	seen := make([]bool, tree.Len())
	allocs := testing.AllocsPerRun(2000, func() {
		i := k % len(mems)
		ctx.Blackboard = stores[i]
		ctx.Time += 0.01
		tree.Tick(&mems[i], ctx)
		if k%97 == 0 {
			blackboard.Set(stores[i], alert, !mems[i].Nodes()[0].Status.done())
			tree.Halt(&mems[(i+5)%len(mems)], ctx)
		}
		for n, m := range mems[i].Nodes() {
			seen[n] = seen[n] || m.Status != Idle
		}
		k++
	})
	assert.Zero(t, allocs)
	visited := 0
	for _, s := range seen {
		if s {
			visited++
		}
	}
	assert.GreaterOrEqual(t, visited, tree.Len()*2/3, "most nodes were ticked")
}

func (s Status) done() bool { return s == Success || s == Failure }
