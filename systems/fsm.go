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
	Budget  int // most updates per frame; 0 means no limit (see [Decision])
	Workers int // goroutines updating machines; 0 or 1 means one (see [Decision] for what hooks may do)

	Thought      int // agents updated in the last frame
	Waiting      int // agents due in the last frame but left for the next by the budget
	TotalThought int // agents updated since Initialize
	Transitions  int // transitions taken in the last frame

	due   thinkers[components.StateMachine]
	pool  *ecs.Workers
	cmds  []ecs.Commands
	ctxs  []fsm.Context
	trans []padded // per worker
	jobs  []thinkJob[components.StateMachine]
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
	s.due.init(w)
	n := max(s.Workers, 1)
	s.pool = ecs.NewWorkers(n)
	s.cmds = make([]ecs.Commands, n)
	s.ctxs = make([]fsm.Context, n)
	s.trans = make([]padded, n)
}

// Update updates the agents that are due, within the budget.
func (s *FSM) Update(w *arche.World) {
	s.jobs = s.due.gather(w, s.Budget, hasMachine, nil)
	s.pool.Run(s, len(s.jobs))
	s.Transitions = 0
	for i := range s.trans {
		s.Transitions += s.trans[i].n
		s.trans[i].n = 0
	}
	s.Thought, s.Waiting = len(s.jobs), s.due.Waiting
	s.TotalThought += s.Thought
	s.due.done()
	for i := range s.cmds {
		s.cmds[i].Apply(w)
	}
}

// Work implements ecs.Job: it updates the machines of jobs [lo, hi).
func (s *FSM) Work(worker, lo, hi int) {
	now := s.due.clock.Time
	ctx := &s.ctxs[worker]
	for i := lo; i < hi; i++ {
		j := &s.jobs[i]
		j.agent.Commands = &s.cmds[worker]
		ctx.Agent = &j.agent
		ctx.DT = now - j.think.Last
		ctx.Time = now
		before := j.brain.Memory.Transitions
		j.brain.Machine.Update(&j.brain.Memory, ctx)
		s.trans[worker].n += int(j.brain.Memory.Transitions - before)
		j.thought(now)
	}
	ctx.Agent = nil
}

func hasMachine(b *components.StateMachine) bool { return b.Machine != nil }

// Finalize stops the workers.
func (s *FSM) Finalize(w *arche.World) { s.pool.Close() }
