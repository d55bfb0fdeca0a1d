package goap

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bestOverBudget is grid4's goal "all" (priority 2; want 3: 12 steps, thousands of nodes)
// beside an easy goal "rest" (priority 1, one step).
func bestOverBudget(t *testing.T, want int16) (*Domain, GoalID, GoalID) {
	return bestOverBudgetSensing(t, want, nil)
}

// bestOverBudgetSensing is bestOverBudget with rest's operator and a Sense hook.
func bestOverBudgetSensing(t *testing.T, want int16, sense func(*Context)) (*Domain, GoalID, GoalID) {
	b := NewBuilder("ranked")
	b.Sense(sense)
	var conds []Cond
	for i, n := range []string{"a", "b", "c", "d"} {
		f := b.Fact(n)
		b.Action(Action{Name: "inc" + n, Cost: float64(1 + i), Pre: []Cond{{f, Lt, 7}},
			Effects: []Effect{{Fact: f, Value: 1, Add: true}}})
		conds = append(conds, Cond{f, Ge, want})
	}
	rested := b.Fact("rested")
	b.Action(Action{Name: "rest", Cost: 1, Effects: []Effect{{Fact: rested, Value: 1}},
		Run: func(*Context) Status { return Running }})
	all := b.Goal(Goal{Name: "all", Priority: 2, Want: conds})
	rest := b.Goal(Goal{Name: "rest", Priority: 1, Want: []Cond{{rested, Eq, 1}}})
	d, err := b.Build()
	require.NoError(t, err)
	return d, all, rest
}

// PlanBest planned the lower goal, with no error, when the top goal's search ran out
// of its node budget: a spent budget is no proof that the top goal has no plan. It
// returns ErrBudget now, as htn.Planner.Plan does, and Tick counts it.
func TestPlanBestStopsAtASpentBudget(t *testing.T) {
	d, all, _ := bestOverBudget(t, 3)
	small := Planner{MaxNodes: 50}
	var plan Plan
	assert.Equal(t, ErrBudget, small.Plan(d, &State{}, all, &plan), "the top goal alone")
	plan.Len = 3
	assert.Equal(t, ErrBudget, small.PlanBest(d, &State{}, &plan))
	assert.Equal(t, Plan{Goal: NoGoal}, plan)

	// with the budget it needs, the top goal is planned
	var big Planner
	require.NoError(t, big.PlanBest(d, &State{}, &plan))
	assert.Equal(t, all, plan.Goal)
	assert.Equal(t, 12, plan.Len)

	// Tick idles and counts the cut search
	var r Run
	var s State
	assert.Equal(t, Failure, d.Tick(&r, &s, &small, &Context{}))
	assert.Equal(t, uint32(1), r.DomainErrors)
	assert.False(t, r.HasPlan())
}

// A goal whose plan is longer than MaxSteps has none a Plan can hold: PlanBest goes on
// to the next goal (the cut is exact, no budget changes it).
func TestPlanBestPassesAGoalPastMaxSteps(t *testing.T) {
	d, _, rest := bestOverBudget(t, 5)    // 20 steps
	p := Planner{MaxNodes: MaxNodesLimit} // room to search every state within MaxSteps
	var plan Plan
	assert.Equal(t, ErrPlanTooLong, p.Plan(d, &State{}, 0, &plan))
	require.NoError(t, p.PlanBest(d, &State{}, &plan))
	assert.Equal(t, rest, plan.Goal)
}

// A running plan is kept when a goal above it comes to need a search that runs out of
// budget (the plan still reaches its goal), and the cut search is counted in
// DomainErrors, so Diagnose shows the goal that was not planned.
func TestTickCountsASpentBudgetAboveTheRunningPlan(t *testing.T) {
	lose := false
	d, _, rest := bestOverBudgetSensing(t, 3, func(c *Context) {
		if lose {
			c.State[0], c.State[1], c.State[2], c.State[3] = 0, 0, 0, 0
		}
	})
	small := Planner{MaxNodes: 50}
	r := Run{}
	s := State{3, 3, 3, 3} // "all" holds
	assert.Equal(t, Running, d.Tick(&r, &s, &small, &Context{}))
	assert.Equal(t, rest, r.Plan.Goal)
	lose = true
	assert.Equal(t, Running, d.Tick(&r, &s, &small, &Context{}))
	assert.Equal(t, rest, r.Plan.Goal, "the plan goes on")
	assert.Equal(t, uint32(1), r.DomainErrors)
}

// A goal above the running plan whose search is cut at MaxSteps actions
// (ErrPlanTooLong, wrapping ErrNoPlan) was not counted: the check above counted
// only ErrBudget, while the same cut found by an idle agent counts. The plan goes
// on and the cut search is counted in DomainErrors, so Diagnose reports the goal
// that was not planned.
func TestTickCountsAPlanTooLongAboveTheRunningPlan(t *testing.T) {
	lose := false
	d, _, rest := bestOverBudgetSensing(t, 5, func(c *Context) { // "all" takes 20 steps from 0
		if lose {
			c.State[0], c.State[1], c.State[2], c.State[3] = 0, 0, 0, 0
		}
	})
	p := Planner{MaxNodes: MaxNodesLimit} // room to search every state within MaxSteps
	r := Run{}
	s := State{5, 5, 5, 5} // "all" holds
	assert.Equal(t, Running, d.Tick(&r, &s, &p, &Context{}))
	assert.Equal(t, rest, r.Plan.Goal)
	assert.Zero(t, r.DomainErrors)
	lose = true
	assert.Equal(t, Running, d.Tick(&r, &s, &p, &Context{}))
	assert.Equal(t, rest, r.Plan.Goal, "the plan goes on")
	assert.Equal(t, uint32(1), r.DomainErrors)
}

// An idle agent whose PlanBest passes over a goal cut at MaxSteps to plan a lower
// one counts the cut too (the goal above was not planned, and no budget helps).
func TestTickCountsAPlanTooLongPassedOver(t *testing.T) {
	d, _, rest := bestOverBudget(t, 5) // "all": 20 steps
	p := Planner{MaxNodes: MaxNodesLimit}
	var r Run
	var s State
	assert.Equal(t, Running, d.Tick(&r, &s, &p, &Context{}))
	assert.Equal(t, rest, r.Plan.Goal)
	assert.Equal(t, uint32(1), r.DomainErrors)
}
