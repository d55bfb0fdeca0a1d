package systems_test

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"testing"

	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// guardHTN: an agent rests until its sensor (a draw from its own Rand) raises the
// alarm, then walks to a post and holds it for a random time.
func guardHTN(t testing.TB) (*htn.Registry, htn.ID) {
	b := htn.NewBuilder("guard")
	alarm, atPost := b.Fact("alarm"), b.Fact("atPost")
	b.Sense(func(c *htn.Context) {
		a := systems.PlanAgent(c.Agent)
		if a.Rand.Float64() < 0.05 {
			c.State[alarm] ^= 1
		}
	})
	timed := func(d float64) htn.Operator {
		return func(c *htn.Context) htn.Status {
			if c.Memory[0] == 0 {
				c.Memory[0] = d * (0.5 + systems.PlanAgent(c.Agent).Rand.Float64())
			}
			if c.Time-c.Start < c.Memory[0] {
				return htn.Running
			}
			return htn.Success
		}
	}
	goPost := b.Primitive("GoToPost", htn.Primitive{Effects: []htn.Effect{htn.Set(atPost, 1)},
		Run: func(c *htn.Context) htn.Status {
			a := systems.PlanAgent(c.Agent)
			a.Intent.Move, a.Intent.Goal = true, r2.Vec{X: 5, Y: float64(a.Entity.ID() % 7)}
			return timed(0.5)(c)
		}})
	hold := b.Primitive("Hold", htn.Primitive{If: []htn.Condition{htn.Is(atPost, htn.Eq, 1)}, Run: timed(1)})
	rest := b.Primitive("Rest", htn.Primitive{Effects: []htn.Effect{htn.Set(atPost, 0)},
		Run: func(c *htn.Context) htn.Status {
			systems.PlanAgent(c.Agent).Intent.Move = false
			return timed(0.7)(c)
		}})
	root := b.Compound("Guard")
	b.Method(root, htn.Method{Name: "Alarm", If: []htn.Condition{htn.Is(alarm, htn.Eq, 1)}, Tasks: []htn.TaskID{goPost, hold}})
	b.Method(root, htn.Method{Name: "Calm", Tasks: []htn.TaskID{rest}})
	b.Root(root)
	d, err := b.Build()
	require.NoError(t, err)
	reg := &htn.Registry{}
	id, err := reg.Add(d)
	require.NoError(t, err)
	return reg, id
}

// fetchGOAP: fetch a thing and bring it home; the fetch fails now and then.
func fetchGOAP(t testing.TB) (*goap.Registry, goap.ID) {
	b := goap.NewBuilder("fetch")
	has, home := b.Fact("has"), b.Fact("home")
	b.Action(goap.Action{Name: "Fetch", Cost: 2, Pre: []goap.Cond{{Fact: has, Op: goap.Eq, Value: 0}},
		Effects: []goap.Effect{{Fact: has, Value: 1}, {Fact: home, Value: 0}},
		Run: func(c *goap.Context) goap.Status {
			a := systems.PlanAgent(c.Agent)
			a.Intent.Move, a.Intent.Goal = true, r2.Vec{X: 9, Y: float64(a.Entity.ID() % 5)}
			switch r := a.Rand.Float64(); {
			case r < 0.1:
				return goap.Failure
			case r < 0.5:
				return goap.Success
			}
			return goap.Running
		}})
	b.Action(goap.Action{Name: "Return", Cost: 1, Pre: []goap.Cond{{Fact: has, Op: goap.Eq, Value: 1}},
		Effects: []goap.Effect{{Fact: home, Value: 1}, {Fact: has, Value: 0}},
		Run: func(c *goap.Context) goap.Status {
			a := systems.PlanAgent(c.Agent)
			a.Intent.Goal = r2.Vec{}
			if a.Rand.Float64() < 0.4 {
				return goap.Success
			}
			return goap.Running
		}})
	b.Goal(goap.Goal{Name: "Home", Priority: 1, Want: []goap.Cond{{Fact: home, Op: goap.Eq, Value: 1}}})
	b.Sense(func(c *goap.Context) {
		if systems.PlanAgent(c.Agent).Rand.Float64() < 0.1 {
			c.State[home] = 0 // sent out again
		}
	})
	d, err := b.Build()
	require.NoError(t, err)
	reg := &goap.Registry{}
	id, err := reg.Add(d)
	require.NoError(t, err)
	return reg, id
}

// plannerHash runs n agents of each planner for frames frames and returns the state
// hash and a hash of every planner component as JSON.
func plannerHash(t *testing.T, n, frames, workers, budget int) (uint64, uint64) {
	return plannerHashRoundTrip(t, n, frames, workers, budget, -1)
}

// roundTrip replaces every planner component of w by its JSON encoding decoded into a
// zero value (the cached domain pointer dropped).
func roundTrip(t *testing.T, w *arche.World) {
	hq := generic.NewFilter1[components.HTNPlanner]().Query(w)
	for hq.Next() {
		p := hq.Get()
		data, err := json.Marshal(p)
		require.NoError(t, err)
		*p = components.HTNPlanner{}
		require.NoError(t, json.Unmarshal(data, p))
		require.Nil(t, p.Cache)
	}
	gq := generic.NewFilter1[components.GOAPPlanner]().Query(w)
	for gq.Next() {
		p := gq.Get()
		data, err := json.Marshal(p)
		require.NoError(t, err)
		*p = components.GOAPPlanner{}
		require.NoError(t, json.Unmarshal(data, p))
	}
}

// plannerHashRoundTrip is plannerHash with the planner components sent through JSON
// after frame at (none if at < 0).
func plannerHashRoundTrip(t *testing.T, n, frames, workers, budget, at int) (uint64, uint64) {
	world := arche.NewWorld()
	w := &world
	hreg, hid := guardHTN(t)
	greg, gid := fetchGOAP(t)
	arche.AddResource(w, hreg)
	arche.AddResource(w, greg)
	hs, err := systems.NewSpawner(w, systems.HTNThinker{Registry: hreg, Domain: hid})
	require.NoError(t, err)
	hs.Seed = 11
	hs.SpawnBatch(n, func(i int, a *systems.Spawned) { a.Position.Vec = r2.Vec{X: float64(i)} })
	gs, err := systems.NewSpawner(w, systems.GOAPThinker{Registry: greg, Domain: gid, Interval: 0.2})
	require.NoError(t, err)
	gs.Seed = 12
	gs.SpawnBatch(n, func(i int, a *systems.Spawned) { a.Position.Vec = r2.Vec{Y: float64(i)} })
	h := &systems.HTN{Workers: workers, Budget: budget, Log: true}
	g := &systems.GOAP{Workers: workers, Budget: budget, Log: true}
	events := fnv.New64a()
	logger := &eventHash{h: h, g: g, sum: events}
	s := ecs.NewScheduler(ecs.NewClockSystem(0.05), h, g, logger)
	s.Initialize(w)
	if at >= 0 {
		s.Run(w, at)
		roundTrip(t, w)
		s.Run(w, frames-at)
	} else {
		s.Run(w, frames)
	}
	s.Finalize(w)
	if budget == 0 { // 10 Hz and 5 Hz at 20 frames per second
		assert.Equal(t, int64(n*frames/2), h.TotalThought)
		assert.Equal(t, int64(n*frames/4), g.TotalThought)
	} else {
		assert.Equal(t, int64(budget*frames), h.TotalThought)
	}
	sum := fnv.New64a()
	hq := generic.NewFilter1[components.HTNPlanner]().Query(w)
	for hq.Next() {
		data, err := json.Marshal(hq.Get())
		require.NoError(t, err)
		sum.Write(data)
	}
	gq := generic.NewFilter1[components.GOAPPlanner]().Query(w)
	for gq.Next() {
		data, err := json.Marshal(gq.Get())
		require.NoError(t, err)
		sum.Write(data)
	}
	require.Greater(t, logger.n, n, "events were logged")
	sum.Write(events.Sum(nil))
	return systems.StateHash(w), sum.Sum64()
}

// eventHash hashes the planners' transition logs after every frame.
type eventHash struct {
	h   *systems.HTN
	g   *systems.GOAP
	sum interface{ Write([]byte) (int, error) }
	n   int
}

func (e *eventHash) Initialize(w *arche.World) {}
func (e *eventHash) Finalize(w *arche.World)   {}
func (e *eventHash) Update(w *arche.World) {
	for _, ev := range e.h.Events {
		fmt.Fprintf(e.sum, "%d %g %d %d %d;", ev.Entity.ID(), ev.Time, ev.Event.Kind, ev.Event.Task, ev.Event.Step)
	}
	for _, ev := range e.g.Events {
		fmt.Fprintf(e.sum, "%d %g %d %d %d;", ev.Entity.ID(), ev.Time, ev.Event.Kind, ev.Event.Action, ev.Event.Step)
	}
	e.n += len(e.h.Events) + len(e.g.Events)
}

func TestPlannersSameResultForAnyWorkers(t *testing.T) {
	a1, b1 := plannerHash(t, 300, 60, 1, 0)
	a2, b2 := plannerHash(t, 300, 60, 2, 0)
	assert.Equal(t, a1, a2, "state hash, 1 and 2 workers")
	assert.Equal(t, b1, b2, "planner components, 1 and 2 workers")
	a3, b3 := plannerHash(t, 300, 60, 2, 50)
	a4, b4 := plannerHash(t, 300, 60, 1, 50)
	assert.Equal(t, a3, a4, "with a budget")
	assert.Equal(t, b3, b4)
	assert.NotEqual(t, b1, b3, "the budget changes the run")
}

// TestPlannersContinueAfterAJSONRoundTrip: the planner components are plain data: sent
// through JSON mid-plan (the domain pointer dropped, the ID kept), the run continues as
// if nothing happened.
func TestPlannersContinueAfterAJSONRoundTrip(t *testing.T) {
	a1, b1 := plannerHash(t, 100, 60, 1, 0)
	a2, b2 := plannerHashRoundTrip(t, 100, 60, 2, 0, 27)
	assert.Equal(t, a1, a2)
	assert.Equal(t, b1, b2)
}

func TestPlannerComponentsAreJSON(t *testing.T) {
	hreg, hid := guardHTN(t)
	p := components.HTNPlanner{Name: hreg.Domain(hid).Name(), Domain: hid, Cache: hreg.Domain(hid)}
	p.State[0] = 1
	p.Run.Plan.Len = 2
	data, err := json.Marshal(p)
	require.NoError(t, err)
	var back components.HTNPlanner
	require.NoError(t, json.Unmarshal(data, &back))
	assert.Nil(t, back.Cache, "the cache is not saved: the name is the truth")
	assert.Zero(t, back.Domain, "the ID is a cache, not saved")
	assert.Equal(t, "guard", back.Name)
	back.Cache, back.Domain = p.Cache, p.Domain
	assert.Equal(t, p, back)
}

func TestPlannerDiagnostics(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	hreg, hid := guardHTN(t)
	greg, gid := fetchGOAP(t)
	arche.AddResource(w, hreg)
	arche.AddResource(w, greg)
	hs, err := systems.NewSpawner(w, systems.HTNThinker{Registry: hreg, Domain: hid})
	require.NoError(t, err)
	gs, err := systems.NewSpawner(w, systems.GOAPThinker{Registry: greg, Domain: gid})
	require.NoError(t, err)
	hs.SpawnBatch(3, nil)
	gs.SpawnBatch(2, nil)
	bad := hs.Spawn(r2.Vec{}, func(a *systems.Spawned) {
		p := systems.Component[components.HTNPlanner](a)
		p.Name, p.Domain, p.Cache = "nowhere", hid, nil // the name is the truth: the valid ID does not save it
	})
	gbad := gs.Spawn(r2.Vec{}, func(a *systems.Spawned) {
		p := systems.Component[components.GOAPPlanner](a)
		p.Name, p.Domain, p.Cache = "", 0, nil
	})
	s := ecs.NewScheduler(ecs.NewClockSystem(0.1), &systems.HTN{})
	s.Initialize(w)
	s.Run(w, 3)
	r := systems.Diagnose(w)
	assert.Equal(t, 2, r.Counts[systems.CausePlannerDomain])
	assert.Equal(t, bad, r.Examples[systems.CausePlannerDomain])
	assert.Equal(t, 3, r.Counts[systems.CauseNoDecisionSystem], "the GOAP agents: no GOAP system")
	assert.Equal(t, "planner_domain_unknown", systems.CausePlannerDomain.String())
	_ = gbad
	hp := generic.NewMap1[components.HTNPlanner](w)
	assert.Zero(t, hp.Get(bad).Run.Plans, "skipped")

	_, err = systems.NewSpawner(w, systems.HTNThinker{Registry: hreg, Domain: 9})
	assert.ErrorContains(t, err, "Domain 9 is not in the Registry")
}

func TestPlannersPanicWithoutRegistry(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	ecs.NewClockSystem(0.1).Initialize(w)
	assert.PanicsWithError(t, "systems: HTN: the world has no *htn.Registry resource: add the registry of the agents' domains with arche.AddResource(w, registry) before Initialize",
		func() { (&systems.HTN{}).Initialize(w) })
	assert.Panics(t, func() { (&systems.GOAP{}).Initialize(w) })
}

func TestPlannerSystemsSaveTheirCursor(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	hreg, hid := guardHTN(t)
	arche.AddResource(w, hreg)
	hs, err := systems.NewSpawner(w, systems.HTNThinker{Registry: hreg, Domain: hid})
	require.NoError(t, err)
	hs.SpawnBatch(10, nil)
	h := &systems.HTN{Budget: 3}
	s := ecs.NewScheduler(ecs.NewClockSystem(0.5), h)
	s.Initialize(w)
	s.Run(w, 1)
	raw, err := h.SaveState()
	require.NoError(t, err)
	assert.JSONEq(t, `{"cursor": 0, "waiting": 7, "backlog": 1, "total_thought": 3}`, string(raw),
		"the budget keeps no cursor (agents are taken by (Think.Next, entity ID)); 7 of 10 left waiting for 1 frame; 3 thought")
	other := &systems.HTN{}
	require.NoError(t, other.LoadState(raw))
	assert.Equal(t, int64(3), other.TotalThought, "TotalThought goes on from the saved count")
	back, err := other.SaveState()
	require.NoError(t, err)
	assert.JSONEq(t, string(raw), string(back))
	assert.ErrorContains(t, other.LoadState([]byte(`{"cursor": -1}`)), "htn think cursor: -1 < 0")
	// a count near the int's top would wrap negative within frames (a 32-bit int refuses it as JSON)
	assert.Error(t, other.LoadState([]byte(`{"cursor": 0, "total_thought": 9223372036854775807}`)))
	assert.Equal(t, int64(3), other.TotalThought, "a refused state leaves the system as it was")
	assert.Error(t, (&systems.GOAP{}).LoadState([]byte(`{`)))
	s.Finalize(w)
}
