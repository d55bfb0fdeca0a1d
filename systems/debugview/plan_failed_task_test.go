package debugview_test

import (
	"net/http/httptest"
	"testing"

	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/debugview"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// Within one think a step succeeds and the next one cannot start: the log's "failed"
// entry names the step that failed (Look, or Deliver for GOAP), not the one that was
// running at the last frame (Walk, Carry). Before, it named the running one: a
// woodcutter's log read "failed GoSafe" when GoSafe had succeeded and Hide could not
// start.
func TestPlanLogNamesTheStepThatFailed(t *testing.T) {
	for _, kind := range []string{"htn", "goap"} {
		t.Run(kind, func(t *testing.T) { planLogNamesTheStepThatFailed(t, kind == "htn") })
	}
}

func planLogNamesTheStepThatFailed(t *testing.T, isHTN bool) {
	world := arche.NewWorld()
	w := &world

	hb := htn.NewBuilder("watch")
	alarm := hb.Fact("alarm")
	walk := hb.Primitive("Walk", htn.Primitive{Run: func(c *htn.Context) htn.Status {
		if c.Time-c.Start < 0.25 {
			return htn.Running
		}
		return htn.Success
	}})
	look := hb.Primitive("Look", htn.Primitive{If: []htn.Condition{htn.Is(alarm, htn.Eq, 0)}})
	rest := hb.Primitive("Rest", htn.Primitive{Run: func(*htn.Context) htn.Status { return htn.Running }})
	root := hb.Compound("Root")
	hb.Method(root, htn.Method{Name: "Patrol", Tasks: []htn.TaskID{walk, look}})
	hb.Method(root, htn.Method{Name: "Rest", Tasks: []htn.TaskID{rest}})
	hb.Root(root)
	hd, err := hb.Build()
	require.NoError(t, err)
	hreg := &htn.Registry{}
	hid, err := hreg.Add(hd)
	require.NoError(t, err)

	gb := goap.NewBuilder("carrier")
	held, blocked, done := gb.Fact("held"), gb.Fact("blocked"), gb.Fact("done")
	gb.Action(goap.Action{Name: "Carry", Cost: 1, Effects: []goap.Effect{{Fact: held, Value: 1}}, Run: func(c *goap.Context) goap.Status {
		if c.Time-c.Start < 0.25 {
			return goap.Running
		}
		c.State[blocked] = 1 // the way is blocked as it arrives: Deliver cannot start
		return goap.Success
	}})
	gb.Action(goap.Action{Name: "Deliver", Cost: 1,
		Pre:     []goap.Cond{{Fact: held, Op: goap.Eq, Value: 1}, {Fact: blocked, Op: goap.Eq, Value: 0}},
		Effects: []goap.Effect{{Fact: done, Value: 1}}})
	gb.Goal(goap.Goal{Name: "Delivered", Priority: 1, Want: []goap.Cond{{Fact: done, Op: goap.Eq, Value: 1}}})
	gd, err := gb.Build()
	require.NoError(t, err)
	greg := &goap.Registry{}
	gid, err := greg.Add(gd)
	require.NoError(t, err)
	arche.AddResource(w, hreg)
	arche.AddResource(w, greg)

	hs, err := systems.NewSpawner(w, systems.HTNThinker{Registry: hreg, Domain: hid})
	require.NoError(t, err)
	he := hs.Spawn(r2.Vec{X: 1, Y: 1}, nil)
	gs, err := systems.NewSpawner(w, systems.GOAPThinker{Registry: greg, Domain: gid})
	require.NoError(t, err)
	ge := gs.Spawn(r2.Vec{X: 2, Y: 2}, nil)

	v := debugview.New()
	v.Speed, v.Every = 0, 1
	sched := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.HTN{}, &systems.GOAP{}, v)
	sched.Initialize(w)
	defer func() { v.Close(); sched.Finalize(w) }()
	srv := httptest.NewServer(v.Handler())
	defer srv.Close()

	c := struct {
		e          arche.Entity
		want, not  string
		setAlarmOn bool
	}{ge, "Deliver", "Carry", false}
	if isHTN {
		c.e, c.want, c.not, c.setAlarmOn = he, "Look", "Walk", true
	}
	{
		selectID(t, srv, c.e.ID())
		sched.Update(w)
		if c.setAlarmOn { // while Walk runs: Look will not start
			for range 12 {
				sched.Update(w)
			}
			hp := (*components.HTNPlanner)(w.Get(he, arche.ComponentID[components.HTNPlanner](w)))
			require.True(t, hp.Run.HasPlan())
			require.Equal(t, "Walk", hd.TaskName(hp.Run.Current()))
			hp.State[alarm] = 1
		}
		for range 40 {
			sched.Update(w)
		}
		s := getState(t, srv)
		require.NotNil(t, s.Selected)
		var failed []string
		for _, x := range s.Selected.PlanLog {
			if x.Kind == "failed" {
				failed = append(failed, x.Task)
			}
		}
		require.NotEmpty(t, failed, "%+v", s.Selected.PlanLog)
		assert.Equal(t, c.want, failed[0], "%+v", s.Selected.PlanLog)
		assert.NotContains(t, failed, c.not)
	}
}
