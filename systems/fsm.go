package systems

import (
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
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
	Budget int // most updates per frame; 0 means no limit (see [Decision])

	Thought      int // agents updated in the last frame
	Waiting      int // agents due in the last frame but left for the next by the budget
	TotalThought int // agents updated since Initialize
	Transitions  int // transitions taken in the last frame

	due  thinkers[components.StateMachine]
	cmds ecs.Commands
	ctx  fsm.Context
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
func (s *FSM) Initialize(w *arche.World) { s.due.init(w) }

// Update updates the agents that are due, within the budget.
func (s *FSM) Update(w *arche.World) {
	now := s.due.clock.Time
	s.Transitions = 0
	jobs := s.due.gather(w, s.Budget, hasMachine, &s.cmds)
	for i := range jobs {
		j := &jobs[i]
		s.ctx.Agent = &j.agent
		s.ctx.DT = now - j.think.Last
		s.ctx.Time = now
		before := j.brain.Memory.Transitions
		j.brain.Machine.Update(&j.brain.Memory, &s.ctx)
		s.Transitions += int(j.brain.Memory.Transitions - before)
		j.thought(now)
	}
	s.ctx.Agent = nil
	s.Thought, s.Waiting = len(jobs), s.due.Waiting
	s.TotalThought += s.Thought
	s.due.done()
	s.cmds.Apply(w)
}

func hasMachine(b *components.StateMachine) bool { return b.Machine != nil }

// Finalize does nothing.
func (s *FSM) Finalize(w *arche.World) {}
