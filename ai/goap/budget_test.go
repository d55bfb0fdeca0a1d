package goap

import (
	"math"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// grid4 is a domain of four counters (0..7 each, 4096 states) that actions raise one
// at a time; the goal wants them all at 7 (28 steps, past MaxSteps: no plan) or some.
func grid4(t *testing.T, want int16) (*Domain, GoalID) {
	b := NewBuilder("grid4")
	var facts []Fact
	for _, n := range []string{"a", "b", "c", "d"} {
		facts = append(facts, b.Fact(n))
	}
	var conds []Cond
	for i, f := range facts {
		b.Action(Action{Name: "inc" + string(rune('a'+i)), Cost: float64(1 + i), Pre: []Cond{{f, Lt, 7}},
			Effects: []Effect{{Fact: f, Value: 1, Add: true}}})
		conds = append(conds, Cond{f, Ge, want})
	}
	g := b.Goal(Goal{Name: "all", Priority: 1, Want: conds})
	d, err := b.Build()
	require.NoError(t, err)
	return d, g
}

// A budget of 2³¹ nodes allocates for the nodes a search generates, not for the
// budget (it used to make 2³¹-node buffers up front: a fatal out-of-memory), and the
// table growing on the way gives the plan a pre-grown table gives.
func TestHugeBudgetAllocatesAsItGoes(t *testing.T) {
	d, g := grid4(t, 3) // 12 steps: thousands of states, the table grows several times
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	huge := Planner{MaxNodes: math.MaxInt32}
	var plan Plan
	require.NoError(t, huge.Plan(d, &State{}, g, &plan))
	runtime.ReadMemStats(&after)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(64<<20), "bytes allocated")
	assert.Equal(t, 12, plan.Len)
	assert.Equal(t, 3.0*(1+2+3+4), plan.Cost)
	assert.Greater(t, huge.Generated, 2*minTable, "the table grew")

	// the same search again on the warm planner: the same result, no allocation
	var again Plan
	var start State
	allocs := testing.AllocsPerRun(5, func() { _ = huge.Plan(d, &start, g, &again) })
	assert.Zero(t, allocs)
	assert.Equal(t, plan, again)

	// an unreachable goal explores every state within MaxSteps (counters summing to
	// at most 16) and ends
	d7, g7 := grid4(t, 7)
	assert.ErrorIs(t, huge.Plan(d7, &State{}, g7, &plan), ErrNoPlan)
	assert.Equal(t, 2871, huge.Generated)
}

// A budget past MaxNodesLimit is clamped to it; a negative one is the default.
func TestBudgetClamp(t *testing.T) {
	for _, tc := range []struct{ max, want int }{
		{0, DefaultMaxNodes}, {-5, DefaultMaxNodes}, {7, 7},
		{MaxNodesLimit, MaxNodesLimit}, {MaxNodesLimit + 1, MaxNodesLimit}, {math.MaxInt, MaxNodesLimit},
	} {
		assert.Equal(t, tc.want, (&Planner{MaxNodes: tc.max}).budget(), "MaxNodes %d", tc.max)
	}
}

// A GoalID outside the domain is an error, not an index out of range.
func TestPlanUnknownGoal(t *testing.T) {
	d, _ := grid4(t, 3)
	var p Planner
	var plan Plan
	for _, g := range []GoalID{1, 7, NoGoal, -9} {
		err := p.Plan(d, &State{}, g, &plan)
		assert.ErrorIs(t, err, ErrGoal, "goal %d", g)
		assert.ErrorContains(t, err, `of domain "grid4"'s 1 goals`)
		assert.Equal(t, NoGoal, plan.Goal)
	}
}

// A goal that takes more than MaxSteps actions came back as plain ErrNoPlan, which does
// not say that a longer plan might reach it: newbie14's 17-step plan read as impossible.
// It is ErrPlanTooLong (wrapping ErrNoPlan), from Plan and PlanBest; a goal whose
// search runs out of states long before MaxSteps is plain ErrNoPlan. (A goal no action
// can change is refused by Build: TestBuildRefusesAGoalNoActionCanMakeTrue.)
func TestPlanLongerThanMaxStepsSaysSo(t *testing.T) {
	var pl Planner
	var plan Plan
	d, g := grid4(t, 5) // 20 steps
	err := pl.Plan(d, &State{}, g, &plan)
	assert.ErrorIs(t, err, ErrPlanTooLong)
	assert.ErrorIs(t, err, ErrNoPlan)
	assert.EqualError(t, err, "goap: no plan reaches the goal within MaxSteps (16) actions; a longer plan might (split the goal into nearer ones)")
	assert.Equal(t, ErrPlanTooLong, pl.PlanBest(d, &State{}, &plan))
	assert.Equal(t, NoGoal, plan.Goal)

	b := NewBuilder("stuck")
	a, other := b.Fact("a"), b.Fact("b")
	b.Action(Action{Name: "b", Cost: 1, Pre: []Cond{{other, Lt, 3}}, Effects: []Effect{{Fact: other, Value: 1, Add: true}}})
	b.Action(Action{Name: "a", Cost: 1, Pre: []Cond{{other, Ge, 5}}, Effects: []Effect{{Fact: a, Value: 1}}})
	g2 := b.Goal(Goal{Name: "a", Priority: 1, Want: []Cond{{a, Ge, 1}}})
	d2, err := b.Build()
	require.NoError(t, err)
	assert.Equal(t, ErrNoPlan, pl.Plan(d2, &State{}, g2, &plan), "4 states, all searched")
	assert.Equal(t, ErrNoPlan, pl.PlanBest(d2, &State{}, &plan))
}
