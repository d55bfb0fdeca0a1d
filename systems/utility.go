package systems

import (
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// Utility runs the utility reasoner ([components.UtilityBrain]) of every agent whose
// think time has come ([components.Think]), on the same cadence as [Decision] (see
// [Due]): it scores every action for the agent, selects one by the reasoner's policy
// (drawing from the agent's [components.Rand] if it has one, else picking like Argmax),
// stores the choice and every score in UtilityBrain.State, then calls the chosen
// action's Act function, which writes the agent's Intent.
//
// Considerations' Input and actions' Act receive the agent as a *[Agent] (use
// [UtilityAgent]); the Agent's component pointers are valid only during the call.
// Structural changes requested through Agent.Commands are applied after the query loop.
// A decision allocates nothing.
//
// An agent should have one decision model: a UtilityBrain, a [components.Brain] or a
// [components.StateMachine], since each system advances the shared Think.
type Utility struct {
	Thought      int // agents that decided in the last frame
	TotalThought int // agents that decided since Initialize
	Changed      int // agents whose choice changed in the last frame

	clock  *ecs.Clock
	grid   *grid.Grid
	cmds   ecs.Commands
	agent  Agent
	filter *generic.Filter9[components.UtilityBrain, components.Think, components.Position, components.Intent,
		components.Velocity, components.Perception, components.Health, components.Path, components.Rand]
}

// UtilityAgent returns the *Agent passed to considerations and actions by [Utility] (or
// by a bt.Context of [Decision] to a hybrid node), or nil for anything else.
func UtilityAgent(agent any) *Agent {
	a, _ := agent.(*Agent)
	return a
}

// Name implements ecs.Namer.
func (s *Utility) Name() string { return "utility" }

// Initialize builds the filter. The grid resource is optional.
func (s *Utility) Initialize(w *arche.World) {
	s.clock = ecs.ClockOf(w)
	s.grid = optionalGrid(w)
	s.filter = generic.NewFilter9[components.UtilityBrain, components.Think, components.Position, components.Intent,
		components.Velocity, components.Perception, components.Health, components.Path, components.Rand]().
		Optional(generic.T[components.Velocity](), generic.T[components.Perception](), generic.T[components.Health](),
			generic.T[components.Path](), generic.T[components.Rand]())
	s.agent = Agent{World: w, Grid: s.grid, Clock: s.clock, Commands: &s.cmds}
}

// Update decides for the agents that are due.
func (s *Utility) Update(w *arche.World) {
	now := s.clock.Time
	s.Thought, s.Changed = 0, 0
	a := &s.agent
	q := s.filter.Query(w)
	for q.Next() {
		brain, th, pos, intent, vel, per, hp, path, rnd := q.Get()
		if !Due(th, now, s.clock.DT) || brain.Reasoner == nil {
			continue
		}
		a.Entity = q.Entity()
		a.Position, a.Intent, a.Velocity, a.Perception, a.Health, a.Path, a.Rand = pos, intent, vel, per, hp, path, rnd
		var src utility.Source
		if rnd != nil {
			src = &rnd.Rand
		}
		brain.Reasoner.Decide(a, &brain.State, src)
		brain.Reasoner.Act(a, &brain.State)
		if brain.State.Choice != brain.State.Previous {
			s.Changed++
		}
		advance(th, now)
		s.Thought++
	}
	*a = Agent{World: w, Grid: s.grid, Clock: s.clock, Commands: &s.cmds}
	s.TotalThought += s.Thought
	s.cmds.Apply(w)
}

// Finalize does nothing.
func (s *Utility) Finalize(w *arche.World) {}

// advance records a decision at now and schedules the next one, Interval later
// (DefaultThinkInterval if unset), as [Decision] does.
func advance(th *components.Think, now float64) {
	interval := th.Interval
	if interval <= 0 {
		interval = DefaultThinkInterval
	}
	th.Last = now
	th.Next += interval
	if th.Next <= now {
		th.Next = now + interval
	}
}

// optionalGrid returns the world's *grid.Grid resource, or nil if it has none.
func optionalGrid(w *arche.World) *grid.Grid {
	id := arche.ResourceID[grid.Grid](w)
	if !w.Resources().Has(id) {
		return nil
	}
	g, _ := w.Resources().Get(id).(*grid.Grid)
	return g
}
