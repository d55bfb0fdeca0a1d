package goap

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// worker is a newcomer's domain: chop wood (+1), craft planks from 2 wood, deliver
// planks; with needsAxe, crafting also needs fact axe == 1, which no action sets; with
// loop, crafting needs delivered >= 100, which only delivering (after crafting) raises.
func worker(t *testing.T, needsAxe, loop bool) (*Domain, GoalID, Fact) {
	t.Helper()
	b := NewBuilder("worker")
	wood, planks, delivered := b.Fact("wood"), b.Fact("planks"), b.Fact("delivered")
	axe := b.Fact("axe")
	b.Action(Action{Name: "ChopWood", Cost: 1, Effects: []Effect{{Fact: wood, Value: 1, Add: true}}})
	pre := []Cond{{wood, Ge, 2}}
	if needsAxe {
		pre = append(pre, Cond{axe, Eq, 1})
	}
	if loop {
		pre = append(pre, Cond{delivered, Ge, 100})
	}
	b.Action(Action{Name: "CraftPlanks", Cost: 2, Pre: pre,
		Effects: []Effect{{Fact: wood, Value: -2, Add: true}, {Fact: planks, Value: 1, Add: true}}})
	b.Action(Action{Name: "Deliver", Cost: 1, Pre: []Cond{{planks, Ge, 1}},
		Effects: []Effect{{Fact: planks, Value: -1, Add: true}, {Fact: delivered, Value: 1, Add: true}}})
	g := b.Goal(Goal{Name: "Deliver3", Priority: 1, Want: []Cond{{delivered, Ge, 3}}})
	d, err := b.Build()
	require.NoError(t, err)
	return d, g, axe
}

// A newcomer's crafting step needed fact axe, which no action sets: the search (wood
// rises without bound) ran out of its node budget every think, even at MaxNodesLimit,
// and the agent was reported with "raise GOAP.NodeBudget". The planner now finds
// before searching that no plan of any length exists: ErrUnreachable (an ErrNoPlan),
// no node generated, from Plan and PlanBest alike, and Tick counts no DomainErrors.
// With the axe in the state, the plan is found as before.
func TestPlanFindsBeforeSearchingThatNoPlanExists(t *testing.T) {
	for _, loop := range []bool{false, true} {
		d, g, axe := worker(t, !loop, loop)
		for _, budget := range []int{0, MaxNodesLimit} {
			p := Planner{MaxNodes: budget}
			var plan Plan
			err := p.Plan(d, &State{}, g, &plan)
			assert.Equal(t, ErrUnreachable, err)
			assert.ErrorIs(t, err, ErrNoPlan)
			assert.NotErrorIs(t, err, ErrBudget)
			assert.Equal(t, NoGoal, plan.Goal)
			assert.Zero(t, p.Expanded)
			assert.Equal(t, ErrUnreachable, p.PlanBest(d, &State{}, &plan))
		}
		var r Run
		var s State
		var p Planner
		for range 5 {
			assert.Equal(t, Failure, d.Tick(&r, &s, &p, &Context{}))
		}
		assert.Zero(t, r.DomainErrors, "no plan exists: not a cut search")
		if !loop {
			start := State{}
			start[axe] = 1
			var plan Plan
			require.NoError(t, p.Plan(d, &start, g, &plan))
			assert.Equal(t, 12, plan.Len) // 6 chops, 3 crafts, 3 deliveries
		}
	}
}

// WhyNoPlan follows the goal back to the fact no action sets, or to the actions that
// wait on each other; "" where a plan may exist or the goal holds.
func TestWhyNoPlanNamesTheGoalTheActionsAndTheFact(t *testing.T) {
	d, g, axe := worker(t, true, false)
	assert.Equal(t, `goal "Deliver3" needs delivered >= 3; Deliver could make that true but needs planks >= 1; `+
		`CraftPlanks could make that true but needs axe == 1, which no action's effect makes true and the state lacks `+
		`(axe is 0): give an action an effect that makes it true, set axe in the state before planning, or, if perception sets it `+
		`(the Sense hook, or a system writing the state), declare it with Builder.Sensed`,
		d.WhyNoPlan(&State{}, g))
	s := State{}
	s[axe] = 1
	assert.Empty(t, d.WhyNoPlan(&s, g), "with the axe a plan exists")
	s = State{}
	s[2] = 3
	assert.Empty(t, d.WhyNoPlan(&s, g), "the goal holds")
	assert.Empty(t, d.WhyNoPlan(&State{}, NoGoal))

	d, g, _ = worker(t, false, true)
	assert.Equal(t, `goal "Deliver3" needs delivered >= 3; Deliver could make that true but needs planks >= 1; `+
		`CraftPlanks could make that true but needs delivered >= 100 (delivered is 0), which Deliver, above, could make `+
		`true: these actions wait on each other and none can start from the state: set one of their facts in the state `+
		`before planning, or add an action that makes one of their conditions true from it`,
		d.WhyNoPlan(&State{}, g))
}

// A goal condition that no action's effect can make true (its fact written by none, or
// only set to values it does not hold for) could never be planned for: Build refuses
// it, naming the goal, the condition and the fact. A set to a value it holds for, or
// an add, is accepted.
func TestBuildRefusesAGoalNoActionCanMakeTrue(t *testing.T) {
	for _, tc := range []struct {
		name   string
		effect *Effect
		ok     bool
	}{
		{"no action writes axe", nil, false},
		{"only set to 0", &Effect{Fact: 1, Value: 0}, false},
		{"set to 1", &Effect{Fact: 1, Value: 1}, true},
		{"added to", &Effect{Fact: 1, Value: 1, Add: true}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := NewBuilder("tools")
			wood, axe := b.Fact("wood"), b.Fact("axe")
			require.Equal(t, Fact(1), axe)
			a := Action{Name: "Chop", Cost: 1, Effects: []Effect{{Fact: wood, Value: 1, Add: true}}}
			if tc.effect != nil {
				a.Effects = append(a.Effects, *tc.effect)
			}
			b.Action(a)
			b.Goal(Goal{Name: "Stock", Want: []Cond{{wood, Ge, 5}}})
			b.Goal(Goal{Name: "Armed", Want: []Cond{{wood, Ge, 1}, {axe, Eq, 1}}})
			d, err := b.Build()
			if tc.ok {
				require.NoError(t, err)
				return
			}
			assert.Nil(t, d)
			require.True(t, errors.Is(err, ErrNeverTrue), "%v", err)
			assert.EqualError(t, err, `goap: domain "tools": goal 1 "Armed": condition 1 (axe == 1): no action's effect can make it true: `+
				`add an action with an effect that makes it true, or drop the condition`)
		})
	}
}

// WhyNoPlan allocates nothing where a plan may exist (Diagnose asks it of every idle
// agent).
func TestWhyNoPlanAllocatesNothingWhereAPlanMayExist(t *testing.T) {
	d, g, axe := worker(t, true, false)
	s := State{}
	s[axe] = 1
	assert.Zero(t, testing.AllocsPerRun(100, func() { _ = d.WhyNoPlan(&s, g) }))
}
