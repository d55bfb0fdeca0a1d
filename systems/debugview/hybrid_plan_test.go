package debugview_test

import (
	"net/http/httptest"
	"testing"

	"github.com/archai-go/archai/ai/bt"
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
