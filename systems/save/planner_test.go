package save_test

import (
	"encoding/json"
	"reflect"
	"testing"

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

func plannerDomain(t *testing.T) (*htn.Registry, htn.ID) {
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
	l, err := save.LoadInto(data, save.Registry{Components: []reflect.Type{reflect.TypeFor[components.HTNPlanner]()}}, &w2)
	require.NoError(t, err)
	h2 := &systems.HTN{Budget: 30}
	s2 := ecs.NewScheduler(ecs.NewClockSystem(0.05), h2)
	s2.Initialize(l.World)
	require.NoError(t, l.Restore(h2))
	s2.Run(l.World, 40)
	assert.Equal(t, want, planners(t, l.World))
	assert.Equal(t, wantHash, systems.StateHash(l.World))
}
