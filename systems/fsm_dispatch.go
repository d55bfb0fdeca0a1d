package systems

import (
	"errors"
	"fmt"

	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
)

// ErrNotAnAgent: an entity given to a system's call for one agent ([FSM.Dispatch]) is
// dead, not of the system's world, or lacks a component the call needs (the error names
// it).
var ErrNotAnAgent = errors.New("not an agent the system can run")

// Dispatch sends event ev to agent e's state machine (fsm.Machine.Dispatch) with the
// agent view FSM's updates give, so the hooks of the transition it takes get
// StateAgent(ctx) (its Position, Intent, Path, Blackboard, ... and Get), ctx.Blackboard
// the agent's store, ctx.Time the clock's Time and ctx.DT 0 (no simulation time passes
// in a dispatch; the next update's DT still counts from the agent's last think).
// It reports whether a transition was taken (false for an event no row of the active
// states takes, and for fsm.NoEvent). A machine not started is started first, as
// fsm.Machine.Dispatch does; a machine swapped in since the last update (StateMachine.ID
// not its name) starts afresh first, as FSM's update would start it (see [FSM].Swapped).
// Structural changes the hooks queue through Agent.Commands are applied before it
// returns; the world is locked while they run, as in FSM's updates, so a hook that
// changes it directly (World.RemoveEntity) panics, naming Agent.Commands. It allocates nothing (hooks aside) once the world knows FSM's component types.
//
// Call it between frames (or from a system of the program's own, outside its query
// loops): an order given to one unit, an alarm heard by one guard. A hook of a
// dispatch may dispatch to another agent (a guard raising its neighbour): the inner
// call's hooks get that agent's view, the outer hook has its own again when the call
// returns, and what either queued is applied when the outermost Dispatch returns.
// Events for many agents at once are better written as a blackboard key or field their
// guard rows read (see [FSM], Events). It does not count as a think (Think is unchanged; Transitions,
// the last frame's count, too).
//
// It returns an error, changing nothing, if FSM is not initialized on w
// ([ErrNotInitialized]), if the world is locked (a query is open: Arche forbids the
// changes hooks may queue), or if e is dead, not of w, has no StateMachine with a
// Machine, or no Position or Intent (FSM's required components) ([ErrNotAnAgent]).
//
// Panics: what a hook, guard or observer panics with (as FSM.Update does); and when
// called from inside a hook of e's own machine (fsm.Machine's "Calls from hooks").
func (s *FSM) Dispatch(w *arche.World, e arche.Entity, ev fsm.Event) (bool, error) {
	if s.due.filter == nil || s.due.world != w {
		return false, fmt.Errorf("systems: FSM.Dispatch: %w", ErrNotInitialized)
	}
	nested := s.dispatching > 0 // called from a hook of a dispatch in progress
	if !nested && w.IsLocked() {
		return false, errors.New("systems: FSM.Dispatch: the world is locked (a query is open): dispatch between frames or after the query loop")
	}
	if !ecs.Alive(w, e) {
		return false, fmt.Errorf("systems: FSM.Dispatch: %w: entity %d is dead (or not of this world)", ErrNotAnAgent, e.ID())
	}
	sm, pos, in := componentOf[components.StateMachine](w, e), componentOf[components.Position](w, e), componentOf[components.Intent](w, e)
	switch {
	case sm == nil || sm.Machine == nil:
		return false, fmt.Errorf("systems: FSM.Dispatch: %w: entity %d has no StateMachine with a Machine", ErrNotAnAgent, e.ID())
	case pos == nil || in == nil:
		return false, fmt.Errorf("systems: FSM.Dispatch: %w: entity %d has no Position or no Intent (FSM's required components)", ErrNotAnAgent, e.ID())
	}
	if nested {
		return s.dispatchNested(w, e, ev, sm, pos, in)
	}
	a, cmds, ctx := &s.dispatchAgent, &s.dispatchCmds, &s.dispatchCtx
	s.dispatchView(w, e, pos, in)
	s.dispatching++
	// the world is locked while hooks run, as in FSM's updates: a hook that removes an
	// entity itself (not through Agent.Commands) gets Arche's panic, named as FSM's
	// updates name it, rather than leaving the view's pointers stale
	lock := w.Query(&s.due.lock)
	defer func() { // also when a hook panics: what it queued is applied, the view dropped
		lock.Close()
		s.dispatching--
		ctx.Agent, ctx.Blackboard, *a = nil, nil, Agent{}
		cmds.Apply(w)
		if r := recover(); r != nil {
			panic(lockedPanic[components.StateMachine](r))
		}
	}()
	return s.dispatch(sm, ctx, ev), nil
}

// dispatchNested is Dispatch called from a hook of a dispatch in progress (to another
// agent: one to the agent being dispatched to panics in fsm.Machine.Dispatch): the
// outer hook's view and Context are given back when it returns (or a hook panics), and
// what its hooks queue is applied with the outer dispatch's commands, when the outermost
// returns, not while the outer hook holds its agent's component pointers.
func (s *FSM) dispatchNested(w *arche.World, e arche.Entity, ev fsm.Event, sm *components.StateMachine, pos *components.Position, in *components.Intent) (bool, error) {
	ctx := &s.dispatchCtx
	outer := s.dispatchAgent
	agent, bb, dt, now := ctx.Agent, ctx.Blackboard, ctx.DT, ctx.Time
	s.dispatchView(w, e, pos, in)
	s.dispatching++
	defer func() {
		s.dispatching--
		s.dispatchAgent = outer
		ctx.Agent, ctx.Blackboard, ctx.DT, ctx.Time = agent, bb, dt, now
	}()
	return s.dispatch(sm, ctx, ev), nil
}

// dispatchView sets Dispatch's agent view and Context to agent e.
func (s *FSM) dispatchView(w *arche.World, e arche.Entity, pos *components.Position, in *components.Intent) {
	s.dispatchAgent = s.due.blank.agent // World, Grid, Clock, Get's types and the arena
	a := &s.dispatchAgent
	a.Commands, a.Entity, a.Position, a.Intent, a.DT = &s.dispatchCmds, e, pos, in, 0
	a.Velocity, a.Perception = componentOf[components.Velocity](w, e), componentOf[components.Perception](w, e)
	a.Health, a.Path, a.Rand = componentOf[components.Health](w, e), componentOf[components.Path](w, e), componentOf[components.Rand](w, e)
	if bb := componentOf[components.Blackboard](w, e); bb != nil {
		a.Blackboard = bb.Store
	}
	ctx := &s.dispatchCtx
	ctx.Agent, ctx.Blackboard, ctx.DT, ctx.Time = a, a.Blackboard, 0, s.due.clock.Time
}

// dispatch restarts a swapped machine (see [FSM].Swapped) and dispatches ev to it.
func (s *FSM) dispatch(sm *components.StateMachine, ctx *fsm.Context, ev fsm.Event) bool {
	if sm.ID != sm.Machine.MachineName() {
		if sm.ID != "" && sm.Memory.Active != fsm.None {
			sm.Memory = fsm.Memory{}
			s.Swapped++
		}
		sm.ID = sm.Machine.MachineName()
	}
	return sm.Machine.Dispatch(&sm.Memory, ctx, ev)
}

// componentOf returns e's component of type T, nil if it has none; e must be alive
// and w not locked (a type new to w is registered).
func componentOf[T any](w *arche.World, e arche.Entity) *T {
	id := arche.ComponentID[T](w)
	if !w.Has(e, id) {
		return nil
	}
	return (*T)(w.Get(e, id))
}
