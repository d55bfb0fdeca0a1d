package save_test

import (
	"testing"

	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// fsm.Memory.Reentries is left out of a save when 0, so files are as before it and
// files from before it load; a count of re-entries round-trips.
func TestMachineReentriesSaveAndLoad(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(8, 8))
	b := fsm.NewBuilder("mode")
	b.State("calm", fsm.Hooks{})
	m, err := b.Build()
	require.NoError(t, err)
	ms, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Machine: m})
	require.NoError(t, err)
	e := ms.Spawn(r2.Vec{X: 2, Y: 2}, nil)
	mm := generic.NewMap[components.StateMachine](w)
	sm := mm.Get(e)
	sm.Memory = fsm.Memory{Active: m.State(1), Previous: m.State(1), Transitions: 3, Elapsed: 0.5}
	reg := save.Registry{Machines: []*fsm.Machine{m}}

	data, err := save.Save(w, nil)
	require.NoError(t, err)
	assert.NotContains(t, string(data), "Reentries")
	assert.Contains(t, string(data), `"Transitions":3`)

	sm.Memory.Reentries = 5
	data, err = save.Save(w, nil)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"Reentries":5`)
	l, err := save.Load(data, reg)
	require.NoError(t, err)
	lmm := generic.NewMap[components.StateMachine](l.World)
	assert.Equal(t, sm.Memory, lmm.Get(e).Memory)
}
