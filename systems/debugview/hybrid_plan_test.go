package debugview_test

import (
	"net/http/httptest"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/ai/hybrid"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/debugview"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// courier keeps the plan a hybrid.HTNAction of its tree runs.
type courier struct {
	Run   htn.Run
	State htn.State
}

// The plan of a hybrid.HTNAction in the selected agent's tree is shown as its planner
// (kind "htn", the domain, the steps, the facts): before, selected.planner was null
// for an agent without an HTNPlanner (FINDINGS.md section 9, "Debug view").
func TestSelectShowsThePlanOfAnHTNAction(t *testing.T) {
	hb := htn.NewBuilder("deliver")
	trips := hb.Fact("trips")
	walk := hb.Primitive("Walk", htn.Primitive{Effects: []htn.Effect{htn.Add(trips, 1)}, Run: func(*htn.Context) htn.Status { return htn.Running }})
	drop := hb.Primitive("Drop", htn.Primitive{})
	root := hb.Compound("Deliver")
	hb.Method(root, htn.Method{Name: "Trip", Tasks: []htn.TaskID{walk, drop}})
	hb.Root(root)
	d, err := hb.Build()
	require.NoError(t, err)
	tree, err := bt.Compile("courier", bt.Sequence(hybrid.HTNAction("Deliver", d, func(ctx *bt.Context) (*htn.Run, *htn.State) {
		c := systems.Get[courier](systems.AgentOf(ctx))
		return &c.Run, &c.State
	})))
	require.NoError(t, err)

	world := arche.NewWorld()
	w := &world
	sp, err := systems.NewSpawner(w, systems.Thinker{Tree: tree, Interval: 0.1}, systems.With(courier{}))
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{X: 1, Y: 1}, nil)
	v := debugview.New()
	v.Speed, v.Every = 0, 1
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Decision{}, v)
	s.Initialize(w)
	defer s.Finalize(w)
	defer v.Close()
	srv := httptest.NewServer(v.Handler())
	defer srv.Close()
	for range 2 {
		s.Update(w)
	}
	selectID(t, srv, e.ID())
	for range 20 {
		s.Update(w)
	}
	st := getState(t, srv)
	require.NotNil(t, st.Selected)
	p := st.Selected.Planner
	require.NotNil(t, p, "the HTNAction's plan is the agent's planner")
	assert.Equal(t, "htn", p.Kind)
	assert.Equal(t, "deliver", p.Domain)
	assert.True(t, p.Resolved)
	require.Len(t, p.Steps, 2)
	assert.Equal(t, "Walk", p.Steps[0].Name)
	assert.Equal(t, "running", p.Steps[0].Status)
	assert.Equal(t, "Drop", p.Steps[1].Name)
	assert.Equal(t, []debugview.PlanMethod{{Task: "Deliver", Method: "Trip", Index: 0, Depth: 0, PassedOver: nil}}, p.Methods)
	require.Len(t, p.Facts, 1)
	assert.Equal(t, "trips", p.Facts[0].Name)
}

// hauler keeps the plan a hybrid.GOAPAction of its tree runs.
type hauler struct {
	Run   goap.Run
	State goap.State
}

// The plan of a hybrid.GOAPAction in the selected agent's tree is shown as its
// planner (kind "goap", the domain, the goal, the steps, the facts): before,
// selected.planner was null for it.
func TestSelectShowsThePlanOfAGOAPAction(t *testing.T) {
	gb := goap.NewBuilder("haul")
	loaded, delivered := gb.Fact("loaded"), gb.Fact("delivered")
	gb.Action(goap.Action{Name: "Load", Cost: 1, Effects: []goap.Effect{{Fact: loaded, Value: 1}}})
	gb.Action(goap.Action{Name: "Carry", Cost: 1, Pre: []goap.Cond{{Fact: loaded, Op: goap.Eq, Value: 1}},
		Effects: []goap.Effect{{Fact: delivered, Value: 1}}, Run: func(*goap.Context) goap.Status { return goap.Running }})
	gb.Goal(goap.Goal{Name: "Deliver", Priority: 1, Want: []goap.Cond{{Fact: delivered, Op: goap.Eq, Value: 1}}})
	d, err := gb.Build()
	require.NoError(t, err)
	tree, err := bt.Compile("hauler", bt.Sequence(hybrid.GOAPAction("Haul", d, func(ctx *bt.Context) (*goap.Run, *goap.State) {
		h := systems.Get[hauler](systems.AgentOf(ctx))
		return &h.Run, &h.State
	})))
	require.NoError(t, err)

	world := arche.NewWorld()
	w := &world
	sp, err := systems.NewSpawner(w, systems.Thinker{Tree: tree, Interval: 0.1}, systems.With(hauler{}))
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{X: 1, Y: 1}, nil)
	v := debugview.New()
	v.Speed, v.Every = 0, 1
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Decision{}, v)
	s.Initialize(w)
	defer s.Finalize(w)
	defer v.Close()
	srv := httptest.NewServer(v.Handler())
	defer srv.Close()
	for range 2 {
		s.Update(w)
	}
	selectID(t, srv, e.ID())
	for range 20 {
		s.Update(w)
	}
	st := getState(t, srv)
	require.NotNil(t, st.Selected)
	p := st.Selected.Planner
	require.NotNil(t, p, "the GOAPAction's plan is the agent's planner")
	assert.Equal(t, "goap", p.Kind)
	assert.Equal(t, "haul", p.Domain)
	assert.True(t, p.Resolved)
	assert.Equal(t, "Deliver", p.Goal)
	assert.Equal(t, "running", p.Status)
	require.Len(t, p.Steps, 2)
	assert.Equal(t, debugview.PlanStep{Name: "Load", Status: "done"}, p.Steps[0])
	assert.Equal(t, debugview.PlanStep{Name: "Carry", Status: "running"}, p.Steps[1])
	require.Len(t, p.Facts, 2)
	assert.Equal(t, debugview.Fact{Name: "loaded", Value: 1}, p.Facts[0])
	assert.Equal(t, debugview.Fact{Name: "delivered", Value: 0}, p.Facts[1])
}
