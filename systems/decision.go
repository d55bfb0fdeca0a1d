package systems

import (
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// DefaultThinkInterval is the think interval of an agent whose Think.Interval
// is not set: 0.1 s, i.e. 10 Hz.
const DefaultThinkInterval = 0.1

// Agent is the view of one agent that [Decision] passes to its tree's leaves
// as bt.Context.Agent (always a *Agent). The component pointers are valid only
// during the tick: leaves must not keep them. Optional components the agent
// lacks are nil.
//
// Leaves read facts and write the agent's Intent (or Path); they must not make
// structural changes to the World (Arche panics while a query is open): queue
// them with Commands instead, which the Decision system applies after its loop.
type Agent struct {
	World    *arche.World
	Grid     *grid.Grid
	Clock    *ecs.Clock
	Commands *ecs.Commands
	Entity   arche.Entity

	Position   *components.Position
	Velocity   *components.Velocity   // optional
	Intent     *components.Intent     // required
	Perception *components.Perception // optional
	Health     *components.Health     // optional
	Path       *components.Path       // optional
	Rand       *components.Rand       // optional
}

// AgentOf returns the *Agent of a leaf's context. It panics if the tree is
// ticked by something other than the Decision system (a programming error, not
// a data error).
func AgentOf(ctx *bt.Context) *Agent { return ctx.Agent.(*Agent) }

// Decision ticks the behavior tree ([components.Brain]) of every agent whose
// think time has come ([components.Think]): at most once per frame, in the
// frame whose step contains Think.Next. The tree's dt is the time since that agent last
// thought. Agents staggered at spawn (Think.Next spread over one interval)
// spread the work evenly over frames. See [Due] for the exact rule.
//
// A tick allocates nothing; structural changes requested by leaves through
// Agent.Commands are applied after the query loop.
type Decision struct {
	Thought      int // agents that thought in the last frame
	TotalThought int // agents that thought since Initialize

	clock  *ecs.Clock
	grid   *grid.Grid
	cmds   ecs.Commands
	agent  Agent
	ctx    bt.Context
	filter *generic.Filter9[components.Brain, components.Think, components.Position, components.Intent,
		components.Velocity, components.Perception, components.Health, components.Path, components.Rand]
}

// Name implements ecs.Namer.
func (s *Decision) Name() string { return "decision" }

// Initialize builds the filter.
func (s *Decision) Initialize(w *arche.World) {
	s.clock = ecs.ClockOf(w)
	s.grid = arche.GetResource[grid.Grid](w)
	s.filter = generic.NewFilter9[components.Brain, components.Think, components.Position, components.Intent,
		components.Velocity, components.Perception, components.Health, components.Path, components.Rand]().
		Optional(generic.T[components.Velocity](), generic.T[components.Perception](), generic.T[components.Health](),
			generic.T[components.Path](), generic.T[components.Rand]())
	s.agent = Agent{World: w, Grid: s.grid, Clock: s.clock, Commands: &s.cmds}
	s.ctx.Agent = &s.agent
}

// Update ticks the agents that are due.
func (s *Decision) Update(w *arche.World) {
	now := s.clock.Time
	s.Thought = 0
	a := &s.agent
	q := s.filter.Query(w)
	for q.Next() {
		brain, th, pos, intent, vel, per, hp, path, rnd := q.Get()
		if !Due(th, now, s.clock.DT) || brain.Tree == nil {
			continue
		}
		interval := th.Interval
		if interval <= 0 {
			interval = DefaultThinkInterval
		}
		a.Entity = q.Entity()
		a.Position, a.Intent, a.Velocity, a.Perception, a.Health, a.Path, a.Rand = pos, intent, vel, per, hp, path, rnd
		s.ctx.DT = now - th.Last
		s.ctx.Time = now
		brain.Tree.Tick(&brain.Memory, &s.ctx)
		th.Last = now
		th.Next += interval
		if th.Next <= now {
			th.Next = now + interval
		}
		s.Thought++
	}
	*a = Agent{World: w, Grid: s.grid, Clock: s.clock, Commands: &s.cmds}
	s.TotalThought += s.Thought
	s.cmds.Apply(w)
}

// Due reports whether an agent thinks in the frame starting at now and lasting
// dt seconds: its Think.Next falls before the end of the frame's step,
// Next < now + dt (a Next already passed counts too). An agent staggered with
// Next in [0, Interval) thus thinks in the frame whose step contains Next.
func Due(th *components.Think, now, dt float64) bool {
	return th.Next < now+dt
}

// Finalize does nothing.
func (s *Decision) Finalize(w *arche.World) {}
