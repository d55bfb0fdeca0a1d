package systems

import (
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
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
// The agent's [components.Blackboard] is optional: its Store is Agent.Blackboard, which
// utility.KeyInput considerations read, nil without one (keys read as missing: NaN).
// Structural changes requested through Agent.Commands are applied after the query loop.
// A decision allocates nothing.
//
// An agent should have one decision model: a UtilityBrain, a [components.Brain] or a
// [components.StateMachine], since each system advances the shared Think.
//
// Contract:
//
//	requires   UtilityBrain, Think, Position, Intent
//	optional   Rand (the policy's random source; without it Softmax and TopN pick
//	           like Argmax), Velocity, Perception, Health, Path, Blackboard (in the Agent view)
//	writes     UtilityBrain.State, Think.Last and Next, and what the actions write
//	resources  *ecs.Clock (ecs.ClockSystem); *grid.Grid optional
//
//	absent or unusable             what Utility does                      Diagnose counts
//	Think                          never decides                          CauseThinkMissing
//	Position or Intent             never decides                          CauseDecisionIncomplete
//	UtilityBrain.Reasoner nil      skipped                                CauseBrainEmpty
//	Think.Interval 0               opt-out: DefaultThinkInterval          -
//	Think.Interval < 0             DefaultThinkInterval                   CauseThinkInvalid
//	Think.Interval > 10 s          decides every Interval                 CauseThinkIntervalLong
//	  (MaxThinkInterval)             (hertz, frames or ms given for s?)
//	Think.Interval Inf or NaN,     never decides again                    CauseThinkInvalid
//	  Think.Next NaN or +Inf
//	Think.Frozen                   opt-out (LOD): not decided             -
//	a second decision model        the first of their systems to run in   CauseDecisionModels
//	  ready (a Brain, UtilityBrain,  the frame thinks; the others never
//	  StateMachine, HTNPlanner or    find the agent due (one Think)
//	  GOAPPlanner)
//	a consideration's Input that   scores 0: vetoes its action            CauseUtilityFactWrongType
//	  cannot read the agent (a       (counted in UtilityBrain.State.Unread)
//	  utility.Fact of another type
//	  than Agent, a KeyInput of the
//	  zero blackboard.Key)
//	Blackboard (or a Store of      a utility.KeyInput scores 0: vetoes    CauseBlackboardMissing
//	  another schema), for a         its action (counted in
//	  utility.KeyInput               UtilityBrain.State.NoBlackboard)
//	UtilityBrain.State.Scores      every agent's State shows the last     CauseMemoryShared
//	  another agent's too (a         one's scores (choices race with
//	  template's State copied)       several workers)
//	Blackboard.Store another       the agents read and write each         CauseBlackboardShared
//	  agent's too (a template's      other's facts (racing with several
//	  copied)                        workers)
//	a consideration's Input        clamped: the score saturates            CauseUtilityInputOutOfRange
//	  outside [0, 1] under the       (counted in UtilityBrain.State.Clamped)
//	  zero Range (a raw fact)
//	a consideration's Input        scores 0: vetoes its action in a       CauseUtilityInputNaN
//	  returning NaN (0/0 from an     product (counted at each decision    (at the last decision)
//	  empty store, a NaN field)      in UtilityBrain.State.NaNInputs)
//	Rand, under a Softmax (above   picks like Argmax                      CauseUtilityNoRand
//	  temperature 0) or TopN policy
//	no hysteresis (the zero        the choice flip-flops between two      CauseUtilityFlipFlop
//	  Policy) while two actions'     actions (5 changes within 2 s of       (while it lasts and
//	  scores cross and cross again   simulation time: State.FlipFlops)      2 s after)
//	a consideration's Input, a     the panic reaches Update's caller; the  -
//	  curve or an action's Act       agent counts as having decided at that
//	  that panics                    frame (its next decision is an
//	                                 Interval later; State holds what
//	                                 Decide wrote before the panic); the
//	                                 frame's later agents decide in the
//	                                 next frame
type Utility struct {
	ran     ecs.Ran // the frame it last ran, for save.Save's check (ecs.Frame.Between)
	Budget  int     // most decisions per frame; 0 (or negative) means no limit (see [Decision])
	Workers int     // goroutines deciding; 0 or 1 means one (see [Decision] for what leaves may do)

	Thought      int   // agents that decided in the last frame
	Waiting      int   // agents due in the last frame but left for the next by the budget
	TotalThought int64 // agents that decided since Initialize (int64: 100,000 agents at 10 Hz would pass a 32-bit int within an hour)
	Changed      int   // agents whose choice changed in the last frame

	due thinkers[components.UtilityBrain]
}

// UtilityAgent returns the *Agent passed to considerations and actions by [Utility] (or
// by a bt.Context of [Decision] to a hybrid node), or nil for anything else.
func UtilityAgent(agent any) *Agent {
	a, _ := agent.(*Agent)
	return a
}

// Name implements ecs.Namer.
func (s *Utility) Name() string { return "utility" }

// Initialize builds the filter and starts the workers. The grid resource is
// optional.
//
// Panics:
//   - if the world has no *ecs.Clock resource: add ecs.NewClockSystem(dt) as
//     the first system.
func (s *Utility) Initialize(w *arche.World) {
	mustClock(w, "Utility")
	markInstalled(w, sysUtility)
	s.ran.Join(w, s)
	ecs.Resource[installed](w).utility = s
	s.due.init(w, s.Workers)
	s.Thought, s.Waiting, s.TotalThought, s.Changed = 0, 0, 0, 0
}

// Update decides for the agents that are due, within the budget.
func (s *Utility) Update(w *arche.World) {
	s.ran.Mark(w)
	mustInitialized(s.due.filter, s.due.finalized, "Utility")
	s.due.run(w, s.Budget, hasReasoner, s)
	s.Thought, s.Waiting, s.TotalThought = s.due.Thought, s.due.Waiting, s.due.TotalThought
	s.Changed = s.due.Counted
}

// Work implements ecs.Job: it decides for jobs [lo, hi).
func (s *Utility) Work(worker, lo, hi int) {
	now := s.due.clock.Time
	deciding := -1 // the job deciding; a consideration or action that panics leaves it set
	defer func() {
		if deciding >= 0 {
			s.due.panicked(worker, deciding, now)
		}
	}()
	for i := lo; i < hi; i++ {
		j := s.due.job(worker, i)
		var src utility.Source
		if j.agent.Rand != nil {
			src = &j.agent.Rand.Rand
		}
		deciding = i
		j.agent.DT = sinceLast(j.think, now)
		st := &j.brain.State
		n, c := len(st.Scores), len(st.Considerations)
		j.brain.Reasoner.DecideAt(&j.agent, st, src, now)
		if len(st.Scores) != n || len(st.Considerations) != c {
			// sized by this decision (a State written by hand): held like a spawn's
			j.agent.arena.holdScores(j.agent.Entity, st.Scores, st.Considerations)
		}
		j.brain.Reasoner.Act(&j.agent, &j.brain.State)
		deciding = -1
		if j.brain.State.Choice != j.brain.State.Previous {
			s.due.count(worker, 1)
		}
		s.due.thought(j, now)
	}
}

func hasReasoner(b *components.UtilityBrain) bool { return b.Reasoner != nil }

// Finalize stops the workers; Update panics until the next Initialize (see lifecycle.go).
func (s *Utility) Finalize(w *arche.World) {
	s.due.close()
	s.ran.Leave()
	markFinalized(w, sysUtility)
}
