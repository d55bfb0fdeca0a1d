package systems

import (
	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/hybrid"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
)

// DefaultThinkInterval is the think interval of an agent whose Think.Interval
// is not set: 0.1 s, i.e. 10 Hz.
const DefaultThinkInterval = 0.1

// Agent is the view of one agent that [Decision] passes to its tree's leaves
// as bt.Context.Agent (always a *Agent). The component pointers are valid only
// during the tick: leaves must not keep them. Optional components the agent
// lacks are nil. Any other component of the agent (its Faction, Weapon,
// Kinematics, one of your own) is read with [Get] and [Has], another agent's
// with [GetOf], allocation-free.
//
// Leaves read facts and write the agent's own components (Intent, Path, ...);
// they must not make structural changes to the World: queue them on Commands
// instead, which the Decision system applies after its loop, in the order of
// the agents' entity IDs. The decision systems ([Decision], [Utility], [FSM],
// [HTN], [GOAP]) hold an Arche query open while the user's code runs, so a
// direct change (World.RemoveEntity, World.Add, a new component type
// registered, ...) panics, for any number of workers, with a message naming the
// system and Commands and ending with Arche's own ("systems: Decision: a
// behavior-tree leaf changed the world's structure directly ...: attempt to
// modify a locked world"); the panic reaches the caller of the system's Update,
// with the world unlocked, and the system's frame is abandoned.
type Agent struct {
	World    *arche.World
	Grid     *grid.Grid
	Clock    *ecs.Clock
	Commands *ecs.Commands
	Entity   arche.Entity

	// Blackboard is the Store of the agent's optional [components.Blackboard], nil if it
	// has none (keys then read as missing). It is also the leaves' bt.Context.Blackboard
	// (under [Decision], an agent with none gets a stand-in there that behaves as nil: see
	// Decision) and a state machine's fsm.Context.Blackboard.
	Blackboard *blackboard.Store

	Position   *components.Position
	Velocity   *components.Velocity   // optional
	Intent     *components.Intent     // required
	Perception *components.Perception // optional
	Health     *components.Health     // optional
	Path       *components.Path       // optional
	Rand       *components.Rand       // optional

	// DT is the seconds of simulation time since the agent's last decision (0 for
	// its first, or when Think.Last is not usable: see sinceLast), set before each
	// decision by the system deciding: the DT of a bt leaf's Context, an fsm hook's,
	// a planner operator's, and the only one a utility consideration or Act gets (a
	// need that grows while the agent eats: a rate times DT).
	DT float64

	types *componentTypes // for Get: the system's map of component types
	arena *Arena          // the world's, for KeepTreeRun
}

// KeepTreeRun implements hybrid.Keeper: the world's [Arena] keeps a second reference to
// the node memory, blackboard store and tree of a hybrid.TreeRun that a hybrid.TreeState
// ticks for this agent (its first update, or a new Memory), so a TreeRun kept in a
// component of the program's own survives removals of agents like archai's own
// components. It is called by hybrid.TreeState; a program need not call it.
func (a *Agent) KeepTreeRun(state any, r *hybrid.TreeRun) {
	if a.arena != nil && r != nil {
		a.arena.keep(a.Entity, state, r.Memory.Nodes(), r.Context.Blackboard, r.Tree)
	}
}

// AgentOf returns the *Agent of a leaf's context. It panics if the tree is
// ticked by something other than the Decision system (a programming error, not
// a data error).
func AgentOf(ctx *bt.Context) *Agent { return ctx.Agent.(*Agent) }

// BlackboardStore returns a.Blackboard; it makes an *Agent a utility.BlackboardAgent,
// whose keys utility.KeyInput considerations read.
func (a *Agent) BlackboardStore() *blackboard.Store { return a.Blackboard }

// Decision ticks the behavior tree ([components.Brain]) of every agent whose
// think time has come ([components.Think]): at most once per frame, in the
// frame whose step contains Think.Next (see [Due]); frozen agents never. The
// tree's dt is the time since that agent last thought. Agents staggered at
// spawn (Think.Next spread over one interval) spread the work over frames.
//
// Budget caps the decisions per frame: the agents due the longest think first
// (by Think.Next, then entity ID), and those beyond the budget wait for the
// next frame, where their earlier Think.Next puts them ahead of the newly
// due, so a spike of due agents is spread out and nobody starves. The choice
// rests on component data alone, never on Arche's storage order (which
// differs after a world is loaded), and needs no state of its own to save.
//
// Workers splits the ticks over goroutines (0 or 1: one). The result does not
// depend on the number of workers, provided leaves only write their own
// agent's components and only read the World (they run concurrently on
// different agents). Commands queued by leaves are applied after all ticks,
// in the order of the agents' entity IDs (each agent's in the order queued).
//
// The agent's [components.Blackboard] is optional: its Store is the tree's
// bt.Context.Blackboard, and without one (or with a nil Store) the tree gets a stand-in
// store, a [blackboard.Probe]'s, that holds nothing (ports read as missing, writes fail,
// as on a nil store; test ctx.Blackboard.Schema() == nil, not ctx.Blackboard == nil): its
// reads by key are counted, so Diagnose can report a tree that reads keys on an agent
// with no store (CauseBlackboardMissing). Agent.Blackboard stays nil.
//
// A tick allocates nothing.
//
// Contract:
//
//	requires   Brain, Think, Position, Intent
//	optional   Velocity, Perception, Health, Path, Rand, Blackboard (in the Agent view; nil if absent)
//	writes     Brain.Memory, Think.Last and Next, and what the leaves write
//	resources  *ecs.Clock (ecs.ClockSystem); *grid.Grid optional (Agent.Grid is nil without)
//
//	absent or unusable             what Decision does                     Diagnose counts
//	Think                          never thinks                           CauseThinkMissing
//	Position or Intent             never thinks                           CauseDecisionIncomplete
//	Brain.Tree nil                 skipped                                CauseBrainEmpty
//	Brain.Memory zero or not of    opt-out: a fresh Tree.NewMemory()      -
//	  its Tree's length              before the tick
//	Brain.Tree replaced (Memory    the old tree is halted (its halt       - (Decision.Swapped)
//	  of another tree)               hooks run), the new starts afresh
//	Blackboard, for a tree         ports read as missing (leaves fail)    CauseBlackboardMissing
//	  whose schema has keys
//	Blackboard, for a tree         ports and blackboard.Get read as       CauseBlackboardMissing
//	  built in Go whose leaves       missing (leaves see no foe)            (once a tick read a key)
//	  read keys
//	Blackboard, for a tree         opt-out: nothing to store              -
//	  without keys
//	Blackboard.Store another       the agents read and write each         CauseBlackboardShared
//	  agent's too (a template's      other's facts (racing with several
//	  copied)                        workers)
//	Think.Interval 0               opt-out: DefaultThinkInterval          -
//	Think.Interval < 0             DefaultThinkInterval                   CauseThinkInvalid
//	Think.Interval > 10 s          thinks every Interval                  CauseThinkIntervalLong
//	  (MaxThinkInterval)             (hertz, frames or ms given for s?)
//	Think.Interval Inf or NaN,     never thinks again                     CauseThinkInvalid
//	  Think.Next NaN or +Inf
//	Think.Frozen                   opt-out (LOD): not ticked              -
//	a second decision model        the first of their systems to run in   CauseDecisionModels
//	  ready (a Brain, UtilityBrain,  the frame thinks; the others never
//	  StateMachine, HTNPlanner or    find the agent due (one Think)
//	  GOAPPlanner)
//	Think.Last after the clock,    DT counts as 0 for that think          - (Decision.ClockFaults)
//	  NaN or infinite                (after the clock: thinks at once, then
//	                                 every Interval from now)
//	an entry a script reads        the script's node fails                Report.ScriptErrors
//	  not set
//	a leaf (or a hook, a Choose    the panic reaches Update's caller; the  -
//	  function) that panics          agent counts as having thought (its
//	                                 timers hold the tick's DT, see
//	                                 bt.Tree.Tick, "A leaf that panics");
//	                                 the frame's later agents think in
//	                                 the next frame
type Decision struct {
	ran     ecs.Ran // the frame it last ran, for save.Save's check (ecs.Frame.Between)
	Workers int     // goroutines ticking trees; 0 or 1 means one
	Budget  int     // most decisions per frame; 0 (or negative) means no limit

	Thought      int   // agents that thought in the last frame
	Waiting      int   // agents due in the last frame but left for the next by the budget
	TotalThought int64 // agents that thought since Initialize (int64: 100,000 agents at 10 Hz would pass a 32-bit int within an hour)

	// ScriptErrors counts the scripts that failed at run time since Initialize (Script
	// and ScriptCondition nodes, script pre- and post-conditions reading an entry that
	// is not set, for example), summed over the workers' bt.Context.ScriptErrors.
	// ClockFaults counts the ticks since Initialize whose DT (now - Think.Last) or Time
	// was not usable and counted as 0 (bt.Context.ClockFaults: a Think.Last after the
	// clock's time, or NaN or infinite). A correct setup keeps both at 0. Diagnose
	// reports ScriptErrors (Report.ScriptErrors, with the last error) as one finding,
	// not per agent. Updated after each frame.
	ScriptErrors, ClockFaults uint64

	scriptBase uint64 // ScriptErrors from before the workers' contexts counted (a load: LoadState)
	clockBase  uint64 // ClockFaults likewise

	// Swapped counts the agents since Initialize whose Brain.Tree was replaced while
	// their Memory was the old tree's (see [bt.Memory]): the old tree is halted (its
	// Running nodes' halt hooks run, with the agent's context) and the new one gets a
	// fresh memory, starting from its root: right after the tick, when a leaf of the
	// tick replaced it, else at the agent's next think (save.Save takes an agent in
	// between: its memory is saved as the old tree's, Brain.MemoryOf, and the loaded
	// agent's next think halts that tree). Updated after each frame. Replacing the tree is the documented way to give an agent another tree, so
	// this is a count, not a fault.
	Swapped uint64

	due    thinkers[components.Brain]
	swaps  []padded                 // per worker: Swapped's count in the last frame
	ctxs   []perWorker[bt.Context]  // per worker
	errs   []perWorker[scriptError] // per worker: the newest script error of its agents (see newer)
	loaded scriptError              // the newest script error of a loaded state (at -Inf: older than any since)

	probes   []perWorker[unstoredProbe] // per worker: the store of agents without one (decision_unstored.go)
	unstored map[uint32]unstoredRead    // by entity ID: agents whose tree read a key with no store; not saved
}

// scriptError is a script that failed at run time: the node and error, the
// simulation time of the tick and the agent's entity ID. The newest of several is
// the one of the latest tick, of the highest entity ID among one frame's, so the
// choice does not depend on how the agents were split over the workers.
type scriptError struct {
	time float64
	id   uint32
	node int
	err  error
}

// newer reports whether e is newer than o (see scriptError); any error is newer
// than none.
func (e *scriptError) newer(o *scriptError) bool {
	if o.err == nil || e.err == nil {
		return e.err != nil
	}
	return e.time > o.time || e.time == o.time && e.id > o.id
}

// Name implements ecs.Namer.
func (s *Decision) Name() string { return "decision" }

// Initialize builds the filter and starts the workers. The grid resource is
// optional.
//
// Panics:
//   - if the world has no *ecs.Clock resource: add ecs.NewClockSystem(dt) as
//     the first system.
func (s *Decision) Initialize(w *arche.World) {
	mustClock(w, "Decision")
	markInstalled(w, sysDecision)
	s.ran.Join(w, s)
	ecs.Resource[installed](w).decision = s
	s.ctxs = make([]perWorker[bt.Context], s.due.init(w, s.Workers))
	s.swaps = make([]padded, len(s.ctxs))
	s.errs = make([]perWorker[scriptError], len(s.ctxs))
	s.initUnstored(len(s.ctxs))
	s.loaded = scriptError{}
	s.Thought, s.Waiting, s.TotalThought, s.ScriptErrors, s.ClockFaults, s.Swapped = 0, 0, 0, 0, 0, 0
	s.scriptBase, s.clockBase = 0, 0
}

// clockFaultsSince returns the clock faults the workers' contexts counted since
// Initialize.
func (s *Decision) clockFaultsSince() uint64 {
	n := uint64(0)
	for i := range s.ctxs {
		n += s.ctxs[i].v.ClockFaults()
	}
	return n
}

// scriptsSince returns the script errors the workers' contexts counted since
// Initialize.
func (s *Decision) scriptsSince() uint64 {
	n := uint64(0)
	for i := range s.ctxs {
		n += s.ctxs[i].v.ScriptErrors()
	}
	return n
}

// Update ticks the agents that are due, within the budget.
func (s *Decision) Update(w *arche.World) {
	s.ran.Mark(w)
	mustInitialized(s.due.filter, s.due.finalized, "Decision")
	s.due.run(w, s.Budget, hasTree, s)
	s.Thought, s.Waiting, s.TotalThought = s.due.Thought, s.due.Waiting, s.due.TotalThought
	s.ScriptErrors, s.ClockFaults = s.scriptBase+s.scriptsSince(), s.clockBase
	for i := range s.ctxs {
		s.ClockFaults += s.ctxs[i].v.ClockFaults()
		s.Swapped += uint64(s.swaps[i].n)
		s.swaps[i].n = 0
	}
	s.gatherUnstored()
}

// lastScriptError returns the node and error of the newest script that failed at
// run time (see scriptError: the same whatever the number of workers), a loaded
// state's if none failed since, or -1 and nil.
func (s *Decision) lastScriptError() (int, error) {
	last := &s.loaded
	for i := range s.errs {
		if e := &s.errs[i].v; e.newer(last) {
			last = e
		}
	}
	if last.err == nil {
		return -1, nil
	}
	return last.node, last.err
}

// hasTree reports whether b has a tree to tick.
func hasTree(b *components.Brain) bool { return b.Tree != nil }

// swap gives agent a a memory of its Brain's Tree when its Memory is not one
// (Tree.Tick would panic on it): a Brain written as Brain{Tree: t} gets a new one; a
// Brain whose Tree was replaced, or set to nil, has the old tree halted first (the
// halt hooks of its Running nodes run, with ctx, as the halt contract says), counted
// in Swapped, and its memory reset for the new tree (cleared for none). A memory of no
// tree yet and of the tree's length (saved nodes, bt.MemoryOf) is left for the tick to
// take. A new memory is held by the world's Arena. It runs on the workers (each on its
// own agents), before a think and after one whose leaf replaced the tree.
func (s *Decision) swap(worker int, a *Agent, b *components.Brain, ctx *bt.Context) {
	m := &b.Memory
	old := m.Tree()
	if b.Tree != nil && m.Len() == b.Tree.Len() && (old == b.Tree || old == nil) {
		return
	}
	if old != nil && old != b.Tree {
		old.Halt(m, ctx)
		s.swaps[worker].n++
	}
	if b.Tree == nil {
		*m = bt.Memory{}
		return
	}
	b.Tree.ResetMemory(m)
	a.arena.holdBrainOf(a.Entity, b) // the new tree and ID (and the memory, if new)
}

// Work implements ecs.Job: it ticks the trees of jobs [lo, hi).
func (s *Decision) Work(worker, lo, hi int) {
	now := s.due.clock.Time
	ctx := &s.ctxs[worker].v
	ticking := -1 // the job whose tree ticks; a leaf that panics leaves it set
	defer func() {
		if ticking >= 0 {
			s.due.panicked(worker, ticking, now)
			ctx.Agent, ctx.Blackboard = nil, nil
		}
	}()
	for i := lo; i < hi; i++ {
		j := s.due.job(worker, i)
		ctx.Agent = &j.agent
		ctx.Blackboard = s.probeFor(worker, j.agent.Blackboard) // a probe's for none: see decision_unstored.go
		tree := j.brain.Tree
		ctx.DT = now - j.think.Last
		ctx.Time = now
		j.agent.DT = sinceLast(j.think, now)
		ticking = i
		if b := j.brain; b.Memory.Tree() != b.Tree || b.Memory.Len() != b.Tree.Len() {
			s.swap(worker, &j.agent, b, ctx)
		}
		failed := ctx.ScriptErrors()
		j.brain.Tree.Tick(&j.brain.Memory, ctx)
		if ctx.ScriptErrors() != failed {
			s.scriptFailed(worker, j.agent.Entity.ID(), now, ctx)
		}
		if j.agent.Blackboard == nil {
			s.probed(worker, j.agent.Entity, tree)
		}
		if b := j.brain; b.Memory.Tree() != b.Tree {
			s.swap(worker, &j.agent, b, ctx) // a leaf replaced the tree, or set it to nil: at once
		}
		ticking = -1
		s.due.thought(j, now)
	}
	ctx.Agent, ctx.Blackboard = nil, nil
}

// scriptFailed notes the script error of ctx's tick at now of the agent of entity
// ID id, on worker, if it is newer than the worker's last.
func (s *Decision) scriptFailed(worker int, id uint32, now float64, ctx *bt.Context) {
	node, err := ctx.LastScriptError()
	if e := (scriptError{time: now, id: id, node: node, err: err}); e.newer(&s.errs[worker].v) {
		s.errs[worker].v = e
	}
}

// Due reports whether an agent thinks in the frame starting at now and lasting
// dt seconds: it is not frozen and its Think.Next falls before the end of the
// frame's step, Next < now + dt (a Next already passed counts too; a Next
// within 1e-9 s of the frame's end counts for the next frame). An agent
// staggered with Next in [0, Interval) thus thinks in the frame whose step
// contains Next. An agent whose Think.Last is after now (a program's own clock
// set back: a replay, a level restarted on the same world) is due too, and its
// next think is scheduled an Interval from now, so it does not wait for the
// clock to catch up with its old schedule.
func Due(th *components.Think, now, dt float64) bool {
	return due(th, now, dueLimit(now, dt))
}

// dueLimit is the Think.Next before which an agent is [Due] in the frame at
// now lasting dt: found once for a pass over many agents.
func dueLimit(now, dt float64) float64 { return now + dt - dueEpsilon }

// due is [Due] with the frame's dueLimit.
func due(th *components.Think, now, limit float64) bool {
	return !th.Frozen && (th.Next < limit || th.Last > now)
}

// nextDue returns the index of the first agent of ths from k on that is due
// in the frame at now whose dueLimit is limit (see due), or len(ths): the
// find passes' scan over every agent, in a loop of its own with no call in
// it, which the compiler keeps in registers (written inside the find loops,
// whose due agents make calls, it spilled and reloaded 5 registers an agent).
//
//go:noinline
func nextDue(ths []components.Think, k int, now, limit float64) int {
	rest := ths[k:]
	for i := range rest {
		if due(&rest[i], now, limit) {
			return k + i
		}
	}
	return len(ths)
}

// dueEpsilon keeps a Next that lands on a frame boundary, up to rounding of
// the repeated Next += Interval, in the later frame, so a 10 Hz agent at 60
// frames/s thinks every 6 frames, not 5 or 7.
const dueEpsilon = 1e-9

// Finalize stops the workers; Update panics until the next Initialize (see lifecycle.go).
func (s *Decision) Finalize(w *arche.World) {
	s.due.close()
	s.ran.Leave()
	markFinalized(w, sysDecision)
}
