package systems

import (
	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
)

// HTN runs the hierarchical task network planner ([components.HTNPlanner]) of every
// agent whose think time has come ([components.Think]), on the same cadence, budget and
// workers as [Decision] (see [Due]): each think is one htn.Domain.Tick: the domain's
// sensor writes the perceived facts into HTNPlanner.State, the agent plans from the root
// when it has no plan or when a fact its plan read changed (keeping the running plan
// unless the new one ranks before it), and the current task's operator runs. Operators
// and sensors receive the agent as a *[Agent] in htn.Context.Agent (use [PlanAgent]):
// they write the agent's Intent and its own components, read the World, and queue
// structural changes or writes to other entities (a squad's shared state) on
// Agent.Commands, applied after the think in agent order. Planning work is spread over
// Workers goroutines, each with its own htn.Planner, and the result does not depend on
// their number. A think allocates nothing once each worker has planned with the domain.
//
// Contract:
//
//	requires   HTNPlanner, Think, Position, Intent
//	optional   Velocity, Perception, Health, Path, Rand, Blackboard (in the Agent view)
//	writes     HTNPlanner.State, Run, Cache, Domain and Name (interned), Think.Last and
//	           Next, and what operators write
//	resources  *ecs.Clock (ecs.ClockSystem), *htn.Registry (the domains); *grid.Grid optional
//
//	absent or unusable             what HTN does                          Diagnose counts
//	Think                          never thinks                           CauseThinkMissing
//	Position or Intent             never thinks                           CauseDecisionIncomplete
//	HTNPlanner.Name not in the     skipped                                CausePlannerDomain
//	  registry (or, Name empty,
//	  Domain 0 or unknown)
//	Think.Interval 0               opt-out: DefaultThinkInterval          -
//	Think.Interval < 0, Inf, NaN   as for Decision                        CauseThinkInvalid
//	Think.Interval > 10 s          as for Decision                        CauseThinkIntervalLong
//	Think.Frozen                   opt-out (LOD): not ticked              -
//	a second decision model        the first of their systems to run in   CauseDecisionModels
//	  ready (a Brain, UtilityBrain,  the frame thinks; the others never
//	  StateMachine, HTNPlanner or    find the agent due (one Think)
//	  GOAPPlanner)
//	Think.Last after the clock,    ctx.DT counts as 0 for that think,     -
//	  NaN or infinite                then every Interval from now
//	a script failing at run time   its condition is false, its effect     - (HTN.ScriptErrors)
//	                                 fails the task
//	the root does not decompose    idles (Run.Status Failure), plans      CausePlannerDomainError
//	  (ErrNoPlan: no method          again every think (Run.NoPlans)        after HTNNoPlanSpan
//	  applies)
//	HTNPlanner.Name set to another the old domain halts its plan at the   - (HTN.Swapped)
//	  domain while a plan runs       next think (the task's Halt runs),
//	                                 which plans with the new domain
//	the domain reloaded (replaced  as above; State's facts carried over   - (HTN.Swapped)
//	  in the registry) while its     by name
//	  plan runs
type HTN struct {
	ran     ecs.Ran // the frame it last ran, for save.Save's check (ecs.Frame.Between)
	Workers int     // goroutines planning; 0 or 1 means one
	Budget  int     // most thinks per frame; 0 (or negative) means no limit (see [Decision])

	Thought      int   // agents that thought in the last frame
	Waiting      int   // agents due in the last frame but left for the next by the budget
	TotalThought int64 // agents that thought since Initialize (int64: 100,000 agents at 10 Hz would pass a 32-bit int within an hour)
	Plans        int   // plans adopted in the last frame (new, replacing or after a failure)

	// ScriptErrors counts the script conditions and effects that failed at run time
	// since Initialize, over the workers' planners.
	ScriptErrors uint64
	// Swapped counts the agents since Initialize whose HTNPlanner.Name was set to
	// another domain while the old domain's plan ran: the old domain halts it at the
	// agent's next think (the running task's Halt runs, with the agent; EventHalt is
	// logged) and the think plans afresh with the new domain. Setting Name is the way
	// to give an agent another domain (leave Domain and Cache as they are), so this
	// is a count, not a fault. A domain replaced in the registry under its name while
	// the plan it made ran (htn.Registry.ReloadFile, ReloadJSON, Replace: a hot reload)
	// is swapped the same way and counted here too; the think also carries the agent's
	// believed facts (HTNPlanner.State) over to the new domain's facts by name (a fact
	// the edit added starts at 0).
	Swapped uint64

	// Log turns on Events: with it, Events holds the plan transitions of the last frame
	// (plans made and replaced, tasks started, succeeded, failed and halted), in agent
	// order, the same for any number of workers. The slice is reused by the next Update.
	Log    bool
	Events []HTNEvent

	run        planThinks[components.HTNPlanner, htn.Planner, htn.Context, htn.Event]
	scriptBase uint64 // ScriptErrors restored by LoadState, less the planners' counts then
	registry   *htn.Registry
}

// HTNEvent is one transition of an agent's HTN plan (see htn.Event), at Time (seconds of
// simulation time). Read the plan and task names through the agent's domain.
type HTNEvent = PlanEvent[htn.Event]

// GOAPEvent is one transition of an agent's GOAP plan (see goap.Event).
type GOAPEvent = PlanEvent[goap.Event]

// PlanEvent is a transition E of Entity's plan at Time, as [HTN] and [GOAP] log them.
type PlanEvent[E any] struct {
	Entity arche.Entity
	Time   float64
	Event  E
}

// planLog is one worker's transitions of a frame.
type planLog[E any] struct {
	entity  arche.Entity
	time    float64
	events  []PlanEvent[E]
	observe func(E)
}

func newLogs[E any](n int) []planLog[E] {
	logs := make([]planLog[E], n)
	for i := range logs {
		l := &logs[i]
		l.observe = func(ev E) { l.events = append(l.events, PlanEvent[E]{Entity: l.entity, Time: l.time, Event: ev}) }
	}
	return logs
}

// gather appends the workers' events to out in worker order (agent order) and empties
// the workers' logs.
func gatherLogs[E any](logs []planLog[E], out []PlanEvent[E]) []PlanEvent[E] {
	out = out[:0]
	for i := range logs {
		out = append(out, logs[i].events...)
		logs[i].events = logs[i].events[:0]
	}
	return out
}

// PlanAgent returns the *Agent of an operator's or sensor's context run by [HTN] or
// [GOAP] (htn.Context.Agent, goap.Context.Agent), or nil for anything else.
func PlanAgent(agent any) *Agent {
	a, _ := agent.(*Agent)
	return a
}

// Name implements ecs.Namer.
func (s *HTN) Name() string { return "htn" }

// Initialize builds the filter, finds the registry and starts the workers.
//
// Panics:
//   - if the world has no *ecs.Clock resource: add ecs.NewClockSystem(dt) as the first
//     system;
//   - if the world has no *htn.Registry resource: add the registry holding the agents'
//     domains with arche.AddResource(w, registry) before Initialize.
func (s *HTN) Initialize(w *arche.World) {
	mustClock(w, "HTN")
	s.registry = mustRegistry[htn.Registry](w, "HTN", "htn")
	markInstalled(w, sysHTN)
	ecs.Resource[installed](w).htnSys = s
	s.ran.Join(w, s)
	s.run.init(w, s.Workers)
	s.run.ready = func(b *components.HTNPlanner) bool {
		return readyPlanner(s.registry, &b.Name, &b.Domain, &b.Cache, b.Run.HasPlan())
	}
	reg := s.registry
	s.run.tick = func(b *components.HTNPlanner, p *htn.Planner, ctx *htn.Context, a *Agent, dt, now float64,
		observe func(htn.Event)) (int, bool) {
		return htnTick(reg, b, p, ctx, a, dt, now, observe)
	}
	s.Thought, s.Waiting, s.TotalThought, s.Plans, s.ScriptErrors, s.Events = 0, 0, 0, 0, 0, s.Events[:0]
	s.Swapped, s.scriptBase = 0, 0
}

// Update plans and runs the agents that are due, within the budget.
func (s *HTN) Update(w *arche.World) {
	s.ran.Mark(w)
	mustInitialized(s.run.due.filter, s.run.due.finalized, "HTN")
	s.Events = s.run.update(w, s.Budget, s.Log, s.Events)
	s.Thought, s.Waiting, s.TotalThought = s.run.due.Thought, s.run.due.Waiting, s.run.due.TotalThought
	s.Plans = s.run.due.Counted
	s.Swapped = s.run.Swapped
	s.ScriptErrors = s.scriptBase
	for i := range s.run.planners {
		s.ScriptErrors += s.run.planners[i].v.ScriptErrors
	}
}

// Work implements ecs.Job: it runs the planners of jobs [lo, hi).
func (s *HTN) Work(worker, lo, hi int) { s.run.Work(worker, lo, hi) }

// htnTick is one think of an agent's HTN planner (see planThinks.tick), after a swap of
// its domain if Name names another than Cache (see swapPlanner).
func htnTick(reg *htn.Registry, b *components.HTNPlanner, p *htn.Planner, ctx *htn.Context, a *Agent, dt, now float64,
	observe func(htn.Event)) (int, bool) {
	*ctx = htn.Context{Agent: a, DT: dt, Time: now, Observe: observe}
	running := b.Run.HasPlan()
	old, swapped := swapPlanner(reg, &b.Name, &b.Domain, &b.Cache, &b.Run, &b.State, ctx)
	if swapped {
		*ctx = htn.Context{Agent: a, DT: dt, Time: now, Observe: observe}
		if b.Cache != nil && old.Name() == b.Cache.Name() { // a reload: the facts by name
			prev := b.State
			carryFacts[htn.Fact](b.State[:], prev[:], old, b.Cache)
		}
	}
	before := b.Run.Plans
	b.Cache.Tick(&b.Run, &b.State, p, ctx)
	return int(b.Run.Plans - before), swapped && running
}

// Finalize stops the workers; Update panics until the next Initialize (see lifecycle.go).
func (s *HTN) Finalize(w *arche.World) {
	s.run.due.close()
	s.ran.Leave()
	markFinalized(w, sysHTN)
}

// GOAP runs the goal-oriented action planner ([components.GOAPPlanner]) of every agent
// whose think time has come, on the same cadence, budget and workers as [Decision]: each
// think is one goap.Domain.Tick: the domain's sensor writes the perceived facts into
// GOAPPlanner.State, the agent plans an A* search for its most important reachable goal
// when it has no plan, when a step fails or cannot start, or when a change of state
// invalidates the plan or makes a higher goal reachable, and the current action's
// operator runs. Operators get the agent as a *[Agent] in goap.Context.Agent (use
// [PlanAgent]), with the same rules as [HTN]'s. Each worker has its own goap.Planner;
// NodeBudget is their node budget per search. The result does not depend on the number
// of workers, and a think allocates nothing once the planners' buffers have grown.
//
// Contract:
//
//	requires   GOAPPlanner, Think, Position, Intent
//	optional   Velocity, Perception, Health, Path, Rand, Blackboard (in the Agent view)
//	writes     GOAPPlanner.State, Run, Cache, Domain and Name (interned), Think.Last and
//	           Next, and what operators write
//	resources  *ecs.Clock (ecs.ClockSystem), *goap.Registry (the domains); *grid.Grid optional
//
//	absent or unusable             what GOAP does                         Diagnose counts
//	Think                          never thinks                           CauseThinkMissing
//	Position or Intent             never thinks                           CauseDecisionIncomplete
//	GOAPPlanner.Name not in the    skipped                                CausePlannerDomain
//	  registry (or, Name empty,
//	  Domain 0 or unknown)
//	Think.Interval 0               opt-out: DefaultThinkInterval          -
//	Think.Interval < 0, Inf, NaN   as for Decision                        CauseThinkInvalid
//	Think.Interval > 10 s          as for Decision                        CauseThinkIntervalLong
//	Think.Frozen                   opt-out (LOD): not ticked              -
//	a second decision model        the first of their systems to run in   CauseDecisionModels
//	  ready (a Brain, UtilityBrain,  the frame thinks; the others never
//	  StateMachine, HTNPlanner or    find the agent due (one Think)
//	  GOAPPlanner)
//	Think.Last after the clock,    ctx.DT counts as 0 for that think,     -
//	  NaN or infinite                then every Interval from now
//	GOAPPlanner.Name set to        the old domain halts its plan at the   - (GOAP.Swapped)
//	  another domain while a plan    next think (the action's Halt runs),
//	  runs                           which plans with the new domain
//	the domain replaced in the     as above; State's facts carried over   - (GOAP.Swapped)
//	  registry (goap.Registry.       by name
//	  Replace) while its plan runs
type GOAP struct {
	ran        ecs.Ran // the frame it last ran, for save.Save's check (ecs.Frame.Between)
	Workers    int     // goroutines planning; 0 or 1 means one
	Budget     int     // most thinks per frame; 0 (or negative) means no limit (see [Decision])
	NodeBudget int     // states one search may generate; goap.DefaultMaxNodes if 0, at most goap.MaxNodesLimit

	Thought      int   // agents that thought in the last frame
	Waiting      int   // agents due in the last frame but left for the next by the budget
	TotalThought int64 // agents that thought since Initialize (int64: 100,000 agents at 10 Hz would pass a 32-bit int within an hour)
	Plans        int   // plans made in the last frame
	// Swapped counts the agents since Initialize whose GOAPPlanner.Name was set to
	// another domain while the old domain's plan ran (see [HTN].Swapped): the old
	// domain halts it at the next think, which plans afresh with the new one. A domain
	// replaced under its name (goap.Registry.Replace) is swapped and counted the same way.
	Swapped uint64

	// Log turns on Events, the plan transitions of the last frame in agent order (see
	// [HTN].Log).
	Log    bool
	Events []GOAPEvent

	run      planThinks[components.GOAPPlanner, goap.Planner, goap.Context, goap.Event]
	registry *goap.Registry
}

// Name implements ecs.Namer.
func (s *GOAP) Name() string { return "goap" }

// Initialize builds the filter, finds the registry and starts the workers.
//
// Panics:
//   - if the world has no *ecs.Clock resource: add ecs.NewClockSystem(dt) as the first
//     system;
//   - if the world has no *goap.Registry resource: add the registry holding the agents'
//     domains with arche.AddResource(w, registry) before Initialize.
func (s *GOAP) Initialize(w *arche.World) {
	mustClock(w, "GOAP")
	s.registry = mustRegistry[goap.Registry](w, "GOAP", "goap")
	markInstalled(w, sysGOAP)
	ecs.Resource[installed](w).goapSys = s
	s.ran.Join(w, s)
	s.run.init(w, s.Workers)
	for i := range s.run.planners {
		s.run.planners[i].v.MaxNodes = s.NodeBudget
	}
	s.run.ready = func(b *components.GOAPPlanner) bool {
		return readyPlanner(s.registry, &b.Name, &b.Domain, &b.Cache, b.Run.HasPlan())
	}
	reg := s.registry
	s.run.tick = func(b *components.GOAPPlanner, p *goap.Planner, ctx *goap.Context, a *Agent, dt, now float64,
		observe func(goap.Event)) (int, bool) {
		return goapTick(reg, b, p, ctx, a, dt, now, observe)
	}
	s.Thought, s.Waiting, s.TotalThought, s.Plans, s.Events = 0, 0, 0, 0, s.Events[:0]
	s.Swapped = 0
}

// Update plans and runs the agents that are due, within the budget.
func (s *GOAP) Update(w *arche.World) {
	s.ran.Mark(w)
	mustInitialized(s.run.due.filter, s.run.due.finalized, "GOAP")
	s.Events = s.run.update(w, s.Budget, s.Log, s.Events)
	s.Thought, s.Waiting, s.TotalThought = s.run.due.Thought, s.run.due.Waiting, s.run.due.TotalThought
	s.Plans = s.run.due.Counted
	s.Swapped = s.run.Swapped
}

// Work implements ecs.Job: it runs the planners of jobs [lo, hi).
func (s *GOAP) Work(worker, lo, hi int) { s.run.Work(worker, lo, hi) }

// goapTick is one think of an agent's GOAP planner (see planThinks.tick), after a swap
// of its domain if Name names another than Cache (see swapPlanner).
func goapTick(reg *goap.Registry, b *components.GOAPPlanner, p *goap.Planner, ctx *goap.Context, a *Agent, dt, now float64,
	observe func(goap.Event)) (int, bool) {
	*ctx = goap.Context{Agent: a, DT: dt, Time: now, Observe: observe}
	running := b.Run.HasPlan()
	old, swapped := swapPlanner(reg, &b.Name, &b.Domain, &b.Cache, &b.Run, &b.State, ctx)
	if swapped {
		*ctx = goap.Context{Agent: a, DT: dt, Time: now, Observe: observe}
		if b.Cache != nil && old.Name() == b.Cache.Name() { // a reload: the facts by name
			prev := b.State
			carryFacts[goap.Fact](b.State[:], prev[:], old, b.Cache)
		}
	}
	before := b.Run.Plans
	b.Cache.Tick(&b.Run, &b.State, p, ctx)
	return int(b.Run.Plans - before), swapped && running
}

// Finalize stops the workers; Update panics until the next Initialize (see lifecycle.go).
func (s *GOAP) Finalize(w *arche.World) {
	s.run.due.close()
	s.ran.Leave()
	markFinalized(w, sysGOAP)
}
