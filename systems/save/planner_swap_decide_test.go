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

// A save made after a program set an agent's HTNPlanner.Name to another domain and
// before its next think would write the old domain's plan under the new name, and the
// loaded agent would carry out the old plan's TaskIDs as the new domain's tasks. Save
// refuses it until the think that halts the old plan.
func TestASaveWaitsForAnHTNDomainSwapToBeDone(t *testing.T) {
	reg, id := plannerDomain(t)
	b := htn.NewBuilder("other")
	b.Fact("x")
	idle := b.Primitive("Idle", htn.Primitive{Run: func(*htn.Context) htn.Status { return htn.Running }})
	root := b.Compound("Root")
	b.Method(root, htn.Method{Name: "Idle", Tasks: []htn.TaskID{idle}})
	b.Root(root)
	d, err := b.Build()
	require.NoError(t, err)
	_, err = reg.Add(d)
	require.NoError(t, err)

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
	p := hp.Get(e)
	require.True(t, p.Run.HasPlan())
	p.Name = "other"
	_, err = save.Save(w, nil, h)
	assert.True(t, errors.Is(err, save.ErrMemory), "%v", err)
	assert.ErrorContains(t, err, `its Name was set to "other" since its last think, and its Run is still a plan of "g"`)

	s.Run(w, 2) // the think that swaps
	assert.Equal(t, uint64(1), h.Swapped)
	_, err = save.Save(w, nil, h)
	assert.NoError(t, err)
}
