package debugview_test

import (
	"net/http/httptest"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/debugview"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A utility.KeyInput whose key the agent's blackboard has not set reads NaN, which
// scores 0: the consideration's note must name that cause (the key not set), not only
// a Fact given the wrong agent type, which is counted in unread (0 here).
func TestNaNInputNoteNamesAnUnsetBlackboardKey(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	schema := blackboard.NewSchema()
	danger := blackboard.MustDeclare[float64](schema, "danger")
	r, err := utility.New("villager", utility.Policy{},
		utility.Action{Name: "work", Considerations: []utility.Consideration{
			{Name: "safe", Input: utility.KeyInput(danger), Range: utility.Range{Min: 1, Max: 0}}}},
		utility.Action{Name: "idle", Weight: 0.1})
	require.NoError(t, err)
	sp, err := systems.NewSpawner(w, systems.Thinker{Reasoner: r, Schema: schema, Interval: 0.1})
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{X: 1, Y: 1}, nil)
	v := debugview.New()
	v.Speed, v.Every = 0, 1
	s := ecs.NewScheduler(ecs.NewClockSystem(0.1), &systems.Utility{}, v)
	s.Initialize(w)
	t.Cleanup(func() { v.Close(); s.Finalize(w) })
	srv := httptest.NewServer(v.Handler())
	defer srv.Close()
	s.Update(w)
	selectID(t, srv, e.ID())
	for range 3 {
		s.Update(w)
	}
	u := agentJSON(t, srv).Utility
	require.NotNil(t, u)
	require.True(t, u.Traced)
	assert.Zero(t, u.Unread)
	assert.Zero(t, u.NaNInputs, "a key not set is a designer's veto, not a NaN input")
	c := u.Options[0].Considerations[0]
	assert.Nil(t, c.Input)
	assert.Equal(t, "the input is NaN: it scores 0 (a fact that returned NaN, a utility.KeyInput whose key the blackboard has not set, "+
		"or an Input that could not read the agent, counted in unread)", c.Note)
}

// An Input of the program's own that returns NaN (0/0) is counted in the view's
// nan_inputs, from utility.State.NaNInputs, as Diagnose reports it (utility_input_nan).
func TestViewCountsNaNInputs(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	var food, people float64
	r, err := utility.New("villager", utility.Policy{},
		utility.Action{Name: "eat", Considerations: []utility.Consideration{
			{Name: "food per head", Input: func(any) float64 { return food / people }, Range: utility.Range{Max: 10}}}},
		utility.Action{Name: "idle", Weight: 0.1})
	require.NoError(t, err)
	sp, err := systems.NewSpawner(w, systems.Thinker{Reasoner: r, Interval: 0.1})
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{X: 1, Y: 1}, nil)
	v := debugview.New()
	v.Speed, v.Every = 0, 1
	s := ecs.NewScheduler(ecs.NewClockSystem(0.1), &systems.Utility{}, v)
	s.Initialize(w)
	t.Cleanup(func() { v.Close(); s.Finalize(w) })
	srv := httptest.NewServer(v.Handler())
	defer srv.Close()
	s.Update(w)
	selectID(t, srv, e.ID())
	for range 3 {
		s.Update(w)
	}
	u := agentJSON(t, srv).Utility
	require.NotNil(t, u)
	assert.Equal(t, uint32(1), u.NaNInputs)
	assert.Zero(t, u.Unread)
}
