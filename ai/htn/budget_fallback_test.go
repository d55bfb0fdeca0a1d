package htn

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A budget spent inside a method must fail the planning: a later method without
// subtasks ("nothing to do") costs no visit, so it was taken once the budget ran out,
// and Plan returned an empty plan of lower priority than the one the budget cut short,
// with no error (the agent idled; Run.DomainErrors did not count it).
func TestBudgetSpentFailsThePlanning(t *testing.T) {
	b := NewBuilder("budget")
	step := b.Primitive("Step", Primitive{})
	work := b.Compound("Work")
	tasks := make([]TaskID, 12)
	for i := range tasks {
		tasks[i] = step
	}
	b.Method(work, Method{Name: "All", Tasks: tasks})
	root := b.Compound("Root")
	b.Method(root, Method{Name: "Work", Tasks: []TaskID{work}})
	b.Method(root, Method{Name: "Idle"})
	b.Root(root)
	d, err := b.Build()
	require.NoError(t, err)

	var plan Plan
	p := Planner{} // the default budget: the work plan is found
	require.NoError(t, p.Plan(d, &State{}, &plan))
	assert.Equal(t, 12, plan.Len)
	assert.Equal(t, []uint8{0, 0}, plan.MTR[:plan.MTRLen])

	p = Planner{MaxVisits: 10} // the budget runs out in the first method
	assert.ErrorIs(t, p.Plan(d, &State{}, &plan), ErrBudget)
	assert.Equal(t, 0, plan.Len)
	assert.Equal(t, 0, plan.MTRLen)
	assert.Equal(t, 10, p.Visits)

	var r Run
	var s State
	ctx := Context{}
	assert.Equal(t, Failure, d.Tick(&r, &s, &p, &ctx))
	assert.Equal(t, uint32(1), r.DomainErrors)
	assert.Equal(t, uint32(0), r.Plans)
}

// A recursion without a base condition is cut by MaxDepth on one branch, and that
// branch fails like any other: the method above takes its next method, so the plan
// holds as many steps as the limits allow, with no error (the documented result; see
// the package doc's "Important").
func TestRecursionWithoutABaseConditionPlansToTheLimit(t *testing.T) {
	b := NewBuilder("loop")
	loop := b.Compound("Loop")
	step := b.Primitive("Step", Primitive{})
	b.Method(loop, Method{Name: "Again", Tasks: []TaskID{step, loop}})
	b.Method(loop, Method{Name: "Done"})
	b.Root(loop)
	d, err := b.Build()
	require.NoError(t, err)
	var p Planner
	var plan Plan
	require.NoError(t, p.Plan(d, &State{}, &plan))
	assert.Equal(t, MaxDepth-1, plan.Len, "one Step a level below the cut")
	assert.Equal(t, MaxDepth, plan.MTRLen)
	assert.Equal(t, uint8(1), plan.MTR[MaxDepth-1], "the deepest Loop took Done")
}
