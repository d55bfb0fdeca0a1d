package save_test

import (
	"errors"
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
	"gonum.org/v1/gonum/spatial/r2"
)

const (
	reloadV1 = `{"name": "guard", "facts": ["alarm", "ammo"], "root": "Guard", "tasks": [
	  {"name": "Guard", "methods": [{"name": "Calm", "tasks": ["Wait"]}]}, {"name": "Wait"}]}`
	reloadV2 = `{"name": "guard", "facts": ["morale", "alarm", "ammo"], "root": "Guard", "tasks": [
	  {"name": "Guard", "methods": [{"name": "Rally", "if": "ammo > 0", "tasks": ["Shout"]},
	    {"name": "Calm", "tasks": ["Wait"]}]}, {"name": "Shout"}, {"name": "Wait"}]}`
)

func reloadRegistry(t *testing.T, src string) *htn.Registry {
	reg := &htn.Registry{}
	run := func(*htn.Context) htn.Status { return htn.Running }
	require.NoError(t, reg.RegisterOperator("Wait", run, nil))
	require.NoError(t, reg.RegisterOperator("Shout", run, nil))
	_, err := reg.LoadJSON("guard.json", []byte(src))
	require.NoError(t, err)
	return reg
}

// A save between a domain's reload (htn.Registry.ReloadJSON) and an agent's next think
// would write the old definition's plan under the name that now resolves to the new
// definition, whose task IDs mean other tasks: Save refuses it (ErrMemory) until the
// think that halts the old plan. An agent without a plan is saved with its facts in the
// new domain's order. The save made after the think records the new domain's
// fingerprint, so loading it against the old file's domain is refused, not restored
// with the wrong tasks.
func TestASaveWaitsForAnHTNReloadToBeDone(t *testing.T) {
	reg := reloadRegistry(t, reloadV1)
	id, _ := reg.Lookup("guard")
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, reg)
	sp, err := systems.NewSpawner(w, systems.HTNThinker{Registry: reg, Domain: id})
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{}, nil)
	h := &systems.HTN{}
	s := ecs.NewScheduler(ecs.NewClockSystem(0.05), h)
	s.Initialize(w)
	s.Run(w, 2)
	hp := generic.NewMap1[components.HTNPlanner](w)
	require.True(t, hp.Get(e).Run.HasPlan())
	hp.Get(e).State[1] = 4 // ammo in the old domain

	_, err = reg.ReloadJSON("guard.json", []byte(reloadV2))
	require.NoError(t, err)
	_, err = save.Save(w, nil, h)
	assert.True(t, errors.Is(err, save.ErrMemory), "%v", err)
	assert.ErrorContains(t, err, `its domain "guard" was replaced in the registry (a reload) since its last think`)

	// no plan: saved, the facts by name
	run := hp.Get(e).Run
	hp.Get(e).Run = htn.Run{}
	data, err := save.Save(w, nil, h)
	require.NoError(t, err)
	l, err := save.Load(data, save.Registry{HTN: reloadRegistry(t, reloadV2)})
	require.NoError(t, err)
	q := generic.NewFilter1[components.HTNPlanner]().Query(l.World)
	for q.Next() {
		assert.Equal(t, int32(4), q.Get().State[2], "ammo is fact 2 of the new domain")
	}
	hp.Get(e).Run = run

	s.Run(w, 2) // the think that swaps (one think in two frames)
	assert.Equal(t, uint64(1), h.Swapped)
	p := hp.Get(e)
	require.Equal(t, "Shout", p.Cache.TaskName(p.Run.Current()))
	data, err = save.Save(w, nil, h)
	require.NoError(t, err)
	_, err = save.Load(data, save.Registry{HTN: reloadRegistry(t, reloadV1)})
	assert.True(t, errors.Is(err, save.ErrDuplicateID), "the old file's domain is not the one saved: %v", err)
	l, err = save.Load(data, save.Registry{HTN: reloadRegistry(t, reloadV2)})
	require.NoError(t, err)
	q = generic.NewFilter1[components.HTNPlanner]().Query(l.World)
	for q.Next() {
		p := q.Get()
		assert.Equal(t, "Shout", p.Cache.TaskName(p.Run.Current()))
	}
	s.Finalize(w)
}
