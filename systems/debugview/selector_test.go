package debugview_test

import (
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/hybrid"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/debugview"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// Duelist keeps the State of the utility choice inside its behavior tree.
type Duelist struct {
	Dist   float64 // cells to the foe
	Attack utility.State
}

// TestSelectShowsAUtilitySelectorsScores (polish20): a behavior tree whose branch
// a utility reasoner picks (hybrid.UtilitySelector) with a State the agent keeps
// in a component field (Duelist.Attack) is shown with its scores and inputs:
// listed under Selectors by the field's name, its Utility without inputs until the
// first decision after the selection, then the
// reasoner's options with their scores and raw inputs, as for a UtilityBrain.
// (Since the viewer learns the reasoner from the State, the scores show from the
// selection, the inputs after the first decision: TestSelectorWhilePaused.)
// After a change of distance the scores follow; deselected, the State no longer
// holds the viewer's Trace.
func TestSelectShowsAUtilitySelectorsScores(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	duelists := generic.NewMap[Duelist](w)
	r, err := utility.New("attack", utility.Policy{},
		utility.Action{Name: "melee", Considerations: []utility.Consideration{
			{Name: "close", Input: func(agent any) float64 { return duelists.Get(systems.UtilityAgent(agent).Entity).Dist },
				Range: utility.Range{Min: 10, Max: 0}, Curve: utility.Linear(1, 0)}}},
		utility.Action{Name: "ranged", Considerations: []utility.Consideration{
			{Name: "far", Input: func(agent any) float64 { return duelists.Get(systems.UtilityAgent(agent).Entity).Dist },
				Range: utility.Range{Min: 0, Max: 10}, Curve: utility.Linear(1, 0)}}},
	)
	require.NoError(t, err)
	running := func(*bt.Context) bt.Status { return bt.Running }
	tree, err := bt.Compile("duel", hybrid.UtilitySelector("attack", r,
		func(c *bt.Context) (*utility.State, utility.Source) {
			return &duelists.Get(systems.AgentOf(c).Entity).Attack, nil
		},
		bt.Action("swing", running), bt.Action("shoot", running)))
	require.NoError(t, err)
	sp, err := systems.NewSpawner(w, systems.Thinker{Tree: tree, Interval: 0.1}, systems.With(Duelist{Dist: 3}))
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{X: 2, Y: 2}, nil)
	think := generic.NewMap[components.Think](w)
	*think.Get(e) = components.Think{Interval: 0.1} // thinks every frame, from the first
	v := debugview.New()
	v.Speed, v.Every = 0, 1
	s := ecs.NewScheduler(ecs.NewClockSystem(0.1), &systems.Decision{}, v)
	s.Initialize(w)
	t.Cleanup(func() { v.Close(); s.Finalize(w) })
	srv := httptest.NewServer(v.Handler())
	defer srv.Close()
	run := func(n int) {
		for range n {
			s.Update(w)
		}
	}

	run(1)
	selectID(t, srv, e.ID())
	run(1) // the viewer gives the State its Trace in this frame, after the decision
	a := agentJSON(t, srv)
	assert.Nil(t, a.Utility, "no UtilityBrain")
	require.Len(t, a.Selectors, 1)
	assert.Equal(t, "Duelist.Attack", a.Selectors[0].Field)
	assert.EqualValues(t, 2, a.Selectors[0].Decisions)
	// the State tells its reasoner (utility.State.Reasoner): its scores show at once,
	// its inputs from the first decision after the selection
	u0 := a.Selectors[0].Utility
	require.NotNil(t, u0, "the State was scored: its reasoner is known")
	assert.Equal(t, "attack", u0.Name)
	assert.False(t, u0.Traced, "no decision since the selection: no inputs yet")
	assert.InDelta(t, 0.7, u0.Scores[0], 1e-12)
	assert.Nil(t, u0.Options[0].Considerations[0].Input)

	run(1)
	a = agentJSON(t, srv)
	require.Len(t, a.Selectors, 1)
	u := a.Selectors[0].Utility
	require.NotNil(t, u)
	assert.Equal(t, "attack", u.Name)
	assert.Equal(t, []string{"melee", "ranged"}, u.Actions)
	assert.Equal(t, 0, u.Choice)
	assert.True(t, u.Traced)
	// close: 3 cells on Range{10, 0} → x 0.7; far: x 0.3 (linear curves)
	assert.InDelta(t, 0.7, u.Scores[0], 1e-12)
	assert.InDelta(t, 0.3, u.Scores[1], 1e-12)
	c := u.Options[0].Considerations[0]
	require.NotNil(t, c.Input)
	assert.Equal(t, 3.0, *c.Input, "the raw input")
	assert.InDelta(t, 0.7, *c.X, 1e-12)
	assert.EqualValues(t, 3, u.Decisions)

	duelists.Get(e).Dist = 8
	run(1)
	u = agentJSON(t, srv).Selectors[0].Utility
	require.NotNil(t, u)
	assert.Equal(t, 1, u.Choice)
	assert.InDelta(t, 0.2, u.Scores[0], 1e-12)
	assert.InDelta(t, 0.8, u.Scores[1], 1e-12)
	assert.Equal(t, 8.0, *u.Options[1].Considerations[0].Input)

	code, body := post(t, srv, url.Values{"op": {"deselect"}})
	require.Equal(t, 202, code, body)
	run(1)
	assert.Nil(t, duelists.Get(e).Attack.Trace)
}
