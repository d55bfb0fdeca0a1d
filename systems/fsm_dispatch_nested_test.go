package systems_test

import (
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

// A hook of a dispatch may dispatch to another agent (a guard that hears the alarm
// raises its neighbour): the inner dispatch runs with the neighbour's view, and the
// outer hook keeps its own agent's view after it returns; what either queued is applied
// when the outermost dispatch returns, not while the outer hook still holds its
// component pointers. The inner call used to overwrite and then zero the one view FSM
// kept for dispatches (the outer hook found StateAgent nil, or its Agent's pointers nil)
// and to apply the outer hook's commands in the middle of it.
func TestFSMDispatchFromAHookOfADispatch(t *testing.T) {
	const alarm fsm.Event = 1
	world := arche.NewWorld()
	w := &world
	mp := generic.NewMap4[components.StateMachine, components.Think, components.Position, components.Intent](w)
	var f *systems.FSM
	var neighbour arche.Entity
	var innerErr error
	var sawSelf, applied, appliedEarly bool
	b := fsm.NewBuilder("guard")
	calm := b.State("calm", fsm.Hooks{})
	alert := b.State("alert", fsm.Hooks{Enter: func(ctx *fsm.Context) {
		a := systems.StateAgent(ctx)
		me := a.Entity
		if me != neighbour {
			a.Commands.Run(func(w *arche.World) { // a structural change, queued
				applied = true
			})
			_, innerErr = f.Dispatch(a.World, neighbour, alarm)
			appliedEarly = applied
		}
		a2 := systems.StateAgent(ctx)
		sawSelf = a2 != nil && a2 == a && a.Entity == me && a.Intent != nil
		if a2 != nil && a.Intent != nil {
			a.Intent.Goal, a.Intent.Move = r2.Vec{X: float64(me.ID())}, true
		}
	}})
	b.On(calm, alarm, alert)
	m, err := b.Build()
	require.NoError(t, err)
	e := mp.New()
	neighbour = mp.New()
	for _, x := range []arche.Entity{e, neighbour} {
		sm, th, _, _ := mp.Get(x)
		*sm, *th = components.StateMachine{Machine: m}, components.Think{Interval: 0.1}
	}
	f = &systems.FSM{}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/20), f)
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 1)

	var took bool
	require.NotPanics(t, func() { took, err = f.Dispatch(w, e, alarm) })
	require.NoError(t, err)
	require.NoError(t, innerErr)
	assert.True(t, took)
	assert.True(t, sawSelf, "the outer hook keeps its own agent's view after the inner dispatch")
	assert.False(t, appliedEarly, "the outer hook's commands wait for the outermost dispatch")
	assert.True(t, applied, "and are applied when it returns")
	for _, x := range []arche.Entity{e, neighbour} {
		sm, _, _, in := mp.Get(x)
		assert.Equal(t, alert, sm.Memory.Active)
		assert.Equal(t, r2.Vec{X: float64(x.ID())}, in.Goal, "each hook wrote its own agent's Intent")
	}
}
