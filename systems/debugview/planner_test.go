package debugview_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
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

// plannerWorld: a squad of three HTN agents patrolling (Walk for 0.25 s, then Look) and
// one GOAP agent (Fetch for 0.3 s to reach the goal Home), thinking at 10 Hz, 60 frames
// per second, with the viewer snapshotting every frame.
type plannerWorld struct {
	w     *arche.World
	sched *ecs.Scheduler
	v     *debugview.Viewer
	squad arche.Entity
	htns  []arche.Entity
	gopr  arche.Entity
}

func newPlannerWorld(t *testing.T) *plannerWorld {
	world := arche.NewWorld()
	w := &world
	hb := htn.NewBuilder("patrol")
	alarm, rounds := hb.Fact("alarm"), hb.Fact("rounds")
	walk := hb.Primitive("Walk", htn.Primitive{Effects: []htn.Effect{htn.Add(rounds, 1)}, Run: func(c *htn.Context) htn.Status {
		if c.State[alarm] != 0 {
			return htn.Failure // and the agent plans again
		}
		if c.Time-c.Start < 0.25 {
			return htn.Running
		}
		return htn.Success
	}})
	look := hb.Primitive("Look", htn.Primitive{Run: func(*htn.Context) htn.Status { return htn.Success }})
	root := hb.Compound("Root")
	// a first method whose condition never holds: Patrol is chosen second
	hb.Method(root, htn.Method{Name: "Hide", If: []htn.Condition{htn.Is(rounds, htn.Lt, 0)}, Tasks: []htn.TaskID{look}})
	hb.Method(root, htn.Method{Name: "Patrol", Tasks: []htn.TaskID{walk, look}})
	hb.Root(root)
	hd, err := hb.Build()
	require.NoError(t, err)
	hreg := &htn.Registry{}
	hid, err := hreg.Add(hd)
	require.NoError(t, err)

	gb := goap.NewBuilder("fetcher")
	home := gb.Fact("home")
	gb.Action(goap.Action{Name: "Fetch", Cost: 1, Effects: []goap.Effect{{Fact: home, Value: 1}}, Run: func(c *goap.Context) goap.Status {
		if c.Time-c.Start < 0.3 {
			return goap.Running
		}
		return goap.Success
	}})
	gb.Goal(goap.Goal{Name: "Home", Priority: 1, Want: []goap.Cond{{Fact: home, Op: goap.Eq, Value: 1}}})
	gd, err := gb.Build()
	require.NoError(t, err)
	greg := &goap.Registry{}
	gid, err := greg.Add(gd)
	require.NoError(t, err)
	arche.AddResource(w, hreg)
	arche.AddResource(w, greg)

	pw := &plannerWorld{w: w}
	pw.squad = w.NewEntity() // the squad's shared state lives on an entity of its own
	hs, err := systems.NewSpawner(w, systems.HTNThinker{Registry: hreg, Domain: hid}, systems.With(components.SquadMember{Squad: pw.squad}))
	require.NoError(t, err)
	for i := range 3 {
		pw.htns = append(pw.htns, hs.Spawn(r2.Vec{X: float64(i), Y: 1}, func(a *systems.Spawned) {
			systems.Component[components.SquadMember](a).Slot = uint8(i)
		}))
	}
	gs, err := systems.NewSpawner(w, systems.GOAPThinker{Registry: greg, Domain: gid})
	require.NoError(t, err)
	pw.gopr = gs.Spawn(r2.Vec{X: 5, Y: 5}, nil)
	pw.v = debugview.New()
	pw.v.Speed, pw.v.Every = 0, 1
	pw.sched = ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.HTN{}, &systems.GOAP{}, pw.v)
	pw.sched.Initialize(w)
	t.Cleanup(func() { pw.v.Close(); pw.sched.Finalize(w) })
	return pw
}

func (pw *plannerWorld) run(frames int) {
	for range frames {
		pw.sched.Update(pw.w)
	}
}

func selectID(t *testing.T, srv *httptest.Server, id uint32) {
	code, body := post(t, srv, url.Values{"op": {"select"}, "id": {strconv.Itoa(int(id))}})
	require.Equal(t, http.StatusAccepted, code, body)
}

// The selected HTN agent's planner is in the state JSON: its domain by name, its plan
// with the current step's status, its facts by name and its squad; its plan
// transitions (plans, steps started and done, plans completed) are in the plan log.
func TestSelectShowsThePlan(t *testing.T) {
	pw := newPlannerWorld(t)
	srv := httptest.NewServer(pw.v.Handler())
	defer srv.Close()
	pw.run(2)
	e := pw.htns[1]
	selectID(t, srv, e.ID())
	pw.run(60) // a second: patrols of ~0.3 s
	s := getState(t, srv)
	require.NotNil(t, s.Selected)
	p := s.Selected.Planner
	require.NotNil(t, p)
	assert.Equal(t, "htn", p.Kind)
	assert.Equal(t, "patrol", p.Domain)
	assert.True(t, p.Resolved)
	require.Len(t, p.Steps, 2)
	assert.Equal(t, "Walk", p.Steps[0].Name)
	assert.Equal(t, "Look", p.Steps[1].Name)
	assert.Contains(t, []string{"running", "next"}, p.Steps[p.Step].Status, "the current step")
	for i, st := range p.Steps {
		if i < p.Step {
			assert.Equal(t, "done", st.Status)
		} else if i > p.Step {
			assert.Equal(t, "pending", st.Status)
		}
	}
	// the method chosen for each compound task, and the methods passed over before it
	assert.Equal(t, []debugview.PlanMethod{{Task: "Root", Method: "Patrol", Index: 1, Depth: 0, PassedOver: []string{"Hide"}}}, p.Methods)
	require.Len(t, p.Facts, 2)
	assert.Equal(t, "alarm", p.Facts[0].Name)
	assert.Equal(t, "rounds", p.Facts[1].Name)
	assert.GreaterOrEqual(t, p.Facts[1].Value, int32(2), "a round per Walk done")
	require.NotNil(t, p.Squad)
	assert.Equal(t, pw.squad.ID(), p.Squad.Entity)
	assert.Equal(t, 1, p.Squad.Slot)
	require.Len(t, p.Squad.Members, 3)
	for i, m := range p.Squad.Members {
		assert.Equal(t, pw.htns[i].ID(), m.ID)
		assert.Equal(t, i, m.Slot)
		assert.Contains(t, []string{"Walk", "Look"}, m.Step)
	}

	kinds := map[string]int{}
	require.NotEmpty(t, s.Selected.PlanLog)
	assert.Equal(t, "selected", s.Selected.PlanLog[0].Kind, "the baseline: the plan when selected")
	for i, x := range s.Selected.PlanLog {
		kinds[x.Kind]++
		if i > 0 {
			assert.GreaterOrEqual(t, x.Time, s.Selected.PlanLog[i-1].Time)
		}
		if i > 0 { // (the baseline: the agent may not have thought yet)
			assert.Equal(t, []string{"Walk", "Look"}, x.Plan, "every entry carries the plan after it")
		}
		switch x.Kind {
		case "plan":
			assert.Zero(t, x.Step)
		case "start":
			assert.True(t, x.Started)
			assert.Equal(t, []string{"Walk", "Look"}[x.Step], x.Task)
		case "done":
			assert.Equal(t, []string{"Walk", "Look"}[x.Step-1], x.Task)
		}
	}
	assert.GreaterOrEqual(t, kinds["plan"], 2, "a new plan after each patrol")
	assert.GreaterOrEqual(t, kinds["start"], 2)
	assert.GreaterOrEqual(t, kinds["done"], 2)
	assert.GreaterOrEqual(t, kinds["complete"], 1)
	assert.Zero(t, kinds["failed"])
	assert.Nil(t, s.Selected.Tree, "no behavior tree")

	// the GOAP agent: its goal and action
	selectID(t, srv, pw.gopr.ID())
	pw.run(10)
	s = getState(t, srv)
	p = s.Selected.Planner
	require.NotNil(t, p)
	assert.Equal(t, "goap", p.Kind)
	assert.Equal(t, "fetcher", p.Domain)
	assert.Nil(t, p.Squad)
	require.Len(t, p.Facts, 1)
	assert.Equal(t, "home", p.Facts[0].Name)
	if len(p.Steps) > 0 {
		assert.Equal(t, "Fetch", p.Steps[0].Name)
		assert.Equal(t, "Home", p.Goal)
	}

	// an agent whose domain name is not registered: shown, not resolved
	ok := pw.v.Select(pw.htns[0].ID())
	require.True(t, ok)
	hp := (*components.HTNPlanner)(pw.w.Get(pw.htns[0], arche.ComponentID[components.HTNPlanner](pw.w)))
	hp.Name = "gone"
	pw.run(3)
	s = getState(t, srv)
	require.NotNil(t, s.Selected.Planner)
	assert.Equal(t, "gone", s.Selected.Planner.Domain)
	assert.False(t, s.Selected.Planner.Resolved)
	assert.Empty(t, s.Selected.Planner.Steps)
}

// A failure is logged, and the plan made after it: the selected agent's Walk fails while
// it believes the alarm is on.
func TestPlanLogShowsFailures(t *testing.T) {
	pw := newPlannerWorld(t)
	srv := httptest.NewServer(pw.v.Handler())
	defer srv.Close()
	e := pw.htns[0]
	pw.run(1)
	selectID(t, srv, e.ID())
	pw.run(10)
	hp := (*components.HTNPlanner)(pw.w.Get(e, arche.ComponentID[components.HTNPlanner](pw.w)))
	require.True(t, hp.Run.HasPlan())
	hp.State[0] = 1 // alarm
	pw.run(12)
	hp.State[0] = 0
	pw.run(40)
	s := getState(t, srv)
	var kinds []string
	for _, x := range s.Selected.PlanLog {
		kinds = append(kinds, x.Kind)
	}
	assert.Contains(t, kinds, "failed")
	i := len(kinds) - 1 - indexOf(reversed(kinds), "failed") // the last failure
	require.Less(t, i+3, len(kinds), "%v", kinds)
	assert.Equal(t, []string{"plan", "start", "done"}, kinds[i+1:i+4], "the agent plans again once the alarm is off: %v", kinds)
	assert.Contains(t, kinds[i:], "complete")
}

func indexOf(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

func reversed(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[len(xs)-1-i] = x
	}
	return out
}

// Disabled, the viewer allocates nothing with a planner agent selected (it neither
// observes nor copies the plan).
func TestDisabledUpdateWithAPlannerAllocatesNothing(t *testing.T) {
	pw := newPlannerWorld(t)
	require.True(t, pw.v.Select(pw.htns[0].ID()))
	pw.run(20)
	pw.v.SetEnabled(false)
	assert.Zero(t, testing.AllocsPerRun(50, func() { pw.v.Update(pw.w) }))
}

// A squad entity removed while its members still name it shows as not alive, with the
// generation they name: its ID taken by a new entity is not shown as their squad
// (a newcomer's RTS removed a squad's entity; the panel named the new one).
func TestSquadRemovedShowsNotAlive(t *testing.T) {
	pw := newPlannerWorld(t)
	srv := httptest.NewServer(pw.v.Handler())
	defer srv.Close()
	pw.run(2)
	selectID(t, srv, pw.htns[1].ID())
	pw.run(2)
	p := getState(t, srv).Selected.Planner
	require.NotNil(t, p)
	require.NotNil(t, p.Squad)
	assert.True(t, p.Squad.Alive)
	assert.Equal(t, pw.squad.Generation(), p.Squad.Gen)

	pw.w.RemoveEntity(pw.squad)
	reused := pw.w.NewEntity() // takes the removed ID, of the next generation
	require.Equal(t, pw.squad.ID(), reused.ID())
	pw.run(2)
	p = getState(t, srv).Selected.Planner
	require.NotNil(t, p.Squad)
	assert.Equal(t, pw.squad.ID(), p.Squad.Entity)
	assert.Equal(t, pw.squad.Generation(), p.Squad.Gen, "the generation the members name")
	assert.False(t, p.Squad.Alive, "the squad entity was removed")
	assert.Len(t, p.Squad.Members, 3, "its members still listed")
}
