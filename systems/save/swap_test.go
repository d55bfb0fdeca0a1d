package save_test

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/utility"
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

// An agent whose machine (tree, reasoner) the program swapped, leaving the ID the
// bundle wrote: Save wrote the old ID with the new machine's state, and a Load gave the
// agent the old machine (or, with the old one in the registry, failed naming a
// fingerprint mismatch of "m1" that the user never changed). Save now refuses it,
// naming both names; with the ID updated (or emptied) the agent round-trips on the new
// machine.
func TestSaveRefusesAnIDThatNamesAnotherDefinition(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(8, 8))
	machine := func(name string, states ...string) *fsm.Machine {
		b := fsm.NewBuilder(name)
		for _, s := range states {
			b.State(s, fsm.Hooks{})
		}
		m, err := b.Build()
		require.NoError(t, err)
		return m
	}
	m1, m2 := machine("calm", "a", "b"), machine("alarm", "x", "y", "z")
	sp, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Machine: m1})
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{X: 2, Y: 2}, nil)
	mm := generic.NewMap[components.StateMachine](w)
	sm := mm.Get(e)
	require.Equal(t, "calm", sm.ID)
	sm.Machine, sm.Memory = m2, fsm.Memory{Active: m2.State(3), Transitions: 1}

	_, err = save.Save(w, nil)
	require.ErrorIs(t, err, save.ErrDuplicateID)
	assert.ErrorContains(t, err, `components.StateMachine.ID: `)
	assert.ErrorContains(t, err, `"calm", but the machine the agent runs is named "alarm"`)

	sm.ID = ""
	data, err := save.Save(w, nil)
	require.NoError(t, err)
	l, err := save.Load(data, save.Registry{Machines: []*fsm.Machine{m1, m2}})
	require.NoError(t, err)
	lm := generic.NewMap[components.StateMachine](l.World)
	assert.Same(t, m2, lm.Get(e).Machine)
	assert.Equal(t, fsm.Memory{Active: m2.State(3), Transitions: 1}, lm.Get(e).Memory)

	t1, err := bt.Compile("patrol", bt.Wait(1))
	require.NoError(t, err)
	t2, err := bt.Compile("fight", bt.Wait(2))
	require.NoError(t, err)
	bs, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: t1})
	require.NoError(t, err)
	be := bs.Spawn(r2.Vec{X: 3, Y: 3}, nil)
	bm := generic.NewMap[components.Brain](w)
	bm.Get(be).Tree, bm.Get(be).Memory = t2, t2.NewMemory()
	_, err = save.Save(w, nil)
	require.ErrorIs(t, err, save.ErrDuplicateID)
	assert.ErrorContains(t, err, `"patrol", but the tree the agent runs is named "fight"`)
	bm.Get(be).ID = "fight"
	sm.ID = "alarm"

	r1, err := utility.New("pick", utility.Policy{}, utility.Action{Name: "a"})
	require.NoError(t, err)
	r2_, err := utility.New("choose", utility.Policy{}, utility.Action{Name: "a"})
	require.NoError(t, err)
	us, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Reasoner: r1})
	require.NoError(t, err)
	ue := us.Spawn(r2.Vec{X: 4, Y: 4}, nil)
	um := generic.NewMap[components.UtilityBrain](w)
	um.Get(ue).Reasoner = r2_
	_, err = save.Save(w, nil)
	require.ErrorIs(t, err, save.ErrDuplicateID)
	assert.ErrorContains(t, err, `"pick", but the reasoner the agent runs is named "choose"`)
	um.Get(ue).ID = "choose"
	_, err = save.Save(w, nil)
	require.NoError(t, err)
}
