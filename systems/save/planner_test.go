package save_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"testing"

	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func plannerDomain(t testing.TB) (*htn.Registry, htn.ID) {
	b := htn.NewBuilder("g")
	alarm := b.Fact("alarm")
	b.Sense(func(c *htn.Context) {
		if systems.PlanAgent(c.Agent).Rand.Float64() < 0.05 {
			c.State[alarm] ^= 1
		}
	})
	wait := func(c *htn.Context) htn.Status {
		if c.Memory[0] == 0 {
			c.Memory[0] = 0.2 + systems.PlanAgent(c.Agent).Rand.Float64()
		}
		if c.Time-c.Start < c.Memory[0] {
			return htn.Running
		}
		return htn.Success
	}
	g := b.Primitive("Guard", htn.Primitive{Run: wait})
	r := b.Primitive("Rest", htn.Primitive{Run: wait})
	root := b.Compound("Root")
	b.Method(root, htn.Method{Name: "A", If: []htn.Condition{htn.Is(alarm, htn.Eq, 1)}, Tasks: []htn.TaskID{g, r}})
	b.Method(root, htn.Method{Name: "B", Tasks: []htn.TaskID{r}})
	b.Root(root)
	d, err := b.Build()
	require.NoError(t, err)
	reg := &htn.Registry{}
	id, err := reg.Add(d)
	require.NoError(t, err)
	return reg, id
}

// savedRun spawns n agents of bundle in a world holding the registry resource reg, runs
// planner for 5 frames of 0.05 s and returns the world and its save.
func savedRun[R any](t *testing.T, reg *R, bundle systems.Bundle, n int, planner ecs.System) (*arche.World, []byte) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, reg)
	sp, err := systems.NewSpawner(w, bundle)
	require.NoError(t, err)
	sp.SpawnBatch(n, nil)
	s := ecs.NewScheduler(ecs.NewClockSystem(0.05), planner)
	s.Initialize(w)
	s.Run(w, 5)
	data, err := save.Save(w, nil, planner.(save.State))
	require.NoError(t, err)
	return w, data
}

func planners(t *testing.T, w *arche.World) string {
	var out []byte
	q := generic.NewFilter1[components.HTNPlanner]().Query(w)
	for q.Next() {
		data, err := json.Marshal(q.Get())
		require.NoError(t, err)
		out = append(out, data...)
	}
	return string(out)
}

// TestHTNPlannerSaveLoadMidPlan: a world saved mid-plan (HTN agents under a think budget)
// and loaded continues exactly as the original: the planner components and the state hash
// match 40 frames later. The HTN system's budget cursor is restored through Restore.
func TestHTNPlannerSaveLoadMidPlan(t *testing.T) {
	reg, id := plannerDomain(t)
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, reg)
	sp, err := systems.NewSpawner(w, systems.HTNThinker{Registry: reg, Domain: id})
	require.NoError(t, err)
	sp.SpawnBatch(100, nil)
	h := &systems.HTN{Budget: 30}
	s := ecs.NewScheduler(ecs.NewClockSystem(0.05), h)
	s.Initialize(w)
	s.Run(w, 37)
	data, err := save.Save(w, nil, h)
	require.NoError(t, err)
	s.Run(w, 40)
	want := planners(t, w)
	wantHash := systems.StateHash(w)

	w2 := arche.NewWorld()
	arche.AddResource(&w2, reg)
	assert.Contains(t, string(data), `"Name":"g"`, "the domain is saved by name")
	l, err := save.LoadInto(data, save.Registry{HTN: reg, Components: []reflect.Type{reflect.TypeFor[components.HTNPlanner]()}}, &w2)
	require.NoError(t, err)
	h2 := &systems.HTN{Budget: 30}
	s2 := ecs.NewScheduler(ecs.NewClockSystem(0.05), h2)
	s2.Initialize(l.World)
	require.NoError(t, l.Restore(h2))
	s2.Run(l.World, 40)
	assert.Equal(t, want, planners(t, l.World))
	assert.Equal(t, wantHash, systems.StateHash(l.World))
}

// A planner's domain is resolved by name against the registry given to Load: the loaded
// component caches the ID and domain of that registry (whatever its order). A name the
// registry lacks, or a plan that does not fit the domain, is refused with an error
// naming the entity and field, and the caller's world is unchanged.
func TestPlannerDomainsLoadByName(t *testing.T) {
	reg, id := plannerDomain(t)
	w, data := savedRun(t, reg, systems.HTNThinker{Registry: reg, Domain: id}, 3, &systems.HTN{})

	// another registry, the domain at another ID: resolved by name
	other := &htn.Registry{}
	_, err := other.Add(plannerDomainNamed(t, "filler"))
	require.NoError(t, err)
	_, err = other.Add(reg.Domain(id))
	require.NoError(t, err)
	l, err := save.Load(data, save.Registry{HTN: other})
	require.NoError(t, err)
	q := generic.NewFilter1[components.HTNPlanner]().Query(l.World)
	n := 0
	for q.Next() {
		p := q.Get()
		assert.Equal(t, "g", p.Name)
		assert.Equal(t, htn.ID(2), p.Domain)
		assert.Same(t, reg.Domain(id), p.Cache)
		n++
	}
	assert.Equal(t, 3, n)

	// the first saved planner's plan, at its step (the agents plan on their first think)
	var plan struct {
		Len  int
		Step int
	}
	{
		q := generic.NewFilter1[components.HTNPlanner]().Query(w)
		q.Next()
		p := q.Get()
		plan.Len, plan.Step = p.Run.Plan.Len, p.Run.Step
		q.Close()
	}
	require.NotZero(t, plan.Len, "planned")
	stepPast := bytes.Replace(data, []byte(fmt.Sprintf(`"Step":%d,"Started"`, plan.Step)), []byte(`"Step":99,"Started"`), 1)
	require.NotEqual(t, data, stepPast)
	first := regexp.MustCompile(`"Plan":\{"Tasks":\[-?\d+,`).FindIndex(data) // the first planner's first task
	require.NotNil(t, first)
	taskPast := slices.Concat(data[:first[0]], []byte(`"Plan":{"Tasks":[40,`), data[first[1]:])

	cases := []struct {
		name string
		data []byte
		reg  save.Registry
		err  error
		says []string
	}{
		{"unknown domain", bytes.ReplaceAll(data, []byte(`"Name":"g"`), []byte(`"Name":"h"`)), save.Registry{HTN: reg}, save.ErrUnknownID,
			[]string{`HTN domain "h"`, "entity 1 (components[0])", "components.HTNPlanner.Name", `save.Registry.HTN has ["g"]`}},
		{"no registry", data, save.Registry{}, save.ErrUnknownID, []string{`HTN domain "g"`, "save.Registry.HTN has []"}},
		{"a file of the ID days", bytes.ReplaceAll(data, []byte(`"Name":"g"`), []byte(`"Domain":1`)), save.Registry{HTN: reg}, save.ErrDomain,
			[]string{"components.HTNPlanner", `unknown field "Domain"`}},
		{"step past the plan", stepPast, save.Registry{HTN: reg}, save.ErrMemory,
			[]string{"entity 1 (components[0])", "components.HTNPlanner.Run", "Step 99 outside"}},
		{"task not in the domain", taskPast, save.Registry{HTN: reg}, save.ErrMemory,
			[]string{"components.HTNPlanner.Run", "Plan.Tasks[0] = 40"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := systems.StateHash(w)
			l, err := save.Load(c.data, c.reg)
			require.Error(t, err)
			assert.Nil(t, l)
			assert.ErrorIs(t, err, c.err)
			for _, s := range c.says {
				assert.Contains(t, err.Error(), s)
			}
			assert.Equal(t, before, systems.StateHash(w), "the caller's world is unchanged")
		})
	}
}

// A GOAP planner saves by name too, and an unknown name or a plan that does not fit is
// refused.
func TestGOAPPlannerDomainsLoadByName(t *testing.T) {
	b := goap.NewBuilder("chores")
	done := b.Fact("done")
	b.Action(goap.Action{Name: "Work", Cost: 1, Effects: []goap.Effect{{Fact: done, Value: 1}},
		Run: func(c *goap.Context) goap.Status { return goap.Running }})
	b.Goal(goap.Goal{Name: "Done", Priority: 1, Want: []goap.Cond{{Fact: done, Op: goap.Eq, Value: 1}}})
	d, err := b.Build()
	require.NoError(t, err)
	reg := &goap.Registry{}
	id, err := reg.Add(d)
	require.NoError(t, err)
	_, data := savedRun(t, reg, systems.GOAPThinker{Registry: reg, Domain: id}, 2, &systems.GOAP{})
	assert.Contains(t, string(data), `"Name":"chores"`)

	l, err := save.Load(data, save.Registry{GOAP: reg})
	require.NoError(t, err)
	q := generic.NewFilter1[components.GOAPPlanner]().Query(l.World)
	for q.Next() {
		assert.Same(t, d, q.Get().Cache)
		assert.Equal(t, 1, q.Get().Run.Plan.Len, "mid-plan")
	}

	_, err = save.Load(bytes.ReplaceAll(data, []byte(`"Name":"chores"`), []byte(`"Name":"rest"`)), save.Registry{GOAP: reg})
	assert.ErrorIs(t, err, save.ErrUnknownID)
	assert.ErrorContains(t, err, `components.GOAPPlanner.Name: GOAP domain "rest"`)
	_, err = save.Load(bytes.Replace(data, []byte(`"Goal":0`), []byte(`"Goal":5`), 1), save.Registry{GOAP: reg})
	assert.ErrorIs(t, err, save.ErrMemory)
	assert.ErrorContains(t, err, `Plan.Goal 5, domain "chores" has 1 goals`)
}

func plannerDomainNamed(t *testing.T, name string) *htn.Domain {
	b := htn.NewBuilder(name)
	p := b.Primitive("Idle", htn.Primitive{Run: func(*htn.Context) htn.Status { return htn.Running }})
	root := b.Compound("Root")
	b.Method(root, htn.Method{Name: "A", Tasks: []htn.TaskID{p}})
	b.Root(root)
	d, err := b.Build()
	require.NoError(t, err)
	return d
}
