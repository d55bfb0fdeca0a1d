package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// An HTN domain that can never plan (a loop with no end: every planning fails
// with ErrDepth) loads, and its agents idled with nothing counted (newbie20
// finding 4). htn.Run.DomainErrors counts such plannings, and Diagnose counts
// the agent as planner_domain_error; an agent whose domain merely has no
// applicable method (ErrNoPlan) is not counted.
func TestDiagnoseCountsAnHTNDomainThatCannotPlan(t *testing.T) {
	reg := &htn.Registry{}
	b := htn.NewBuilder("loop")
	noop := b.Primitive("Noop", htn.Primitive{})
	loop := b.Compound("Loop")
	b.Method(loop, htn.Method{Name: "Again", Tasks: []htn.TaskID{noop, loop}})
	b.Root(loop)
	d, err := b.Build()
	require.NoError(t, err)
	bad, err := reg.Add(d)
	require.NoError(t, err)
	b = htn.NewBuilder("never")
	f := b.Fact("go")
	root := b.Compound("Root")
	b.Method(root, htn.Method{Name: "Only", If: []htn.Condition{htn.Is(f, htn.Eq, 1)}, Tasks: []htn.TaskID{b.Primitive("Go", htn.Primitive{})}})
	b.Root(root)
	d, err = b.Build()
	require.NoError(t, err)
	idle, err := reg.Add(d)
	require.NoError(t, err)

	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, reg)
	looper, err := systems.NewSpawner(w, systems.HTNThinker{Registry: reg, Domain: bad})
	require.NoError(t, err)
	waiter, err := systems.NewSpawner(w, systems.HTNThinker{Registry: reg, Domain: idle})
	require.NoError(t, err)
	e := looper.Spawn(r2.Vec{}, nil)
	waiter.Spawn(r2.Vec{}, nil)
	s := ecs.NewScheduler(ecs.NewClockSystem(0.1), &systems.HTN{})
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 30)
	hp := generic.NewMap1[components.HTNPlanner](w)
	run := hp.Get(e).Run
	assert.Zero(t, run.Plans)
	assert.Greater(t, run.DomainErrors, uint32(1), "every think's planning fails with ErrDepth")
	r := systems.Diagnose(w)
	assert.Equal(t, 1, r.Counts[systems.CausePlannerDomainError], "%s", r)
	assert.Equal(t, e, r.Examples[systems.CausePlannerDomainError])
	assert.Equal(t, "planner_domain_error", systems.CausePlannerDomainError.String())
	assert.Contains(t, r.String(), "planner_domain_error 1 (e.g. entity")
}

// HTNThinker.Schema gives each agent a store of that schema (newbie20 finding 3:
// an HTN agent that reads a typed blackboard had to get a store made by hand).
func TestHTNThinkerSchemaMakesEachAgentsStore(t *testing.T) {
	reg := &htn.Registry{}
	b := htn.NewBuilder("d")
	b.Root(b.Primitive("p", htn.Primitive{}))
	d, err := b.Build()
	require.NoError(t, err)
	id, err := reg.Add(d)
	require.NoError(t, err)
	requireStorePerAgent(t, reg, func(sc *blackboard.Schema) systems.Bundle {
		return systems.HTNThinker{Registry: reg, Domain: id, Schema: sc}
	})
}

// GOAPThinker.Schema, as HTNThinker's: one store of the schema per agent.
func TestGOAPThinkerSchemaMakesEachAgentsStore(t *testing.T) {
	reg, id := fetchGOAP(t)
	requireStorePerAgent(t, reg, func(sc *blackboard.Schema) systems.Bundle {
		return systems.GOAPThinker{Registry: reg, Domain: id, Schema: sc}
	})
}

// requireStorePerAgent spawns two agents of bundle(schema) and one of bundle(nil) in a
// world holding the registry reg: the first two get a store each of the schema, the last
// none.
func requireStorePerAgent[R any](t *testing.T, reg *R, bundle func(*blackboard.Schema) systems.Bundle) {
	t.Helper()
	sc := blackboard.NewSchema()
	alarm := blackboard.MustDeclare[bool](sc, "alarm")
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, reg)
	with, err := systems.NewSpawner(w, bundle(sc))
	require.NoError(t, err)
	without, err := systems.NewSpawner(w, bundle(nil))
	require.NoError(t, err)
	a, b2, c := with.Spawn(r2.Vec{}, nil), with.Spawn(r2.Vec{}, nil), without.Spawn(r2.Vec{}, nil)
	bb := generic.NewMap1[components.Blackboard](w)
	sa, sb := bb.Get(a).Store, bb.Get(b2).Store
	require.NotNil(t, sa)
	require.NotNil(t, sb)
	assert.Same(t, sc, sa.Schema())
	assert.NotSame(t, sa, sb, "one store per agent")
	blackboard.Set(sa, alarm, true)
	v, _ := blackboard.Get(sb, alarm)
	assert.False(t, v)
	assert.Nil(t, bb.Get(c).Store, "no Schema: an empty Blackboard")
}

// A GOAP goal that needs more than goap.MaxSteps actions (20 chops of +1
// wood), or a search past the planner's node budget, left the agent idle
// with nothing counted (newbie23 finding 1). goap.Run.DomainErrors counts
// such plannings and Diagnose counts the agent as planner_domain_error, with
// a note; a goal that holds already (ErrNoPlan: nothing to plan) is not
// counted, nor is a goal within reach.
func TestDiagnoseCountsAGOAPGoalThatCannotBePlanned(t *testing.T) {
	domain := func(reg *goap.Registry, name string, need int16) goap.ID {
		b := goap.NewBuilder(name)
		wood := b.Fact("wood")
		b.Action(goap.Action{Name: "Chop", Cost: 1, Pre: []goap.Cond{{Fact: wood, Op: goap.Lt, Value: 100}},
			Effects: []goap.Effect{{Fact: wood, Value: 1, Add: true}}})
		b.Goal(goap.Goal{Name: "Stockpile", Priority: 1, Want: []goap.Cond{{Fact: wood, Op: goap.Ge, Value: need}}})
		d, err := b.Build()
		require.NoError(t, err)
		id, err := reg.Add(d)
		require.NoError(t, err)
		return id
	}
	for _, tc := range []struct {
		name       string
		need       int16
		nodeBudget int
		counted    bool
	}{
		{"20 chops, past MaxSteps", 20, 0, true},
		{"3 chops within a budget of 3 nodes", 3, 3, true},
		{"16 chops: MaxSteps exactly", 16, 0, false},
		{"0 chops: the goal holds", 0, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reg := &goap.Registry{}
			id := domain(reg, "wood", tc.need)
			world := arche.NewWorld()
			w := &world
			arche.AddResource(w, reg)
			sp, err := systems.NewSpawner(w, systems.GOAPThinker{Registry: reg, Domain: id})
			require.NoError(t, err)
			e := sp.Spawn(r2.Vec{}, nil)
			s := ecs.NewScheduler(ecs.NewClockSystem(0.1), &systems.GOAP{NodeBudget: tc.nodeBudget})
			require.NoError(t, s.InitializeChecked(w))
			defer s.Finalize(w)
			s.Run(w, 30)
			planners := generic.NewMap1[components.GOAPPlanner](w)
			run := planners.Get(e).Run
			r := systems.Diagnose(w)
			if !tc.counted {
				assert.Zero(t, run.DomainErrors)
				assert.Zero(t, r.Counts[systems.CausePlannerDomainError], "%s", r)
				return
			}
			assert.Zero(t, run.Plans)
			assert.Greater(t, run.DomainErrors, uint32(1), "every think's planning is cut")
			assert.Equal(t, 1, r.Counts[systems.CausePlannerDomainError], "%s", r)
			assert.Equal(t, e, r.Examples[systems.CausePlannerDomainError])
			assert.Contains(t, r.String(), "goap.MaxSteps (16) actions or the planner's node budget")
		})
	}
}

// A newcomer's crafting step needed fact axe, which no action sets: every think's
// search ran out of the node budget (at MaxNodesLimit too) and Diagnose said "raise
// GOAP.NodeBudget", the wrong fix. The planner now finds that no plan exists before
// searching (goap.ErrUnreachable, not counted in DomainErrors), and Diagnose still
// counts the idle agent as planner_domain_error, with a note that names the goal,
// the actions and the fact, and the fix: an action that sets it, or the state.
func TestDiagnoseSaysWhyAGOAPGoalHasNoPlan(t *testing.T) {
	for _, budget := range []int{0, goap.MaxNodesLimit} {
		reg := &goap.Registry{}
		b := goap.NewBuilder("worker")
		wood, planks, delivered, axe := b.Fact("wood"), b.Fact("planks"), b.Fact("delivered"), b.Fact("axe")
		b.Action(goap.Action{Name: "ChopWood", Cost: 1, Effects: []goap.Effect{{Fact: wood, Value: 1, Add: true}}})
		b.Action(goap.Action{Name: "CraftPlanks", Cost: 2, Pre: []goap.Cond{{Fact: wood, Op: goap.Ge, Value: 2}, {Fact: axe, Op: goap.Eq, Value: 1}},
			Effects: []goap.Effect{{Fact: wood, Value: -2, Add: true}, {Fact: planks, Value: 1, Add: true}}})
		b.Action(goap.Action{Name: "Deliver", Cost: 1, Pre: []goap.Cond{{Fact: planks, Op: goap.Ge, Value: 1}},
			Effects: []goap.Effect{{Fact: planks, Value: -1, Add: true}, {Fact: delivered, Value: 1, Add: true}}})
		b.Goal(goap.Goal{Name: "Deliver3", Priority: 1, Want: []goap.Cond{{Fact: delivered, Op: goap.Ge, Value: 3}}})
		d, err := b.Build()
		require.NoError(t, err)
		id, err := reg.Add(d)
		require.NoError(t, err)
		world := arche.NewWorld()
		w := &world
		arche.AddResource(w, reg)
		sp, err := systems.NewSpawner(w, systems.GOAPThinker{Registry: reg, Domain: id})
		require.NoError(t, err)
		e := sp.Spawn(r2.Vec{}, nil)
		s := ecs.NewScheduler(ecs.NewClockSystem(0.1), &systems.GOAP{NodeBudget: budget})
		require.NoError(t, s.InitializeChecked(w))
		s.Run(w, 30)
		planners := generic.NewMap1[components.GOAPPlanner](w)
		run := planners.Get(e).Run
		assert.Zero(t, run.Plans)
		assert.Zero(t, run.DomainErrors, "no plan exists: no search was cut")
		r := systems.Diagnose(w)
		assert.Equal(t, 1, r.Counts[systems.CausePlannerDomainError], "%s", r)
		assert.Contains(t, r.String(), `it idles, no plan exists from its GOAPPlanner.State: goal "Deliver3" needs delivered >= 3; `+
			`Deliver could make that true but needs planks >= 1; CraftPlanks could make that true but needs axe == 1, `+
			`which no action's effect makes true and the state lacks (axe is 0): give an action an effect that makes it true, `+
			`set axe in the state before planning, or, if perception sets it (the Sense hook, or a system writing the state), `+
			`declare it with Builder.Sensed`)
		assert.NotContains(t, r.String(), "NodeBudget")

		// With the axe in its state the agent plans, and nothing is counted.
		planners.Get(e).State[axe] = 1
		s.Run(w, 2)
		assert.Zero(t, systems.Diagnose(w).Counts[systems.CausePlannerDomainError])
		s.Finalize(w)
	}
}

// A GOAP agent busy with a lower goal while the goal above it needs more than
// goap.MaxSteps actions (PlanBest passed over it, ErrPlanTooLong) was counted
// nowhere: the agent rested for good and Diagnose said nothing. The cut is
// counted in goap.Run.DomainErrors and the agent as planner_domain_error.
func TestDiagnoseCountsAGOAPGoalTooLongAboveTheRunningPlan(t *testing.T) {
	reg := &goap.Registry{}
	b := goap.NewBuilder("busy")
	wood, rested := b.Fact("wood"), b.Fact("rested")
	b.Action(goap.Action{Name: "Chop", Cost: 1, Pre: []goap.Cond{{Fact: wood, Op: goap.Lt, Value: 100}},
		Effects: []goap.Effect{{Fact: wood, Value: 1, Add: true}}})
	b.Action(goap.Action{Name: "Rest", Cost: 1, Effects: []goap.Effect{{Fact: rested, Value: 1}},
		Run: func(*goap.Context) goap.Status { return goap.Running }})
	b.Goal(goap.Goal{Name: "Stockpile", Priority: 2, Want: []goap.Cond{{Fact: wood, Op: goap.Ge, Value: 20}}})
	b.Goal(goap.Goal{Name: "Rested", Priority: 1, Want: []goap.Cond{{Fact: rested, Op: goap.Eq, Value: 1}}})
	d, err := b.Build()
	require.NoError(t, err)
	id, err := reg.Add(d)
	require.NoError(t, err)
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, reg)
	sp, err := systems.NewSpawner(w, systems.GOAPThinker{Registry: reg, Domain: id})
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{}, nil)
	s := ecs.NewScheduler(ecs.NewClockSystem(0.1), &systems.GOAP{})
	require.NoError(t, s.InitializeChecked(w))
	defer s.Finalize(w)
	s.Run(w, 30)
	planners := generic.NewMap1[components.GOAPPlanner](w)
	run := planners.Get(e).Run
	require.True(t, run.HasPlan(), "busy resting")
	assert.Equal(t, "Rested", d.GoalName(run.Plan.Goal))
	assert.Equal(t, uint32(1), run.DomainErrors, "the one planning passed over Stockpile")
	r := systems.Diagnose(w)
	assert.Equal(t, 1, r.Counts[systems.CausePlannerDomainError], "%s", r)
	assert.Equal(t, e, r.Examples[systems.CausePlannerDomainError])
	assert.Contains(t, r.String(), "goap.MaxSteps (16) actions")
}
