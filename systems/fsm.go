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
// The agent's [components.Blackboard] is optional: its Store is the machine's
// ctx.Blackboard (and Agent.Blackboard), nil without one (keys read as missing). A
// machine with a tree in a state whose schema has keys needs it: spawn such an agent
// with Thinker.Registry (the registry that loaded the tree), or [Diagnose] counts it
// under CauseBlackboardMissing.
//
// An update allocates nothing (hooks aside); structural changes requested through
// Agent.Commands are applied after the query loop. An agent should have one decision
// model (see [Utility]).
//
// Events: FSM's updates dispatch none; they run Machine.Update, so guard rows
// (Builder.When, Transition with NoEvent) and Update hooks are what they take. To
// raise an event for many agents (an alarm bell), set a blackboard key or a field
// their guards read and let the next update take the row. An event for one agent (a
// player's order to a unit) goes through [FSM.Dispatch], between frames, whose hooks
// get the agent's view as in an update. A Machine.Dispatch of the program's own, with
// a Context of its own, gives its hooks no agent view ([StateAgent] returns nil).
//
// Contract:
//
//	requires   StateMachine, Think, Position, Intent
//	optional   Velocity, Perception, Health, Path, Rand, Blackboard (in the Agent view)
//	writes     StateMachine.Memory and ID (an empty ID: the machine's name), Think.Last
//	           and Next, and what the hooks write
//	resources  *ecs.Clock (ecs.ClockSystem); *grid.Grid optional
//
//	absent or unusable             what FSM does                          Diagnose counts
//	Think                          never updates                          CauseThinkMissing
//	Position or Intent             never updates                          CauseDecisionIncomplete
//	StateMachine.Machine nil       skipped                                CauseBrainEmpty
//	Think.Interval 0               opt-out: DefaultThinkInterval          -
//	Think.Interval < 0             DefaultThinkInterval                   CauseThinkInvalid
//	Think.Interval > 10 s          updates every Interval                 CauseThinkIntervalLong
//	  (MaxThinkInterval)             (hertz, frames or ms given for s?)
//	Think.Interval Inf or NaN,     never updates again                    CauseThinkInvalid
//	  Think.Next NaN or +Inf
//	Think.Frozen                   opt-out (LOD): not updated             -
//	a second decision model        the first of their systems to run in   CauseDecisionModels
//	  ready (a Brain, UtilityBrain,  the frame thinks; the others never
//	  StateMachine, HTNPlanner or    find the agent due (one Think)
//	  GOAPPlanner)
//	Think.Last after the clock,    ctx.DT counts as 0 for that think,     -
//	  NaN or infinite                then every Interval from now
//	an Update hook returning a     no transition: the agent stays         Report.BadTargets (FSM.BadTargets)
//	  StateID of no state of its
//	  machine (another machine's:
//	  fsm.StateID carries a tag)
//	a row from a state to itself   the state is left and entered again    CauseStateReentered
//	  or an ancestor whose guard     on every update (UML's external        (Memory.Reentries ≥
//	  holds once taken; or rows      self-transition), or the two states    ReentryLimit)
//	  A→B and B→A whose guards       are taken in turn; Elapsed stays 0
//	  both hold
//	Memory.Elapsed NaN, infinite   counted from 0 again                   - (FSM.ClockFaults)
//	  or negative (a file)
//	StateMachine.Machine swapped   the new machine restarts: Memory        - (FSM.Swapped)
//	  without Stop (ID names         zeroed, its initial state entered
//	  another machine, Memory        (the old one's Exit hooks do not run)
//	  started)
//	a hook, guard or observer      the panic reaches Update's caller; the  -
//	  that panics                    agent counts as having thought (see
//	                                 fsm.Machine, "A hook that panics");
//	                                 the frame's later agents think in
//	                                 the next frame
type FSM struct {
	ran     ecs.Ran // the frame it last ran, for save.Save's check (ecs.Frame.Between)
	Budget  int     // most updates per frame; 0 (or negative) means no limit (see [Decision])
	Workers int     // goroutines updating machines; 0 or 1 means one (see [Decision] for what hooks may do)

	Thought      int   // agents updated in the last frame
	Waiting      int   // agents due in the last frame but left for the next by the budget
	TotalThought int64 // agents updated since Initialize (int64: 100,000 agents at 10 Hz would pass a 32-bit int within an hour)
	Transitions  int   // transitions taken in the last frame

	// BadTargets counts the Update hooks since Initialize (and the saved run's, after a
	// save's Restore: [FSMState]) that returned a StateID that
	// is no state of the agent's machine (another machine's, Any, out of range; see
	// fsm.StateID) (fsm.Context.BadTargets, summed over the
	// workers): each transitioned nowhere, so the agent stayed in its state. A correct
	// machine keeps it at 0.
	BadTargets uint64
	// ClockFaults counts the updates since Initialize that found an agent's
	// StateMachine.Memory.Elapsed NaN, infinite or negative (written by hand, or loaded
	// from a file) and counted its time in state from 0 again, or ran with a clock Time
	// that is NaN or infinite (a clock of the program's own) as 0 (fsm.Context.ClockFaults,
	// summed over the workers; the dt FSM gives is never bad). A correct world keeps it
	// at 0.
	ClockFaults uint64

	// Swapped counts the agents since Initialize whose StateMachine.Machine was
	// replaced while its Memory held a state of the old machine (Machine set to another
	// machine without calling the old one's Stop). FSM notices it by StateMachine.ID,
	// the name of the machine the Memory belongs to (it sets an empty ID to the
	// machine's name at the agent's first update), and restarts the new machine: the
	// Memory is zeroed and the update enters its initial state (the old machine's Exit
	// hooks do not run: call its Stop before the swap for them, and set ID to the new
	// name or ""); ID becomes the new machine's name, so save.Save takes the agent.
	// (fsm.Machine.Update restarts a Memory whose Active carries another machine's tag
	// too, but counts nothing and leaves ID stale.) A swap between machines of one name
	// is not seen. A correct program keeps it at 0.
	Swapped uint64

	badBase   uint64 // BadTargets restored by LoadState, less the workers' counts then
	clockBase uint64 // ClockFaults likewise

	due   thinkers[components.StateMachine]
	ctxs  []perWorker[fsm.Context] // per worker
	swaps []padded                 // per worker: Swapped's count in the last frame

	dispatchCtx   fsm.Context  // Dispatch's
	dispatchCmds  ecs.Commands // Dispatch's
	dispatchAgent Agent        // Dispatch's view
	dispatching   int          // Dispatch calls in progress (a hook's dispatch to another agent nests)
}

// StateAgent returns the *Agent of a state machine hook's context run by [FSM], or nil
// if the machine is run by something else.
func StateAgent(ctx *fsm.Context) *Agent {
	a, _ := ctx.Agent.(*Agent)
	return a
}

// Name implements ecs.Namer.
func (s *FSM) Name() string { return "fsm" }

// Initialize builds the filter and starts the workers. The grid resource is
// optional.
//
// Panics:
//   - if the world has no *ecs.Clock resource: add ecs.NewClockSystem(dt) as
//     the first system.
func (s *FSM) Initialize(w *arche.World) {
	mustClock(w, "FSM")
	markInstalled(w, sysFSM)
	s.ran.Join(w, s)
	ecs.Resource[installed](w).fsm = s
	s.ctxs = make([]perWorker[fsm.Context], s.due.init(w, s.Workers))
	s.swaps = make([]padded, len(s.ctxs))
	s.Thought, s.Waiting, s.TotalThought, s.Transitions, s.BadTargets, s.ClockFaults = 0, 0, 0, 0, 0, 0
	s.Swapped, s.badBase, s.clockBase = 0, 0, 0
}

// Update updates the agents that are due, within the budget.
func (s *FSM) Update(w *arche.World) {
	s.ran.Mark(w)
	mustInitialized(s.due.filter, s.due.finalized, "FSM")
	s.due.run(w, s.Budget, hasMachine, s)
	s.Thought, s.Waiting, s.TotalThought = s.due.Thought, s.due.Waiting, s.due.TotalThought
	s.Transitions = s.due.Counted
	s.BadTargets, s.ClockFaults = s.badBase, s.clockBase
	for i := range s.ctxs {
		s.BadTargets += s.ctxs[i].v.BadTargets()
		s.ClockFaults += s.ctxs[i].v.ClockFaults()
		s.Swapped += uint64(s.swaps[i].n)
		s.swaps[i].n = 0
	}
}

// Work implements ecs.Job: it updates the machines of jobs [lo, hi).
func (s *FSM) Work(worker, lo, hi int) {
	now := s.due.clock.Time
	ctx := &s.ctxs[worker].v
	updating := -1 // the job whose machine updates; a hook that panics leaves it set
	defer func() {
		if updating >= 0 {
			s.panicked(ctx, worker, updating, now)
		}
	}()
	for i := lo; i < hi; i++ {
		j := s.due.job(worker, i)
		ctx.Agent = &j.agent
		ctx.Blackboard = j.agent.Blackboard
		ctx.DT = sinceLast(j.think, now)
		ctx.Time = now
		j.agent.DT = ctx.DT
		updating = i
		if sm := j.brain; sm.ID != sm.Machine.MachineName() {
			s.swapped(worker, sm)
		}
		before := j.brain.Memory.Transitions // after a swap zeroed the Memory
		j.brain.Machine.Update(&j.brain.Memory, ctx)
		updating = -1
		s.due.count(worker, int(j.brain.Memory.Transitions-before))
		s.due.thought(j, now)
	}
	ctx.Agent, ctx.Blackboard = nil, nil
}

// panicked runs as Work's panic unwinds when a hook, guard or observer panicked in job
// i's update: that agent counts as having thought at now (its Memory.Elapsed holds the update's DT, see fsm.Machine, "A hook
// that panics"), so its next update's DT starts from now rather than counting the same
// seconds again; and the Context drops the agent. The panic goes on to Update's caller.
func (s *FSM) panicked(ctx *fsm.Context, worker, i int, now float64) {
	s.due.panicked(worker, i, now)
	ctx.Agent, ctx.Blackboard = nil, nil
}

func hasMachine(b *components.StateMachine) bool { return b.Machine != nil }

// swapped handles an agent whose StateMachine.ID is not its Machine's name: an empty ID
// (a StateMachine written as {Machine: m}) becomes the name; an ID of another machine
// with a started Memory is a machine swapped without Stop (see [FSM].Swapped), and the
// new machine starts afresh in this update.
func (s *FSM) swapped(worker int, sm *components.StateMachine) {
	if sm.ID != "" && sm.Memory.Active != fsm.None {
		sm.Memory = fsm.Memory{}
		s.swaps[worker].n++
	}
	sm.ID = sm.Machine.MachineName()
}

// Finalize stops the workers; Update panics until the next Initialize (see lifecycle.go).
func (s *FSM) Finalize(w *arche.World) {
	s.due.close()
	s.ran.Leave()
	markFinalized(w, sysFSM)
}
