package htn

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// villagers is a newcomer's domain: Live = EatFirst(hungry) | BuildHouse(wood >= 3) |
// Gather(forest), with forest written only by the sensor. Once the forest runs out, a
// fed villager without wood has no method that applies.
func villagers(t *testing.T) (d *Domain, wood, hungry, forest Fact) {
	b := NewBuilder("villager")
	wood, hungry, forest = b.Fact("wood"), b.Fact("hungry"), b.Fact("forest")
	eat := b.Primitive("Eat", Primitive{Effects: []Effect{Set(hungry, 0)}})
	build := b.Primitive("Build", Primitive{If: []Condition{Is(wood, Ge, 3)}, Effects: []Effect{Add(wood, -3)}})
	chop := b.Primitive("Chop", Primitive{While: []Condition{Is(forest, Eq, 1)}, Effects: []Effect{Add(wood, 1)}})
	live := b.Compound("Live")
	b.Method(live, Method{Name: "EatFirst", If: []Condition{Is(hungry, Eq, 1)}, Tasks: []TaskID{eat}})
	b.Method(live, Method{Name: "BuildHouse", If: []Condition{Is(wood, Ge, 3)}, Tasks: []TaskID{build}})
	b.Method(live, Method{Name: "Gather", If: []Condition{Is(forest, Eq, 1)}, Tasks: []TaskID{chop}})
	b.Root(live)
	d, err := b.Build()
	require.NoError(t, err)
	return d, wood, hungry, forest
}

// WhyNoPlan names each method of the root and the condition that stopped it, and says
// which facts only perception changes. Before, nothing explained an ErrNoPlan.
func TestWhyNoPlanNamesEachMethodsFailingCondition(t *testing.T) {
	d, wood, _, forest := villagers(t)
	var s State
	s[wood] = 1
	assert.Equal(t, `root "Live" does not decompose: method EatFirst needs hungry == 1 (hungry is 0); `+
		`method BuildHouse needs wood >= 3 (wood is 1); method Gather needs forest == 1 (forest is 0; `+
		`no task's effect changes forest: only the sensor or a system writing the state can)`, d.WhyNoPlan(&s))

	s[forest] = 1
	assert.Empty(t, d.WhyNoPlan(&s), "the root decomposes: nothing to explain")
}

// A method whose conditions hold but whose subtask does not decompose is explained by
// that subtask, in the state the subtasks before it left (Fetch sets wood to 2, and
// Build needs 3), and a compound subtask by its own methods.
func TestWhyNoPlanFollowsTheFailingSubtask(t *testing.T) {
	b := NewBuilder("nested")
	wood, axe := b.Fact("wood"), b.Fact("axe")
	fetch := b.Primitive("Fetch", Primitive{Effects: []Effect{Set(wood, 2)}})
	build := b.Primitive("Build", Primitive{If: []Condition{Is(wood, Ge, 3)}})
	chop := b.Primitive("Chop", Primitive{While: []Condition{Is(axe, Eq, 1)}, Effects: []Effect{Add(wood, 1)}})
	get := b.Compound("GetWood")
	b.Method(get, Method{Name: "Chop", Tasks: []TaskID{chop}})
	root := b.Compound("Root")
	b.Method(root, Method{Name: "FetchThenBuild", Tasks: []TaskID{fetch, build}})
	b.Method(root, Method{Name: "Gather", Tasks: []TaskID{get}})
	b.Root(root)
	d, err := b.Build()
	require.NoError(t, err)

	var s State
	assert.Equal(t, `root "Root" does not decompose: method FetchThenBuild: "Build" needs wood >= 3 (wood is 2); `+
		`method Gather: "GetWood" has no method that applies (method Chop: "Chop" needs axe == 1 (axe is 0; `+
		`no task's effect changes axe: only the sensor or a system writing the state can))`, d.WhyNoPlan(&s))
	assert.Equal(t, State{}, s, "WhyNoPlan changes no state")
}

// A Run counts the plannings that found no decomposition, and keeps the time its idle
// spell began until a plan is adopted. Before, an ErrNoPlan left no trace but Status.
func TestRunCountsPlanningsWithoutDecomposition(t *testing.T) {
	d, wood, _, forest := villagers(t)
	var p Planner
	var r Run
	var s State
	for i, now := range []float64{10, 10.5, 11} {
		ctx := Context{Time: now}
		require.Equal(t, Failure, d.Tick(&r, &s, &p, &ctx))
		assert.Equal(t, uint32(i+1), r.NoPlans)
		assert.True(t, r.NoPlan)
		assert.Equal(t, 10.0, r.NoPlanSince, "the spell began at the first failed planning")
		assert.Equal(t, now, r.NoPlanLast, "the latest failed planning")
	}
	s[forest], s[wood] = 1, 0
	ctx := Context{Time: 12}
	assert.Equal(t, Success, d.Tick(&r, &s, &p, &ctx), "Chop is planned and done at once")
	assert.Equal(t, uint32(1), r.Plans)
	assert.False(t, r.NoPlan, "a plan ends the spell")
	assert.Equal(t, uint32(3), r.NoPlans, "the count stays")
	assert.Equal(t, 11.0, r.NoPlanLast, "the spell's last planning is kept with its count")
}

// A domain whose root is a primitive task (Build accepts it) explained nothing:
// "root \"Build\" does not decompose: ", and Diagnose's note gave that empty
// reason. The root is explained as a subtask is: its failing condition.
func TestWhyNoPlanExplainsAPrimitiveRoot(t *testing.T) {
	b := NewBuilder("primitive root")
	wood := b.Fact("wood")
	b.Root(b.Primitive("Build", Primitive{If: []Condition{Is(wood, Ge, 3)}, Effects: []Effect{Add(wood, -3)}}))
	d, err := b.Build()
	require.NoError(t, err)
	var s State
	s[wood] = 1
	assert.Equal(t, `root "Build" does not decompose: needs wood >= 3 (wood is 1)`, d.WhyNoPlan(&s))
	s[wood] = 3
	assert.Empty(t, d.WhyNoPlan(&s))
}
