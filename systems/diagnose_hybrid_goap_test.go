package systems_test

import (
	"bytes"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ai/hybrid"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// forager is a component of the program's own holding the plan of a
// hybrid.GOAPAction (Run and its believed State) and the TreeRun of the state whose
// tree holds it.
type forager struct {
	Tree  hybrid.TreeRun
	Plan  goap.Run
	Facts goap.State
	Spare goap.Run // a Run no node runs
}

func foragerOf(ctx *bt.Context) *forager { return systems.Get[forager](systems.AgentOf(ctx)) }

// forageDomain is a colonist's GOAP domain: goal Eat (priority 10, hungry == 0) by
// GoToFood then Eat, and, with work, goal Work (priority 1) by Deliver, which runs
// for good. typo: Eat's precondition reads "atFod", a fact nothing makes true.
func forageDomain(t *testing.T, typo, work bool) (*goap.Domain, goap.Fact) {
	b := goap.NewBuilder("colonist")
	hungry, atFood, delivered := b.Fact("hungry"), b.Fact("atFood"), b.Fact("delivered")
	pre := atFood
	if typo {
		pre = b.Fact("atFod")
	}
	running := func(*goap.Context) goap.Status { return goap.Running }
	b.Action(goap.Action{Name: "GoToFood", Cost: 1, Effects: []goap.Effect{{Fact: atFood, Value: 1}}, Run: running})
	b.Action(goap.Action{Name: "Eat", Cost: 1, Pre: []goap.Cond{{Fact: pre, Op: goap.Eq, Value: 1}},
		Effects: []goap.Effect{{Fact: hungry, Value: 0}}})
	b.Goal(goap.Goal{Name: "Eat", Priority: 10, Want: []goap.Cond{{Fact: hungry, Op: goap.Eq, Value: 0}}})
	if work {
		b.Action(goap.Action{Name: "Deliver", Cost: 1, Effects: []goap.Effect{{Fact: delivered, Value: 1}}, Run: running})
		b.Goal(goap.Goal{Name: "Work", Priority: 1, Want: []goap.Cond{{Fact: delivered, Op: goap.Eq, Value: 1}}})
	}
	d, err := b.Build()
	require.NoError(t, err)
	return d, hungry
}

// forageTree is Sequence(GOAPAction("Forage", d)) on the forager's Run and Facts.
func forageTree(t *testing.T, d *goap.Domain) *bt.Tree {
	tree, err := bt.Compile("forage", bt.Sequence(hybrid.GOAPAction("Forage", d, func(ctx *bt.Context) (*goap.Run, *goap.State) {
		f := foragerOf(ctx)
		return &f.Plan, &f.Facts
	})))
	require.NoError(t, err)
	return tree
}

// forageMachine is a machine whose state "Day/Forage" runs tree.
func forageMachine(t *testing.T, tree *bt.Tree) *fsm.Machine {
	b := fsm.NewBuilder("colonist")
	day := b.State("Day", fsm.Hooks{})
	s := b.Substate(day, "Forage", hybrid.TreeState(tree, func(ctx *fsm.Context) *hybrid.TreeRun {
		return &systems.Get[forager](systems.StateAgent(ctx)).Tree
	}, nil))
	b.Initial(day, s)
	m, err := b.Build()
	require.NoError(t, err)
	return m
}

// A GOAP domain run by a hybrid.GOAPAction in a tree (a state machine state's, a
// Brain's) whose goal can never be planned from the agent's State (Eat's precondition
// misspelt) left the agents idle, or busy below the goal, and Diagnose and Diagnostics
// reported nothing: planner_domain_error was counted only for GOAPPlanners. They count
// the agents as they count a GOAPPlanner, naming the Run's field, the node, tree and
// state, and the goal, action and fact; not the agents whose domain is spelt right.
func TestDiagnoseCountsAPlanOfAGOAPActionThatReachesNoGoal(t *testing.T) {
	idle, hungry := forageDomain(t, true, false) // Eat alone: the action fails
	busy, _ := forageDomain(t, true, true)       // Work is planned below Eat
	right, _ := forageDomain(t, false, true)

	world := arche.NewWorld()
	w := &world
	var start goap.State
	start[hungry] = 1
	spawn := func(th systems.Thinker) arche.Entity {
		sp, err := systems.NewSpawner(w, systems.Mover{}, th, systems.With(forager{Facts: start}))
		require.NoError(t, err)
		return sp.Spawn(r2.Vec{X: 2, Y: 2}, nil)
	}
	idleInState := spawn(systems.Thinker{Machine: forageMachine(t, forageTree(t, idle)), Interval: 0.1})
	busyInBrain := spawn(systems.Thinker{Tree: forageTree(t, busy), Interval: 0.1})
	fine := spawn(systems.Thinker{Machine: forageMachine(t, forageTree(t, right)), Interval: 0.1})
	var out bytes.Buffer
	diag := &systems.Diagnostics{Every: 5, Out: &out}
	s := ecs.NewScheduler(ecs.NewClockSystem(0.1), &systems.FSM{}, &systems.Decision{}, diag)
	s.Initialize(w)
	defer s.Finalize(w)

	s.Run(w, 10)
	foragers := generic.NewMap1[forager](w)
	require.Equal(t, goap.Failure, foragers.Get(idleInState).Plan.Status, "no plan for Eat: the action fails")
	require.Equal(t, "Deliver", busy.ActionName(foragers.Get(busyInBrain).Plan.Current()), "Work is carried out below Eat")
	require.True(t, foragers.Get(fine).Plan.HasPlan(), "spelt right: Eat is planned")

	agents, rep := systems.DiagnoseAgents(w, systems.CausePlannerDomainError)
	assert.Equal(t, []arche.Entity{idleInState, busyInBrain}, agents, "%s", rep)
	assert.Contains(t, rep.String(), `planner_domain_error 2 (e.g. entity `)
	assert.Contains(t, rep.String(), `its goap.Run forager.Plan, run by hybrid.GOAPAction "Forage" in tree "forage" of state "Day/Forage" (machine "colonist"): `+
		`the action fails (goap.Run.Status), no plan exists from the goap.State its run function returns: goal "Eat" needs hungry == 0; `+
		`Eat could make that true but needs atFod == 1, which no action's effect makes true and the state lacks (atFod is 0)`)
	assert.Equal(t, 2, diag.Report.Counts[systems.CausePlannerDomainError], "Diagnostics too: %s", diag.Report)
	assert.Equal(t, rep.String(), diag.Report.String())
	diag.Check(w)
	assert.Zero(t, testing.AllocsPerRun(5, func() { diag.Check(w) }), "a check in steady state allocates nothing, findings and all")

	// the busy agent, in a Brain's tree: its note names both goals
	foragers.Get(idleInState).Plan = goap.Run{}
	rep = systems.Diagnose(w)
	assert.Equal(t, 1, rep.Counts[systems.CausePlannerDomainError], "%s", rep)
	assert.Contains(t, rep.String(), `its goap.Run forager.Plan, run by hybrid.GOAPAction "Forage" in tree "forage" (its Brain): `+
		`it carries out a plan for goal "Work" while goal "Eat", of higher priority, has no plan from the goap.State its run function returns: `+
		`goal "Eat" needs hungry == 0; Eat could make that true but needs atFod == 1`)

	// a Run no node runs is counted only for searches cut (its domain is unknown)
	foragers.Get(busyInBrain).Plan = goap.Run{}
	foragers.Get(fine).Spare = goap.Run{Status: goap.Failure}
	rep = systems.Diagnose(w)
	assert.Zero(t, rep.Counts[systems.CausePlannerDomainError], "%s", rep)
	foragers.Get(fine).Spare = goap.Run{Status: goap.Failure, DomainErrors: 3}
	rep = systems.Diagnose(w)
	assert.Equal(t, 1, rep.Counts[systems.CausePlannerDomainError], "%s", rep)
	assert.Contains(t, rep.String(), `its goap.Run forager.Spare: its goal could not be planned within goap.MaxSteps (16) actions or the planner's node budget `+
		`(goap.Run.DomainErrors: ErrPlanTooLong or ErrBudget; a plan may exist): split the goal into nearer ones `+
		`(no hybrid.GOAPAction of the agent's Brain or state trees runs it)`)
}
