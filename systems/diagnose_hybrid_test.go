package systems_test

import (
	"bytes"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/ai/hybrid"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// worker is a component of the program's own holding what its hybrid nodes run: the
// plan of an HTNAction (Run and its believed State), the State of a UtilitySelector,
// and the TreeRun of the state whose tree holds them.
type worker struct {
	Tree  hybrid.TreeRun
	Run   htn.Run
	Plan  htn.State
	Jobs  utility.State
	Spare htn.Run // a Run no node runs: never ticked
}

func workerOf(ctx *bt.Context) *worker { return systems.Get[worker](systems.AgentOf(ctx)) }

// workTree is UtilitySelector("Job", r: work, rest) whose "work" child is
// HTNAction("Guard", d) with the worker's Run.
func workTree(t *testing.T, d *htn.Domain, r *utility.Reasoner) *bt.Tree {
	tree, err := bt.Compile("work", hybrid.UtilitySelector("Job", r,
		func(ctx *bt.Context) (*utility.State, utility.Source) { return &workerOf(ctx).Jobs, nil },
		hybrid.HTNAction("Guard", d, func(ctx *bt.Context) (*htn.Run, *htn.State) { c := workerOf(ctx); return &c.Run, &c.Plan }),
		bt.Action("Rest", func(*bt.Context) bt.Status { return bt.Running })))
	require.NoError(t, err)
	return tree
}

// workMachine is a machine whose state "Day/Work" runs tree (hybrid.TreeState).
func workMachine(t *testing.T, tree *bt.Tree) *fsm.Machine {
	b := fsm.NewBuilder("villager")
	day := b.State("Day", fsm.Hooks{})
	work := b.Substate(day, "Work", hybrid.TreeState(tree, func(ctx *fsm.Context) *hybrid.TreeRun {
		return &systems.Get[worker](systems.StateAgent(ctx)).Tree
	}, nil))
	b.Initial(day, work)
	m, err := b.Build()
	require.NoError(t, err)
	return m
}

// An HTN domain whose root never decomposes, run by a hybrid.HTNAction in a tree
// inside a state machine's state (and in a Brain's tree), never plans: its htn.Run in
// the program's own component counts NoPlans, and Diagnose and Diagnostics reported
// nothing (planner_domain_error was counted only for the agents of systems.HTN; the
// colony of FINDINGS.md section 3). They count the agents once the spell has lasted
// HTNNoPlanSpan (NoPlanSince to NoPlanLast), with WhyNoPlan's explanation and the node,
// tree and state running the plan; not an agent whose domain has a last method
// without conditions, nor before the span.
func TestDiagnoseCountsAPlanOfAnHTNActionThatNeverDecomposes(t *testing.T) {
	r, err := utility.New("jobs", utility.Policy{}, utility.Action{Name: "work"}, utility.Action{Name: "rest", Weight: 0.1})
	require.NoError(t, err)
	stuck := workTree(t, guardDomain(t, "guard", false), r)
	calm := workTree(t, guardDomain(t, "calm", true), r)

	world := arche.NewWorld()
	w := &world
	spawn := func(th systems.Thinker) arche.Entity {
		sp, err := systems.NewSpawner(w, systems.Mover{}, th, systems.With(worker{}))
		require.NoError(t, err)
		return sp.Spawn(r2.Vec{X: 2, Y: 2}, nil)
	}
	inState := spawn(systems.Thinker{Machine: workMachine(t, stuck), Interval: 0.1})
	inBrain := spawn(systems.Thinker{Tree: stuck, Interval: 0.1})
	fine := spawn(systems.Thinker{Machine: workMachine(t, calm), Interval: 0.1})
	var out bytes.Buffer
	diag := &systems.Diagnostics{Every: 10, Out: &out}
	s := ecs.NewScheduler(ecs.NewClockSystem(0.1), &systems.FSM{}, &systems.Decision{}, diag)
	s.Initialize(w)
	defer s.Finalize(w)

	s.Run(w, 50) // 5 s: shorter than HTNNoPlanSpan
	workers := generic.NewMap1[worker](w)
	run := workers.Get(inState).Run
	assert.True(t, run.NoPlan)
	assert.Greater(t, run.NoPlans, uint32(10), "every tick of the action plans, and finds nothing")
	assert.Zero(t, workers.Get(fine).Run.NoPlans, "Idle decomposes")
	rep := systems.Diagnose(w)
	assert.Zero(t, rep.Counts[systems.CausePlannerDomainError], "a short spell: %s", rep)

	s.Run(w, int(systems.HTNNoPlanSpan*10))
	agents, rep := systems.DiagnoseAgents(w, systems.CausePlannerDomainError)
	assert.Equal(t, []arche.Entity{inState, inBrain}, agents, "%s", rep)
	assert.Contains(t, rep.String(), `planner_domain_error 2 (e.g. entity `)
	assert.Contains(t, rep.String(), `its htn.Run worker.Run, run by hybrid.HTNAction "Guard" in tree "work" of state "Day/Work" (machine "villager"): `+
		`the plan's root task found no decomposition on every planning from 0.0 s to `)
	assert.Contains(t, rep.String(), `(htn.Run.NoPlanSince, NoPlanLast), so the action fails on every tick: root "Guard" does not decompose: `+
		`method Attack needs enemy == 1 (enemy is 0; no task's effect changes enemy: only the sensor or a system writing the state can); `+
		`if it has nothing to do then, give the root a last method without conditions`)
	assert.Equal(t, 2, diag.Report.Counts[systems.CausePlannerDomainError], "Diagnostics too: %s", diag.Report)
	assert.Contains(t, diag.Report.String(), `its htn.Run worker.Run, run by hybrid.HTNAction "Guard" in tree "work" of state "Day/Work"`, "its last check's note")
	diag.Check(w)
	assert.Zero(t, testing.AllocsPerRun(5, func() { diag.Check(w) }), "a check in steady state allocates nothing, findings and all")

	// the agent with a Brain: its note names the Brain's tree
	workers.Get(inState).Run = htn.Run{}
	rep = systems.Diagnose(w)
	assert.Equal(t, inBrain, rep.Examples[systems.CausePlannerDomainError])
	assert.Contains(t, rep.String(), `its htn.Run worker.Run, run by hybrid.HTNAction "Guard" in tree "work" (its Brain): `)

	// a Run whose spell no hybrid node runs (the program's own planner code) is
	// counted with what the Run tells
	workers.Get(inBrain).Run = htn.Run{}
	workers.Get(fine).Spare = htn.Run{Status: htn.Failure, NoPlan: true, NoPlans: 200, NoPlanSince: 1, NoPlanLast: 20}
	rep = systems.Diagnose(w)
	assert.Equal(t, 1, rep.Counts[systems.CausePlannerDomainError], "%s", rep)
	assert.Contains(t, rep.String(), `its htn.Run worker.Spare: the plan's root task found no decomposition on every planning from 1.0 s to 20.0 s `+
		`(htn.Run.NoPlanSince, NoPlanLast), so the action fails on every tick: no hybrid.HTNAction of the agent's Brain or state trees runs it`)
}

// A utility.KeyInput of a hybrid.UtilitySelector's reasoner reading a key declared in
// the schema and never written vetoes its action for every agent, and Diagnose
// reported nothing (blackboard_key_unwritten was counted only for the reasoners of a
// UtilityBrain; FINDINGS.md section 4). It counts the agents whose State (in the
// program's own component) decided with such a reasoner, naming the node, tree and
// state; once a store has held the key, none.
func TestDiagnoseCountsAUtilitySelectorKeyNeverWritten(t *testing.T) {
	schema := blackboard.NewSchema()
	safety := blackboard.MustDeclare[float64](schema, "safety")
	r, err := utility.New("jobs", utility.Policy{},
		utility.Action{Name: "work", Considerations: []utility.Consideration{{Name: "safe", Input: utility.KeyInput(safety), Range: utility.Unit}}},
		utility.Action{Name: "rest", Weight: 0.1})
	require.NoError(t, err)
	tree := workTree(t, guardDomain(t, "calm", true), r)

	world := arche.NewWorld()
	w := &world
	sp, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Machine: workMachine(t, tree), Schema: schema, Interval: 0.1},
		systems.With(worker{}))
	require.NoError(t, err)
	inState := sp.Spawn(r2.Vec{X: 2, Y: 2}, nil)
	sp, err = systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: tree, Schema: schema, Interval: 0.1}, systems.With(worker{}))
	require.NoError(t, err)
	inBrain := sp.Spawn(r2.Vec{X: 3, Y: 2}, nil)
	var out bytes.Buffer
	diag := &systems.Diagnostics{Every: 5, Out: &out}
	s := ecs.NewScheduler(ecs.NewClockSystem(0.1), &systems.FSM{}, &systems.Decision{}, diag)
	s.Initialize(w)
	defer s.Finalize(w)

	rep := systems.Diagnose(w)
	assert.Zero(t, rep.Counts[systems.CauseBlackboardKeyUnwritten], "before a decision: %s", rep)
	s.Run(w, 10)
	workers := generic.NewMap1[worker](w)
	require.Positive(t, workers.Get(inState).Jobs.Decisions)
	assert.Equal(t, 1, workers.Get(inState).Jobs.Choice, "work is vetoed: rest wins")
	agents, rep := systems.DiagnoseAgents(w, systems.CauseBlackboardKeyUnwritten)
	assert.Equal(t, []arche.Entity{inState, inBrain}, agents, "%s", rep)
	assert.Contains(t, rep.String(), `blackboard_key_unwritten 2 (e.g. entity `)
	assert.Contains(t, rep.String(), `its utility.State worker.Jobs, run by hybrid.UtilitySelector "Job" in tree "work" of state "Day/Work" (machine "villager"): `+
		`reasoner "jobs" reads key "safety" through a utility.KeyInput and no store of its schema has ever held it: it reads NaN`)
	assert.Equal(t, 2, diag.Report.Counts[systems.CauseBlackboardKeyUnwritten], "Diagnostics too: %s", diag.Report)
	assert.Equal(t, rep.String(), diag.Report.String())
	diag.Check(w)
	assert.Zero(t, testing.AllocsPerRun(5, func() { diag.Check(w) }), "a check in steady state allocates nothing, findings and all")

	boards := generic.NewMap1[components.Blackboard](w)
	blackboard.Set(boards.Get(inBrain).Store, safety, 1) // written by the program: no agent is counted
	rep = systems.Diagnose(w)
	assert.Zero(t, rep.Counts[systems.CauseBlackboardKeyUnwritten], "%s", rep)
}
