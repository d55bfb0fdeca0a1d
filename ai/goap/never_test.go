package goap_test

import (
	"errors"
	"testing"

	"github.com/archai-go/archai/ai/goap"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stock is a domain whose goal Stock (planks >= 2) the check before the search lets
// through (Craft adds to planks) but no plan reaches: Craft adds a plank only while
// there is none. With benchSensed, Craft also needs atBench == 1, a sensed fact; with
// visibleSensed, an unrelated action Wave needs visible == 1, a sensed fact.
func stock(t *testing.T, benchSensed, visibleSensed bool) (*goap.Domain, goap.GoalID) {
	t.Helper()
	b := goap.NewBuilder("stock")
	planks, atBench, visible, waved := b.Fact("planks"), b.Fact("atBench"), b.Fact("visible"), b.Fact("waved")
	pre := []goap.Cond{{Fact: planks, Op: goap.Eq, Value: 0}}
	if benchSensed {
		pre = append(pre, goap.Cond{Fact: atBench, Op: goap.Eq, Value: 0})
		b.Sensed(atBench)
	}
	b.Action(goap.Action{Name: "Craft", Cost: 1, Pre: pre, Effects: []goap.Effect{{Fact: planks, Value: 1, Add: true}}})
	b.Action(goap.Action{Name: "Wave", Cost: 1, Pre: []goap.Cond{{Fact: visible, Op: goap.Eq, Value: 1}},
		Effects: []goap.Effect{{Fact: waved, Value: 1}}})
	if visibleSensed {
		b.Sensed(visible)
	}
	g := b.Goal(goap.Goal{Name: "Stock", Priority: 1, Want: []goap.Cond{{Fact: planks, Op: goap.Ge, Value: 2}}})
	d, err := b.Build()
	require.NoError(t, err)
	return d, g
}

// planOf returns the error of planning goal from start.
func planOf(d *goap.Domain, start *goap.State, g goap.GoalID) error {
	var p goap.Planner
	var plan goap.Plan
	return p.Plan(d, start, g, &plan)
}

// A goal the relaxation lets through and that no reachable state satisfies: the search
// ends in plain ErrNoPlan, WhyNoPlan says nothing, WhyNeverReached names the condition.
// A sensed fact the goal does not depend on (visible, read only by Wave) changes nothing.
func TestWhyNeverReachedValueNoActionSets(t *testing.T) {
	for _, visibleSensed := range []bool{false, true} {
		d, g := stock(t, false, visibleSensed)
		var s goap.State
		err := planOf(d, &s, g)
		require.ErrorIs(t, err, goap.ErrNoPlan)
		assert.NotErrorIs(t, err, goap.ErrUnreachable)
		assert.NotErrorIs(t, err, goap.ErrPlanTooLong)
		assert.Empty(t, d.WhyNoPlan(&s, g))
		assert.Equal(t, `goal "Stock" is never reached: planks >= 2 holds in none of the 2 states the actions reach from the `+
			`state (planks is 0), and no fact the goal depends on (planks) is sensed: an action that makes it true cannot `+
			`start where it could, or no effect hits its value`, d.WhyNeverReached(&s, g), "visible sensed: %v", visibleSensed)
	}
}

// Two conditions that each come to hold but never together: Draw puts away the
// disguise, Hide drops the weapon.
func TestWhyNeverReachedNeverTogether(t *testing.T) {
	b := goap.NewBuilder("spy")
	armed, hidden := b.Fact("armed"), b.Fact("hidden")
	b.Action(goap.Action{Name: "Draw", Cost: 1, Effects: []goap.Effect{{Fact: armed, Value: 1}, {Fact: hidden, Value: 0}}})
	b.Action(goap.Action{Name: "Hide", Cost: 1, Effects: []goap.Effect{{Fact: hidden, Value: 1}, {Fact: armed, Value: 0}}})
	g := b.Goal(goap.Goal{Name: "Ambush", Priority: 1, Want: []goap.Cond{{Fact: armed, Op: goap.Eq, Value: 1},
		{Fact: hidden, Op: goap.Eq, Value: 1}}})
	d, err := b.Build()
	require.NoError(t, err)
	var s goap.State
	require.ErrorIs(t, planOf(d, &s, g), goap.ErrNoPlan)
	assert.Empty(t, d.WhyNoPlan(&s, g))
	assert.Equal(t, `goal "Ambush" is never reached: armed == 1 and hidden == 1 each hold in one of the 3 states the actions `+
		`reach from the state, but never all at once (armed is 0, hidden is 0), and no fact the goal depends on (armed, `+
		`hidden) is sensed: an action that makes one true undoes another, or needs it false`, d.WhyNeverReached(&s, g))
}

// A goal that depends on a sensed fact is not reported: perception may change it
// outside any plan. Here Craft needs atBench == 0, sensed: the goal still has no plan
// from the state, but WhyNeverReached cannot say it never will.
func TestWhyNeverReachedSensedFactIsNotReported(t *testing.T) {
	d, g := stock(t, true, false)
	var s goap.State
	require.ErrorIs(t, planOf(d, &s, g), goap.ErrNoPlan)
	assert.Empty(t, d.WhyNeverReached(&s, g))
}

// An action that resets a fact, under a sensed condition, counts even though its
// effect cannot make the goal's condition true: Reset (x = 0, needs sensed s == 1)
// lets Step (x += 2) reach x == 2 from x == 1.
func TestWhyNeverReachedSensedResetCounts(t *testing.T) {
	for _, sensed := range []bool{false, true} {
		b := goap.NewBuilder("steps")
		x, s := b.Fact("x"), b.Fact("s")
		b.Action(goap.Action{Name: "Step", Cost: 1, Pre: []goap.Cond{{Fact: x, Op: goap.Lt, Value: 9}},
			Effects: []goap.Effect{{Fact: x, Value: 2, Add: true}}})
		b.Action(goap.Action{Name: "Reset", Cost: 1, Pre: []goap.Cond{{Fact: s, Op: goap.Eq, Value: 1}},
			Effects: []goap.Effect{{Fact: x, Value: 0}}})
		if sensed {
			b.Sensed(s)
		}
		g := b.Goal(goap.Goal{Name: "Two", Priority: 1, Want: []goap.Cond{{Fact: x, Op: goap.Eq, Value: 2}}})
		d, err := b.Build()
		require.NoError(t, err)
		var st goap.State
		st[x] = 1
		require.ErrorIs(t, planOf(d, &st, g), goap.ErrNoPlan)
		if sensed {
			assert.Empty(t, d.WhyNeverReached(&st, g))
			continue
		}
		assert.Contains(t, d.WhyNeverReached(&st, g), `goal "Two" is never reached: x == 2 holds in none of the 5 states `+
			`the actions reach from the state (x is 1), and no fact the goal depends on (x, s) is sensed`)
	}
}

// counter's goal (n == -1) is never reached from n == 0: Count adds 1 while n < limit,
// so limit+1 states are reachable.
func counter(t *testing.T, limit int16) (*goap.Domain, goap.GoalID) {
	t.Helper()
	b := goap.NewBuilder("counter")
	n := b.Fact("n")
	b.Action(goap.Action{Name: "Count", Cost: 1, Pre: []goap.Cond{{Fact: n, Op: goap.Lt, Value: limit}},
		Effects: []goap.Effect{{Fact: n, Value: 1, Add: true}}})
	g := b.Goal(goap.Goal{Name: "Below", Priority: 1, Want: []goap.Cond{{Fact: n, Op: goap.Eq, Value: -1}}})
	d, err := b.Build()
	require.NoError(t, err)
	return d, g
}

// Exactly NeverReachedStates reachable states are explored to the end; one more and
// the answer is "" (cannot tell).
func TestWhyNeverReachedCap(t *testing.T) {
	var s goap.State
	d, g := counter(t, goap.NeverReachedStates-1)
	assert.Contains(t, d.WhyNeverReached(&s, g), `n == -1 holds in none of the 16384 states`)
	d, g = counter(t, goap.NeverReachedStates)
	assert.Empty(t, d.WhyNeverReached(&s, g))
	d, g = counter(t, 32767) // Count saturates nowhere short of the int16 range
	assert.Empty(t, d.WhyNeverReached(&s, g))
}

// A goal a plan reaches, one that holds, one the search cannot reach within MaxSteps
// actions but a longer plan can, and goals that are not the domain's: "".
func TestWhyNeverReachedReachable(t *testing.T) {
	b := goap.NewBuilder("far")
	n := b.Fact("n")
	b.Action(goap.Action{Name: "Count", Cost: 1, Effects: []goap.Effect{{Fact: n, Value: 1, Add: true}}})
	near := b.Goal(goap.Goal{Name: "Near", Priority: 2, Want: []goap.Cond{{Fact: n, Op: goap.Eq, Value: 3}}})
	far := b.Goal(goap.Goal{Name: "Far", Priority: 1, Want: []goap.Cond{{Fact: n, Op: goap.Eq, Value: goap.MaxSteps + 5}}})
	d, err := b.Build()
	require.NoError(t, err)
	var s goap.State
	require.NoError(t, planOf(d, &s, near))
	assert.Empty(t, d.WhyNeverReached(&s, near))
	assert.True(t, errors.Is(planOf(d, &s, far), goap.ErrPlanTooLong))
	assert.Empty(t, d.WhyNeverReached(&s, far), "reached by a plan longer than MaxSteps")
	s[n] = 3
	assert.Empty(t, d.WhyNeverReached(&s, near), "holds")
	assert.Empty(t, d.WhyNeverReached(&s, goap.NoGoal))
	assert.Empty(t, d.WhyNeverReached(&s, 2))
}
