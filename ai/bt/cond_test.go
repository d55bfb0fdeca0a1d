package bt

import (
	"bytes"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/script"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// skip returns the harness action name skipped on the ticks where h.script["skip"+name]
// has 'T'.
func (h *harness) skip(name string) *Node { return h.act(name).SkipIf(h.flag("skip" + name)) }

func TestSkippedStatus(t *testing.T) {
	assert.Equal(t, "Skipped", Skipped.String())
	assert.Equal(t, Status(4), Skipped, "BehaviorTree.CPP's SKIPPED is 4 too")
}

// The order of the preconditions: _failureIf, _successIf, _skipIf, _while; the first
// that decides wins (SkippingLogic.Sequence of BehaviorTree.CPP).
func TestSkippingLogicSequence(t *testing.T) {
	checkCondCases(t, []condCase{{
		name: "failureIf, then successIf, then skipIf, then while",
		build: func(h *harness) *Node {
			a := h.act("A").SuccessIf(h.flag("succ")).FailureIf(h.flag("fail")).SkipIf(h.flag("skip")).While(h.flag("while"))
			return Sequence(a, h.act("B"))
		},
		script: map[string]string{
			"fail": "TFFFF", "succ": "TTFFF", "skip": "TTTFF", "while": "FFFFT",
			"A": "....S", "B": ".SSSS",
		},
		trace: "FSSSS",
		log:   []string{"", "B", "B", "B", "A B"},
	}})
}

// Preconditions are checked on entry only (Preconditions.Issue615_NoSkipWhenRunning_B).
func TestPreconditionsIssue615NoSkipWhenRunning(t *testing.T) {
	checkCondCases(t, []condCase{{
		// Tick 5: the node still holds Success and is entered again: its precondition is
		// checked (BehaviorTree.CPP checks only Idle nodes).
		name:   "skipIf is not checked while the node is Running",
		build:  func(h *harness) *Node { return h.skip("A") },
		script: map[string]string{"skipA": "TFTTT", "A": ".RRS."},
		trace:  "KRRSK",
		log:    []string{"", "A", "A", "A", ""},
	}, {
		name:   "successIf and failureIf neither",
		build:  func(h *harness) *Node { return h.act("A").SuccessIf(h.flag("s")).FailureIf(h.flag("f")) },
		script: map[string]string{"s": ".T.", "f": "..T", "A": "RRF"},
		trace:  "RRF",
	}})
}

// _while is checked on every tick (Preconditions.WhileCallsOnHalt, SkippingLogic.WhileSkip).
func TestPreconditionsWhileCallsOnHalt(t *testing.T) {
	checkCondCases(t, []condCase{{
		name: "while turning false halts the running node: hooks, _onHalted, Skipped",
		build: func(h *harness) *Node {
			return Sequence(h.act("A").While(h.flag("w")).OnHalted(h.note("halted:A")).Post(h.note("post:A")))
		},
		script: map[string]string{"w": "TTFT", "A": "RR.S"},
		trace:  "RRKS",
		log:    []string{"A", "A", "halt:A", "A"},
		notes:  []string{"", "", "halted:A", "post:A"},
	}, {
		name: "while false on entry skips without ticking (SkippingLogic.WhileSkip)",
		build: func(h *harness) *Node {
			return Sequence(h.act("X"), Sequence(h.act("A").While(h.flag("w"))))
		},
		script: map[string]string{"w": "FT", "X": "SS", "A": ".S"},
		trace:  "SS",
		log:    []string{"X", "X A"},
	}, {
		name: "while halts a running subtree, deepest first",
		build: func(h *harness) *Node {
			return Sequence(h.act("A"), h.act("B").OnHalted(h.note("halted:B"))).While(h.flag("w")).OnHalted(h.note("halted:seq"))
		},
		script: map[string]string{"w": "TTF", "A": "S..", "B": "RR."},
		trace:  "RRK",
		log:    []string{"A B", "B", "halt:B"},
		notes:  []string{"", "", "halted:B halted:seq"},
	}})
}

// Post-conditions run after Success or Failure, whatever decided it
// (PostConditions.BasicTest); never after Running or Skipped; _onHalted on a halt.
func TestPostConditionsBasicTest(t *testing.T) {
	post := func(h *harness, n *Node, name string) *Node {
		return n.OnSuccess(h.note("onSuccess:" + name)).OnFailure(h.note("onFailure:" + name)).
			Post(h.note("post:" + name)).OnHalted(h.note("onHalted:" + name))
	}
	checkCondCases(t, []condCase{{
		name:   "after the node's own tick",
		build:  func(h *harness) *Node { return ReactiveSequence(h.cond("C"), post(h, h.act("A"), "A")) },
		script: map[string]string{"C": "SSSF", "A": "SFR."},
		trace:  "SFRF",
		log:    []string{"C A", "C A", "C A", "C halt:A"},
		notes:  []string{"onSuccess:A post:A", "onFailure:A post:A", "", "onHalted:A"},
	}, {
		name: "after a precondition's status; not after Skipped",
		build: func(h *harness) *Node {
			return post(h, h.act("A").FailureIf(h.flag("f")).SuccessIf(h.flag("s")).SkipIf(h.flag("k")), "A")
		},
		script: map[string]string{"f": "T", "s": ".T", "k": "..T", "A": "...F"},
		trace:  "FSKF",
		log:    []string{"", "", "", "A"},
		notes:  []string{"onFailure:A post:A", "onSuccess:A post:A", "", "onFailure:A post:A"},
	}, {
		name: "a halted child runs _onHalted, not _post (PostConditions.Issue601)",
		build: func(h *harness) *Node {
			return Parallel(All, 1, post(h, Wait(1), "wait"), h.act("A"))
		},
		script: map[string]string{"A": "F"},
		trace:  "F",
		notes:  []string{"onHalted:wait"},
	}, {
		name: "a composite's post-conditions come after its children's",
		build: func(h *harness) *Node {
			return post(h, Sequence(post(h, h.act("A"), "A"), post(h, h.act("B"), "B")), "seq")
		},
		script: map[string]string{"A": "S.", "B": "RF"},
		trace:  "RF",
		notes:  []string{"onSuccess:A post:A", "onFailure:B post:B onFailure:seq post:seq"},
	}})
}

// PostConditions.Issue539: post-conditions run once per attempt of a Retry.
func TestPostConditionsIssue539(t *testing.T) {
	schema := blackboard.NewSchema()
	x := blackboard.MustDeclare[int](schema, "x")
	y := blackboard.MustDeclare[int](schema, "y")
	env := &script.Env{Schema: schema}
	tree, err := Compile("t", Retry(5, AlwaysFailure().
		OnFailure(script.MustCompile("x += 1", env)).Post(script.MustCompile("y += 1", env))))
	require.NoError(t, err)
	st := schema.NewStore()
	blackboard.Set(st, x, 0)
	blackboard.Set(st, y, 0)
	m := tree.NewMemory()
	ctx := &Context{Blackboard: st}
	assert.Equal(t, Failure, tree.Tick(&m, ctx))
	gx, _ := blackboard.Get(st, x)
	gy, _ := blackboard.Get(st, y)
	assert.Equal(t, 5, gx)
	assert.Equal(t, 5, gy)
	assert.Zero(t, ctx.ScriptErrors())
}

// How each control node and decorator treats a skipped child, and all children skipped.
func TestSkippedChildren(t *testing.T) {
	checkCondCases(t, []condCase{{
		name:   "Sequence: passes over skipped children; all skipped is Skipped (SkippingLogic.SkipAll)",
		build:  func(h *harness) *Node { return Sequence(h.skip("A"), h.skip("B")) },
		script: map[string]string{"skipA": "TTF", "skipB": "TFT", "A": "..S", "B": ".S."},
		trace:  "KSS",
		log:    []string{"", "B", "A"},
	}, {
		name: "Sequence: skips count across ticks while Running",
		build: func(h *harness) *Node {
			return Sequence(h.skip("A"), h.act("B").While(h.flag("w")))
		},
		script: map[string]string{"skipA": "TT", "w": "TFT", "A": "..S", "B": "R.S"},
		trace:  "RKS",
		log:    []string{"B", "halt:B", "A B"},
	}, {
		name:   "Sequence: a failure after a skip fails",
		build:  func(h *harness) *Node { return Sequence(h.skip("A"), h.act("B")) },
		script: map[string]string{"skipA": "T", "B": "F"},
		trace:  "F",
	}, {
		name:   "Selector: passes over skipped children; all skipped is Skipped",
		build:  func(h *harness) *Node { return Selector(h.skip("A"), h.skip("B")) },
		script: map[string]string{"skipA": "TTT", "skipB": "TFF", "B": ".FS"},
		trace:  "KFS",
		log:    []string{"", "B", "B"},
	}, {
		name: "SequenceWithMemory: skips count across ticks",
		build: func(h *harness) *Node {
			return SequenceWithMemory(h.skip("A"), h.act("B").While(h.flag("w")))
		},
		script: map[string]string{"skipA": "TTF", "w": "TFT", "A": "..S", "B": "R.S"},
		trace:  "RKS",
		log:    []string{"B", "halt:B", "A B"},
	}, {
		name: "SequenceWithMemory: a failure keeps the position and the skips before it",
		build: func(h *harness) *Node {
			return SequenceWithMemory(h.skip("A"), h.act("B").While(h.flag("w")))
		},
		script: map[string]string{"skipA": "T", "w": "TF", "B": "F."},
		trace:  "FK",
		log:    []string{"B", ""},
	}, {
		name:   "ReactiveSequence: a skipped guard is passed over (SkippingLogic.SkippingReactiveSequence)",
		build:  func(h *harness) *Node { return ReactiveSequence(h.skip("A"), h.act("B")) },
		script: map[string]string{"skipA": "TTF", "A": "..S", "B": "RSS"},
		trace:  "RSS",
		log:    []string{"B", "B", "A B"},
	}, {
		name:   "ReactiveSequence: all skipped is Skipped (SkippingLogic.ReactiveSingleChild)",
		build:  func(h *harness) *Node { return ReactiveSequence(h.skip("A")) },
		script: map[string]string{"skipA": "TTF", "A": "..S"},
		trace:  "KKS",
	}, {
		name:   "ReactiveSelector: all skipped is Skipped",
		build:  func(h *harness) *Node { return ReactiveSelector(h.skip("A"), h.skip("B")) },
		script: map[string]string{"skipA": "TT", "skipB": "TF", "B": ".F"},
		trace:  "KF",
	}, {
		name:   "Parallel: all skipped in a tick is Skipped",
		build:  func(h *harness) *Node { return Parallel(1, 1, h.skip("A"), h.skip("B")) },
		script: map[string]string{"skipA": "TT", "skipB": "TF", "B": ".R"},
		trace:  "KR",
	}, {
		name:   "Parallel: a skipped child does not count for a threshold given as a count, and is ticked again",
		build:  func(h *harness) *Node { return Parallel(2, 1, h.skip("A"), h.act("B")) },
		script: map[string]string{"skipA": "TF", "A": ".S", "B": "S."},
		trace:  "RS",
		log:    []string{"B", "A"},
	}, {
		// BehaviorTree.CPP's ParallelNode adds the skipped children to the successes when
		// success_count is negative (counted from the end), so all skipped succeeds.
		name:   "Parallel: a skipped child counts for a success threshold counted from the end",
		build:  func(h *harness) *Node { return Parallel(All, 1, h.skip("A"), h.skip("B")) },
		script: map[string]string{"skipA": "TT", "skipB": "TF", "B": ".S"},
		trace:  "SS",
		log:    []string{"", "B"},
	}, {
		// BehaviorTree.CPP's IfThenElse throws on a skipped condition; here the node is
		// skipped without ticking a branch.
		name: "IfThenElse: a skipped condition skips the node; a skipped branch too",
		build: func(h *harness) *Node {
			return IfThenElse(h.cond("C").SkipIf(h.flag("k")), h.skip("A"), h.act("B"))
		},
		script: map[string]string{"k": "TF.", "C": ".SF", "skipA": ".T", "B": "..S"},
		trace:  "KKS",
		log:    []string{"", "C", "C B"},
	}, {
		// BehaviorTree.CPP's WhileDoElse returns IDLE on a skipped condition (its parent
		// throws); here the running branch is halted and the node skipped.
		name: "WhileDoElse: a skipped condition halts the running branch and skips the node",
		build: func(h *harness) *Node {
			return WhileDoElse(h.cond("C").SkipIf(h.flag("k")), h.act("A"), h.act("B"))
		},
		script: map[string]string{"k": ".T", "C": "S.", "A": "R."},
		trace:  "RK",
		log:    []string{"C A", "halt:A"},
	}, {
		name: "Choose: a skipped child skips the node",
		build: func(h *harness) *Node {
			return Choose("c", func(*Context) int { return 0 }, h.skip("A"), h.act("B"))
		},
		script: map[string]string{"skipA": "TF", "A": ".S"},
		trace:  "KS",
	}, {
		name: "Switch: a skipped case skips the node, without falling back to the default",
		build: func(h *harness) *Node {
			return Switch(Literal(1), []int{1}, h.skip("A"), h.act("B"))
		},
		script: map[string]string{"skipA": "TF", "A": ".F"},
		trace:  "KF",
		log:    []string{"", "A"},
	}, {
		name:   "Inverter passes Skipped through",
		build:  func(h *harness) *Node { return Inverter(h.skip("A")) },
		script: map[string]string{"skipA": "TF", "A": ".S"},
		trace:  "KF",
	}, {
		name:   "ForceSuccess and ForceFailure pass Skipped through",
		build:  func(h *harness) *Node { return Sequence(ForceSuccess(h.skip("A")), ForceFailure(h.skip("B"))) },
		script: map[string]string{"skipA": "TT", "skipB": "TF", "B": ".S"},
		trace:  "KF",
	}, {
		name:   "Cooldown: a skipped child starts no cooldown",
		build:  func(h *harness) *Node { return Cooldown(1, h.skip("A")) },
		script: map[string]string{"skipA": "TF", "A": ".SS"},
		trace:  "KSF",
	}, {
		name:   "RunOnce: a skipped child has not run yet",
		build:  func(h *harness) *Node { return RunOnce(h.skip("A")) },
		script: map[string]string{"skipA": "TF", "A": ".S"},
		trace:  "KSS",
		log:    []string{"", "A", ""},
	}, {
		name:   "RunOnceThenSkip: Skipped once the child has finished (BehaviorTree.CPP's then_skip)",
		build:  func(h *harness) *Node { return Sequence(RunOnceThenSkip(h.act("A")), h.act("B")) },
		script: map[string]string{"A": "RF", "B": "..SS"},
		trace:  "RFSS",
		log:    []string{"A", "A", "B", "B"},
	}, {
		// BehaviorTree.CPP's Timeout keeps its timer running past a skipped child.
		name: "Timeout: a skipped child ends it; the next entry starts the timer afresh",
		build: func(h *harness) *Node {
			return Timeout(0.5, h.act("A").While(h.flag("w")))
		},
		script: map[string]string{"w": "TFTTTT", "A": "R.RR.R"},
		trace:  "RKRRFR",
		log:    []string{"A", "halt:A", "A", "A", "halt:A", "A"},
	}, {
		name: "Delay: a skipped child ends it; the next entry waits again",
		build: func(h *harness) *Node {
			return Delay(0.25, h.skip("A"))
		},
		script: map[string]string{"skipA": ".T..", "A": "...S"},
		trace:  "RKRS",
	}, {
		name:   "RepeatUntilFailure passes Skipped through",
		build:  func(h *harness) *Node { return RepeatUntilFailure(h.skip("A")) },
		script: map[string]string{"skipA": "TF", "A": ".S"},
		trace:  "KR",
	}, {
		name: "a SubTree skipped by its own precondition (SkippingLogic.SkipSubtree)",
		build: func(h *harness) *Node {
			return Sequence(h.act("A"), SubTree("sub", h.act("B")).SkipIf(h.flag("k")))
		},
		script: map[string]string{"k": "T", "A": "S"},
		trace:  "S",
		log:    []string{"A"},
	}})
}

// A Repeat whose child is skipped is skipped and keeps its count, as in BehaviorTree.CPP.
func TestRepeatSkippedKeepsCount(t *testing.T) {
	calls, perTick := 0, []int{}
	build := func(h *harness) *Node {
		// Success, Running, then Success forever.
		a := Action("A", func(*Context) Status {
			calls++
			if calls == 2 {
				return Running
			}
			return Success
		})
		return Repeat(3, a.While(h.flag("w")))
	}
	r := runScript(t, build, map[string]string{"w": "TFT"}, 3, 0.25, func(int, *run) {
		perTick = append(perTick, calls)
	})
	assert.Equal(t, "RKS", r.trace)
	// Tick 1: one cycle, then Running; tick 2: halted, skipped; tick 3: the two cycles left.
	assert.Equal(t, []int{2, 2, 4}, perTick)
}

func TestScriptNodes(t *testing.T) {
	schema := blackboard.NewSchema()
	x := blackboard.MustDeclare[int](schema, "x")
	blackboard.MustDeclare[int](schema, "y")
	env := &script.Env{Schema: schema}
	tree, err := Compile("t", Selector(
		Sequence(Script(script.MustCompile("x += 1", env)), ScriptCondition(script.MustCompile("x >= 2", env))),
		Script(script.MustCompile("x = x / y", env)), // y is never set: a run-time error
	))
	require.NoError(t, err)
	assert.Equal(t, "Script", tree.NodeKind(2))
	assert.Equal(t, "ScriptCondition", tree.NodeKind(3))
	st := schema.NewStore()
	blackboard.Set(st, x, 0)
	m := tree.NewMemory()
	ctx := &Context{Blackboard: st}
	node, lastErr := ctx.LastScriptError()
	assert.Equal(t, -1, node)
	assert.NoError(t, lastErr)

	assert.Equal(t, Failure, tree.Tick(&m, ctx), "x = 1: condition false, then the failing script")
	assert.Equal(t, uint64(1), ctx.ScriptErrors())
	node, lastErr = ctx.LastScriptError()
	assert.Equal(t, 4, node)
	assert.ErrorIs(t, lastErr, script.ErrNotSet)
	assert.Equal(t, Failure, m.Status(4))

	assert.Equal(t, Success, tree.Tick(&m, ctx), "x = 2")
	assert.Equal(t, uint64(1), ctx.ScriptErrors())
	v, _ := blackboard.Get(st, x)
	assert.Equal(t, 2, v)
}

func TestScriptConditionErrorIsFailure(t *testing.T) {
	schema := blackboard.NewSchema()
	blackboard.MustDeclare[int](schema, "y")
	tree, err := Compile("t", ScriptCondition(script.MustCompile("y > 0", &script.Env{Schema: schema})))
	require.NoError(t, err)
	m := tree.NewMemory()
	ctx := &Context{Blackboard: schema.NewStore()}
	assert.Equal(t, Failure, tree.Tick(&m, ctx))
	assert.Equal(t, uint64(1), ctx.ScriptErrors())
	ctx.Blackboard = nil // no store: an error too, never a panic
	assert.Equal(t, Failure, tree.Tick(&m, ctx))
	assert.Equal(t, uint64(2), ctx.ScriptErrors())
}

// A precondition that fails at run time is a Failure of its node: a running node is
// halted first, post-conditions run, and the error is counted.
func TestPreconditionRuntimeError(t *testing.T) {
	checkCondCases(t, []condCase{{
		name: "skipIf on an entry not set",
		build: func(h *harness) *Node {
			blackboard.MustDeclare[int](h.schema(), "unset")
			return h.act("A").SkipIf(h.prog("unset > 0")).OnFailure(h.note("onFailure:A"))
		},
		trace: "FF",
		log:   []string{"", ""},
		notes: []string{"onFailure:A", "onFailure:A"},
	}, {
		name: "while on an entry not set, while Running",
		build: func(h *harness) *Node {
			n := blackboard.MustDeclare[int](h.schema(), "n")
			blackboard.Set(h.store, n, 1)
			h.before = func() {
				if h.tick == 2 {
					blackboard.Unset(h.store, n)
				}
			}
			return h.act("A").While(h.prog("n > 0")).OnHalted(h.note("halted:A")).OnFailure(h.note("onFailure:A"))
		},
		script: map[string]string{"A": "R"},
		trace:  "RF",
		log:    []string{"A", "halt:A"},
		notes:  []string{"", "halted:A onFailure:A"},
	}})
}

func TestScriptCompileErrors(t *testing.T) {
	schema := blackboard.NewSchema()
	env := &script.Env{Schema: schema}
	str := script.MustCompile("'a' .. 'b'", env)
	_, err := Compile("t", AlwaysSuccess().SkipIf(str))
	assert.ErrorIs(t, err, ErrScript)
	assert.ErrorContains(t, err, "_skipIf: the script's value is a string")
	_, err = Compile("t", ScriptCondition(str))
	assert.ErrorIs(t, err, ErrScript)
	_, err = Compile("t", Script(nil))
	assert.ErrorIs(t, err, ErrNilFunc)
	_, err = Compile("t", ScriptCondition(nil))
	assert.ErrorIs(t, err, ErrNilFunc)
	// Post-conditions may have any value; a nil program removes a condition.
	_, err = Compile("t", AlwaysSuccess().Post(str).SkipIf(str).SkipIf(nil))
	assert.NoError(t, err)
	_, err = Compile("t", Script(str))
	assert.NoError(t, err)
}

func TestDumpAndTracerShowSkipped(t *testing.T) {
	schema := blackboard.NewSchema()
	skip := blackboard.MustDeclare[bool](schema, "skip")
	env := &script.Env{Schema: schema}
	tree, err := Compile("t", Sequence(
		AlwaysSuccess().SkipIf(script.MustCompile("skip", env)),
		AlwaysSuccess(),
	))
	require.NoError(t, err)
	st := schema.NewStore()
	blackboard.Set(st, skip, true)
	m := tree.NewMemory()
	ctx := &Context{Blackboard: st, Time: 1}
	tr := NewTracer(tree, 0)
	assert.Equal(t, Success, tr.Tick(&m, ctx))
	var b bytes.Buffer
	require.NoError(t, tree.Dump(&b, &m))
	assert.Equal(t, `Sequence                                     Success
├── AlwaysSuccess _skipIf="skip"             Skipped
└── AlwaysSuccess                            Success
`, b.String())
	assert.Equal(t, []Transition{
		{Time: 1, Node: 0, From: Idle, To: Success},
		{Time: 1, Node: 1, From: Idle, To: Skipped},
		{Time: 1, Node: 2, From: Idle, To: Success},
	}, tr.Log())
}

// condTree is a guard using every kind of condition and both script nodes, on numbers
// only (no string is built); it returns its schema.
func condTree() (*Node, *blackboard.Schema) {
	schema := blackboard.NewSchema()
	blackboard.MustDeclare[int](schema, "hp")
	blackboard.MustDeclare[int](schema, "ammo")
	blackboard.MustDeclare[bool](schema, "alert")
	env := &script.Env{Schema: schema}
	c := func(src string) *script.Program { return script.MustCompile(src, env) }
	return ReactiveSelector(
		Sequence(
			ScriptCondition(c("hp < 30")),
			Wait(0.5).While(c("hp < 50")).OnHalted(c("hp += 1")),
		),
		Sequence(
			Script(c("shots := 0; shots += 1")).SkipIf(c("ammo <= 0")),
			AlwaysSuccess().FailureIf(c("!alert")).OnSuccess(c("ammo -= 1")).OnFailure(c("hp -= 1")).
				Post(c("alert = ammo / 2 == 1 || alert")),
			Wait(0.25).SuccessIf(c("ammo > 100")),
		),
		Script(c("ammo += 3; hp = hp < 100 ? hp + 7 : 10; alert = !alert")),
	), schema
}

func TestTickWithScriptsAllocatesNothing(t *testing.T) {
	root, schema := condTree()
	tree, err := Compile("conds", root)
	require.NoError(t, err)
	const n = 16
	mems := make([]Memory, n)
	stores := make([]*blackboard.Store, n)
	hp := blackboard.MustDeclare[int](schema, "hp")
	ammo := blackboard.MustDeclare[int](schema, "ammo")
	alert := blackboard.MustDeclare[bool](schema, "alert")
	for i := range mems {
		mems[i] = tree.NewMemory()
		stores[i] = schema.NewStore()
		blackboard.Set(stores[i], hp, i*7)
		blackboard.Set(stores[i], ammo, i%3)
		blackboard.Set(stores[i], alert, i%2 == 0)
	}
	ctx := &Context{DT: 0.1}
	k := 0
	var seen [5]bool
	allocs := testing.AllocsPerRun(2000, func() {
		i := k % n
		ctx.Blackboard = stores[i]
		ctx.Time += 0.01
		seen[tree.Tick(&mems[i], ctx)] = true
		k++
	})
	assert.Zero(t, allocs)
	assert.Zero(t, ctx.ScriptErrors())
	assert.True(t, seen[Running] && seen[Success], "statuses seen %v", seen)
}

// Scripts are shared by every agent: ticking agents from several goroutines gives the
// same blackboards as ticking them in turn.
func TestConcurrentTickWithScripts(t *testing.T) {
	s, k := guardSchema()
	tree, err := Compile("guard", guardScriptTree(s, true))
	require.NoError(t, err)
	const workers, per = 4, 64
	run := func(parallel bool) []*blackboard.Store {
		stores := make([]*blackboard.Store, workers*per)
		mems := make([]Memory, len(stores))
		for i := range stores {
			stores[i] = s.NewStore()
			blackboard.Set(stores[i], k.hp, 10+i%90)
			blackboard.Set(stores[i], k.ammo, i%4)
			blackboard.Set(stores[i], k.patrol, 0)
			blackboard.Set(stores[i], k.shots, 0)
			blackboard.Set(stores[i], k.enemy, i%3 == 0)
			mems[i] = tree.NewMemory()
		}
		work := func(w int, done chan<- struct{}) {
			ctx := &Context{DT: 0.1}
			for step := range 30 {
				ctx.Time = float64(step) * ctx.DT
				for i := w * per; i < (w+1)*per; i++ {
					ctx.Blackboard = stores[i]
					tree.Tick(&mems[i], ctx)
				}
			}
			assert.Zero(t, ctx.ScriptErrors())
			done <- struct{}{}
		}
		done := make(chan struct{}, workers)
		for w := range workers {
			if parallel {
				go work(w, done)
			} else {
				work(w, done)
			}
		}
		for range workers {
			<-done
		}
		return stores
	}
	a, b := run(true), run(false)
	for i := range a {
		for _, key := range []blackboard.Key[int]{k.hp, k.ammo, k.patrol, k.shots} {
			x, _ := blackboard.Get(a[i], key)
			y, _ := blackboard.Get(b[i], key)
			require.Equal(t, y, x, "agent %d key %s", i, key.Name())
		}
	}
}
