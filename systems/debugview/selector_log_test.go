package debugview_test

import (
	"net/http/httptest"
	"sync"
	"testing"
	"time"

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

// duelWorld is one Duelist whose behavior tree picks melee, ranged or wait by
// a utility choice (hybrid.UtilitySelector) whose State is Duelist.Attack: melee
// scores 1 − dist/10, ranged dist/10 (a WeightedSum of one consideration of
// zero Weight), wait 0.35 (its Weight; melee's is zero: it counts as 1).
type duelWorld struct {
	w        *arche.World
	v        *debugview.Viewer
	sched    *ecs.Scheduler
	e        arche.Entity
	duelists generic.Map[Duelist]
	srv      *httptest.Server
}

func newDuelWorld(t *testing.T, configure func(*debugview.Viewer)) *duelWorld {
	t.Helper()
	world := arche.NewWorld()
	dw := &duelWorld{w: &world}
	w := dw.w
	dw.duelists = generic.NewMap[Duelist](w)
	dist := func(agent any) float64 { return dw.duelists.Get(systems.UtilityAgent(agent).Entity).Dist }
	r, err := utility.New("attack", utility.Policy{},
		utility.Action{Name: "melee", Considerations: []utility.Consideration{
			{Name: "close", Input: dist, Range: utility.Range{Min: 10, Max: 0}, Curve: utility.Linear(1, 0)}}},
		utility.Action{Name: "ranged", Combine: utility.WeightedSum, Considerations: []utility.Consideration{
			{Name: "far", Input: dist, Range: utility.Range{Min: 0, Max: 10}, Curve: utility.Linear(1, 0)}}},
		utility.Action{Name: "wait", Weight: 0.35},
	)
	require.NoError(t, err)
	running := func(*bt.Context) bt.Status { return bt.Running }
	tree, err := bt.Compile("duel", hybrid.UtilitySelector("attack", r,
		func(c *bt.Context) (*utility.State, utility.Source) {
			return &dw.duelists.Get(systems.AgentOf(c).Entity).Attack, nil
		},
		bt.Action("swing", running), bt.Action("shoot", running), bt.Action("idle", running)))
	require.NoError(t, err)
	sp, err := systems.NewSpawner(w, systems.Thinker{Tree: tree, Interval: 0.1}, systems.With(Duelist{Dist: 3}))
	require.NoError(t, err)
	dw.e = sp.Spawn(r2.Vec{X: 2, Y: 2}, nil)
	think := generic.NewMap[components.Think](w)
	*think.Get(dw.e) = components.Think{Interval: 0.1} // thinks every frame, from the first
	dw.v = debugview.New()
	dw.v.Speed, dw.v.Every = 0, 1
	if configure != nil {
		configure(dw.v)
	}
	dw.sched = ecs.NewScheduler(ecs.NewClockSystem(0.1), &systems.Decision{}, dw.v)
	dw.sched.Initialize(w)
	dw.srv = httptest.NewServer(dw.v.Handler())
	t.Cleanup(func() { dw.v.Close(); dw.srv.Close(); dw.sched.Finalize(w) })
	return dw
}

func (dw *duelWorld) run(n int) {
	for range n {
		dw.sched.Update(dw.w)
	}
}

// TestSelectorChoiceChangesAreLogged: the changes of choice of a utility choice
// inside a behavior tree (a hybrid.UtilitySelector's State, kept in a component
// field) join the transition log as the UtilityBrain's do, with the field named
// and the decision that made them: the baseline at the selection, then each
// change, from → to, with the scores and inputs of that decision.
func TestSelectorChoiceChangesAreLogged(t *testing.T) {
	dw := newDuelWorld(t, nil)
	dw.run(2)
	selectID(t, dw.srv, dw.e.ID())
	dw.run(2)
	a := agentJSON(t, dw.srv)
	require.Len(t, a.UtilityLog, 1, "the baseline: %+v", a.UtilityLog)
	base := a.UtilityLog[0]
	assert.Equal(t, "selected", base.Kind)
	assert.Equal(t, "Duelist.Attack", base.Field)
	assert.Equal(t, "melee", base.To)

	dw.duelists.Get(dw.e).Dist = 8
	dw.run(1)
	a = agentJSON(t, dw.srv)
	require.Len(t, a.UtilityLog, 2, "%+v", a.UtilityLog)
	ch := a.UtilityLog[1]
	assert.Equal(t, "choice", ch.Kind)
	assert.Equal(t, "Duelist.Attack", ch.Field)
	assert.Equal(t, "melee", ch.From)
	assert.Equal(t, "ranged", ch.To)
	assert.Equal(t, 1, ch.Choice)
	assert.InDelta(t, 0.8, ch.Scores[1], 1e-12)
	assert.Greater(t, ch.Time, base.Time)
	require.True(t, ch.Traced, "the decision's inputs were recorded")
	require.NotNil(t, ch.Options[1].Considerations[0].Input)
	assert.Equal(t, 8.0, *ch.Options[1].Considerations[0].Input)

	dw.run(3) // no change: nothing logged
	assert.Len(t, agentJSON(t, dw.srv).UtilityLog, 2)

	dw.duelists.Get(dw.e).Dist = 1
	dw.run(1)
	a = agentJSON(t, dw.srv)
	require.Len(t, a.UtilityLog, 3)
	assert.Equal(t, "ranged", a.UtilityLog[2].From)
	assert.Equal(t, "melee", a.UtilityLog[2].To)
}

// TestSelectorWeightsAreTheWeightsThatCount: an option's and a WeightedSum
// consideration's zero Weight counts as 1, and the page is shown 1, not 0 (next
// to wait's 0.35).
func TestSelectorWeightsAreTheWeightsThatCount(t *testing.T) {
	dw := newDuelWorld(t, nil)
	dw.run(1)
	selectID(t, dw.srv, dw.e.ID())
	dw.run(2)
	u := agentJSON(t, dw.srv).Selectors[0].Utility
	require.NotNil(t, u)
	require.Len(t, u.Options, 3)
	assert.Equal(t, 1.0, u.Options[0].Weight, "melee: zero Weight, counts as 1")
	assert.Equal(t, 1.0, u.Options[1].Considerations[0].Weight, "far: zero Weight in a WeightedSum, counts as 1")
	assert.Equal(t, 0.35, u.Options[2].Weight)
	assert.InDelta(t, 0.35, u.Scores[2], 1e-12)
}

// TestSelectorWhilePaused: an agent selected while the world is paused shows its
// utility choice's scores at once (the reasoner the State says last scored it),
// as a UtilityBrain's do, and the log's baseline; the inputs come with its next
// decision.
func TestSelectorWhilePaused(t *testing.T) {
	dw := newDuelWorld(t, func(v *debugview.Viewer) { v.Paused = true })
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() { // the simulation goroutine: the viewer blocks it while paused
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
				dw.sched.Update(dw.w)
			}
		}
	}()
	defer func() { close(stop); dw.v.Close(); wg.Wait() }()
	waitFor := func(what string, ok func(debugview.Snapshot) bool) debugview.Snapshot {
		t.Helper()
		for range 2000 {
			if s := getState(t, dw.srv); ok(s) {
				return s
			}
			time.Sleep(2 * time.Millisecond)
		}
		t.Fatalf("never: %s", what)
		return debugview.Snapshot{}
	}
	paused := waitFor("paused", func(s debugview.Snapshot) bool { return s.Paused && s.Frame >= 0 && s.Version > 0 })
	selectID(t, dw.srv, dw.e.ID())
	s := waitFor("selected", func(s debugview.Snapshot) bool { return s.Selected != nil })
	assert.Equal(t, paused.Frame, s.Frame, "no frame ran")
	a := s.Selected
	require.Len(t, a.Selectors, 1, "the State is found at the selection")
	u := a.Selectors[0].Utility
	require.NotNil(t, u, "its scores, at once")
	assert.Equal(t, 0, u.Choice)
	assert.InDelta(t, 0.7, u.Scores[0], 1e-12)
	assert.False(t, u.Traced)
	require.Len(t, a.UtilityLog, 1)
	assert.Equal(t, "selected", a.UtilityLog[0].Kind)

	code, _ := post(t, dw.srv, map[string][]string{"op": {"step"}})
	require.Equal(t, 202, code)
	s = waitFor("stepped", func(s debugview.Snapshot) bool { return s.Frame == paused.Frame+1 && s.Selected != nil })
	u = s.Selected.Selectors[0].Utility
	require.NotNil(t, u, "still there after a step")
	assert.True(t, u.Traced, "the step's decision recorded its inputs")
	require.NotNil(t, u.Options[0].Considerations[0].Input)
	assert.Equal(t, 3.0, *u.Options[0].Considerations[0].Input)
}
