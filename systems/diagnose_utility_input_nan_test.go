package systems_test

import (
	"math"
	"strconv"
	"testing"

	"github.com/archai-go/archai/ai/fsm"
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

// stockpile is a colony's store as a newcomer's agents read it: food per head is
// Food/People, 0/0 = NaN while the store is empty and nobody is counted.
type stockpile struct{ Food, People float64 }

// A newcomer's utility input divided 0 by 0: the NaN scored 0 and vetoed "eat" for good,
// State.Unread stayed 0 and Diagnose said "no misconfiguration". Diagnose counts the
// agents whose last decision read a NaN input under utility_input_nan, the note naming
// the reasoner, the action, the consideration and the fix; the agents whose input is a
// number are not counted, and an agent is counted no more once its input is a number
// again (the count is of the last decision).
func TestDiagnoseCountsNaNUtilityInputs(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	perHead := utility.Fact(func(a *systems.Agent) float64 { s := systems.Get[stockpile](a); return s.Food / s.People })
	r, err := utility.New("villager", utility.Policy{}.WithHysteresis(0.15),
		utility.Action{Name: "eat", Weight: 2, Considerations: []utility.Consideration{
			{Name: "food per head", Input: perHead, Range: utility.Range{Min: 0, Max: 10}, Curve: utility.Linear(1, 0)}}},
		utility.Action{Name: "idle", Weight: 0.1},
	)
	require.NoError(t, err)
	sp, err := systems.NewSpawner(w, systems.Thinker{Reasoner: r}, systems.With(stockpile{}))
	require.NoError(t, err)
	var agents []arche.Entity
	sp.SpawnBatch(10, func(i int, a *systems.Spawned) {
		a.Position.Vec = r2.Vec{X: float64(i) + 0.5, Y: 0.5}
		if i >= 6 { // a store with food and people: a number
			*systems.Component[stockpile](a) = stockpile{Food: 30, People: 6}
		}
		agents = append(agents, a.Entity)
	})
	s := ecs.NewScheduler(ecs.NewClockSystem(0.1), &systems.Utility{})
	require.NoError(t, s.InitializeChecked(w))
	defer s.Finalize(w)
	assert.Zero(t, systems.Diagnose(w).Counts[systems.CauseUtilityInputNaN], "before any decision")
	s.Run(w, 5)

	brains := generic.NewMap[components.UtilityBrain](w)
	st := &brains.Get(agents[0]).State
	require.Equal(t, "idle", r.ActionName(st.Choice), "the NaN vetoes eat")
	assert.Equal(t, uint32(1), st.NaNInputs)
	assert.Equal(t, 0, st.NaNInput)
	assert.Zero(t, st.Unread, "no input that could not read the agent")
	assert.Equal(t, "eat", r.ActionName(brains.Get(agents[9]).State.Choice))

	rep := systems.Diagnose(w)
	require.Equal(t, 6, rep.Counts[systems.CauseUtilityInputNaN], "%s", rep)
	assert.Equal(t, agents[0], rep.Examples[systems.CauseUtilityInputNaN])
	assert.Equal(t, 6, rep.Misconfigured, "nothing else: %s", rep)
	assert.Equal(t, "utility_input_nan", systems.CauseUtilityInputNaN.String())
	assert.Contains(t, rep.String(), `utility_input_nan 6 (e.g. entity `+strconv.Itoa(int(agents[0].ID()))+`, reasoner "villager", action "eat", `+
		`consideration "food per head": its Input returned NaN at the last decision, which scores 0 and so vetoes the action: `+
		`a division 0/0 (an empty store, no people), a NaN field or math.Log of a negative? Make the Input return a number `+
		`in that case (if s.People == 0 { return 0 }), or, to veto on purpose, a value its Range and Curve score 0)`)

	// the Diagnostics system finds them too, and a check in steady state allocates nothing
	d := &systems.Diagnostics{}
	d.Initialize(w)
	assert.Equal(t, rep.Counts, d.Check(w).Counts)
	assert.Zero(t, testing.AllocsPerRun(20, func() { d.Check(w) }))

	// the store filled: at their next decision the agents read a number, eat, and are
	// not counted
	stores := generic.NewMap[stockpile](w)
	for _, e := range agents[:6] {
		*stores.Get(e) = stockpile{Food: 12, People: 3}
	}
	s.Run(w, 2)
	assert.Equal(t, "eat", r.ActionName(brains.Get(agents[0]).State.Choice))
	assert.Zero(t, systems.Diagnose(w).Counts[systems.CauseUtilityInputNaN])
}

// In a WeightedSum a NaN input without Veto scores 0 in the mean, and the note says so;
// the note counts the NaN inputs of the decision when there are several.
func TestDiagnoseNaNUtilityInputInAWeightedSum(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	nan := func(any) float64 { return math.NaN() }
	r, err := utility.New("hauler", utility.Policy{},
		utility.Action{Name: "haul", Combine: utility.WeightedSum, Considerations: []utility.Consideration{
			{Name: "load", Input: func(any) float64 { return 0.5 }},
			{Name: "crates per cart", Input: nan},
			{Name: "carts per road", Input: nan}}},
	)
	require.NoError(t, err)
	sp, err := systems.NewSpawner(w, systems.Thinker{Reasoner: r})
	require.NoError(t, err)
	sp.Spawn(r2.Vec{X: 0.5, Y: 0.5}, nil)
	s := ecs.NewScheduler(ecs.NewClockSystem(0.1), &systems.Utility{})
	require.NoError(t, s.InitializeChecked(w))
	defer s.Finalize(w)
	s.Run(w, 1)
	rep := systems.Diagnose(w)
	require.Equal(t, 1, rep.Counts[systems.CauseUtilityInputNaN], "%s", rep)
	assert.Contains(t, rep.String(), `reasoner "hauler", action "haul", consideration "crates per cart": its Input returned NaN `+
		`at the last decision (2 NaN inputs, utility.State.NaNInputs), which scores 0 in the action's weighted mean: a division 0/0`)
}

// A utility.State in a component of the program's own is read too, the note naming the
// component and field.
func TestDiagnoseNaNUtilityInputInOwnComponent(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	r, err := utility.New("brawl", utility.Policy{},
		utility.Action{Name: "charge", Considerations: []utility.Consideration{
			{Name: "rage per foe", Input: func(agent any) float64 { return systems.Get[brawler](systems.UtilityAgent(agent)).Rage / 0 * 0 }}}})
	require.NoError(t, err)
	b := fsm.NewBuilder("brawl")
	b.State("Fight", fsm.Hooks{Update: func(c *fsm.Context) fsm.StateID {
		a := systems.StateAgent(c)
		r.DecideAt(a, &systems.Get[brawler](a).Choice, nil, c.Time)
		return fsm.None
	}})
	machine, err := b.Build()
	require.NoError(t, err)
	m := generic.NewMap5[components.StateMachine, components.Think, components.Position, components.Intent, brawler](w)
	e := m.New()
	sm, th, _, _, _ := m.Get(e)
	sm.Machine, th.Interval = machine, 0.1
	s := ecs.NewScheduler(ecs.NewClockSystem(0.1), &systems.FSM{})
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 2)
	brawlers := generic.NewMap[brawler](w)
	require.Equal(t, uint32(1), brawlers.Get(e).Choice.NaNInputs, "Rage 0: 0/0·0 is NaN")
	rep := systems.Diagnose(w)
	require.Equal(t, 1, rep.Counts[systems.CauseUtilityInputNaN], "%s", rep)
	assert.Contains(t, rep.String(), `utility_input_nan 1 (e.g. entity `+strconv.Itoa(int(e.ID()))+`, its utility.State brawler.Choice: `+
		`reasoner "brawl", action "charge", consideration "rage per foe": its Input returned NaN`)
	d := &systems.Diagnostics{}
	d.Initialize(w)
	assert.Zero(t, testing.AllocsPerRun(20, func() { d.Check(w) }))
}
