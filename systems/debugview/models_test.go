package debugview_test

import (
	"net/http/httptest"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/debugview"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// The selected agent's utility scores, state machine path and blackboard
// values reach the snapshot.
func TestSelectedUtilityMachineAndBlackboard(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(16, 16))

	health := func(agent any) float64 { a := systems.UtilityAgent(agent); return a.Health.Current / a.Health.Max }
	r, err := utility.New("hurt", utility.Policy{},
		utility.Action{Name: "flee", Considerations: []utility.Consideration{{Name: "hurt", Input: health, Curve: utility.InverseQuadratic()}}},
		utility.Action{Name: "hold", Weight: 0.5})
	require.NoError(t, err)
	utilSp, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Reasoner: r}, systems.Combatant{MaxHealth: 100})
	require.NoError(t, err)
	hurt := utilSp.Spawn(r2.Vec{X: 2.5, Y: 2.5}, func(a *systems.Spawned) { a.Health.Current = 20 }) // flee: 1 − 0.2² = 0.96

	b := fsm.NewBuilder("guard")
	alert := b.State("Alert", fsm.Hooks{})
	search := b.Substate(alert, "Search", fsm.Hooks{})
	b.Initial(alert, search)
	machine, err := b.Build()
	require.NoError(t, err)
	fsmSp, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Machine: machine})
	require.NoError(t, err)
	guard := fsmSp.Spawn(r2.Vec{X: 4.5, Y: 2.5}, nil)

	schema := blackboard.NewSchema()
	ammo := blackboard.MustDeclare[int](schema, "ammo")
	blackboard.MustDeclare[string](schema, "target")
	tree, err := bt.Compile("wait", bt.Wait(1))
	require.NoError(t, err)
	btSp, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: tree, Schema: schema})
	require.NoError(t, err)
	soldier := btSp.Spawn(r2.Vec{X: 6.5, Y: 2.5}, func(a *systems.Spawned) { blackboard.Set(a.Blackboard.Store, ammo, 7) })

	v := debugview.New()
	v.Speed, v.Every = 0, 1
	sched := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.Utility{}, &systems.FSM{}, &systems.Decision{},
		&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{}, v)
	sched.Initialize(w)
	defer v.Close()
	srv := httptest.NewServer(v.Handler())
	defer srv.Close()

	selected := func(e arche.Entity) *debugview.Agent {
		require.True(t, v.Select(e.ID()))
		sched.Run(w, 10)
		s := getState(t, srv)
		require.NotNil(t, s.Selected)
		require.Equal(t, e.ID(), s.Selected.ID)
		return s.Selected
	}

	a := selected(hurt)
	require.NotNil(t, a.Utility)
	assert.Equal(t, "hurt", a.Utility.Name)
	assert.Equal(t, []string{"flee", "hold"}, a.Utility.Actions)
	assert.InDeltaSlice(t, []float64{0.96, 0.5}, a.Utility.Scores, 1e-9)
	assert.Equal(t, 0, a.Utility.Choice)
	assert.Equal(t, &[2]float64{20, 100}, a.Health)
	assert.Nil(t, a.Tree)
	assert.Nil(t, a.FSM)

	a = selected(guard)
	require.NotNil(t, a.FSM)
	assert.Equal(t, "guard", a.FSM.Name)
	assert.Equal(t, []string{"Alert", "Search"}, a.FSM.Active)
	assert.EqualValues(t, 1, a.FSM.Transitions, "starting counts as one")
	assert.Nil(t, a.Utility)

	a = selected(soldier)
	require.NotNil(t, a.Tree)
	assert.Equal(t, []debugview.KV{{Key: "ammo", Value: "7", Set: true}, {Key: "target"}}, a.Blackboard)
}
