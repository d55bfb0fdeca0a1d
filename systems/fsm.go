package systems

import (
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// FSM updates the state machine ([components.StateMachine]) of every agent whose think
// time has come ([components.Think]), on the same cadence as [Decision] (see [Due]).
// The machine's ctx.DT is the time since that agent last thought, ctx.Time the clock's
// time, and ctx.Agent a *[Agent] (use [StateAgent]); its component pointers are valid
// only during the update. A state that runs a behavior tree is built with
// hybrid.TreeState.
//
// An update allocates nothing (hooks aside); structural changes requested through
// Agent.Commands are applied after the query loop. An agent should have one decision
// model (see [Utility]).
type FSM struct {
	Thought      int // agents updated in the last frame
	TotalThought int // agents updated since Initialize
	Transitions  int // transitions taken in the last frame

	clock  *ecs.Clock
	grid   *grid.Grid
	cmds   ecs.Commands
	agent  Agent
	ctx    fsm.Context
	filter *generic.Filter9[components.StateMachine, components.Think, components.Position, components.Intent,
		components.Velocity, components.Perception, components.Health, components.Path, components.Rand]
}

// StateAgent returns the *Agent of a state machine hook's context run by [FSM], or nil
// if the machine is run by something else.
func StateAgent(ctx *fsm.Context) *Agent {
	a, _ := ctx.Agent.(*Agent)
	return a
}

// Name implements ecs.Namer.
func (s *FSM) Name() string { return "fsm" }

// Initialize builds the filter. The grid resource is optional.
func (s *FSM) Initialize(w *arche.World) {
	s.clock = ecs.ClockOf(w)
	s.grid = optionalGrid(w)
	s.filter = generic.NewFilter9[components.StateMachine, components.Think, components.Position, components.Intent,
		components.Velocity, components.Perception, components.Health, components.Path, components.Rand]().
		Optional(generic.T[components.Velocity](), generic.T[components.Perception](), generic.T[components.Health](),
			generic.T[components.Path](), generic.T[components.Rand]())
	s.agent = Agent{World: w, Grid: s.grid, Clock: s.clock, Commands: &s.cmds}
	s.ctx.Agent = &s.agent
}

// Update updates the agents that are due.
func (s *FSM) Update(w *arche.World) {
	now := s.clock.Time
	s.Thought, s.Transitions = 0, 0
	a := &s.agent
	q := s.filter.Query(w)
	for q.Next() {
		sm, th, pos, intent, vel, per, hp, path, rnd := q.Get()
		if !Due(th, now, s.clock.DT) || sm.Machine == nil {
			continue
		}
		a.Entity = q.Entity()
		a.Position, a.Intent, a.Velocity, a.Perception, a.Health, a.Path, a.Rand = pos, intent, vel, per, hp, path, rnd
		s.ctx.DT = now - th.Last
		s.ctx.Time = now
		before := sm.Memory.Transitions
		sm.Machine.Update(&sm.Memory, &s.ctx)
		s.Transitions += int(sm.Memory.Transitions - before)
		advance(th, now)
		s.Thought++
	}
	*a = Agent{World: w, Grid: s.grid, Clock: s.clock, Commands: &s.cmds}
	s.TotalThought += s.Thought
	s.cmds.Apply(w)
}

// Finalize does nothing.
func (s *FSM) Finalize(w *arche.World) {}
