package systems_test

import (
	"fmt"
	"testing"

	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// order is a unit's move order, a component of the program's own.
type order struct{ To r2.Vec }

// An order event sent to one unit reaches its machine with the agent view FSM's
// updates give: the Enter hook of the state the event leads to reads the unit's own
// component (Get) and writes its Intent; dt is 0; a removal a hook queues is applied
// when Dispatch returns. Before FSM.Dispatch, a program's own Machine.Dispatch gave the
// hooks no agent view (StateAgent nil) and such a hook panicked on a nil pointer.
func TestFSMDispatchGivesHooksTheAgent(t *testing.T) {
	const ordered, disband fsm.Event = 1, 2
	var dts []float64
	b := fsm.NewBuilder("unit")
	idle := b.State("idle", fsm.Hooks{})
	move := b.State("move", fsm.Hooks{Enter: func(ctx *fsm.Context) {
		a := systems.StateAgent(ctx)
		dts = append(dts, ctx.DT, a.DT)
		a.Intent.Goal, a.Intent.Move = systems.Get[order](a).To, true
	}})
	gone := b.State("gone", fsm.Hooks{Enter: func(ctx *fsm.Context) {
		a := systems.StateAgent(ctx)
		a.Commands.RemoveEntity(a.Entity)
	}})
	b.On(idle, ordered, move)
	b.On(move, disband, gone)
	m, err := b.Build()
	require.NoError(t, err)

	world := arche.NewWorld()
	w := &world
	mp := generic.NewMap5[components.StateMachine, components.Think, components.Position, components.Intent, order](w)
	e, other := mp.New(), mp.New()
	for _, x := range []arche.Entity{e, other} {
		sm, th, _, _, _ := mp.Get(x)
		*sm, *th = components.StateMachine{Machine: m}, components.Think{Interval: 0.1}
	}
	f := &systems.FSM{}
	_, err = f.Dispatch(w, e, ordered)
	assert.ErrorIs(t, err, systems.ErrNotInitialized, "before Initialize")
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/20), f)
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 3)

	_, _, _, _, o := mp.Get(e)
	o.To = r2.Vec{X: 7, Y: 3}
	took, err := f.Dispatch(w, e, disband)
	require.NoError(t, err)
	assert.False(t, took, "idle takes no disband")
	took, err = f.Dispatch(w, e, ordered)
	require.NoError(t, err)
	assert.True(t, took)
	sm, th, _, in, _ := mp.Get(e)
	assert.Equal(t, move, sm.Memory.Active)
	assert.Equal(t, r2.Vec{X: 7, Y: 3}, in.Goal, "the hook wrote the unit's own Intent from its order")
	assert.True(t, in.Move)
	assert.Equal(t, []float64{0, 0}, dts, "no simulation time passes in a dispatch")
	last := th.Last
	osm, _, _, oin, _ := mp.Get(other)
	assert.Equal(t, idle, osm.Memory.Active, "the other unit got no event")
	assert.False(t, oin.Move)

	assert.Zero(t, testing.AllocsPerRun(20, func() { _, _ = f.Dispatch(w, other, disband) }), "a dispatch allocates nothing")
	s.Run(w, 2)
	sm, _, _, _, _ = mp.Get(e)
	assert.Equal(t, move, sm.Memory.Active, "the updates keep the state the event took")
	assert.Greater(t, func() float64 { _, th, _, _, _ := mp.Get(e); return th.Last }(), last)

	took, err = f.Dispatch(w, e, disband)
	require.NoError(t, err)
	assert.True(t, took)
	assert.False(t, w.Alive(e), "the removal the hook queued is applied")
	s.Run(w, 1)

	_, err = f.Dispatch(w, e, ordered)
	assert.ErrorIs(t, err, systems.ErrNotAnAgent)
	assert.ErrorContains(t, err, "is dead")
	bare := w.NewEntity()
	_, err = f.Dispatch(w, bare, ordered)
	assert.ErrorIs(t, err, systems.ErrNotAnAgent)
	assert.ErrorContains(t, err, "no StateMachine")
	m2 := generic.NewMap2[components.StateMachine, components.Position](w)
	noIntent := m2.NewWith(&components.StateMachine{Machine: m}, &components.Position{})
	_, err = f.Dispatch(w, noIntent, ordered)
	assert.ErrorIs(t, err, systems.ErrNotAnAgent)
	assert.ErrorContains(t, err, "no Position or no Intent")

	q := generic.NewFilter1[components.StateMachine]().Query(w)
	_, err = f.Dispatch(w, other, ordered)
	q.Close()
	assert.ErrorContains(t, err, "the world is locked")
	osm, _, _, _, _ = mp.Get(other)
	assert.Equal(t, idle, osm.Memory.Active, "nothing changed")
}

// A hook that removes an entity itself during a dispatch (not through Agent.Commands)
// gets Arche's locked-world panic, named as FSM's updates name it, rather than leaving
// the view's component pointers stale; the world is usable after it.
func TestFSMDispatchLocksTheWorldForHooks(t *testing.T) {
	const go_ fsm.Event = 1
	world := arche.NewWorld()
	w := &world
	b := fsm.NewBuilder("unit")
	idle := b.State("idle", fsm.Hooks{})
	gone := b.State("gone", fsm.Hooks{Enter: func(ctx *fsm.Context) {
		a := systems.StateAgent(ctx)
		a.World.RemoveEntity(a.Entity)
	}})
	b.On(idle, go_, gone)
	m, err := b.Build()
	require.NoError(t, err)
	mp := generic.NewMap4[components.StateMachine, components.Think, components.Position, components.Intent](w)
	e := mp.NewWith(&components.StateMachine{Machine: m}, &components.Think{Interval: 0.1}, &components.Position{}, &components.Intent{})
	f := &systems.FSM{}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/20), f)
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 1)
	var got any
	func() {
		defer func() { got = recover() }()
		_, _ = f.Dispatch(w, e, go_)
	}()
	require.NotNil(t, got)
	assert.Contains(t, fmt.Sprint(got), "Agent.Commands")
	assert.Contains(t, fmt.Sprint(got), "FSM")
	assert.False(t, w.IsLocked(), "the lock is released")
	assert.True(t, w.Alive(e))
	s.Run(w, 1)
}
