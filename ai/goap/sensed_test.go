package goap

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hunter is a domain waiting for perception: Shoot needs fact visible == 1, which no
// action sets and the Sense hook writes; with sensed, visible is declared sensed. Its
// goal Kill also needs ammo >= 1 via Shoot; with broken, Shoot also needs fact permit
// == 1, which nothing sets and nothing declares.
func hunter(t *testing.T, sensed, broken bool) (*Domain, GoalID, Fact, Fact) {
	t.Helper()
	b := NewBuilder("hunter")
	visible, dead, permit := b.Fact("visible"), b.Fact("dead"), b.Fact("permit")
	pre := []Cond{{visible, Eq, 1}}
	if broken {
		pre = append(pre, Cond{permit, Eq, 1})
	}
	b.Action(Action{Name: "Approach", Cost: 1, Pre: []Cond{{visible, Eq, 1}}, Effects: []Effect{{Fact: permit, Value: 0}}})
	b.Action(Action{Name: "Shoot", Cost: 1, Pre: pre, Effects: []Effect{{Fact: dead, Value: 1}}})
	g := b.Goal(Goal{Name: "Kill", Priority: 1, Want: []Cond{{dead, Eq, 1}}})
	if sensed {
		b.Sensed(visible)
	}
	d, err := b.Build()
	require.NoError(t, err)
	return d, g, visible, permit
}

// A goal that needs a sensed fact the state lacks waits for perception: WhyNoPlan
// says so and AwaitsPerception is true; undeclared, the fact is a domain error whose
// explanation suggests declaring it. The planner's answer is the same either way
// (ErrUnreachable: no plan exists from this state).
func TestAGoalNeedingASensedFactWaitsForPerception(t *testing.T) {
	d, g, visible, _ := hunter(t, true, false)
	assert.True(t, d.Sensed(visible))
	assert.False(t, d.Sensed(1))
	assert.False(t, d.Sensed(MaxFacts), "out of range")
	assert.Equal(t, `goal "Kill" needs dead == 1; Shoot could make that true but needs visible == 1, a sensed fact `+
		`(Builder.Sensed) the state lacks (visible is 0): the goal waits for perception to make it true`, d.WhyNoPlan(&State{}, g))
	assert.True(t, d.AwaitsPerception(&State{}, g))
	var p Planner
	var plan Plan
	assert.Equal(t, ErrUnreachable, p.Plan(d, &State{}, g, &plan))
	s := State{}
	s[visible] = 1
	assert.Empty(t, d.WhyNoPlan(&s, g))
	assert.False(t, d.AwaitsPerception(&s, g), "a plan may exist: nothing to wait for")
	require.NoError(t, p.Plan(d, &s, g, &plan))
	assert.False(t, d.AwaitsPerception(&State{}, NoGoal))

	d, g, _, _ = hunter(t, false, false)
	assert.False(t, d.AwaitsPerception(&State{}, g))
	assert.Equal(t, `goal "Kill" needs dead == 1; Shoot could make that true but needs visible == 1, which no action's `+
		`effect makes true and the state lacks (visible is 0): give an action an effect that makes it true, set visible `+
		`in the state before planning, or, if perception sets it (the Sense hook, or a system writing the state), `+
		`declare it with Builder.Sensed`, d.WhyNoPlan(&State{}, g))
}

// A goal blocked by a fact nothing sets stays a domain error when a sensed fact is
// also missing: perception could not unblock it, and the explanation follows the
// chain to the undeclared fact, not to the sensed one.
func TestASensedFactDoesNotHideAFactNothingSets(t *testing.T) {
	d, g, visible, _ := hunter(t, true, true)
	for _, v := range []int16{0, 1} {
		s := State{}
		s[visible] = v
		assert.False(t, d.AwaitsPerception(&s, g))
		assert.Equal(t, `goal "Kill" needs dead == 1; Shoot could make that true but needs permit == 1, which no action's `+
			`effect makes true and the state lacks (permit is 0): give an action an effect that makes it true, set permit `+
			`in the state before planning, or, if perception sets it (the Sense hook, or a system writing the state), `+
			`declare it with Builder.Sensed`, d.WhyNoPlan(&s, g))
	}
}

// Through several actions the explanation of a waiting goal ends at the sensed fact,
// taking the writer that perception unblocks (not the first writer, whose chain ends at
// a fact nothing sets).
func TestWaitingExplanationFollowsTheWriterPerceptionUnblocks(t *testing.T) {
	b := NewBuilder("scout")
	seen, near, done, key := b.Fact("seen"), b.Fact("near"), b.Fact("done"), b.Fact("key")
	b.Action(Action{Name: "Teleport", Cost: 1, Pre: []Cond{{key, Eq, 1}}, Effects: []Effect{{Fact: near, Value: 1}}})
	b.Action(Action{Name: "Walk", Cost: 2, Pre: []Cond{{seen, Ge, 1}}, Effects: []Effect{{Fact: near, Value: 1}}})
	b.Action(Action{Name: "Report", Cost: 1, Pre: []Cond{{near, Eq, 1}}, Effects: []Effect{{Fact: done, Value: 1}}})
	g := b.Goal(Goal{Name: "Scout", Want: []Cond{{done, Eq, 1}}})
	b.Sensed(seen, seen) // twice: no harm
	d, err := b.Build()
	require.NoError(t, err)
	assert.True(t, d.AwaitsPerception(&State{}, g))
	assert.Equal(t, `goal "Scout" needs done == 1; Report could make that true but needs near == 1; Walk could make that `+
		`true but needs seen >= 1, a sensed fact (Builder.Sensed) the state lacks (seen is 0): the goal waits for `+
		`perception to make it true`, d.WhyNoPlan(&State{}, g))
}

// Sensed of an undeclared fact is a Build error (ErrFact); a goal that wants a sensed
// fact no action's effect makes true is still refused (ErrNeverTrue): a plan is made of
// actions, so such a goal could only ever hold already.
func TestSensedIsValidatedAndDoesNotExcuseAGoal(t *testing.T) {
	b := NewBuilder("bad")
	f := b.Fact("f")
	b.Action(Action{Name: "A", Cost: 1, Effects: []Effect{{Fact: f, Value: 1}}})
	b.Goal(Goal{Name: "G", Want: []Cond{{f, Eq, 1}}})
	b.Sensed(5)
	_, err := b.Build()
	assert.True(t, errors.Is(err, ErrFact), "%v", err)
	assert.EqualError(t, err, `goap: domain "bad": sensed fact 5: unknown fact`)

	b = NewBuilder("want")
	f, v := b.Fact("f"), b.Fact("visible")
	b.Action(Action{Name: "A", Cost: 1, Effects: []Effect{{Fact: f, Value: 1}}})
	b.Goal(Goal{Name: "See", Want: []Cond{{v, Eq, 1}}})
	b.Sensed(v)
	_, err = b.Build()
	assert.True(t, errors.Is(err, ErrNeverTrue), "%v", err)
}

// AwaitsPerception and WhyNoPlan allocate nothing where a plan may exist.
func TestAwaitsPerceptionAllocatesNothing(t *testing.T) {
	d, g, visible, _ := hunter(t, true, false)
	s := State{}
	s[visible] = 1
	assert.Zero(t, testing.AllocsPerRun(100, func() { _ = d.AwaitsPerception(&s, g) }))
	assert.Zero(t, testing.AllocsPerRun(100, func() { _ = d.AwaitsPerception(&State{}, g) }))
	assert.Zero(t, testing.AllocsPerRun(100, func() { _ = d.WhyNoPlan(&s, g) }))
}

// colony is a colonist's domain whose goal Eat is on a fact declared sensed (hungry, as
// a colony's Sense hook writes it). With typo, Eat's precondition misspelt its fact
// ("atFod", which Builder.Fact declared in silence); with seen, GoToFood waits for a
// sensed fact (foodSeen).
func colony(t *testing.T, typo, seen bool) (*Domain, GoalID, State) {
	t.Helper()
	b := NewBuilder("colonist")
	hungry, atFood, foodSeen := b.Fact("hungry"), b.Fact("atFood"), b.Fact("foodSeen")
	pre := atFood
	if typo {
		pre = b.Fact("atFod")
	}
	var goPre []Cond
	if seen {
		goPre = []Cond{{foodSeen, Eq, 1}}
	}
	b.Action(Action{Name: "GoToFood", Cost: 1, Pre: goPre, Effects: []Effect{{Fact: atFood, Value: 1}}})
	b.Action(Action{Name: "Eat", Cost: 1, Pre: []Cond{{pre, Eq, 1}}, Effects: []Effect{{Fact: hungry, Value: 0}}})
	g := b.Goal(Goal{Name: "Eat", Priority: 10, Want: []Cond{{hungry, Eq, 0}}})
	b.Sensed(hungry, foodSeen)
	d, err := b.Build()
	require.NoError(t, err)
	var s State
	s[hungry] = 1
	return d, g, s
}

// A goal on a sensed fact gets no pass from perception for its own condition: perception
// may make it hold, but while it does not, only an action can, and when none that could
// can ever start (Eat needs a misspelt fact nothing sets) the goal does not wait for
// perception, and WhyNoPlan names the goal and the fact. Before, the goal's condition
// counted as one perception might make true and the goal as waiting, so Diagnose
// passed over colonists that starved. Where the action toward the goal waits only for
// a sensed fact (GoToFood needs foodSeen) the goal waits for perception, and the
// explanation goes past the goal's sensed fact to that one.
func TestAGoalOnASensedFactWhoseActionsCanNeverStartDoesNotWait(t *testing.T) {
	d, g, s := colony(t, true, false)
	assert.False(t, d.AwaitsPerception(&s, g))
	assert.Equal(t, `goal "Eat" needs hungry == 0 (a sensed fact: perception may make it true, but no action that could `+
		`can ever start, so no plan can); Eat could make that true but needs atFod == 1, which no action's effect makes `+
		`true and the state lacks (atFod is 0): give an action an effect that makes it true, set atFod in the state `+
		`before planning, or, if perception sets it (the Sense hook, or a system writing the state), declare it with `+
		`Builder.Sensed`, d.WhyNoPlan(&s, g))
	var p Planner
	var plan Plan
	assert.Equal(t, ErrUnreachable, p.Plan(d, &s, g, &plan))

	d, g, s = colony(t, true, true) // a sensed fact missing on the way does not hide the typo
	assert.False(t, d.AwaitsPerception(&s, g))
	assert.Contains(t, d.WhyNoPlan(&s, g), `atFod == 1, which no action's effect makes true`)

	d, g, s = colony(t, false, true)
	assert.True(t, d.AwaitsPerception(&s, g))
	assert.Equal(t, `goal "Eat" needs hungry == 0; Eat could make that true but needs atFood == 1; GoToFood could make `+
		`that true but needs foodSeen == 1, a sensed fact (Builder.Sensed) the state lacks (foodSeen is 0): the goal waits `+
		`for perception to make it true`, d.WhyNoPlan(&s, g))

	d, g, s = colony(t, false, false)
	assert.False(t, d.AwaitsPerception(&s, g), "a plan may exist")
	assert.Empty(t, d.WhyNoPlan(&s, g))
	require.NoError(t, p.Plan(d, &s, g, &plan))
}

// A goal on a sensed fact perception may make true ("enemy dead") whose action waits
// only for perception (Shoot needs visible) waits for perception, from a state that
// lacks both.
func TestAGoalOnASensedFactWaitsWhenItsActionWaitsForPerception(t *testing.T) {
	b := NewBuilder("hunter")
	visible, dead := b.Fact("visible"), b.Fact("dead")
	b.Action(Action{Name: "Shoot", Cost: 1, Pre: []Cond{{visible, Eq, 1}}, Effects: []Effect{{Fact: dead, Value: 1}}})
	g := b.Goal(Goal{Name: "Kill", Want: []Cond{{dead, Eq, 1}}})
	b.Sensed(visible, dead)
	d, err := b.Build()
	require.NoError(t, err)
	assert.True(t, d.AwaitsPerception(&State{}, g))
	assert.Equal(t, `goal "Kill" needs dead == 1; Shoot could make that true but needs visible == 1, a sensed fact `+
		`(Builder.Sensed) the state lacks (visible is 0): the goal waits for perception to make it true`, d.WhyNoPlan(&State{}, g))
}
