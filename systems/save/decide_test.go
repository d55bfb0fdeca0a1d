package save_test

import (
	"math"
	"testing"

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

// Utility and state-machine agents round-trip with their state (a NaN score included),
// their reasoner and machine resolved by ID; an unknown ID or a state past the machine's
// is refused.
func TestUtilityAndMachineStateRoundTrip(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(8, 8))
	r, err := utility.New("pick", utility.Policy{}, utility.Action{Name: "a"}, utility.Action{Name: "b"})
	require.NoError(t, err)
	b := fsm.NewBuilder("mode")
	b.State("calm", fsm.Hooks{})
	b.State("alert", fsm.Hooks{})
	m, err := b.Build()
	require.NoError(t, err)
	us, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Reasoner: r})
	require.NoError(t, err)
	ms, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Machine: m})
	require.NoError(t, err)
	ue := us.Spawn(r2.Vec{X: 1, Y: 1}, nil)
	me := ms.Spawn(r2.Vec{X: 2, Y: 2}, nil)
	um := generic.NewMap[components.UtilityBrain](w)
	u := um.Get(ue)
	u.State.Choice, u.State.Previous, u.State.Decisions = 1, 0, 9
	u.State.Scores[0], u.State.Scores[1] = math.NaN(), 0.75
	mm := generic.NewMap[components.StateMachine](w)
	sm := mm.Get(me)
	sm.Memory = fsm.Memory{Active: m.State(2), Previous: m.State(1), Transitions: 3, Elapsed: 1.25}

	data, err := save.Save(w, nil)
	require.NoError(t, err)
	reg := save.Registry{Reasoners: []*utility.Reasoner{r}, Machines: []*fsm.Machine{m}}
	l, err := save.Load(data, reg)
	require.NoError(t, err)
	lum := generic.NewMap[components.UtilityBrain](l.World)
	lu := lum.Get(ue)
	assert.Same(t, r, lu.Reasoner)
	assert.Equal(t, "pick", lu.ID)
	assert.True(t, math.IsNaN(lu.State.Scores[0]))
	assert.Equal(t, 0.75, lu.State.Scores[1])
	assert.Equal(t, uint64(9), lu.State.Decisions)
	lmm := generic.NewMap[components.StateMachine](l.World)
	lm := lmm.Get(me)
	assert.Same(t, m, lm.Machine)
	assert.Equal(t, sm.Memory, lm.Memory)
	assert.Equal(t, systems.StateHash(w), systems.StateHash(l.World))

	_, err = save.Load(data, save.Registry{Machines: []*fsm.Machine{m}})
	assert.ErrorIs(t, err, save.ErrUnknownID)
	assert.ErrorContains(t, err, `components.UtilityBrain.ID: reasoner "pick"`)
	// the list is the registry's reasoners, named by its field: it said "(the registry
	// has [])" of a registry holding a machine (and a newcomer's, a tree)
	assert.ErrorContains(t, err, `(save.Registry.Reasoners has [])`)
	_, err = save.Load(data, save.Registry{Reasoners: []*utility.Reasoner{r}})
	assert.ErrorIs(t, err, save.ErrUnknownID)
	assert.ErrorContains(t, err, `components.StateMachine.ID: machine "mode"`)
	assert.ErrorContains(t, err, `(save.Registry.Machines has [])`)

	sm.Memory.Active = m.State(2) + 5
	bad, err := save.Save(w, nil)
	require.NoError(t, err)
	_, err = save.Load(bad, reg)
	assert.ErrorIs(t, err, save.ErrDomain)
	assert.ErrorContains(t, err, `components.StateMachine.Memory: state StateID(7) or calm of machine "mode" of 2 states`)

	// another machine's state of an index in range (newbie18: it loaded as this
	// machine's state of that index)
	ob := fsm.NewBuilder("other")
	ob.State("x", fsm.Hooks{})
	sm.Memory.Active = ob.State("y", fsm.Hooks{})
	bad, err = save.Save(w, nil)
	require.NoError(t, err)
	_, err = save.Load(bad, reg)
	assert.ErrorIs(t, err, save.ErrDomain)
	assert.ErrorContains(t, err, `state StateID(2 of another machine) or calm of machine "mode"`)

	// a file written before StateIDs carried their machine's tag holds indices: they
	// load as the machine's states of those indices (the fingerprint is the same)
	sm.Memory.Active, sm.Memory.Previous = 2, 1
	old, err := save.Save(w, nil)
	require.NoError(t, err)
	l, err = save.Load(old, reg)
	require.NoError(t, err)
	lmm = generic.NewMap[components.StateMachine](l.World)
	lm = lmm.Get(me)
	assert.Equal(t, fsm.Memory{Active: m.State(2), Previous: m.State(1), Transitions: 3, Elapsed: 1.25}, lm.Memory)
	sm.Memory.Active = 3 // an index out of range
	bad, err = save.Save(w, nil)
	require.NoError(t, err)
	_, err = save.Load(bad, reg)
	assert.ErrorIs(t, err, save.ErrDomain)
}
