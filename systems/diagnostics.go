package systems

import (
	"fmt"
	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ai/htn"
	"io"
	"math"
	"math/bits"
	"os"
	"slices"
	"strings"
	"unsafe"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// Cause is one way an agent can be set up so that a system cannot do its job
// for it. [Diagnose] counts the agents with each cause; every cause is also
// listed, with the system it concerns, in that system's contract table.
type Cause uint8

// The causes [Diagnose] counts. An agent may have several.
const (
	// CauseThinkMissing: a Brain, UtilityBrain, StateMachine, HTNPlanner or
	// GOAPPlanner without a Think. The decision systems require Think: the agent never decides.
	CauseThinkMissing Cause = iota
	// CauseDecisionIncomplete: a Brain, UtilityBrain or StateMachine with a
	// Think but without a Position or an Intent. The decision systems require
	// both: the agent never decides.
	CauseDecisionIncomplete
	// CauseBrainEmpty: a Brain without a Tree, a UtilityBrain without a
	// Reasoner, or a StateMachine without a Machine: nothing to run.
	CauseBrainEmpty
	// CauseThinkInvalid: Think.Interval negative, NaN or infinite, or
	// Think.Next NaN or +Inf: the agent thinks at a cadence nobody chose, or
	// never.
	CauseThinkInvalid
	// CauseSteerIncomplete: an agent that lacks one of the components
	// PathFollow, Steer and Movement require together (Position, Velocity,
	// Kinematics, Intent, Desired, Steering) while it has a Steering,
	// SteeringWeights, Wanderer, FlowFollower or Desired, or while something
	// asks it to move: an Intent with Move or with Mode IntentFlee,
	// IntentPursue or IntentEvade. It never gets a Desired, is never steered
	// or never moved; the typical case is a Thinker spawned without a Mover
	// (NewSpawner(w, Thinker{...}) alone), whose tree sets Intent.Move and
	// nothing moves it. An agent tagged [components.OwnMotion] (the program
	// moves it from its Intent) is not counted for its intent, nor is a Path
	// with Want on an agent without the movement components (PathQueue
	// serves it; a path asked for its own sake). Also a Path, FlowFollower or
	// Desired without a Position, which the path queue, the flow-field and
	// path-following systems never serve.
	//
	// An Intent that asks for nothing (Move false, Mode IntentGo) on an agent
	// without the movement components is not counted: a turret that only
	// decides and strikes (Intent.Attack) is well set up. So an agent that
	// lacks them is counted from the frame its Intent first asks to move: a
	// Diagnose before the first decision does not see it, the [Diagnostics]
	// system or a Diagnose after the first thinks does.
	CauseSteerIncomplete
	// CauseWeightsMissing: a steered agent without SteeringWeights: no wall
	// avoidance and no separation, so a crowd stacks on one point. Give it
	// SteeringWeights (all zero to opt out knowingly).
	CauseWeightsMissing
	// CauseWeightsInvalid: a SteeringWeights weight or radius negative, NaN
	// or infinite.
	CauseWeightsInvalid
	// CauseWanderInvalid: a Wanderer whose Radius or Jitter is not > 0, or
	// whose Distance or Response is negative, or any of them NaN or infinite: the agent
	// stands still, goes straight or circles instead of wandering.
	CauseWanderInvalid
	// CauseWanderNoRand: a Wanderer without a Rand: Steer cannot draw the
	// wander's steps, and the agent brakes instead.
	CauseWanderNoRand
	// CauseMoveWithoutPath: a steered agent with Intent.Move (IntentGo) or
	// pursuing (IntentPursue) but no Path on a grid with blocked cells: it
	// heads for its goal or target in a straight line and walks into walls.
	CauseMoveWithoutPath
	// CauseKinematics: Kinematics.MaxSpeed, MaxForce or Radius not > 0, or
	// NaN or infinite, or MaxSpeed above MaxKinematicSpeed, MaxForce above
	// MaxKinematicForce or Radius above MaxKinematicRadius. Steer and Movement
	// keep an agent with unusable Kinematics still (see [UsableKinematics]).
	CauseKinematics
	// CausePosition: a Position with a NaN or infinite coordinate. Spatial
	// leaves the agent out of the hash; Steer and Movement keep it still.
	CausePosition
	// CauseVelocity: a Velocity with a NaN or infinite coordinate. Movement
	// resets it to zero (and does not move the agent that frame).
	CauseVelocity
	// CauseGoal: an Intent.Goal with a NaN or infinite coordinate, or an
	// Intent.Point that is (with a Flee, Pursue or Evade mode and no Target).
	// PathFollow treats the intent as no move intent: the agent brakes.
	CauseGoal
	// CauseBlocked: a moving agent (one with a Velocity and a Kinematics,
	// which Movement moves) whose Position is in a blocked cell. Movement only
	// keeps agents out of walls that start outside one; flow and path followers
	// aim for an open cell within 4 cells and walk out. A flow follower with no
	// open cell within 4 cells stands there for good: the note says so. An agent without a Kinematics (a tower on a wall, a
	// Target or Combatant without a Mover) stays where it was put, and is not
	// counted.
	CauseBlocked
	// CauseOffGrid: a moving agent whose Position is outside the grid. A note of
	// a place far off the grid (this position, or a goal of CauseGoalUnusable,
	// CausePathGoal or CauseFlowGoal), at or beyond twice the grid's size on
	// either axis (x ≥ 2·Width or y ≥ 2·Height; negative coordinates never), ends
	// with a hint that positions are in cells, cell (x, y) covering
	// [x, x+1)×[y, y+1), and were perhaps given in pixels ("a unit mistake?", as
	// the spawner's check of a Radius words it).
	CauseOffGrid
	// CausePathGoal: a Path that is wanted or held (Want, or State PathPending
	// or PathReady, or PathUnreachable for the cell the agent's intent still
	// aims at: its Intent.Move goal, or the cell of the target or point it
	// pursues) for a goal cell outside the grid or blocked: the path queue
	// answers PathUnreachable. An unreachable Path for a goal the agent has
	// given up (a door closed on its old goal, and its intent aims elsewhere
	// now) is not counted: PathFollow ignores it and asks for the new goal. A Path whose Goal is the cell of the agent's
	// unusable Intent.Move goal (PathFollow copies it there) is counted once,
	// under CauseGoalUnusable: one fault, one finding. A Path asked for directly
	// (Path.Want set by the program, not by PathFollow for an intent) is counted
	// also once answered: PathUnreachable for a goal off the grid or blocked while
	// the agent has no Intent, or an Intent to go (IntentGo) that does not move
	// (Move false) and whose Goal is not in that cell. An agent that stopped
	// itself at a goal made unreachable (Intent.Move = false, its Goal kept, as
	// the README advises while a door is closed) is not counted.
	CausePathGoal
	// CauseFlowGoal: a FlowFollower whose Goal cell is outside the grid or
	// blocked: its field has no path, and the agent never gets anywhere.
	CauseFlowGoal
	// CausePerceptionIncomplete: a Perception without a Faction, a Think or
	// a Position (all required by the Perception system): it is never updated.
	CausePerceptionIncomplete
	// CauseBlackboardMissing: a Brain whose tree was loaded with blackboard
	// keys (its Tree.Schema declares some) but whose agent has no Blackboard,
	// a nil Store, or a Store of another schema: every port reads as missing,
	// so its leaves fail. Give it the Thinker bundle, or a Blackboard whose
	// Store is made from the registry's schema. Counted too for a
	// StateMachine with such a tree in a state (an fsm.Hooks Activity that is
	// a *bt.Tree, as hybrid.TreeState sets): the FSM hands the tree the
	// agent's Blackboard, so spawn it with Thinker.Registry (the registry that
	// loaded the tree; the note names the state). Counted too for a Brain whose
	// tree built in Go (no schema) read a key in a think while the agent had no
	// store (Decision hands it a blackboard.Probe's; the note names the key): a
	// Thinker spawned without its Schema. Counted too for a UtilityBrain
	// whose utility.KeyInput considerations found no Store of their key's schema
	// (utility.State.NoBlackboard > 0): each scored 0 and vetoed its action;
	// and for an agent keeping a utility.State in a component of the program's
	// own whose State counts such inputs (see CauseUtilityFactWrongType for where
	// Diagnose looks; the note names the component and field). Counted once the
	// agent has decided.
	CauseBlackboardMissing
	// CauseGoalUnusable: an Intent.Move whose (finite) Goal is off the grid or
	// in a blocked cell: no path reaches it (PathUnreachable), so PathFollow
	// walks the agent along the straight line to the goal and rests it its
	// radius short of the first blocked cell or map edge the line meets.
	CauseGoalUnusable
	// CauseNoDecisionSystem: a Brain, UtilityBrain or StateMachine while the
	// world has no Decision, Utility or FSM system to run it, or an HTNPlanner
	// or GOAPPlanner while it has no HTN or GOAP system: it never thinks.
	CauseNoDecisionSystem
	// CauseNoPerceptionSystem: a Perception while the world has no Perception
	// system: it never sees anything.
	CauseNoPerceptionSystem
	// CauseNoPathQueue: a Path while the world has no PathQueue system: its
	// requests are never served and the agent walks straight into walls.
	CauseNoPathQueue
	// CauseNoFlowFieldSystem: a FlowFollower while the world has no FlowField
	// system: it never gets a direction.
	CauseNoFlowFieldSystem
	// CauseNoSteerSystem: a Steering while the world has no Steer system: no
	// force is ever computed.
	CauseNoSteerSystem
	// CauseNoMovementSystem: a Velocity and Steering while the world has no
	// Movement system: the agent never moves.
	CauseNoMovementSystem
	// CauseNoPathFollowSystem: a Desired while the world has no PathFollow
	// system: the agent's intent never becomes a direction, so it never moves.
	CauseNoPathFollowSystem
	// CauseORCAInvalid: an ORCA whose TimeHorizon or ObstacleHorizon is not
	// > 0 and finite (or so small that its inverse is +Inf), whose
	// MaxNeighbours is negative, whose NeighbourDist is
	// negative, NaN or infinite, or whose Bias is NaN or infinite (see
	// [UsableORCA]); or an ORCA on an agent without a Position, Velocity,
	// Kinematics or Steering. The ORCA system leaves its steering force as it
	// is: the agent does not avoid.
	CauseORCAInvalid
	// CauseNoORCASystem: an ORCA while the world has no ORCA system: the agent
	// does not avoid others at all (Avoider and Motion.Avoid = AvoidORCA turn
	// separation off unless Avoider.KeepSeparation is set).
	CauseNoORCASystem
	// CausePlannerDomain: an HTNPlanner or GOAPPlanner whose domain is not in
	// the world's *htn.Registry or *goap.Registry resource (a Name not
	// registered; with no Name, a Domain ID 0 or never added; or no registry at
	// all): the HTN or GOAP system skips it, so it never plans. Give it the
	// name of a registered domain (or the ID Registry.Add or LoadJSON returned).
	CausePlannerDomain
	// CausePathGoalNarrow: a Path wanted or held (as for CausePathGoal) for a passable goal cell
	// whose grid.Clearance is below what the agent's Kinematics.Radius needs
	// (grid.ClearanceFor): the goal is too close to a wall for the agent's
	// disc, so the path queue answers PathUnreachable; or a wide agent whose
	// move goal (or pursued Point) lies in such a cell, its Path filed for the
	// cell beside the goal where its disc fits (see PathFollow): it rests
	// there, off its goal, or, answered PathUnreachable (no route its disc
	// fits), where it stands. The example's note names the cell, its clearance,
	// the clearance needed and the radius, and the fix: move the goal away from
	// the walls, or give the agent a radius the goal's clearance admits; when no
	// route its disc fits leads to the point beside the goal (answered
	// PathUnreachable), moving the goal would not help, and the note gives only
	// the radius that has a route to the goal and fits there.
	CausePathGoalNarrow
	// CausePathNotQueued: a Path waiting (State PathPending, Want false) while
	// the world's PathQueue holds no request of it, typically a world loaded
	// from a save whose path queue state was not restored (save's
	// Loaded.Restore after Initialize). The PathQueue asks for such a path again
	// in its next Update (counted in PathQueue.Requeued), so the agent gets it,
	// but the run does not continue as the saved one would have.
	CausePathNotQueued
	// CauseUtilityFactWrongType: a UtilityBrain whose State counts inputs that could
	// not read the agent (utility.State.Unread > 0): a consideration's Input is a
	// utility.Fact of a type other than systems.Agent, e.g.
	// utility.Fact(func(p *components.Position) float64 {...}). The Utility system
	// passes a *[Agent], so such a fact never reads, scores 0 and vetoes its action
	// forever. Write utility.Fact(func(a *systems.Agent) float64 { ... a.Position ... })
	// (or use [UtilityAgent] in a plain Input). A utility.KeyInput of the zero
	// blackboard.Key (never declared) reads no agent either and is counted here too.
	// Counted once the agent has decided.
	//
	// Diagnose reads these counts (and those of CauseBlackboardMissing,
	// CauseUtilityInputOutOfRange and CauseUtilityInputNaN) in the State of every UtilityBrain, and in every
	// utility.State an agent keeps in a component of the program's own, found as
	// systems/debugview finds them: the component itself, or its fields and array
	// elements, at most 4 levels deep, not behind a pointer, in a slice or map, nor
	// in a blackboard (a state machine's hook or a hybrid.UtilitySelector deciding
	// with Reasoner.DecideAt; the agent is whatever the program passes there, so a
	// Fact must take that agent's type). The note of such a State names the
	// component and field ("its utility.State Fighter.Attack"). An agent is counted
	// once a cause, however many of its States count the fault.
	CauseUtilityFactWrongType
	// CauseTargetUnusable: an Intent fleeing, pursuing or evading an entity
	// Target that is alive but lacks a Position or a Velocity, so [Spatial]
	// never puts it in the Neighbours where PathFollow looks targets up: the
	// agent brakes and stands, whatever the target does (a player entity made
	// with a Position only, moved by the program). Give the target a
	// Velocity (zero is fine; the program may write it as it moves the
	// target). A dead Target is not counted: it is no target, the agent
	// brakes until it decides again. An agent whose Target is itself is counted
	// too: it pursues, flees or evades its own position and stands still.
	CauseTargetUnusable
	// CauseThinkIntervalLong: a Think.Interval over [MaxThinkInterval] (10 s).
	// Every interval is in seconds of simulation time (0.1 for 10 Hz), and one
	// over 10 s is most likely a count in another unit: hertz or frames
	// (Interval 60 meant "60 times a second" or "every 60 frames" and thinks
	// once a minute) or milliseconds (Thinker{Interval: 100} meant 10 Hz and
	// thinks once per 100 s), so the agent seems never to decide. The note
	// gives each reading's value (1.0/60; 0.06; 60 × the clock step).
	// Thresholds: over 10 s is counted; 10 s and under is taken as meant, since
	// a cadence of seconds is a real design (an ambient crowd, a strategic
	// planner, a far LOD level; the intent is kept and followed between
	// thinks), so "5 Hz" written as 5 and "10 Hz" written as 10 go unseen. A
	// LOD level's Interval over it is counted on the agents it is given to.
	CauseThinkIntervalLong
	// CauseNoCombatSystem: an agent with a Weapon whose Intent.Attack is set
	// (not the zero Entity) while the world has no Combat system: the strike
	// its decision asked for never lands, and the request stays. Add
	// &systems.Combat{} after the decision systems. Seen only once a decision
	// asks to strike, so, like CauseSteerIncomplete, a Diagnose right after
	// Initialize does not see it; the [Diagnostics] system does.
	CauseNoCombatSystem
	// CauseNoLODSystem: an agent with a components.LOD (and a Think) while the
	// world has a focus point (an entity with a components.Focus: a camera, a
	// player) and no LOD system: its level of detail is never set, so it thinks
	// at its Think.Interval wherever it is and is never frozen. Add
	// &systems.LOD{} before the decision systems. Without a Focus entity a LOD
	// component is not counted (static LOD.Points need the system anyway).
	CauseNoLODSystem
	// CauseORCAHorizonLong: a usable ORCA whose TimeHorizon or ObstacleHorizon
	// is over [MaxORCAHorizon] (60 s): most likely milliseconds given for
	// seconds (TimeHorizon 2000 meant 2 s). Honoured as given, such an agent
	// avoids others it would meet minutes from now and scans walls far
	// beyond its path every frame (ObstacleHorizon 1000 reads every wall
	// segment within 1000·MaxSpeed cells: about 140 times the default's cost
	// on a 128² maze). Every horizon is in seconds.
	CauseORCAHorizonLong
	// CauseORCANeighboursMany: a usable ORCA whose MaxNeighbours is over
	// [MaxORCANeighbours] (100): most likely "everyone" (1e9, math.MaxInt).
	// Honoured as given: each agent avoids every agent within NeighbourDist,
	// and its work each frame grows with their number, so a crowd whose agents
	// are all within each other's NeighbourDist costs the square of its size
	// (3,000 agents with MaxNeighbours math.MaxInt and NeighbourDist 1e300: about
	// 0.9 s a frame instead of 3 ms). RVO2's examples avoid 10.
	CauseORCANeighboursMany
	// CausePerceptionAfterDecision: a complete Perception (with a Position, a
	// Think and a Faction) on an agent whose decision component (Brain,
	// UtilityBrain, StateMachine, HTNPlanner or GOAPPlanner) is run by a decision
	// system placed before the Perception system in the schedule (initialized
	// before it). Perception serves the agents about to think in the frame (see
	// [Due]); the decision system has already thought for them and moved their
	// Think.Next on, so Perception finds none of them due and the agent never
	// perceives: Perception.Checked stays 0 and its decisions read an empty
	// Perception (with a decision Budget, only the agents the budget holds back
	// are perceived, for their think in the next frame). Put Perception before
	// the decision systems, right after Spatial (see the package doc's frame
	// order). Initialize does not refuse the order: a Perception between two
	// decision systems serves the later one's agents, and the program's own.
	CausePerceptionAfterDecision
	// CauseMemoryShared: a Brain whose node memory (Brain.Memory) is the same
	// memory as another agent's: a Memory copied from a template (one
	// Brain{Tree: t, Memory: t.NewMemory()} given to many agents) rather than made
	// for each (Tree.NewMemory, Memory.Clone, or the Thinker bundle, which makes
	// one per agent). The agents tick one memory: each resumes where another
	// left off (timers, running children, counters), so some act too often and
	// others never, and with several workers the ticks race. Likewise a
	// UtilityBrain whose State's Scores are another agent's (one State made with
	// Reasoner.NewState given to many): every agent's State shows the scores of
	// the last one decided, and with several workers an agent may choose from
	// scores another is writing. Every agent of such a group but the first met
	// counts.
	CauseMemoryShared
	// CausePlannerDomainError: an HTNPlanner whose planning failed with a fault
	// of its domain (htn.Run.DomainErrors > 0: ErrDepth, ErrLength or
	// ErrBudget, a recursion without end or a plan longer than htn.MaxPlan),
	// not because no method applied, or a GOAPPlanner whose search was cut
	// (goap.Run.DomainErrors > 0: ErrPlanTooLong, a goal needing more than
	// goap.MaxSteps actions, or ErrBudget; a plan may exist: split the goal or
	// raise GOAP.NodeBudget), or a GOAPPlanner idle without a plan for which no
	// plan exists, proven before searching (goap.ErrUnreachable for every goal
	// that does not hold: a condition on the way that no action's effect makes
	// true and its State lacks; the note names the goal, the actions and the fact,
	// goap.Domain.WhyNoPlan, and suggests goap.Builder.Sensed where perception
	// sets it): the agent idles. Counted too: a GOAPPlanner carrying out a plan
	// while a goal of higher priority than the plan's (or of its priority and
	// declared before its goal: PlanBest tries those first) that does not hold has no
	// plan by the same proof (goap.Planner.PlanBest passes over it to the lower
	// goal, so the agent is busy while, say, it starves: a misspelt fact in a
	// precondition); the note names both goals. Fix the domain. An agent whose goal waits only
	// for facts declared sensed (goap.Builder.Sensed: written by the Sense hook or
	// a system, "enemy visible"; goap.Domain.AwaitsPerception) is not counted; a goal on
	// a sensed fact ("hungry == 0") whose actions can never start is counted.
	// Counted too, idle or busy below it as above: a goal that check lets through
	// but whose search ends in plain goap.ErrNoPlan because no state the actions
	// reach from State satisfies it (they make its conditions true only one at a
	// time, or never hit its value) while no fact it depends on is declared sensed:
	// goap.Domain.WhyNeverReached, which explores at most goap.NeverReachedStates
	// states (past them the agent is not counted), once per domain, goal and state.
	// Likewise an HTNPlanner whose root task has found no decomposition (ErrNoPlan)
	// on every think for HTNNoPlanSpan or longer (htn.Run.NoPlan, NoPlanSince): the
	// note gives htn.Domain.WhyNoPlan's explanation, each method of the root and the
	// condition that stopped it. Give the root a last method without conditions (an
	// Idle task) if the agent is meant to have nothing to do then. Likewise an htn.Run
	// kept in a component of the program's own (a hybrid.HTNAction's, in a Brain's tree
	// or a state machine state's tree; found as CauseUtilityFactWrongType says States
	// are) whose root found no decomposition on every planning from NoPlanSince to
	// NoPlanLast, HTNNoPlanSpan or longer: the note names the field and the action, tree
	// and state running it (hybrid.HTNAt; Diagnose calls the run functions of the
	// agent's HTNActions to learn which runs it) with WhyNoPlan's explanation, and an
	// agent whose root now decomposes is not counted; a Run no HTNAction of the agent's
	// trees runs is counted with its times alone. Likewise a goap.Run kept in a
	// component of the program's own and run by a hybrid.GOAPAction (hybrid.GOAPAt),
	// counted as a GOAPPlanner is, from the goap.State the action's run function pairs
	// with it: failed without a plan (Run.Status Failure) while no goal that does not
	// hold can be planned, carrying out a plan below a goal that can never be planned,
	// or searches cut (Run.DomainErrors); the note names the field, node, tree and
	// state. A goap.Run no GOAPAction runs is counted only for DomainErrors.
	CausePlannerDomainError
	// CauseGoalUnset: an Intent.Move (Mode IntentGo) whose Goal is exactly
	// (0, 0), the zero r2.Vec: most often a goal not set yet (Move set from an
	// order that has not arrived, a blackboard value not written). The agent
	// walks to the grid's corner, or presses against the border there. Counted
	// instead of CauseGoalUnusable when the corner cell is blocked (one fault, one
	// finding). A goal meant for the corner cell is its centre, (0.5, 0.5),
	// which is not counted. The zero Intent (Move false) is no goal: the agent stands.
	CauseGoalUnset
	// CauseFlowFollowerWide: a FlowFollower whose Kinematics.Radius is over
	// 0.5 cells (grid.ClearanceFor(radius) > 1) and whose cell, at FlowField's
	// last Update, had no route wide enough for it to its goal (whole-grid
	// fields: FlowField serves a wide follower the field of its clearance,
	// see flowfield.Field.SetClearance): gaps narrower than its disc seal it
	// off, so it stands (Steer false) where a point agent would be led
	// through. Not a fault of setup: open a wider way, give the unit another
	// goal or a smaller radius. One that walls cut off whatever its width
	// (grid.Connected false: a door closed) is counted as CauseFlowUnreachable.
	// Read from FlowField's latest Update, which a save holds (the state's
	// wide_sealed).
	CauseFlowFollowerWide
	// CauseUtilityInputOutOfRange: a UtilityBrain whose State counts inputs
	// outside [0, 1] under a consideration's zero Range (utility.State.Clamped >
	// 0): the zero Range takes the fact as normalised already and clamps it, so
	// a raw fact (a hunger of 0–100, a distance in cells) saturates at 0 or 1
	// and the consideration scores the same whatever the fact; hysteresis then
	// cannot hold a choice that flips on every think. Set the Range that
	// normalises the fact (utility.Range{Min: 0, Max: 100}), or utility.Unit to
	// clamp knowingly. Counted too for a utility.State kept in a component of the
	// program's own (see CauseUtilityFactWrongType for where Diagnose looks).
	// Counted once the agent has decided.
	CauseUtilityInputOutOfRange
	// CausePathUnreachable: a Path that PathQueue answered PathUnreachable for a
	// passable goal cell the agent's intent still aims at (its Intent.Move goal,
	// or the cell of the target or point it pursues), wide enough for its
	// radius: walls (a closed door, a sealed room) cut the goal off from the
	// agent, and PathFollow seeks it in a straight line, so the agent presses
	// against the wall nearest it until its intent changes. Not a fault of
	// setup, but a decision that never reacts to it: have the tree test
	// Path.State (a Condition on PathUnreachable) and pick another goal, or
	// give up the move. Goals off the grid, blocked or too narrow are counted
	// as CausePathGoal, CauseGoalUnusable or CausePathGoalNarrow instead.
	// For a wide agent whose goal a small one would reach (only gaps narrower
	// than its disc needs lie between: a gap of k cells passes radii up to
	// ⌈k/2⌉ − 0.5), the note says so and how wide a gap it needs; on its
	// straight seek it may still slip through a gap its disc fits (a radius
	// of 0.8 through 2 cells) that routes, kept to cell centres, refuse.
	CausePathUnreachable
	// CauseFlowFollowerWideSector: a FlowFollower whose Kinematics.Radius is
	// over 0.5 cells served by a FlowField in sector mode (Sectors > 0), on a
	// grid with a blocked cell. Sector fields are built for point agents only:
	// one field per goal serves every radius and leads through any gap the
	// agent's centre fits through, so the wide agent is led into gaps narrower
	// than its disc (Movement collides the centre: it squeezes through with
	// its disc over the walls, or a few such agents jam there). Use whole-grid
	// fields (Sectors 0), which serve each clearance its own field, or a
	// Mover (the PathQueue searches with the agent's clearance), or a radius
	// of at most 0.5.
	CauseFlowFollowerWideSector
	// CauseBlackboardKeyUnwritten: a Brain whose tree reads, through an input
	// port, a blackboard key that nothing sets (bt.Tree.UnwrittenKey): an input
	// port of a tree loaded from the registry declared it, no output port,
	// SetBlackboard, queue port or script of the registry's trees binds it, and
	// the agent's store holds no value for it. Most often a misspelt key
	// ("{target_postion}" for "{target_position}"): the tree loads, and the
	// node reading it fails, or acts without its input, on every tick. The
	// report's example names the key. Fix the spelling, or, for a key the
	// program sets itself, declare it in the registry's schema and set it.
	// Also a UtilityBrain that has decided and whose reasoner reads, through a
	// utility.KeyInput (utility.Reasoner.Keys), a key of its Blackboard's schema
	// that no store of that schema in the world has ever held (its sequence
	// number is 0 and it has no value in every Blackboard's store): the key
	// reads NaN, so its consideration scores 0 and vetoes the action for every
	// agent. Most often the system or code that sets the key is missing, or a
	// key was declared twice under two names. The well-known perception keys
	// are not checked while a Perception system runs (it writes the target's
	// keys only while a foe is in sight); a key the program writes only on a
	// rare event is reported until the first one. Likewise a utility.State kept in a
	// component of the program's own (a hybrid.UtilitySelector's) that has decided, its
	// reasoner (utility.State.Reasoner) reading such a key of its agent's Blackboard:
	// the note names the field and the node, tree and state deciding with it
	// (hybrid.SelectorAt; Diagnose calls the agent's UtilitySelectors' state functions);
	// a State whose node now decides with another reasoner is not counted.
	CauseBlackboardKeyUnwritten
	// CauseStateReentered: a StateMachine whose Memory.Reentries is
	// [ReentryLimit] or more: by each of its last transitions, with no update
	// between them that stayed (a guard row and an Update hook that both bounce
	// count two in one update), the machine left its active state and entered
	// it again, or went back to the state it had just left (Enter and Exit hooks run every update, Memory.Elapsed stays 0, so a
	// guard "after 5 s in this state" never fires). The cause is a transition
	// row from the state to itself or to one of its ancestors whose guard goes
	// on holding once taken (UML's external self-transition, which fsm keeps),
	// or two rows A→B and B→A whose guards both hold. The example names the state. Give the
	// row a guard that is false once taken (or an event), or, to switch between
	// substates, a row from the parent to the substate, which is local and
	// skipped while the substate is active (see fsm.Machine). The note reads
	// Memory against the agent's current Machine: after StateMachine.Machine is
	// swapped for another machine of the same name (whose StateIDs carry the
	// same tag, so nothing can tell them apart, see FSM.Swapped), a report
	// before the machine leaves the state names the new machine's state of
	// that index (TestStateReenteredAfterSwapToMachineOfOneName). Give each
	// machine a name of its own, or call the old one's Stop before the swap.
	CauseStateReentered
	// CauseStepTooLong: an agent with a separation force (SteeringWeights
	// Separation and SeparationRadius > 0, usable Kinematics) on a clock step
	// longer than its [SeparationStepLimit]. Steer's forces are integrated once
	// a step: separation pushes as a spring of stiffness
	// Separation·MaxForce/SeparationRadius per neighbour, and with too long a
	// step a crowd overshoots each step further than the last, so agents sent
	// to one point, or packed in a swarm, jitter at up to their top speed for
	// ever instead of coming to rest (measured: 60 default Movers at a point
	// are still within 40 s at steps up to 0.075 s and jitter at 1–4 cells/s
	// from 0.1 s). The example names the step and the limit. Step the clock
	// at most the limit (run the world at 20 Hz or more), or soften the
	// separation (a lower weight or MaxForce, a wider radius).
	CauseStepTooLong
	// CauseSpeedFactor: an agent asked to move (Intent.Move, or a flee, pursue
	// or evade mode) whose Intent.SpeedFactor is outside (0, 1] and not 0: NaN,
	// infinite, negative, or over 1 (most often a percentage, 50 for half speed).
	// PathFollow reads such a factor as 1, so the agent moves at full speed. The
	// example names the factor. Give a fraction of Kinematics.MaxSpeed (0.5 for
	// half speed), or 0 for full speed; a faster agent needs a higher MaxSpeed.
	CauseSpeedFactor
	// CauseFlowFollowerSpacing: a FlowFollower whose disc is wider than its
	// FlowField's Spacing by more than a fifth (2·Kinematics.Radius >
	// 1.2·Spacing: a radius of 0.45 cells or more with a Spacing of 0.75; a Spacing
	// left at 0 is automatic, fits the widest follower and is never counted).
	// The arrival rule packs the agents gathered at a goal at one per Spacing²
	// cells, which such agents cannot reach: the disk of arrived agents stays
	// smaller than the crowd, and the agents outside it keep pressing towards
	// the goal for good (measured: 20 followers of radius 1 at one goal in an
	// open room, 18 not arrived and 14 still moving at up to 0.4 cells/s after
	// 60 s; of radius 0.5, 11 not arrived). Set FlowField.Spacing to at least
	// the widest follower's diameter (then all 20 rest), or use smaller radii.
	CauseFlowFollowerSpacing
	// CauseDecisionStarved: an agent due to think (see [Due]) and left
	// waiting by the Budget of the decision system that runs its decision
	// component (Decision, Utility or FSM), while that budget has left agents
	// waiting (its Waiting > 0) on every frame for [DecisionWaitLong] seconds
	// or more: it never catches up with the agents due, so they think at
	// Budget agents a frame among them instead of at their Think.Interval,
	// each waiting frames past its time on every think. Nothing else shows it
	// but the system's Waiting. The example's note names the system, its
	// Budget and Waiting, the longest any counted agent has been due and how
	// long the backlog has lasted. The fix: raise the system's Budget to at
	// least agents × frame step / Think.Interval, or lower the cadence (a
	// longer Think.Interval, or LOD levels for far agents). A frozen agent
	// (Think.Frozen) is never due, so not counted.
	CauseDecisionStarved
	// CauseDecisionModels: an agent with more than one decision model ready
	// to run: two or more of a Brain with a Tree, a UtilityBrain with a
	// Reasoner, a StateMachine with a Machine, and an HTNPlanner or
	// GOAPPlanner whose domain the world's registry holds. Their systems
	// share the agent's Think: the first to run in a frame thinks and moves
	// Think.Next on, so the others find it not due and never decide for it
	// (a Brain and a UtilityBrain under Decision then Utility: the reasoner
	// never runs). Give each agent one model; for a hybrid, run one inside
	// the other (package ai/hybrid).
	CauseDecisionModels
	// CauseBlackboardShared: a Blackboard whose Store is the same store as
	// another agent's: a components.Blackboard copied from a template (one
	// {Store: schema.NewStore()} given to many agents) rather than made for
	// each (the Thinker bundle makes one per agent). The agents read and write
	// each other's facts (what one remembers, the others find done; the
	// perception keys Perception writes for one, the others read as theirs),
	// and with several workers their writes race. Every agent of such a group
	// but the first met counts.
	CauseBlackboardShared
	// CauseDownedStillActing: an agent that is down (a Health whose Current is ≤ 0)
	// and still acts: its decision component is still run (a Brain with a Tree, a
	// UtilityBrain with a Reasoner, a StateMachine with a Machine, an HTN or GOAP
	// planner, with a Think not Frozen, by its decision system), its Intent asks to
	// move (Move, or a flee, pursue or evade mode) or to strike (Attack), or it has a
	// Wanderer or FlowFollower, which moves it whatever its Intent (an intruder
	// spawned with the Wanderer and Target bundles wanders on when struck down, and
	// foes whose Perception still shows it chase it for good). Nothing in
	// archai stops a downed agent but [Combat], which refuses its strikes: it goes on
	// choosing targets, walking and chasing, and a tree that reads its foe from
	// Perception keeps a downed foe as its target. The example's note says what it
	// does. Handle the downed after Combat (its Downed lists them): remove them
	// (Commands.RemoveEntity, after Spawner.Recycle to keep their buffers), respawn
	// them (Spawner.Respawn), or take their decision component away (or set
	// Think.Frozen, for an agent without a LOD) and clear their Intent. A Health
	// left at its zero value on an agent that decides (a component added and never
	// set) is counted too: Combat takes such an attacker for downed. An agent that
	// Combat brought down in the current frame (in Combat.Downed, written at the
	// Clock's frame) is not counted in that frame: a check after Combat comes before
	// the scenario's turn to handle it; from the next frame on it is.
	CauseDownedStillActing
	// CauseUtilityFlipFlop: a UtilityBrain whose choice is flip-flopping now
	// (utility.State.FlipFlopping at the world clock's Time): it made a flip-flop
	// within the last [utility.FlipWindow] (2 s) of simulation time. A flip-flop is
	// [utility.FlipLimit]+1 (5) changes of choice back and forth between the same two
	// actions (A→B→A→B→A→B) within FlipWindow: a choice turning back every 0.5 s or
	// faster, because the two actions' scores cross and cross again, or a
	// consideration jumps at a threshold its input hovers about, so the agent turns
	// back before it gets anywhere. A choice changing as the world does (a defender
	// that kills a target, guards, and shoots the next every second or more slowly) is
	// not counted, and an agent stops being counted once it has gone FlipWindow without
	// a flip-flop (utility.State.FlipFlops keeps counting them since the State was
	// made). The zero utility.Policy has no hysteresis: set Policy.Hysteresis
	// (utility.Policy{}.WithHysteresis(0.15)), so a challenger must beat the current
	// choice by that margin, or raise it. The example's note names the two actions
	// and the hysteresis. Without a clock resource, each State is judged at its own
	// last decision. The mirror of CauseStateReentered for utility AI.
	CauseUtilityFlipFlop
	// CauseUtilityNoRand: a UtilityBrain whose reasoner picks at random (a Softmax
	// policy of Temperature above 0, or TopN) on an agent without a Rand: Utility
	// has no random source to draw from and picks like Argmax, so the weighted
	// random choice the designer asked for never happens (two actions scoring 0.5
	// and 0.45 under Softmax(0.1): the first every time instead of about 62% of the
	// time). The example's note names the reasoner and its policy. Give the agent a
	// components.Rand (the Thinker bundle does), or use an Argmax policy knowingly.
	// The mirror of CauseWanderNoRand for utility AI.
	CauseUtilityNoRand
	// CauseTargetUnset: an Intent fleeing, pursuing or evading (Mode IntentFlee,
	// IntentPursue or IntentEvade) the zero Target with Point exactly (0, 0), the zero
	// r2.Vec: most often a target not set yet (the Mode set before the order naming the
	// target arrived, or a Perception.Target copied while not Visible). The zero Target
	// means Point, so the agent chases, flees or evades the grid's corner. A point meant
	// for the corner cell is its centre, (0.5, 0.5), which is not counted; a dead Target
	// is no target (the agent brakes) and is not counted either. The mirror of
	// CauseGoalUnset for the modes with a target.
	CauseTargetUnset
	// CauseHeldOffGoal: an agent sent to a goal (Intent.Move, Mode IntentGo), found
	// stuck short of it (its components.Progress.Stuck: it has not moved StuckDistance
	// cells for StuckTime seconds; an agent without a Progress is not checked), nearly
	// at rest (its speed at most a twentieth of its MaxSpeed), farther from the goal
	// than its radius plus half a cell, and not settled (Desired not DesiredHold),
	// while agents at rest lie within its SeparationRadius (Separation > 0) and none
	// of the agents within it has a disc within 0.25 cells of its own: nothing
	// touches it, so it is no crowd's member waiting its turn; its separation alone
	// holds it off its goal, for good, and nothing else reports it. The typical case
	// is a wide unit's default SeparationRadius (3·Radius: 4.5 cells for a tank of
	// radius 1.5) sent where small units are parked: it stops where their discs are
	// cells from its own (measured: 3.1 cells short, the nearest disc 1.5 cells from
	// its own). An agent whose goal is unusable (CauseGoalUnusable: off the grid
	// or in a wall), or whose Path found no route (PathUnreachable, counted as
	// CausePathUnreachable or CausePathGoalNarrow), is not counted: it rests short
	// of that goal whatever its separation. The example's note names the distance to the goal, the nearest
	// neighbour's gap (disc to disc), the SeparationRadius and the fix: a
	// SeparationRadius of at most its radius plus its neighbours' plus 0.25 cells
	// (separation then parts only discs about to touch; Motion{Radius: 1.5,
	// SeparationRadius: 2.25} reached within a radius of that goal), or a goal at a
	// free spot. Checked only for agents in the [Neighbours] resource (a world with
	// [Spatial]).
	CauseHeldOffGoal
	// CauseIntentFlipFlop: an agent whose Intent is flip-flopping now: its brain
	// (a behavior tree, a state machine, an HTN or GOAP plan, a utility action's Act)
	// made a flip-flop within the last [utility.FlipWindow] (2 s) of simulation time,
	// [utility.FlipLimit] (4) changes of its Intent in a row, each back to the Intent
	// the change before it left (A→B→A→B→A), the first and the last within
	// FlipWindow, counted by its decision system at each think (marks kept in the
	// agent's Think), as utility.State counts a reasoner's choices. Intents are compared by
	// what they ask the movement pipeline for: the mode, a Move's Goal, the Target or
	// Point, exactly (a goal that follows a moving target is a new goal every think,
	// never a change back). The typical case is a condition that its own action
	// undoes: bt.ReactiveSequence(hunger > 70, GoTo food, Eat), where Eating lowers
	// hunger, gives up Eat the moment it works and walks off, and starts again a
	// think later (a newcomer's colony: 103 of 170 colonists crowding the food for 5
	// minutes, nobody ever sleeping, and nothing reported it). The fix is
	// hysteresis: two thresholds (start above 70, keep on until below 30: a
	// blackboard flag the condition sets and the action clears), or the action
	// under a plain bt.Sequence so it finishes once begun. The example's note
	// advises for the kind of brain the system runs: for a tree (Decision), the
	// above; for a utility reasoner (Utility), a selection hysteresis
	// (utility.Policy{}.WithHysteresis(0.15)) and an Act kept on to a second
	// threshold; for a state machine (FSM), a transition back taken only past a
	// margin beyond the way in; for a planner (HTN, GOAP), a sensed fact written
	// with two thresholds. With any brain, a note whose Intents are goals (or
	// standing) also names the commonest cause: an action that counts its goal
	// reached within 1 cell, pushed out past 1 cell by separation, sets off again;
	// give arrival a tolerance larger than the push (1.5 cells to leave, 1 to
	// arrive). With any brain, a note whose two Intents differ only in their target
	// entity (pursue one foe, then another: Perception.Target copied at each think
	// alternating between two foes at about the same distance, as it does with a
	// zero components.Perception.TargetMargin) advises keeping the current target
	// while it stays in sight and switching only to one nearer by a margin (a
	// TargetMargin, 1 cell as the Combatant bundle sets), in place of the above. An agent also counted under CauseUtilityFlipFlop is not counted
	// again. The example's note names the two Intents, the flip-flops and the
	// system. Counting starts at an agent's
	// first think after Initialize or a load (not saved); an agent stops being
	// counted once it has gone FlipWindow without a flip-flop.
	CauseIntentFlipFlop
	// CausePerceptionKeyWrongType: a Perception on an agent whose Blackboard's
	// Store is of a schema that declares a well-known perception key
	// ([KeyTarget], [KeyTargetVisible], ...) with another type than Perception
	// writes it as (target_visible as an int, not a bool): Perception never writes
	// that key (it sets Perception.KeyError, which nothing else shows), so a tree
	// reading it never sees a foe. The example's note names each such key, the
	// type declared and the type wanted. Declare the key with its type, or call
	// [DeclarePerceptionKeys] on the schema before declaring the program's own keys.
	CausePerceptionKeyWrongType
	// CauseFlowUnreachable: a FlowFollower standing (Steer false, not Arrived)
	// on a passable cell from which the complete, current field of its goal has
	// no route to it (the field's Next is false there: flowfield.Field.Integration
	// is +Inf): walls cut it off, a door closed by a grid edit, or it was spawned
	// in a walled-off pocket. FlowField leaves it standing where it is
	// (Steer false: PathFollow gives it no Desired and Steer brakes it), without
	// walking into the walls, until a way opens (its field is rebuilt and it
	// samples again) or its Goal changes. Counted once it stands: for
	// FlowField.Hold frames after the grid edit that cut it off it keeps its
	// last Aim (Held) and is not counted, so a door that flickers is not
	// reported. Not a fault of setup, but a swarm its program should see: give
	// it a goal it reaches (grid.Connected(its cell, goal)), or open a way.
	// Whole-grid fields are read as the FlowField's last Update served them
	// (not while stale, their rebuild under way: see Report.FlowBehind); sector
	// fields by their Integration (+Inf where no portal route leads; not while
	// stale, the grid edited since FlowField last ran). Not
	// counted: followers whose Intent moves them some other way (a Move with a
	// finite goal, flee, evade, pursue), a Goal off the grid or blocked
	// (CauseFlowGoal), a cell blocked or off the grid (CauseBlocked,
	// CauseOffGrid), and, with whole-grid fields, wide followers that a point
	// follower in their cell would reach the goal from (CauseFlowFollowerWide:
	// walls that cut off any follower, a door closed, count here whatever its
	// width). A Goal of cell (0, 0) is a goal as any other.
	CauseFlowUnreachable
	// CauseWeaponCooldownLong: a Weapon whose Cooldown is over [MaxWeaponCooldown]
	// (60 s). A Cooldown is in seconds of simulation time, and one over a minute is
	// most likely milliseconds (Cooldown 500 meant half a second, and the agent
	// strikes once every 8 minutes 20 s, so it seems never to fight back). The note
	// gives the value and its reading in milliseconds. Reported, not refused: a
	// cooldown of a minute or less is taken as meant.
	CauseWeaponCooldownLong
	// CauseWeaponInvalid: a Weapon whose Damage is NaN, infinite or negative (a NaN
	// makes the target's Health NaN, a negative one heals it), whose Range is NaN or
	// negative (no strike ever lands) or infinite (strikes across the map), or whose
	// Cooldown is NaN, negative (Combat reads both as no cooldown: every request
	// strikes) or +Inf (one strike, then never again). The note names the field and
	// its value. Damage 0 and Cooldown 0 are usable (no harm, no cooldown).
	CauseWeaponInvalid
	// CauseNoLODComponent: an agent with a Position and a Think while a [LOD] system
	// runs (initialized, not finalized) and no agent with a Position and a Think
	// has a components.LOD (one without a Position is not served either): the
	// system sets the level of detail of agents with one only, so it does nothing
	// (LOD.Counts stays at 0), and every agent thinks at its
	// Thinker's rate wherever it is. No bundle adds a LOD: spawn the agents with
	// systems.With(components.LOD{}) beside their Thinker. Some agents with a LOD
	// and some without is not counted: an agent without one opts out (a boss, a
	// player's companion that must always think at its own rate).
	CauseNoLODComponent
	// CauseBlockedByAgents: an agent sent to a goal (Intent.Move, Mode IntentGo),
	// not settled (Desired not DesiredHold) and farther from its goal than its
	// radius plus half a cell, that has made no progress for [BlockedSpan] (20 s) of
	// simulation time or more (its components.Progress: Stuck, not having moved
	// StuckDistance cells in any StuckTime window since Progress.StuckSince; an agent
	// without a Progress is not checked) while another agent's disc touches its own
	// (within 0.25 cells): other agents are in its way and it in theirs, for good.
	// The typical case is head-on traffic in a passage too narrow for two to pass
	// (a corridor narrower than two diameters: with ORCA nobody gets through, with
	// separation some squeeze through overlapping and the rest stay). Agents queueing
	// at a door move up as the queue does and are not counted; agents arrived and
	// holding at a crowded goal (DesiredHold) or standing by intent neither. Not
	// counted either when another cause explains it: a goal unusable or unreachable
	// (CauseGoalUnusable, CausePathUnreachable, CausePathGoalNarrow) or separation
	// holding it off (CauseHeldOffGoal, where no disc touches), or its Path
	// pending (it seeks its goal straight while it waits for the queue, into
	// any wall: a long wait is Report.PathsWaitingLong). The example's note
	// names the seconds without progress, the distance to its goal, the agents
	// touching it and the passage's width at its cell; the fix is one-way traffic
	// (or a lane each way), a passage at least two diameters wide, a waiting
	// behaviour (a decision that backs off to a siding and waits when Progress.Stuck),
	// or priorities (one side gives way). Checked only for agents in the
	// [Neighbours] resource (a world with [Spatial]).
	//
	// Flow followers (a FlowFollower and no move intent, served by a [FlowField],
	// whole-grid or sector fields) are counted too: one following its field (Has,
	// not Arrived, Steer) whose cell's integration value (its route's cost to its
	// goal along the field) has not fallen by a cell's least cost below the value it
	// had when its run began for BlockedSpan or more (FlowFollower.ProgressCost and
	// ProgressCheck, which FlowField checks every [FlowProgressPeriod], 0.5 s; being
	// shoved back does not restart the run, a grid edit that lengthens its route
	// does), farther from its goal along the field than the rim of the crowd
	// gathering there (a disk holding all its field's followers at one per 2·Spacing²
	// cells, plus 2.5 Spacings: one pressing on the crowd at its goal is not counted;
	// Important: nor is one jammed within that rim, which could not be told from it),
	// while the discs of
	// agents in front of it (their centres beyond it towards its Aim), agents at rest
	// at its goal not counted, touch its own: a swarm jammed at a gap or in a corridor
	// too narrow for its numbers. Its note says "a flow follower" and names the
	// seconds, the distance to its goal, the agents in front touching it and the
	// passage's width; the fix is a wider gap or another way, goals whose routes
	// differ for parts of the swarm, or smaller waves. Measured: 400 followers (radius
	// 0.3, ORCA) at a corridor 1 cell wide and 8 long drain about one a second; at 60 s
	// 204 of the 342 still before it are counted (303 of 358 with sectors of 8 cells);
	// through a door 12 cells wide, none, nor once at rest around the goal.
	CauseBlockedByAgents
	// CauseTreeTimerLong: a Brain whose tree has a timer node (Wait, Sleep, Delay,
	// Timeout, Cooldown; bt.Tree.LongestTimer) lasting over [MaxTreeTimer] (600 s). Tree
	// durations are seconds of simulation time (a file's seconds port, or msec), and one
	// over ten minutes is most likely milliseconds written for seconds (<Cooldown
	// seconds="5000"> meant 5 s: the branch runs once every 83 minutes, so it seems never
	// to run again). The note names the node, its duration and what to write for
	// milliseconds. Reported, not refused: the tree loads and runs as written.
	// Also a StateMachine whose machine has such a tree in a state (an Activity
	// that is a *bt.Tree, as hybrid.TreeState sets): the note names the state too.
	CauseTreeTimerLong
	// CauseAttackingDowned: an agent whose Intent has gone on attacking (Intent.Attack)
	// or, armed with a Weapon, pursuing (Mode IntentPursue, Intent.Target) a target
	// that is down (a Health whose Current is ≤ 0) or removed from the world, at every
	// check for [DownedTargetSpan] (2 s) of simulation time or more (from one fallen
	// target to another alike; a live target in between ends the count), and that has thought
	// since the first of those checks (its decision saw the target down and kept it).
	// Perception ignores Health (a downed foe stays in sight and may stay its
	// Perception.Target) and Combat refuses strikes at a downed target, so a decision
	// whose guard or condition tests only that a foe is visible (Perception.Visible)
	// attacks the fallen foe for good, and nothing else reports it: the agent is
	// well set up, it only never moves on (a newcomer's four units stood in
	// Busy/Attack over a foe at 0 health for 40 s). A pursuit of a downed agent of its
	// own team (Faction.Team equal: a medic, a bearer) is not counted, nor an agent
	// itself down (CauseDownedStillActing), nor a Frozen one. The example's note names
	// the target, for how long, and the fix: test the target's Health in the guard or
	// condition that keeps the attack, or handle Combat.Downed (remove the downed,
	// respawn them, or disarm them and clear their Intent). Combat clears Intent.Attack
	// in its Update, so between frames an attack is seen by its pursuit, or by an Attack
	// set after Combat ran. Timed by the world's clock (not counted without a usable
	// one) from the first check that found the agent so: the evidence is kept in the
	// world across checks, by the [Diagnostics] system's and by Diagnose calls alike
	// (a first Diagnose call sees none), and saved with a Diagnostics' state.
	CauseAttackingDowned
	// CauseUtilityInputNaN: a UtilityBrain whose last decision read a NaN from a
	// consideration's Input (utility.State.NaNInputs > 0): an Input of the program's own
	// that returned NaN, most often a division 0/0 (food per head with an empty store
	// and no people), a NaN field or math.Log of a negative. A NaN input scores 0,
	// whatever its Range and Curve, so it vetoes its action in a product (Compensated,
	// Product, or a WeightedSum consideration with Veto) for as long as it lasts, and
	// nothing else shows it. The example's note names the reasoner, the action, the
	// consideration and the number of NaN inputs, and the fix: make the Input return a
	// number in that case (if s.People == 0 { return 0 }), or, to veto on purpose, a
	// value its Range and Curve score 0. Not counted here: the inputs that cannot read
	// the agent (CauseUtilityFactWrongType) or find no blackboard
	// (CauseBlackboardMissing), a utility.KeyInput of a key not set (a designer's veto;
	// a key never written is CauseBlackboardKeyUnwritten), and ±Inf inputs (clamped
	// under a Range; under the zero Range, CauseUtilityInputOutOfRange). Read at the
	// agent's last decision, so a NaN of a moment is counted while it lasts. Counted too
	// for a utility.State kept in a component of the program's own (see
	// CauseUtilityFactWrongType for where Diagnose looks).
	CauseUtilityInputNaN

	// CauseAttackingAlly: an agent whose strike the latest [Combat] Update refused
	// because its target was of its own team (both have a components.Faction with the
	// same Team) while Combat.FriendlyFire is off: its decision asked Intent.Attack
	// of an ally, most often one that picks "the nearest agent" or a remembered
	// entity rather than the nearest foe (Perception picks foes only). The note
	// names the target and its team, and the fix: test the target's Faction in the
	// decision (Agent.Get of components.Faction), or set Combat.FriendlyFire if
	// strikes on allies are meant. Read from the world's Combat (counted only while
	// one is installed, from its latest Update, which a save holds:
	// CombatState.AlliesAttacked).
	CauseAttackingAlly

	// CauseHeldFarFromGoal: an agent sent to a goal (Intent.Move, Mode IntentGo)
	// that holds (Desired DesiredHold: PathFollow settled it with its crowd) at rest
	// (its speed at most a twentieth of its MaxSpeed) farther from its goal than the
	// room all the agents sent to that goal need, plus its diameter and a cell: the
	// room is the disc about the goal whose open cells (counted by their centres,
	// walls between them and the goal not looked at) would hold every agent sent
	// there (Intent.Goal the same point, bit for bit) at a quarter of their area,
	// sqrt(Σr²/0.25) cells on an open plane (10.7 for 80 agents of radius 0.6),
	// more where walls or the grid's edge take part of it. There is room nearer,
	// and the agent stopped where it met others of its group: a newcomer's 80
	// Movers of radius 0.6 sent through a 6-cell gap settled in a queue back
	// through it, 43 of them more than 12 cells from the goal (up to 27.7), two
	// in the gap, and nothing reported it. An agent whose goal is unusable,
	// unreachable or too narrow for its disc is not counted (those causes explain
	// it). The note names the distance, the room's radius and the agents sent
	// there; the fix is goals spread over the room about the point (a formation),
	// or a new order. Checked once per check only for the holders at rest;
	// only when there are any does it look at every agent's goal again.
	CauseHeldFarFromGoal

	// CauseModeInvalid: an agent whose Intent.Mode is past IntentEvade, Desired.Mode
	// past DesiredHold or Path.State past PathUnreachable: no constant of its type (a
	// value written by hand, or cast from a number of the program's own). Nothing
	// else shows it: PathFollow takes such an Intent.Mode as no move intent (the
	// agent brakes, or wanders, rather than walk to its Goal or along its flow
	// field), Steer brakes an agent with such a Desired.Mode, PathFollow reads and
	// sets such a Path.State as PathNone; and systems/save's Save and Load refuse
	// the world. The note names the field and its value (the first of the three
	// found, in that order) and the constants it may hold.
	CauseModeInvalid

	// NumCauses is the number of causes.
	NumCauses
)

var causeNames = [NumCauses]string{
	CauseThinkMissing:         "think_missing",
	CauseDecisionIncomplete:   "decision_incomplete",
	CauseBrainEmpty:           "brain_empty",
	CauseThinkInvalid:         "think_invalid",
	CauseSteerIncomplete:      "steer_incomplete",
	CauseWeightsMissing:       "weights_missing",
	CauseWeightsInvalid:       "weights_invalid",
	CauseWanderInvalid:        "wander_invalid",
	CauseWanderNoRand:         "wander_no_rand",
	CauseMoveWithoutPath:      "move_without_path",
	CauseKinematics:           "kinematics_invalid",
	CausePosition:             "position_not_finite",
	CauseVelocity:             "velocity_not_finite",
	CauseGoal:                 "goal_not_finite",
	CauseBlocked:              "in_blocked_cell",
	CauseOffGrid:              "off_grid",
	CausePathGoal:             "path_goal_unusable",
	CauseFlowGoal:             "flow_goal_unusable",
	CausePerceptionIncomplete: "perception_incomplete",
	CauseBlackboardMissing:    "blackboard_missing",
	CauseGoalUnusable:         "goal_unusable",
	CauseNoDecisionSystem:     "no_decision_system",
	CauseNoPerceptionSystem:   "no_perception_system",
	CauseNoPathQueue:          "no_path_queue",
	CauseNoFlowFieldSystem:    "no_flowfield_system",
	CauseNoSteerSystem:        "no_steer_system",
	CauseNoMovementSystem:     "no_movement_system",
	CauseNoPathFollowSystem:   "no_pathfollow_system",
	CauseORCAInvalid:          "orca_invalid",
	CauseNoORCASystem:         "no_orca_system",
	CausePlannerDomain:        "planner_domain_unknown",
	CausePathGoalNarrow:       "path_goal_too_narrow",
	CausePathNotQueued:        "path_not_queued",
	CauseUtilityFactWrongType: "utility_fact_wrong_type",
	CauseTargetUnusable:       "target_unusable",
	CauseThinkIntervalLong:    "think_interval_too_long",
	CauseNoCombatSystem:       "no_combat_system",
	CauseNoLODSystem:          "no_lod_system",
	CauseORCAHorizonLong:      "orca_horizon_too_long",
	CauseORCANeighboursMany:   "orca_too_many_neighbours",
	CausePlannerDomainError:   "planner_domain_error",

	CausePerceptionAfterDecision: "perception_after_decision",
	CauseMemoryShared:            "brain_memory_shared",
	CauseGoalUnset:               "goal_unset",
	CauseFlowFollowerWide:        "flow_follower_wide",
	CauseFlowFollowerWideSector:  "flow_follower_wide_sector",
	CauseUtilityInputOutOfRange:  "utility_input_out_of_range",
	CausePathUnreachable:         "path_unreachable",
	CauseBlackboardKeyUnwritten:  "blackboard_key_unwritten",
	CauseStateReentered:          "state_reentered",
	CauseStepTooLong:             "step_too_long",
	CauseSpeedFactor:             "speed_factor_invalid",
	CauseFlowFollowerSpacing:     "flow_follower_spacing",
	CauseDecisionStarved:         "decision_starved",
	CauseDecisionModels:          "decision_models_too_many",
	CauseBlackboardShared:        "blackboard_shared",
	CauseDownedStillActing:       "downed_still_acting",
	CauseUtilityFlipFlop:         "utility_flip_flop",
	CauseUtilityNoRand:           "utility_no_rand",
	CauseTargetUnset:             "target_unset",
	CauseHeldOffGoal:             "held_off_goal",
	CauseIntentFlipFlop:          "intent_flip_flop",
	CausePerceptionKeyWrongType:  "perception_key_wrong_type",
	CauseFlowUnreachable:         "flow_unreachable",
	CauseWeaponCooldownLong:      "weapon_cooldown_too_long",
	CauseWeaponInvalid:           "weapon_invalid",
	CauseNoLODComponent:          "no_lod_component",
	CauseBlockedByAgents:         "blocked_by_agents",
	CauseTreeTimerLong:           "tree_timer_too_long",
	CauseAttackingDowned:         "attacking_downed",
	CauseAttackingAlly:           "attacking_ally",
	CauseUtilityInputNaN:         "utility_input_nan",
	CauseHeldFarFromGoal:         "held_far_from_goal",
	CauseModeInvalid:             "mode_invalid",
}

// DecisionWaitLong is how long, in seconds of simulation time (frames × the clock's
// DT), a decision system's Budget may leave agents waiting on every frame before
// [Diagnose] counts the agents due under CauseDecisionStarved.
const DecisionWaitLong = 2.0

// ReentryLimit is the number of consecutive transitions, each re-entering the state
// it left (fsm.Memory.Reentries: counted per transition, so one update may add more
// than one), from which [Diagnose] counts a StateMachine under CauseStateReentered. A row that restarts a state now and then stays below it.
const ReentryLimit = 4

// String returns the cause's name in snake case, as used in cmd/bench's JSON
// ("wander_no_rand"), or "cause(n)" for a value out of range.
func (c Cause) String() string {
	if c < NumCauses {
		return causeNames[c]
	}
	return fmt.Sprintf("cause(%d)", uint8(c))
}

// Report is what [Diagnose] found: per cause, the number of agents with it
// and one of them as an example (the first in Arche's query order).
//
// The zero Report is no check's: it is what [Diagnostics].Report holds until
// its first check ends (and after a load until the next). [Report.Checked]
// tells it apart from the Report of a check that found nothing, and its String
// says "diagnostics: not checked yet (...)", not "no misconfiguration".
type Report struct {
	// Agents counts the entities examined: those with a Position but the focus
	// points that are no agent (a components.Focus and no archai component besides
	// the Position: a camera, which LOD reads and nothing moves or thinks for),
	// and those without a Position, or such focus points, that are misconfigured (a
	// decision component, a Path or a steering component on an entity without a
	// Position; a focus point's NaN Position), so that Misconfigured is never more
	// than Agents. An entity with a Position and only components of the program's
	// own is counted (archai cannot tell what it is).
	Agents        int
	Misconfigured int                     // distinct entities with at least one cause
	Counts        [NumCauses]int          // agents per cause
	Examples      [NumCauses]arche.Entity // one agent per cause; the zero Entity where Counts is 0

	// Twice names the archai systems installed more than once: initialized in the
	// world two or more times and not finalized since (the same system added twice to
	// a schedule, or two values of one system type). Each copy runs every frame, so
	// the work is done twice: two Movements move every agent twice as far a frame,
	// two Decisions think twice as often. Names are the systems' Name() ("movement"),
	// in schedule order (of their last Initialize), with "clock" first for two
	// ecs.ClockSystems (see ecs.LiveClockSystems: each advances the clock a frame;
	// the clocked systems need one before them); nil if none. Finalize a schedule before initializing another
	// on the same world, or its systems count as installed still. The slice is the
	// holder's: a later check of the [Diagnostics] system never changes it (it hands
	// out the same slice again while the names are the same).
	Twice []string

	// Replaced names the resources the world's archai systems were initialized with
	// (and not finalized since) that the world no longer holds: removed, or replaced
	// by another value, "*grid.Grid" or "*ecs.Clock" (and, with an HTN or GOAP system,
	// "*htn.Registry" or "*goap.Registry"). Each system keeps the value it
	// found at Initialize, so they run on with the old map or clock while the
	// program edits the new one (a level loaded into a running world): paths and
	// walls of the old map, a clock the program does not see advance. Finalize the
	// systems and Initialize them again after replacing a resource (or edit the map
	// in place: grid.SetCost). Each name is one finding; nil if none. The slice is
	// the holder's, as Twice's.
	Replaced []string

	// Unrestored names the systems whose saved state a world loaded by
	// systems/save (Load, LoadInto) holds, while Loaded.Restore has not been
	// called on it (see [RestorePending]): the systems run on from a fresh
	// state (the path queue's waiting requests, the decision budget's cursor,
	// the flow fields being built), so the run no longer continues as the saved
	// one would, with nothing else reported. One finding in Total; nil if none.
	// The slice is the world resource's.
	Unrestored []string

	// Order lists the pairs of archai systems (live: initialized and not
	// finalized) placed in an order that makes the second work on the first's
	// results of the last frame, each as "x before y" in schedule order (the
	// order of Initialize, which ecs.Scheduler and arche-model keep for Update):
	// "movement before steer" (Movement moves each agent by the last frame's
	// force), "steer before pathfollow" (Steer carries out the last frame's
	// Desired), "pathfollow before decision" (a decision is carried out a frame
	// late), "pathfollow before flowfield", "combat before utility", "decision
	// before lod", "perception before lod". Everything still works, a frame late,
	// and runs differ from the documented order's. The pairs checked are: LOD
	// before Perception and each decision system, each decision system before
	// Combat and PathFollow, FlowField before PathFollow, PathFollow before Steer,
	// Steer before Movement. PathQueue after PathFollow is not reported: a path
	// PathFollow asks for is followed from the same frame either way (only a
	// Path.Want set by a leaf waits a frame). Perception after a decision system
	// is worse (its agents never perceive): see [CausePerceptionAfterDecision].
	// The whole list is one finding in Total; nil if none. The slice is the
	// holder's, as Twice's.
	Order []string

	// Unjoined tells that the world's [PathQueue] has Overlap set and 2 or more
	// workers but no [PathJoin] was initialized after it: it serves in its Update,
	// with the same results and no overlap, which is most often a join left out of
	// the schedule. One finding in Total.
	Unjoined bool

	// ClockDT is the world's clock step (the *ecs.Clock resource's DT, seconds a
	// frame) when it is finite and longer than MaxDT (ClockFault is then
	// ClockDTOverMax, or ClockTimeNotFinite when such steps have run Time to
	// +Inf: ecs.NewClockSystem(math.MaxFloat64) does at its second frame, and
	// ClockDT then names the cause); 0 otherwise, and without a clock. Every system reads dt as
	// seconds, so a step of 16.7 (milliseconds passed where ecs.NewClockSystem
	// wants seconds: 1.0/60 for 60 frames a second) makes agents cover the map in
	// a frame or two and think once per 16.7 s of their timers, which nothing else
	// reports. It is always finite (JSON can carry it): an infinite or NaN step is
	// told by ClockFault alone.
	ClockDT float64

	// ClockFault is what is wrong with the world's clock, ClockUsable if nothing
	// (or the world has no clock). A fault counts as one finding in Total.
	ClockFault ClockFault

	clockDT, clockTime float64 // the faulty clock's DT and Time, for String
	clockStep          float64 // the step used in place of a DT written (ClockDTWritten)
	clockWrites        uint64  // the frames that found a DT or Time written (ClockDTWritten, ClockTimeWritten)
	diagnosed          bool    // a Diagnostics runs in the world, for Unthought's note
	checked            bool    // a check made it (see Checked); false in the zero Report

	// Unthought counts the agents with a brain (a tree, state machine, utility
	// brain or planner, and a Think) when the check ran before the world's first
	// frame (after Initialize, its Clock not started, at Frame 0 and Time 0, and
	// no decision system updated since its Initialize: a Clock the program steps
	// by hand, without an ecs.ClockSystem, is never Started, and its Frame and
	// Time tell a world re-Initialized or loaded later on): their brains have not
	// thought yet, so what they will ask (a move to a goal off the grid, a
	// SpeedFactor of 50, a move by an agent that cannot move) is not checked yet.
	// A [Diagnostics] in the frame checks it as they act. Not a finding; String
	// says so when there is none ("no misconfiguration found (before the first
	// frame: ...)").
	Unthought int

	// SystemsUnchecked tells that no archai system had been initialized in the world
	// when the check ran (Diagnose before Initialize): the checks for a missing system
	// (CauseNoPathQueue, CauseNoDecisionSystem and the other CauseNo… causes) were
	// skipped, so "no misconfiguration" says nothing about them. Not a finding.
	// Also true in a world whose only archai system initialized is a Diagnostics
	// (String says so: "no archai system initialized but a Diagnostics").
	SystemsUnchecked bool
	onlyDiagnostics  bool // SystemsUnchecked while a Diagnostics was initialized on the world: its note says so

	// ScriptErrors is the world's Decision system's Decision.ScriptErrors when not
	// 0: scripts of its trees (Script and ScriptCondition nodes, script pre- and
	// post-conditions) that failed at run time since its Initialize, most often
	// by reading a blackboard entry that is not set: a key the program declared
	// in the schema (so not CauseBlackboardKeyUnwritten) and never writes (its
	// system left out of the schedule). Each such node fails on every tick, and
	// its agents may never act. String names the last error and its node. One
	// finding in Total.
	ScriptErrors uint64

	scriptNode int   // the node (pre-order index) of the last script error
	scriptErr  error // the last script error, for String

	// BadTargets is the world's FSM system's FSM.BadTargets when not 0: Update hooks
	// that returned a StateID of no state of the agent's machine (another machine's:
	// see fsm.StateID on tags; Any, a number out of range) since its Initialize. Each transitioned nowhere and
	// the agent stayed, which nothing else shows. One finding in Total.
	BadTargets uint64

	// MachinesAlike names the pairs of different state machines (distinct
	// *fsm.Machine values, not two builds of one definition: same name, same
	// states) that the world's agents run and whose StateIDs carry one tag (see
	// fsm.StateID): two machines built under one name, or two names whose 16-bit
	// tags collide. Each takes the other's StateIDs for its own, so an Update
	// hook returning the other machine's state of an index in range moves the
	// agent to its own state of that index, uncounted in BadTargets. Each entry
	// is one finding in Total, `"guard" and "guard" (one name)` or `"alpha" and
	// "omega" (their tags collide)`, the first met of the two first; the fix is
	// to give each machine a name of its own in fsm.NewBuilder (for a collision,
	// rename either). nil if none. The slice is the holder's, as Twice's.
	MachinesAlike []string

	// GridEditedBeside counts the frames (since the PathQueue's Initialize) in which
	// the grid was edited (grid.SetCost) between a PathQueue with Overlap and its
	// PathJoin, while the queue's searches read it on their helper: a data race
	// that PathQueue's doc forbids (see Overlap there). Edit the grid before the
	// queue or after the join. One finding in Total.
	GridEditedBeside int

	// RequestsChangedBeside counts the answers (since the PathQueue's Initialize)
	// that a PathJoin could not write because a system between a PathQueue with
	// Overlap and its join removed their requester or changed its Path's request
	// (Want, Goal, State, Request): forbidden by PathQueue's doc (see Overlap
	// there). Each was dropped (PathQueue.Dropped) and its agent must ask again,
	// so results differ from a queue without Overlap. Remove agents and change
	// requests before the queue or after the join. One finding in Total.
	RequestsChangedBeside int

	// PathsWaitingLong counts the agents waiting for a path (Path.State
	// PathPending: requests of agents removed while waiting, which the queue
	// holds until it reaches them, are not counted) whose request the world's
	// [PathQueue] holds has waited PathWaitLong seconds or more since it was made (frames of the
	// queue × the clock's DT; 1/60 s a frame without a usable clock; a request
	// refiled under a moved goal keeps its age, one loaded from a save goes on
	// with the wait it had when saved: PathRequestState.Waited), and
	// PathWaitOldest is the longest wait in seconds (0 when none waits that long). The queue serves Budget node expansions a frame, one
	// search after another, so a group order (many agents, one goal across the
	// map: a long search each, one per start cell) or wide agents whose goal is
	// far round an obstacle keep the last requesters waiting for seconds while
	// nothing looks wrong. The fix: a [FlowField] for a goal many agents share
	// (one integration field serves them all), PathQueue.Options.JumpPoints
	// where PathWaitJumpPoints says it applies, or a larger PathQueue.Budget. One
	// finding in Total.
	PathsWaitingLong int
	PathWaitOldest   float64
	// PathWaitJumpPoints is set with PathsWaitingLong when the queue searches by
	// A* (Options.JumpPoints off) with Moves8 on a grid whose passable cells all
	// cost the same: jump point search would find paths as short with fewer
	// expansions (on random512-25-0.map, 2,000 random pairs: about 2,300 a search
	// on average against A*'s 15,012), so the same Budget serves about six times
	// as many searches a frame. The text then names Options.JumpPoints.
	PathWaitJumpPoints bool
	// PathWaitPriority is set with PathsWaitingLong when the request waiting
	// longest has a lower priority (PathWaitOldestPriority: its search's, the
	// highest Path.Priority of the agents sharing it) than requests served
	// while it waited or waiting beside it: the queue serves by strict
	// priority, so requests of a higher priority that keep coming starve it.
	// The text then names Path.Priority.
	PathWaitPriority       bool
	PathWaitOldestPriority int8

	// FlowBehind counts the followers of the world's [FlowField] (whole-grid
	// fields built within a Budget) whose field has been older than the grid
	// for FlowBehindLong seconds or more (frames of the FlowField × the
	// clock's DT; 1/60 s a frame without a usable clock), and FlowBehindFor
	// is how long. Each grid edit restarts the rebuild of every field in use,
	// so a grid edited more often than a field builds within Budget (a door
	// toggled every frame, a physics door) keeps the fields from ever
	// catching up: their followers follow the field from before the edits
	// and, where it has no path (the door was closed then), stand for good.
	// The fix: Budget 0 (built at once, and followers cut off by a door that
	// flickers keep their aim, see FlowField.Hold), sector fields (Sectors),
	// or a grid edited less often. One finding in Total.
	FlowBehind    int
	FlowBehindFor float64

	// FlowGoalsOver is the number of goals (FlowFollower.Goal, and the goals
	// of the fields followers still follow; a goal whose followers follow
	// different fields meanwhile counts once per field) the world's
	// [FlowField] was asked for in its last Update, when
	// they were more than its MaxFields (FlowGoalsMax; with sector fields its
	// Capacity, 8 by default, which they never grow past) in every Update for
	// FlowBehindLong seconds or more; 0 otherwise. The cache holds MaxFields fields, so the
	// followers of the goals beyond them get none (FlowGoalsWaiting, its
	// Waiting) and stand, or follow an earlier goal's field, for as long as
	// those goals stay in use: a swarm each of whose members has a goal of its
	// own (its own cell, its own target's cell) waits for good. The fix: goals
	// the followers share (one goal for the swarm, SetFlowGoal), a higher
	// MaxFields (each field costs about 13 bytes a cell), or agents with goals
	// of their own as Movers (a Path each) rather than FlowFollowers. One
	// finding in Total. It reads a count FlowField keeps per goal: it costs
	// the FlowField nothing per agent.
	FlowGoalsOver    int
	FlowGoalsMax     int // MaxFields; with sector fields, Capacity (they hold that many goals and do not grow)
	FlowGoalsWaiting int
	flowGoalsSector  bool // FlowGoalsMax is Capacity (sector fields)

	// CooldownsUntimed counts the agents whose Weapon has a Cooldown (> 0 seconds)
	// while the world runs a [Combat] system and has no *ecs.Clock resource: Combat
	// times a cooldown by the Clock's Time, so without one each such weapon strikes at
	// every request, as if it had no Cooldown (Combat.NoClock counts those strikes),
	// and agents deal damage as fast as they think. The fix: add a Clock
	// (ecs.NewClockSystem(dt) first in the schedule, or an *ecs.Clock resource the
	// program advances). Agents with a Weapon but no Intent are not counted (Combat
	// does not serve them). One finding in Total.
	CooldownsUntimed int

	notes [NumCauses]exampleNote // per cause with an example, what String says of it

	lacking [NumCauses]lackSet // per cause with an example, what the example lacks (Lacks)

	seen map[arche.Entity]struct{} // entities counted in Misconfigured, during a check

	// list, when not nil (DiagnoseAgents, during its check), collects every
	// entity counted under cause collect
	list    *[]arche.Entity
	collect Cause
}

// ClockFault is what makes the world's clock (the *ecs.Clock resource) a finding of
// [Diagnose]: a step in milliseconds, or a step or time no system can use. The
// [ecs.ClockSystem] never sets an unusable one (it refuses a bad DT at Initialize
// with an ecs.SetupError, and steps 1/60 for one set between frames, which is
// ClockDTReplaced); a program that advances its own Clock resource can. Its String is its name in snake
// case, also its JSON form.
type ClockFault uint8

// The clock faults, the first that applies in this order (a NaN DT with a NaN Time
// is ClockDTNotFinite).
const (
	// ClockUsable: no fault, or no clock.
	ClockUsable ClockFault = iota
	// ClockDTNotFinite: DT is NaN or infinite. Movement and ORCA move nobody;
	// perception and decisions run on a NaN or infinite time window.
	ClockDTNotFinite
	// ClockDTNotPositive: DT is ≤ 0 (a step backwards, or none). Movement and
	// ORCA move nobody, Steer's flow following divides by it. To pause a game,
	// stop calling Update rather than step the clock by 0.
	ClockDTNotPositive
	// ClockTimeNotFinite: Time is NaN or infinite: no agent is due to think
	// at a NaN time, every agent at each frame at +Inf, and no timer runs.
	// When DT is over MaxDT too (a step so long that Frame·DT overflowed,
	// such as math.MaxFloat64), [Report.ClockDT] holds it and the report's
	// String names it as the cause.
	ClockTimeNotFinite
	// ClockDTOverMax: DT is finite and over MaxDT, most likely milliseconds
	// given for seconds; the value is in [Report.ClockDT].
	ClockDTOverMax
	// ClockDTReplaced: the [ecs.ClockSystem]'s DT was set between frames to a
	// step ecs.CheckDT rejects (0, negative, NaN or infinite), and it steps
	// 1/60 instead (ecs.ReplacedDT): most often a DT set to 0 to pause, which
	// goes on at 1/60 s a frame, or 1/30 written with integers, which Go
	// divides to 0, so the world runs at another rate than meant (reported
	// while that DT is set; to pause, skip Update). Such a DT at Initialize is
	// an ecs.SetupError instead.
	ClockDTReplaced
	// ClockDTWritten: the program wrote the Clock resource's DT between frames
	// (ecs.ClockOf(w).DT = x) while an [ecs.ClockSystem] steps the clock, and the
	// system stepped its own DT, as it always does (ecs.IgnoredDT): the Clock's DT
	// is the step of the frame that ran, not a setting. Set the system's DT instead
	// (clockSystem.DT = x, clockSystem being the ecs.NewClockSystem value in the
	// schedule). Reported from the first such frame until the ClockSystems are
	// finalized.
	ClockDTWritten
	// ClockTimeWritten: the program wrote a started Clock's Time NaN or infinite
	// between frames, and the [ecs.ClockSystem] went on at Frame·DT (ecs.IgnoredTime).
	// A finite Time written is gone on from. Reported like ClockDTWritten.
	ClockTimeWritten

	numClockFaults
)

var clockFaultNames = [numClockFaults]string{
	ClockUsable:        "clock_usable",
	ClockDTNotFinite:   "clock_dt_not_finite",
	ClockDTNotPositive: "clock_dt_not_positive",
	ClockTimeNotFinite: "clock_time_not_finite",
	ClockDTOverMax:     "clock_dt_over_max",
	ClockDTReplaced:    "clock_dt_replaced",
	ClockDTWritten:     "clock_dt_written",
	ClockTimeWritten:   "clock_time_written",
}

// String returns the fault's name in snake case ("clock_dt_not_finite"), or
// "clock_fault(n)" for a value out of range.
func (f ClockFault) String() string {
	if f < numClockFaults {
		return clockFaultNames[f]
	}
	return fmt.Sprintf("clock_fault(%d)", uint8(f))
}

// MarshalText implements encoding.TextMarshaler: the fault's String.
func (f ClockFault) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// clockFaultOf returns the fault of clock c (nil: none).
func clockFaultOf(c *ecs.Clock) ClockFault {
	switch {
	case c == nil:
		return ClockUsable
	case math.IsNaN(c.DT) || math.IsInf(c.DT, 0):
		return ClockDTNotFinite
	case c.DT <= 0:
		return ClockDTNotPositive
	case math.IsNaN(c.Time) || math.IsInf(c.Time, 0):
		return ClockTimeNotFinite
	case c.DT > MaxDT:
		return ClockDTOverMax
	}
	return ClockUsable
}

// MaxThinkInterval is the longest think interval, in seconds, that [Diagnose] takes
// as meant: a longer Think.Interval is counted as [CauseThinkIntervalLong]. Agents
// think at a few hertz (DefaultThinkInterval 0.1 s, the far LOD level's 0.5 s), and
// some by design every few seconds; an interval over 10 s is far more often a count
// in another unit: hertz or frames (60 for 60 Hz or every 60 frames) or milliseconds
// (100 for 10 Hz). Those it does not catch are 10 or less: 10 ms (100 Hz), and
// rates of 10 Hz or less written as hertz, which cannot be told from a slow cadence.
const MaxThinkInterval = 10.0

// MaxWeaponCooldown is the longest Weapon.Cooldown, in seconds of simulation time,
// that [Diagnose] takes as meant: a longer one is counted as [CauseWeaponCooldownLong].
// Weapons strike every fraction of a second to every few seconds, and a special attack
// may wait tens of seconds; a cooldown over a minute is far more often milliseconds
// given for seconds (500 for half a second). Those it does not catch are 60 ms or less
// written as milliseconds (an attack 17 times a second or faster), and a cooldown over a
// minute that is meant is reported all the same (a finding to read, not an error).
const MaxWeaponCooldown = 60.0

// MaxTreeTimer is the longest duration of a behaviour tree's timer node (Wait, Sleep,
// Delay, Timeout, Cooldown), in seconds of simulation time, that [Diagnose] takes as
// meant: a longer one is counted as [CauseTreeTimerLong]. A tree waits, times out and
// cools down over seconds to minutes (a guard's watch, a shout at most every two
// minutes), so the limit is ten times a weapon's ([MaxWeaponCooldown]); a duration over
// ten minutes is far more often milliseconds given for seconds (5000 for 5 s). Those it
// does not catch are 600 ms or less written as milliseconds.
const MaxTreeTimer = 600.0

// MaxORCAHorizon is the longest ORCA TimeHorizon or ObstacleHorizon, in seconds,
// that [Diagnose] takes as meant: a longer one is counted as
// [CauseORCAHorizonLong]. RVO2's examples use horizons of a few seconds (the
// Avoider bundle: 2 s and 1 s); one over a minute is far more often milliseconds
// given for seconds.
const MaxORCAHorizon = 60.0

// MaxORCANeighbours is the largest ORCA MaxNeighbours that [Diagnose] takes as meant:
// a larger one is counted as [CauseORCANeighboursMany]. RVO2's examples avoid the 10
// nearest (the Avoider bundle's default); ORCA gains little from more, and each costs
// a constraint in every agent's linear program every frame.
const MaxORCANeighbours = 100

// SeparationStepLimit returns the longest clock step, in seconds, at which
// [Steer] keeps a crowd of agents with these Kinematics and SteeringWeights
// stable: 0.4·√(SeparationRadius / (Separation·MaxForce)), the step at which
// separation's spring (stiffness Separation·MaxForce/SeparationRadius per
// neighbour, in 1/s²) stays well inside the stability bound of the Euler
// step for a packed crowd; +Inf for an agent with no separation force
// (Separation or SeparationRadius not > 0) or unusable Kinematics. The
// default Mover's is 0.085 s, a FlowFollower's 0.063 s. The factor 0.4 was
// measured: 60 agents sent to one point came to rest at steps up to
// 1.2–1.6 times the limit and jittered for ever beyond about 1.4–2 times it
// (MaxForce 20 and 80, SeparationRadius 0.9 and 1.8, weight 1 and 3).
// [Diagnose] counts an agent on a longer step as [CauseStepTooLong].
func SeparationStepLimit(kin *components.Kinematics, wt *components.SteeringWeights) float64 {
	k := wt.Separation * kin.MaxForce / wt.SeparationRadius
	if !(wt.Separation > 0 && wt.SeparationRadius > 0) || !UsableKinematics(kin) || !(k > 0) || math.IsInf(k, 1) {
		return math.Inf(1)
	}
	return separationStepFactor / math.Sqrt(k)
}

// stepLimitMemo is [SeparationStepLimit] of the last values it was given: a crowd's
// agents mostly share their Kinematics and SteeringWeights, and the check then
// takes one square root, not one an agent (a sixth of a check's time at 100,000
// agents). The values are compared bit for bit, so a hit is the limit the call
// would return (a NaN or −0 only misses).
type stepLimitMemo struct {
	key   [5]uint64 // MaxSpeed, MaxForce, Radius, Separation, SeparationRadius as bits
	limit float64
	known bool
}

// of returns SeparationStepLimit(kin, wt).
func (m *stepLimitMemo) of(kin *components.Kinematics, wt *components.SteeringWeights) float64 {
	key := [5]uint64{math.Float64bits(kin.MaxSpeed), math.Float64bits(kin.MaxForce), math.Float64bits(kin.Radius),
		math.Float64bits(wt.Separation), math.Float64bits(wt.SeparationRadius)}
	if !m.known || key != m.key {
		m.key, m.limit, m.known = key, SeparationStepLimit(kin, wt), true
	}
	return m.limit
}

// separationStepFactor is SeparationStepLimit's factor.
const separationStepFactor = 0.4

// MaxDT is the longest clock step, in seconds a frame, that [Diagnose] takes as
// meant: a longer one is reported as [Report.ClockDT]. Steering, arrival and
// stuck detection are tuned for steps of a few hundredths of a second; a step
// over a second is far more often milliseconds given for seconds.
const MaxDT = 1.0

// Checked reports whether r is the result of a check ([Diagnose],
// [DiagnoseAgents], a [Diagnostics]' check or round), not the zero Report that a
// Diagnostics holds before its first check ends (its Checks is then 0) and after
// a load until its next check (Checks then counts on from the saved value).
func (r *Report) Checked() bool { return r.checked }

// Total returns the sum of the counts, of the systems installed twice, of the
// resources replaced and of a clock fault (one, a step over MaxDT included), the
// findings: an agent with two causes counts twice (Misconfigured counts it once).
func (r *Report) Total() int {
	n := 0
	r.others(func(_ otherFinding, _ []string, _ uint64, findings int) { n += findings })
	for _, c := range r.Counts {
		n += c
	}
	return n
}

// otherFinding names a finding of a Report that is not a [Cause] (a system's, a
// resource's or the clock's), for [Report.others].
type otherFinding uint8

const (
	otherTwice otherFinding = iota + 1
	otherReplaced
	otherUnrestored
	otherOrder
	otherUnjoined
	otherBadTargets
	otherScriptErrors
	otherMachinesAlike
	otherGridEditedBeside
	otherRequestsChangedBeside
	otherPathsWaitingLong
	otherFlowBehind
	otherFlowGoalsOver
	otherCooldownsUntimed
	otherClockFault
)

// others calls f for each finding of r that is not a cause, in a fixed order: its
// kind, what tells it from another of its kind (the names listed, or detail: the
// clock fault; nil and 0 for a count) and the findings it makes in Total. Total and
// [Diagnostics] (which writes a line when these change, not only their number)
// both read the report's other findings here, so one added to the Report is
// added here once.
func (r *Report) others(f func(kind otherFinding, names []string, detail uint64, findings int)) {
	if len(r.Twice) > 0 {
		f(otherTwice, r.Twice, 0, len(r.Twice))
	}
	if len(r.Replaced) > 0 {
		f(otherReplaced, r.Replaced, 0, len(r.Replaced))
	}
	if len(r.Unrestored) > 0 {
		f(otherUnrestored, r.Unrestored, 0, 1)
	}
	if len(r.Order) > 0 {
		f(otherOrder, r.Order, 0, 1)
	}
	if r.Unjoined {
		f(otherUnjoined, nil, 0, 1)
	}
	if r.BadTargets > 0 {
		f(otherBadTargets, nil, 0, 1)
	}
	if r.ScriptErrors > 0 {
		f(otherScriptErrors, nil, 0, 1)
	}
	if len(r.MachinesAlike) > 0 {
		f(otherMachinesAlike, r.MachinesAlike, 0, len(r.MachinesAlike))
	}
	if r.GridEditedBeside > 0 {
		f(otherGridEditedBeside, nil, 0, 1)
	}
	if r.RequestsChangedBeside > 0 {
		f(otherRequestsChangedBeside, nil, 0, 1)
	}
	if r.PathsWaitingLong > 0 {
		f(otherPathsWaitingLong, nil, 0, 1)
	}
	if r.FlowBehind > 0 {
		f(otherFlowBehind, nil, 0, 1)
	}
	if r.FlowGoalsOver > 0 {
		f(otherFlowGoalsOver, nil, 0, 1)
	}
	if r.CooldownsUntimed > 0 {
		f(otherCooldownsUntimed, nil, 0, 1)
	}
	if r.ClockFault != ClockUsable {
		f(otherClockFault, nil, uint64(r.ClockFault), 1)
	}
}

// othersKey returns a hash of r's findings that are not causes (see others): of
// their kinds and names, not their counts, so that one swapped for another (a
// clock fault for another, a system installed twice for another) changes it
// where Total does not; 0 when there are none.
func (r *Report) othersKey() uint64 {
	h := fnv{sum: fnvOffset}
	any := false
	r.others(func(kind otherFinding, names []string, detail uint64, _ int) {
		any = true
		h.u64(uint64(kind))
		h.u64(detail)
		h.u64(uint64(len(names)))
		for _, n := range names {
			h.str(n)
		}
	})
	if !any {
		return 0
	}
	return h.sum | 1
}

// String prints the report on one line: "diagnostics: 1000 agents, no
// misconfiguration", or the number of misconfigured agents, the findings
// (Total) and the causes found with their count and example entity (with the
// components it lacks, see [Report.Lacks]), then the
// systems installed twice, the resources replaced and the clock's fault, "diagnostics: 1000
// agents, 2 of them misconfigured (4 findings): wander_no_rand 2 (e.g. entity
// 5), goal_not_finite 1 (e.g. entity 5, its Intent's Goal or Point is NaN or infinite), systems installed twice: movement";
// "none misconfigured" when every finding is the systems' or the clock's. The
// zero Report, no check's (see [Report.Checked]), prints "diagnostics: not
// checked yet (...)".
func (r Report) String() string {
	if !r.checked {
		return notCheckedYet
	}
	total := r.Total()
	if total == 0 {
		if r.SystemsUnchecked {
			return fmt.Sprintf("diagnostics: %d %s, no misconfiguration found (%s)", r.Agents, agentsWord(r.Agents), r.uncheckedNote())
		}
		if r.Unthought > 0 {
			return fmt.Sprintf("diagnostics: %d %s, no misconfiguration found (%s)", r.Agents, agentsWord(r.Agents), r.unthoughtNote())
		}
		return fmt.Sprintf("diagnostics: %d %s, no misconfiguration", r.Agents, agentsWord(r.Agents))
	}
	var b strings.Builder
	findings := "findings"
	if total == 1 {
		findings = "finding"
	}
	if r.Misconfigured == 0 { // the findings are the systems' or the clock's
		fmt.Fprintf(&b, "diagnostics: %d %s, none misconfigured (%d %s):", r.Agents, agentsWord(r.Agents), total, findings)
	} else {
		fmt.Fprintf(&b, "diagnostics: %d %s, %d of them misconfigured (%d %s):", r.Agents, agentsWord(r.Agents), r.Misconfigured, total, findings)
	}
	sep := " "
	for c := range NumCauses {
		if r.Counts[c] == 0 {
			continue
		}
		fmt.Fprintf(&b, "%s%s %d (e.g. entity %d", sep, c, r.Counts[c], r.Examples[c].ID())
		appendLacks(&b, r.lacking[c])
		if c == CauseSteerIncomplete && r.lacking[c]&^lackPosition != 0 {
			b.WriteString(steerIncompleteFix)
		}
		r.notes[c].append(&b)
		b.WriteByte(')')
		sep = ", "
	}
	if len(r.Twice) > 0 {
		fmt.Fprintf(&b, "%ssystems installed twice: %s", sep, strings.Join(r.Twice, ", "))
		sep = ", "
	}
	if len(r.Replaced) > 0 {
		fmt.Fprintf(&b, "%sresources replaced since the systems' Initialize (they run on the old ones): %s "+
			"(Finalize the systems, then replace the resource, then Initialize them again)", sep, strings.Join(r.Replaced, ", "))
		sep = ", "
	}
	if len(r.Unrestored) > 0 {
		fmt.Fprintf(&b, "%sloaded from a save without Loaded.Restore: the saved state of %s is lost "+
			"(call Restore with those systems after Initialize)", sep, strings.Join(r.Unrestored, ", "))
		sep = ", "
	}
	if len(r.Order) > 0 {
		fmt.Fprintf(&b, "%ssystems in an order that works a frame late: %s (the documented order: %s)",
			sep, strings.Join(r.Order, ", "), documentedOrder)
		sep = ", "
	}
	if r.Unjoined {
		fmt.Fprintf(&b, "%spath queue with Overlap and no PathJoin after it: it serves in its Update "+
			"(add queue.Join() to the schedule before the first system that reads a Path)", sep)
		sep = ", "
	}
	if r.ScriptErrors > 0 {
		fmt.Fprintf(&b, "%stree scripts failed %d times since the decision system's Initialize (each such node fails on every tick", sep, r.ScriptErrors)
		if r.scriptErr != nil {
			fmt.Fprintf(&b, "; the last, node %d: %v", r.scriptNode, r.scriptErr)
		}
		b.WriteString("): set the entries the scripts read (a key the program declares must be written by its own system, each frame before Decision)")
		sep = ", "
	}
	if r.BadTargets > 0 {
		fmt.Fprintf(&b, "%sstate machine hooks returned a state not of their own machine %d times (another machine's, "+
			"fsm.Any or out of range; the agents stayed: an Update hook returns one of its own machine's StateIDs, "+
			"or fsm.None to stay)", sep, r.BadTargets)
		sep = ", "
	}
	if len(r.MachinesAlike) > 0 {
		fmt.Fprintf(&b, "%sstate machines whose StateIDs carry one tag, so each takes the other's states for its own: %s "+
			"(give each machine a name of its own in fsm.NewBuilder; for colliding tags rename either)",
			sep, strings.Join(r.MachinesAlike, ", "))
		sep = ", "
	}
	if r.GridEditedBeside > 0 {
		fmt.Fprintf(&b, "%sgrid edited between a path queue with Overlap and its PathJoin in %d frames (the searches "+
			"read it meanwhile: edit the grid before the queue or after the join)", sep, r.GridEditedBeside)
		sep = ", "
	}
	if r.RequestsChangedBeside > 0 {
		fmt.Fprintf(&b, "%s%d path answers dropped at a PathJoin: their requesters were removed or their requests "+
			"changed between a path queue with Overlap and its join (do that before the queue or after the join)",
			sep, r.RequestsChangedBeside)
		sep = ", "
	}
	if r.PathsWaitingLong > 0 {
		jps := ""
		if r.PathWaitJumpPoints {
			jps = ", set PathQueue.Options.JumpPoints (the grid's cells all cost the same: jump point search " +
				"finds paths as short with fewer expansions)"
		}
		prio := ""
		if r.PathWaitPriority {
			prio = fmt.Sprintf("; the oldest is of Path.Priority %d, below requests served while it waited or waiting: "+
				"the queue serves higher priorities first, so a stream of them starves it (give it a Path.Priority as high as theirs)",
				r.PathWaitOldestPriority)
		}
		fmt.Fprintf(&b, "%s%d path requests waiting %g s or more, the oldest %.1f s (the queue's Budget serves one "+
			"long search after another: give a goal many agents share a FlowField%s, or raise PathQueue.Budget%s)",
			sep, r.PathsWaitingLong, PathWaitLong, r.PathWaitOldest, jps, prio)
		sep = ", "
	}
	if r.FlowBehind > 0 {
		fmt.Fprintf(&b, "%s%d flow followers follow a field older than the grid for %.1f s (each grid edit restarts "+
			"its rebuild within FlowField.Budget, so a grid edited every frame or two, as a door toggled every frame, keeps "+
			"it from catching up: use Budget 0 or sector fields, or edit the grid less often)",
			sep, r.FlowBehind, r.FlowBehindFor)
		sep = ", "
	}
	if r.FlowGoalsOver > 0 {
		limit := "MaxFields"
		if r.flowGoalsSector {
			limit = "Capacity" // sector fields: Capacity goals at most, 8 by default
		}
		fmt.Fprintf(&b, "%sflow followers ask for %d goals, over FlowField.%s (%d): the followers of the goals "+
			"beyond it get no field and wait for good (%d waiting: FlowField.Waiting); give the swarm goals it shares "+
			"(one goal for many, SetFlowGoal), raise %s, or make agents with goals of their own Movers "+
			"(a Path each) rather than FlowFollowers", sep, r.FlowGoalsOver, limit, r.FlowGoalsMax, r.FlowGoalsWaiting, limit)
		sep = ", "
	}
	if r.CooldownsUntimed > 0 {
		fmt.Fprintf(&b, "%s%d weapons with a Cooldown and no clock: Combat cannot time it, so they strike at every "+
			"request (add a Clock: ecs.NewClockSystem(dt) first in the schedule)", sep, r.CooldownsUntimed)
		sep = ", "
	}
	switch r.ClockFault {
	case ClockUsable:
	case ClockDTOverMax:
		fmt.Fprintf(&b, "%sclock step %g s a frame (dt is in seconds: 1.0/60 for 60 frames a second)", sep, r.ClockDT)
	case ClockDTNotFinite, ClockDTNotPositive:
		fmt.Fprintf(&b, "%sclock step %g s a frame (%s: dt must be a finite number of seconds > 0; nothing moves)", sep, r.clockDT, r.ClockFault)
	case ClockDTReplaced:
		hint := "" // a zero dt is most often an integer division
		if r.clockDT == 0 {
			hint = "; in Go 1/30 is an integer division, 0: write 1.0/30; to pause, skip Update"
		}
		fmt.Fprintf(&b, "%sclock step %g given to the ClockSystem, 1/60 s used (%s: dt must be a finite number of "+
			"seconds > 0%s)", sep, r.clockDT, r.ClockFault, hint)
	case ClockDTWritten:
		fmt.Fprintf(&b, "%sClock.DT written between frames (last %g, %d frames), the ClockSystem stepped its own DT %g "+
			"(%s: the Clock's DT is the step of the frame that ran; to change the step set the ClockSystem's DT: "+
			"clockSystem.DT = x, clockSystem being the ecs.NewClockSystem value in the schedule)",
			sep, r.clockDT, r.clockWrites, r.clockStep, r.ClockFault)
	case ClockTimeWritten:
		fmt.Fprintf(&b, "%sClock.Time written %g between frames (%d frames), the ClockSystem went on at Frame·DT "+
			"(%s: write a finite time, or set Started false to restart from Frame·DT)", sep, r.clockTime, r.clockWrites, r.ClockFault)
	case ClockTimeNotFinite:
		fmt.Fprintf(&b, "%sclock time %g s (%s: no agent thinks on time)", sep, r.clockTime, r.ClockFault)
		if r.ClockDT > 0 {
			fmt.Fprintf(&b, " after steps of %g s a frame (dt is in seconds: 1.0/60 for 60 frames a second)", r.ClockDT)
		}
	default:
		fmt.Fprintf(&b, "%s%s", sep, r.ClockFault)
	}
	if r.SystemsUnchecked {
		fmt.Fprintf(&b, " (%s)", r.uncheckedNote())
	}
	return b.String()
}

// unthoughtNote is what String says of Unthought agents.
func (r Report) unthoughtNote() string {
	brains := "brains have"
	if r.Unthought == 1 {
		brains = "brain has"
	}
	if r.diagnosed {
		return fmt.Sprintf("before the first frame: %d %s not thought yet; the Diagnostics in the frame checks what they ask", r.Unthought, brains)
	}
	return fmt.Sprintf("before the first frame: %d %s not thought yet; add &systems.Diagnostics{} to the frame "+
		"to check what they ask", r.Unthought, brains)
}

// agentsWord is "agent" for n = 1, else "agents".
func agentsWord(n int) string {
	if n == 1 {
		return "agent"
	}
	return "agents"
}

func (r *Report) add(c Cause, e arche.Entity) {
	if r.Counts[c] == 0 {
		r.Examples[c] = e
	}
	r.Counts[c]++
	if r.list != nil && c == r.collect {
		*r.list = append(*r.list, e)
	}
	if r.seen != nil {
		if _, ok := r.seen[e]; !ok {
			r.seen[e] = struct{}{}
			r.Misconfigured++
		}
	}
}

// Diagnose examines every agent of w and counts, by [Cause], those that a
// system cannot serve as set up: components that a system requires are
// missing, or values it cannot use (NaN, ≤ 0 speeds, a goal in a wall). The
// grid checks (blocked cell, off the grid, goals, walls for
// CauseMoveWithoutPath) need a *grid.Grid resource and are skipped without
// one. The checks for a missing system (a Path and no PathQueue, a Brain and no
// Decision system, CauseNoPathQueue and the other CauseNo… causes) need the world's
// systems initialized: before any archai system's Initialize they are skipped, so
// call Diagnose after Initialize (model.Run or Scheduler.Initialize) or add the
// [Diagnostics] system. What the brains ask (a goal, a SpeedFactor, a move by an
// agent that cannot move) is set when they think, so before the first frame it is
// not checked: Report.Unthought counts those brains and String says so. It
// allocates, and checks the whole world at once (about 20 ms of CPU at 100,000
// agents); to check every few frames in a running game use the Diagnostics
// system, which does not allocate and spreads a large world's check over frames.
//
// Panics:
//   - when w is locked: called inside an open query loop (print the report after the
//     loop, or close the query first) or from a tree leaf, consideration, action, hook
//     or operator, whose decision system holds a query open.
func Diagnose(w *arche.World) Report {
	var d diagnoser
	d.init()
	var r Report
	d.run(w, &r)
	return r
}

// DiagnoseAgents is [Diagnose] that also returns every entity it counts under
// cause c, in the order its checks count them (an entity once per count, so
// len(agents) == report.Counts[c]), where the Report keeps one example per
// cause: a game can select, mark or fix them all (which tanks are
// blocked_by_agents). Findings of the whole world (Report.FlowGoalsOver,
// CooldownsUntimed and the other world-level counts) name no agent. A c out of
// range returns no agent. It allocates, as Diagnose does.
func DiagnoseAgents(w *arche.World, c Cause) (agents []arche.Entity, report Report) {
	var d diagnoser
	d.init()
	report.list, report.collect = &agents, c
	d.run(w, &report)
	report.list = nil
	return agents, report
}

// Diagnostics runs [Diagnose]'s checks every Every frames (60 if zero; the
// first in its first Update, spread over the frames after it in a large world:
// see Cost) and keeps the last result in Report. A periodic
// check whose findings differ from the last ones written (a problem appearing,
// going, or changing its count) writes one line to Out, standard error unless
// set: "archai: frame 120: diagnostics: 50 agents, 3 of them misconfigured
// ..." (the frame is the world's [ecs.Clock] Frame when it has a started Clock,
// so a loaded world's lines go on from its saved frame). So one added inline, as &systems.Diagnostics{} in NewScheduler's list,
// still tells; set Out to io.Discard and read Report to handle the findings in
// the program. Place it anywhere in the frame; after Movement sees the frame's
// final state. Call [Diagnostics.Check] for a report on demand (it writes
// nothing). In steady state a check allocates nothing, nor writes.
//
// Cost: a check runs on one goroutine over every agent. Measured as CPU time
// (2026-12-06, a shared 2-core host): about 11 ms at 100,000 idle Movers with a
// tree, 18–22 ms at 100,000 agents of the guard scenario (cmd/bench/scenario,
// seed 3), about 1 ms at 10,000. So in a world of DiagnoseSpreadAgents (20,000)
// entities or more each periodic check is spread over frames (Spread 0, the
// default): a round of stages, the motion pass (every entity) in slices of 2,048
// entities in Arche's query order, then each other pass, those over the Brains
// and Thinks (blackboards, trees, shared node memories, Thinks) in slices of
// their queries too, then the world-level findings, as many stages a frame as
// spread them evenly from the period's first frame to its last (106 stages at
// 100,000 guards: one or two a frame within the default Every of 60; one a
// frame over as many frames in a world of fewer); the Report, and the line
// written, are the round's, published at its last frame (until the first round
// ends, Report is the zero Report and Checks 0). At 100,000 guards its
// worst frame took 1.3 ms of CPU against 22–23 ms for the whole check in one
// frame, side by side in one run (about 17 times less; 3.5–3.8 ms with the
// motion pass alone sliced; BenchmarkGuardsDiagnoseFrames100k in
// cmd/bench/scenario), for about the same CPU a period. A smaller world is checked
// whole in the period's first frame, as Spread 1 does any.
//
// A round's passes read the world in the frames they run. On a world that does
// not change during the round, its Report is exactly that of a check in one frame
// (and of Diagnose): the same counts, examples, notes and line. On a moving world
// each finding is as of the frame its pass (or slice) ran, the clock read then:
// the slices follow Arche's query order, so an entity that moves in that order
// between two of its pass's frames (removed, added, given or stripped of a
// component) may be checked twice or not at all by that pass in that round, and
// Agents is then off by as many; each pass not sliced is one frame's. A [Diagnostics.Check] in the middle of a round publishes
// its own whole check and begins the round again, to end at the same frame; a
// load does the same (see [DiagnosticsState] RoundEnd). For large crowds with a
// frame budget, Every: 600 also checks less often.
//
// Contract:
//
//	requires   nothing
//	optional   every component of the other systems' contract tables
//	writes     nothing but its own Report, Checks
//	resources  none required; *grid.Grid optional (see Diagnose)
//
// Important: a Diagnostics checks the world it was initialized with (Arche's
// filters bind to their first world); use [Diagnose] for another.
//
// Its check cadence and the findings it last wrote are state that persists across
// frames ([DiagnosticsState]): a world running one is saved with it (save.Save refuses
// otherwise, naming "diagnostics"; [StatefulSystems]), and restored into the loaded
// world's, which then checks and writes as the unbroken run would.
type Diagnostics struct {
	ran   ecs.Ran   // the frame it last ran, for save.Save's check (ecs.Frame.Between)
	Every int       // frames between checks; 60 if zero or negative
	Out   io.Writer // where a periodic check writes findings that changed; os.Stderr if nil, io.Discard for none

	// Spread is the number of frames a periodic check is spread over (see Cost):
	// 0 (the default) spreads a check of DiagnoseSpreadAgents entities or more over
	// as many frames as it has stages, at most Every, and runs a smaller one whole
	// in one frame; 1 (or a negative value, taken as 1) runs every check whole, as
	// Diagnose does; n > 1 spreads every check over n frames, at most Every.
	Spread int

	// Report is the last check's result (a whole round's, when spread). Until the
	// first check ends it is the zero Report, whose String says "diagnostics: not
	// checked yet" ([Report.Checked] is false, Checks 0): in a world of fewer than
	// DiagnoseSpreadAgents entities the first check ends in the first Update; with
	// a check spread over frames (Spread 0 from DiagnoseSpreadAgents entities on),
	// in the Update of the round's last stage, the min(stages, Every)-th, where
	// stages is ⌈entities/2048⌉ (the motion pass, over every entity of the world)
	// + 30 (the other passes), + 1 for each 16,384, each 32,768 and each 8,192
	// Brains past the first (three passes), each 8,192 UtilityBrains past the
	// first and each 16,384 Thinks past the first: 40 Updates at 20,000 entities
	// with fewer than 8,192 brains, Every (60) from 59,393 entities. After a load it is the zero Report again until
	// the next check, while Checks counts on from the saved value: Report.Checked
	// tells a result. Check(w) checks whole at once.
	Report Report
	Checks int // checks run since Initialize (saved: DiagnosticsState)

	d     diagnoser
	frame int

	// the round under way (a check spread over frames): its report so far, its
	// stages (next to run, and all), and the frame by which it ends
	pending      Report
	next, stages int
	start        int // the frame it began
	deadline     int // the frame by which it ends
	inRound      bool
	restart      bool // begin a round at the next Update: one was cut short (a Check, a load)

	twice, replaced, order, alike findings // Report.Twice, Replaced, Order and MachinesAlike (see findings)

	finalized bool         // Finalize ran, and Initialize not since (lifecycle.go)
	world     *arche.World // the world it was initialized on and counts as live in (diagnosticsLive); nil after Finalize

	// frame, written, writtenTotal and writtenCounts are its state across frames, saved
	// by SaveState (diagnostics_state.go)
	written       bool           // a report was written to Out since Initialize
	writtenTotal  int            // its Total
	writtenCounts [NumCauses]int // and Counts
	writtenOthers uint64         // and its findings that are not causes (Report.othersKey)
	fullFrame     int64          // the frame of the last line written in full (see write)
	fullKnown     bool           // fullFrame holds one (false before the first line, or loaded from an older save)
}

// Name implements ecs.Namer.
func (s *Diagnostics) Name() string { return "diagnostics" }

// Initialize builds the filters.
func (s *Diagnostics) Initialize(w *arche.World) {
	if s.Every <= 0 {
		s.Every = 60
	}
	s.d.init()
	s.frame, s.Checks, s.Report = 0, 0, Report{}
	s.finalized = false
	s.written, s.writtenTotal, s.writtenCounts, s.writtenOthers = false, 0, [NumCauses]int{}, 0
	s.fullFrame, s.fullKnown = 0, false
	s.inRound, s.restart, s.next, s.stages, s.start, s.deadline = false, false, 0, 0, 0, 0
	s.setLive(w)
	s.ran.Join(w, s)
}

// Update checks every Every frames.
func (s *Diagnostics) Update(w *arche.World) {
	s.ran.Mark(w)
	if s.Every <= 0 || s.finalized { // Initialize makes Every positive
		if s.finalized {
			panic(updatedAfterFinalize("Diagnostics"))
		}
		panic(notInitialized("Diagnostics") + " (or Every was set ≤ 0 after it)")
	}
	if !s.inRound && (s.frame%s.Every == 0 || s.restart) {
		if w.IsLocked() {
			panic(diagnosticsLocked)
		}
		s.beginRound(w)
	}
	if s.inRound {
		if w.IsLocked() {
			panic(diagnosticsLocked)
		}
		// evenly over the frames from start to deadline, the last on the deadline
		due := s.stages
		if s.frame < s.deadline {
			due = s.stages * (s.frame - s.start + 1) / (s.deadline - s.start + 1)
		}
		for ; s.next < due; s.next++ {
			s.d.stage(w, &s.pending, s.next)
		}
		if s.next == s.stages {
			s.publish()
			s.write(w)
		}
	}
	s.frame++
}

// DiagnoseSpreadAgents is the number of entities (all of the world's, as
// Diagnose examines them) from which a [Diagnostics] with Spread 0 spreads its
// periodic check over frames: about 1 ms of CPU at 10,000 agents, 2 ms at 20,000.
const DiagnoseSpreadAgents = 20000

// beginRound begins a round of checks at this frame (see Spread), to end by the
// frame before the next period's first. A round begun again (cut short by a Check
// or a load) keeps the frame the cut one was to end by, if still ahead.
func (s *Diagnostics) beginRound(w *arche.World) {
	again := s.restart && s.frame%s.Every != 0 && s.deadline >= s.frame
	s.pending = Report{Twice: s.twice.scratch[:0], Replaced: s.replaced.scratch[:0], Order: s.order.scratch[:0],
		MachinesAlike: s.alike.scratch[:0]}
	s.stages = s.d.begin(w, &s.pending)
	s.next, s.inRound, s.restart, s.start = 0, true, false, s.frame
	periodEnd := (s.frame/s.Every+1)*s.Every - 1
	if again {
		s.deadline = min(s.deadline, periodEnd)
		return
	}
	spread := s.Spread
	switch {
	case spread == 0 && s.d.motionN >= DiagnoseSpreadAgents:
		spread = s.stages
	case spread < 1:
		spread = 1
	}
	s.deadline = min(s.frame+spread-1, periodEnd)
}

// publish makes the round's report the Report.
func (s *Diagnostics) publish() {
	s.Report = s.pending
	s.pending = Report{}
	s.Report.Twice = s.twice.settle(s.Report.Twice)
	s.Report.Replaced = s.replaced.settle(s.Report.Replaced)
	s.Report.Order = s.order.settle(s.Report.Order)
	s.Report.MachinesAlike = s.alike.settle(s.Report.MachinesAlike)
	s.inRound = false
	s.Checks++
}

// notCheckedYet is the String of the zero Report (see Report.Checked).
const notCheckedYet = "diagnostics: not checked yet (the zero Report, which a Diagnostics holds until its " +
	"first check ends: see Diagnostics.Report; systems.Diagnose(w) or diag.Check(w) checks now)"

// diagnosticsLocked is the panic of Diagnostics.Update finding the world locked.
// Update runs between two systems' Updates, where no query of archai's is open, so
// the lock is a query of the program's own that was never closed; [diagnoseLocked]'s
// advice (call it between frames, or add a Diagnostics) does not fit there.
const diagnosticsLocked = "systems: Diagnostics: the world is locked at its Update, between two " +
	"systems' Updates: a query of the program's own was left open (a Query made and never " +
	"iterated to its end, or a loop left by break or return without q.Close(), in a system of " +
	"the program's or in code between frames); iterate it to the end or call q.Close()"

// write writes the Report to Out if its findings differ from the last written
// (their counts, or which findings that are not causes there are: a system
// installed twice swapped for another, a clock fault for another; the first
// only if it has any), headed by the frame: the world's Clock's
// when one has started, else the Updates counted since Initialize. When only
// the counts of causes already written changed (the same causes, and no other
// finding in this report or the last line's), the line is short: the counts that changed and the frame
// whose line gave the examples and advice ([Report.CountsChange]), so a count
// swinging from check to check does not repeat the advice.
func (s *Diagnostics) write(w *arche.World) {
	total := s.Report.Total()
	others := s.Report.othersKey()
	if s.written && total == s.writtenTotal && s.Report.Counts == s.writtenCounts && others == s.writtenOthers || !s.written && total == 0 {
		return
	}
	// short only when the causes are all the findings, now and in the line
	// before: the other findings' number alone would not tell one swapped for
	// another (a clock fault for another, a system installed twice for another)
	short := s.written && s.fullKnown && sameCauses(s.Report.Counts, s.writtenCounts) &&
		total == sumCounts(s.Report.Counts) && s.writtenTotal == sumCounts(s.writtenCounts)
	was := s.writtenCounts
	s.written, s.writtenTotal, s.writtenCounts, s.writtenOthers = true, total, s.Report.Counts, others
	out := s.Out
	if out == nil {
		out = os.Stderr
	}
	frame := int64(s.frame)
	if c := ecs.Resource[ecs.Clock](w); c != nil && c.Started {
		frame = c.Frame // a loaded world's frame, not the checks' own count from the load
	}
	if short {
		fmt.Fprintf(out, "archai: frame %d: %s\n", frame, s.Report.CountsChange(was, s.fullFrame))
		return
	}
	s.fullFrame, s.fullKnown = frame, true
	fmt.Fprintf(out, "archai: frame %d: %s\n", frame, s.Report)
}

// sameCauses reports whether a and b count the same causes (each nonzero in both or in neither).
func sameCauses(a, b [NumCauses]int) bool {
	for c := range a {
		if (a[c] == 0) != (b[c] == 0) {
			return false
		}
	}
	return true
}

// sumCounts returns the sum of the counts.
func sumCounts(a [NumCauses]int) int {
	n := 0
	for _, c := range a {
		n += c
	}
	return n
}

// CountsChange prints, on one line, how the report's cause counts differ from was
// (counts of the same causes, written in full at frame full): "diagnostics: 10
// agents, 3 of them misconfigured (3 findings): goal_unusable 3 (was 4); examples
// and advice as at frame 60". A [Diagnostics] writes it in place of the full line
// when only such counts changed since its last line.
func (r Report) CountsChange(was [NumCauses]int, full int64) string {
	var b strings.Builder
	total := r.Total()
	findings := "findings"
	if total == 1 {
		findings = "finding"
	}
	fmt.Fprintf(&b, "diagnostics: %d %s, %d of them misconfigured (%d %s):", r.Agents, agentsWord(r.Agents), r.Misconfigured, total, findings)
	sep := " "
	for c := range NumCauses {
		if r.Counts[c] != was[c] {
			fmt.Fprintf(&b, "%s%s %d (was %d)", sep, c, r.Counts[c], was[c])
			sep = ", "
		}
	}
	fmt.Fprintf(&b, "; examples and advice as at frame %d", full)
	return b.String()
}

// Check runs the checks now, stores the result in Report and returns it.
//
// Panics:
//   - when w is locked (inside an open query loop), as [Diagnose].
func (s *Diagnostics) Check(w *arche.World) Report {
	if s.d.motion == nil {
		s.d.init()
	}
	if w.IsLocked() {
		panic(diagnoseLocked)
	}
	s.restart = s.restart || s.inRound // the round under way begins again at the next Update
	s.pending = Report{Twice: s.twice.scratch[:0], Replaced: s.replaced.scratch[:0], Order: s.order.scratch[:0],
		MachinesAlike: s.alike.scratch[:0]}
	s.d.run(w, &s.pending)
	s.publish()
	return s.Report
}

// findings keeps a Report's list of names (Twice, Replaced, Order) across the checks of a
// [Diagnostics] without allocating in steady state and without changing a list handed
// out: the check appends to scratch, a buffer of its own; a list equal to the last one
// handed out is that one again, and a different one is a new copy, so a Report kept
// from an earlier check never changes under its holder (they shared the buffer).
type findings struct {
	scratch []string // the check's buffer, never handed out
	last    []string // the list handed out last; nil for none
}

// settle returns the list to hand out for the names in got (the scratch buffer, kept).
func (f *findings) settle(got []string) []string {
	f.scratch = got
	if len(got) == 0 {
		f.last = nil
	} else if !slices.Equal(got, f.last) {
		f.last = slices.Clone(got)
	}
	return f.last
}

// Finalize ends the periodic checks: Update panics until the next Initialize (see
// lifecycle.go); Check and Report stay usable.
func (s *Diagnostics) Finalize(w *arche.World) {
	s.inRound, s.restart, s.pending = false, false, Report{}
	s.ran.Leave()
	s.finalized = true
	s.setLive(nil)
}

// diagnoser holds the filters of the checks and what it learnt of the grid.
type diagnoser struct {
	motion *generic.Filter11[components.Position, components.Velocity, components.Kinematics, components.Intent,
		components.Steering, components.Path, components.SteeringWeights, components.Wanderer, components.Rand,
		components.FlowFollower, components.Desired]
	trees      *generic.Filter4[components.Brain, components.Think, components.Position, components.Intent]
	reasons    *generic.Filter4[components.UtilityBrain, components.Think, components.Position, components.Intent]
	machines   *generic.Filter4[components.StateMachine, components.Think, components.Position, components.Intent]
	thinks     *generic.Filter1[components.Think]
	perceivers *generic.Filter4[components.Perception, components.Position, components.Think, components.Faction]
	boards     *generic.Filter2[components.Brain, components.Blackboard]
	decision   *Decision // the live Decision, for its agents reading keys with no store (nil: none)
	stores     *generic.Filter1[components.Blackboard]
	avoiders   *generic.Filter5[components.ORCA, components.Position, components.Velocity, components.Kinematics, components.Steering]
	htns       *generic.Filter4[components.HTNPlanner, components.Think, components.Position, components.Intent]
	goaps      *generic.Filter4[components.GOAPPlanner, components.Think, components.Position, components.Intent]
	weapons    *generic.Filter2[components.Weapon, components.Intent]
	lods       *generic.Filter3[components.LOD, components.Think, components.Position] // the agents LOD serves
	focus      *generic.Filter1[components.Focus]
	points     focusPoints // tells a focus point (a camera) from an agent, for Report.Agents
	ownMotion  arche.ID    // components.OwnMotion
	randID     arche.ID    // components.Rand
	posID      arche.ID    // components.Position
	velID      arche.ID    // components.Velocity

	in      *installed // the world's installed systems during a round (begin to finish), nil if none
	motionN int        // the entities the motion pass had at the round's begin
	slices  int        // the motion pass's stages in the round (see diagnoseSlice)
	// the other passes' slice sizes (passSlice; tests make them smaller), and
	// their stages in the round (1 for a pass run whole)
	passCut    [numPasses]int
	passStages [numPasses]int

	grid        *grid.Grid
	gridVersion uint64
	walls       bool                      // the grid has a blocked cell
	wide        *flowWide                 // FlowField's wide followers, nil without a FlowField
	flow        *FlowField                // the world's live FlowField on the grid checked (CauseFlowUnreachable), nil if none
	sealed      map[arche.Entity]struct{} // wide.sealed as a set

	seen         map[arche.Entity]struct{}          // Report.seen, reused between checks
	memories     metSet                             // the Brains' node memories met (CauseMemoryShared), reused
	boardsMet    metSet                             // the Blackboards' stores met (CauseBlackboardShared), reused
	scoresMet    metSet                             // the UtilityBrains' scores met (CauseMemoryShared), reused
	queued       map[pathRequest]struct{}           // the requests the path queue holds, reused
	alike        machinesAlike                      // Report.MachinesAlike's machines and names, reused
	states       stateBoards                        // the machines' state trees with blackboard keys (CauseBlackboardMissing), reused
	queue        *PathQueue                         // the world's path queue, nil if none
	late         systemSet                          // decision systems live before the live Perception (CausePerceptionAfterDecision)
	deciders     decisionIDs                        // the decision components' IDs, with late
	systems      systemSet                          // archai systems initialized in the world
	initOnce     bool                               // some archai system was initialized: missing ones can be told
	stepDT       float64                            // the clock's step if usable (no ClockFault), else 0 (CauseStepTooLong)
	stepLimit    stepLimitMemo                      // SeparationStepLimit of the last agent's values (CauseStepTooLong)
	downed       downedChecks                       // CauseDownedStillActing
	downedTgt    downedTargetChecks                 // CauseAttackingDowned
	held         heldOffCheck                       // CauseHeldOffGoal
	far          heldFarCheck                       // CauseHeldFarFromGoal
	perKeys      perceptionKeyChecks                // CausePerceptionKeyWrongType
	utilKeys     utilityKeyChecks                   // the utility agents' keys never written (CauseBlackboardKeyUnwritten)
	htnWhys      whyCache[*htn.Domain, htn.State]   // the idle HTN agents' explanations (CausePlannerDomainError)
	goapWhys     whyCache[*goap.Domain, goap.State] // the idle GOAP agents' notes (CausePlannerDomainError)
	goapAbove    whyCache[*goap.Domain, goapRunKey] // the busy GOAP agents' notes on a higher goal with no plan (CausePlannerDomainError)
	goapOwnWhys  whyCache[*goap.Domain, goap.State] // goapWhys for the goap.Runs of hybrid.GOAPActions
	goapOwnAbove whyCache[*goap.Domain, goapRunKey] // goapAbove for them
	ownStates    ownStateChecks                     // the utility.States and htn.Runs in the program's own components
	hybrid       hybridNodes                        // the hybrid nodes running them (CausePlannerDomainError, CauseBlackboardKeyUnwritten)
}

// lacks reports whether the world's systems are known and sys is not among them.
func (d *diagnoser) lacks(sys systemSet) bool { return d.initOnce && d.systems&sys == 0 }

func (d *diagnoser) init() {
	d.motion = generic.NewFilter11[components.Position, components.Velocity, components.Kinematics, components.Intent,
		components.Steering, components.Path, components.SteeringWeights, components.Wanderer, components.Rand,
		components.FlowFollower, components.Desired]().
		Optional(generic.T[components.Position](), generic.T[components.Velocity](), generic.T[components.Kinematics](), generic.T[components.Intent](),
			generic.T[components.Steering](), generic.T[components.Path](), generic.T[components.SteeringWeights](),
			generic.T[components.Wanderer](), generic.T[components.Rand](), generic.T[components.FlowFollower](),
			generic.T[components.Desired]())
	d.trees = brainFilter[components.Brain]()
	d.reasons = brainFilter[components.UtilityBrain]()
	d.machines = brainFilter[components.StateMachine]()
	d.thinks = generic.NewFilter1[components.Think]()
	d.perceivers = generic.NewFilter4[components.Perception, components.Position, components.Think, components.Faction]().
		Optional(generic.T[components.Position](), generic.T[components.Think](), generic.T[components.Faction]())
	d.boards = generic.NewFilter2[components.Brain, components.Blackboard]().Optional(generic.T[components.Blackboard]())
	d.stores = generic.NewFilter1[components.Blackboard]()
	d.avoiders = orcaFilter()
	d.htns = brainFilter[components.HTNPlanner]()
	d.goaps = brainFilter[components.GOAPPlanner]()
	d.weapons = generic.NewFilter2[components.Weapon, components.Intent]()
	d.lods = generic.NewFilter3[components.LOD, components.Think, components.Position]()
	d.focus = generic.NewFilter1[components.Focus]()
	d.passCut = passSlice
}

func brainFilter[B any]() *generic.Filter4[B, components.Think, components.Position, components.Intent] {
	return generic.NewFilter4[B, components.Think, components.Position, components.Intent]().
		Optional(generic.T[components.Think](), generic.T[components.Position](), generic.T[components.Intent]())
}

// diagnoseLocked is the panic of Diagnose and Diagnostics.Check called while the world
// is locked. Its checks register component types no entity has had yet (ORCA, LOD,
// planners, ...), which Arche forbids then ("attempt to register a new component in a
// locked world", naming neither Diagnose nor the fix), and which of them are registered
// differs from world to world: refusing always makes it the same in every world.
const diagnoseLocked = "systems: Diagnose called while the world is locked (a query loop is open, " +
	"or from a tree leaf, utility consideration or action, state-machine hook or planner operator): " +
	"call it between frames, after the query loop has ended (or q.Close()), or add a " +
	"systems.Diagnostics to the schedule"

// run runs the whole check in one go: every stage of a round (see begin).
func (d *diagnoser) run(w *arche.World, r *Report) {
	n := d.begin(w, r)
	for i := range n {
		d.stage(w, r, i)
	}
}

// diagnoseSlice is how many entities of the motion pass (motionChecks, every
// entity) one stage of a round checks: at 100,000 agents of the guard scenario
// about 0.2 ms of wall time, 0.6 ms in its dearest slices (agents on the move).
const diagnoseSlice = 2048

// passSlice is, for each pass after the motion pass (see diagnoser.pass), how
// many entities of its query one stage checks, 0 for a pass run whole in one
// stage: the passes that took over 0.5 ms at 100,000 agents of the guard
// scenario, sliced to about 0.3 ms a stage.
var passSlice = [numPasses]int{passBoards: 16384, passTreeDecisions: 32768, passMemories: 8192,
	passScores: 8192, passThinks: 16384}

// The passes after the motion pass that are sliced (passSlice).
const (
	passBoards        = 2
	passTreeDecisions = 9
	passMemories      = 10
	passScores        = 11
	passThinks        = 27
)

// begin starts a round of the checks into r: it reads what every pass shares
// (the grid, the systems installed, the path queue's requests, ...) and returns
// the number of stages of the round, which [diagnoser.stage] runs in order, 0 to
// n-1 (the motion pass in slices of diagnoseSlice entities in Arche's query order,
// then each other pass, those of passSlice in slices of their queries, then the
// world-level findings). Run in order on a world that does not change between
// them, the stages count, note and give examples exactly as one pass over the
// world: each pass keeps its own query order and its state across its slices,
// and the passes run in the same order.
func (d *diagnoser) begin(w *arche.World, r *Report) int {
	if w.IsLocked() {
		panic(diagnoseLocked)
	}
	d.stepDT = 0
	if c := ecs.Resource[ecs.Clock](w); c != nil && clockFaultOf(c) == ClockUsable {
		d.stepDT = c.DT
	}
	g := ecs.Resource[grid.Grid](w)
	if g != d.grid || (g != nil && g.Version() != d.gridVersion) {
		d.grid = g
		if g != nil {
			d.gridVersion, d.walls = g.Version(), hasWalls(g)
		}
	}
	d.systems, d.initOnce = installedIn(w)
	d.wide = ecs.Resource[flowWide](w)
	clear(d.sealed)
	if d.wide != nil && len(d.wide.sealed) > 0 {
		if d.sealed == nil {
			d.sealed = map[arche.Entity]struct{}{}
		}
		for _, e := range d.wide.sealed {
			d.sealed[e] = struct{}{}
		}
	}
	r.SystemsUnchecked = !d.initOnce
	if live := ecs.Resource[diagnosticsLive](w); r.SystemsUnchecked && live != nil && live.n > 0 {
		r.onlyDiagnostics = true
	}
	r.checked = true
	d.queue = nil
	in := ecs.Resource[installed](w)
	if in != nil && in.pathQueue != nil {
		d.queue = in.pathQueue
		if d.queued == nil {
			d.queued = map[pathRequest]struct{}{}
		}
		clear(d.queued)
		d.queue.join() // with Overlap: the searches its last Update started
		d.queue.requests(d.queued)
		r.Unjoined = d.queue.Overlap && d.queue.pool != nil && !d.queue.joined
		r.GridEditedBeside = d.queue.editedBeside
		r.RequestsChangedBeside = d.queue.changedBeside
	}
	d.flow = nil
	if in != nil && in.flowField != nil && in.flowField.filter != nil && !in.flowField.finalized && in.flowField.grid == g {
		d.flow = in.flowField
	}
	if in != nil && in.fsm != nil && in.fsm.due.filter != nil && !in.fsm.due.finalized {
		r.BadTargets = in.fsm.BadTargets
	}
	d.decision = nil
	if in != nil && in.decision != nil && in.decision.due.filter != nil && !in.decision.due.finalized {
		d.decision = in.decision
		r.ScriptErrors = in.decision.ScriptErrors
		if r.ScriptErrors > 0 {
			r.scriptNode, r.scriptErr = in.decision.lastScriptError()
		}
	}
	d.late = in.perceptionLate()
	if d.late != 0 {
		d.deciders.init(w)
	}
	d.ownMotion = arche.ComponentID[components.OwnMotion](w)
	d.points.init(w)
	d.randID = arche.ComponentID[components.Rand](w)
	d.posID, d.velID = arche.ComponentID[components.Position](w), arche.ComponentID[components.Velocity](w)
	d.held.nb = ecs.Resource[Neighbours](w)
	d.held.progID, d.held.kinID = arche.ComponentID[components.Progress](w), arche.ComponentID[components.Kinematics](w)
	d.held.posID = d.posID
	d.held.ffID = arche.ComponentID[components.FlowFollower](w)
	if d.seen == nil {
		d.seen = map[arche.Entity]struct{}{}
	}
	clear(d.seen) // keeps its buckets: no allocation in steady state
	r.seen = d.seen
	d.in = in
	d.far.cands = d.far.cands[:0] // a round ended early (restarted) leaves none behind
	q := d.motion.Query(w)
	d.motionN = q.Count()
	q.Close()
	d.slices = max(1, (d.motionN+diagnoseSlice-1)/diagnoseSlice)
	n := d.slices
	for p := range numPasses {
		d.passStages[p] = 1
		if cut := d.passCut[p]; cut > 0 {
			d.passStages[p] = max(1, (d.passCount(w, p)+cut-1)/cut)
		}
		n += d.passStages[p]
	}
	return n
}

// passCount returns the entities of sliced pass p's query.
func (d *diagnoser) passCount(w *arche.World, p int) int {
	var n int
	switch p {
	case passBoards:
		q := d.boards.Query(w)
		n = q.Count()
		q.Close()
	case passTreeDecisions, passMemories:
		q := d.trees.Query(w)
		n = q.Count()
		q.Close()
	case passScores:
		q := d.reasons.Query(w)
		n = q.Count()
		q.Close()
	case passThinks:
		q := d.thinks.Query(w)
		n = q.Count()
		q.Close()
	}
	return n
}

// numPasses is the number of passes of a round after the motion pass: the
// other passes, and the world-level findings last.
const numPasses = 30

// stage runs stage i of the round begun by begin (see there).
func (d *diagnoser) stage(w *arche.World, r *Report, i int) {
	if w.IsLocked() {
		panic(diagnoseLocked)
	}
	if i < d.slices {
		to := (i + 1) * diagnoseSlice
		if i == d.slices-1 {
			to = math.MaxInt // the last slice takes the entities added since begin
		}
		if i > 0 && d.queue != nil {
			// the queue's requests as of this slice's frame, the frame whose Paths it
			// reads: a path asked for since begin waits in the queue, not path_not_queued
			clear(d.queued)
			d.queue.join()
			d.queue.requests(d.queued)
		}
		d.motionChecks(w, r, i*diagnoseSlice, to)
		return
	}
	j := i - d.slices
	for p, n := range d.passStages {
		if j >= n {
			j -= n
			continue
		}
		from, to := 0, math.MaxInt
		if cut := d.passCut[p]; cut > 0 {
			from = j * cut
			if j < n-1 { // the last slice takes the entities added since begin
				to = from + cut
			}
		}
		d.pass(w, r, p, from, to)
		return
	}
}

// pass runs pass p of a round over the entities from to to-1 of its query (in
// Arche's query order; all of them for a pass not sliced, see passSlice).
func (d *diagnoser) pass(w *arche.World, r *Report, p, from, to int) {
	in := d.in
	switch p {
	case 0:
		d.perceptionChecks(w, r)
	case 1:
		d.perKeys.check(w, r)
	case passBoards:
		d.blackboardChecks(w, r, from, to)
	case 3:
		d.states.check(w, r)
	case 4:
		d.orcaChecks(w, r)
	case 5:
		d.combatChecks(w, r)
	case 6:
		d.weaponChecks(w, r)
	case 7:
		d.lodChecks(w, r)
	case 8:
		d.lodComponentChecks(w, r, in)
	case passTreeDecisions:
		decisionChecks(w, r, d.trees, d.lacks(sysDecision), func(b *components.Brain) bool { return b.Tree != nil }, from, to)
	case passMemories:
		d.sharedMemoryChecks(w, r, from, to)
	case passScores:
		d.sharedScoresChecks(w, r, from, to)
	case 12:
		d.sharedStoreChecks(w, r)
	case 13:
		decisionChecks(w, r, d.reasons, d.lacks(sysUtility), func(b *components.UtilityBrain) bool { return b.Reasoner != nil }, 0, math.MaxInt)
	case 14:
		unreadChecks(w, r, d.reasons)
	case 15:
		d.utilKeys.check(w, r, d.systems&sysPerception != 0, d)
	case 16:
		d.ownStates.check(w, r)
	case 17:
		flipChecks(w, r, d.reasons, clockTime(w))
	case 18:
		noRandChecks(w, r, d.reasons, d.randID)
	case 19:
		decisionChecks(w, r, d.machines, d.lacks(sysFSM), func(b *components.StateMachine) bool { return b.Machine != nil }, 0, math.MaxInt)
	case 20:
		reentryChecks(w, r, d.machines)
	case 21:
		d.starvedChecks(w, r)
	case 22:
		d.intentChecks(w, r, in)
	case 23:
		plannerChecks(w, r, d)
	case 24:
		d.downed.check(w, r, d)
	case 25:
		d.downedTgt.check(w, r)
	case 26:
		allyChecks(w, r, in)
	case passThinks:
		d.thinkChecks(w, r, from, to)
	case 28:
		d.countUnplaced(w, r)
	case 29:
		d.finish(w, r)
	}
}

// starvedChecks runs starvedChecks for each live decision system with a budget
// (CauseStarved...), with a usable clock.
func (d *diagnoser) starvedChecks(w *arche.World, r *Report) {
	in := d.in
	if in == nil {
		return
	}
	c := ecs.Resource[ecs.Clock](w)
	if c == nil || clockFaultOf(c) != ClockUsable {
		return
	}
	if s := in.decision; s != nil && s.due.filter != nil && !s.due.finalized {
		starvedChecks(w, r, d.trees, &s.due, c.Time, c.DT, "Decision", s.Budget)
	}
	if s := in.utility; s != nil && s.due.filter != nil && !s.due.finalized {
		starvedChecks(w, r, d.reasons, &s.due, c.Time, c.DT, "Utility", s.Budget)
	}
	if s := in.fsm; s != nil && s.due.filter != nil && !s.due.finalized {
		starvedChecks(w, r, d.machines, &s.due, c.Time, c.DT, "FSM", s.Budget)
	}
}

// thinkChecks checks the Thinks from to to-1 (in Arche's query order): their
// values, the decision models of their agents, and counts the brains not
// thought yet (Report.Unthought).
func (d *diagnoser) thinkChecks(w *arche.World, r *Report, from, to int) {
	in := d.in
	var models decisionIDs
	models.init(w)
	hr, gr := ecs.Resource[htn.Registry](w), ecs.Resource[goap.Registry](w)
	clock := ecs.Resource[ecs.Clock](w)
	// before the first frame: the clock not started, at frame 0 and time 0, and no
	// decision system run yet (a clock stepped by hand, without an ecs.ClockSystem,
	// never starts; its Frame and Time tell a world re-Initialized or loaded after
	// its brains thought from one that has not run)
	beforeFirst := clock != nil && !clock.Started && clock.Frame == 0 && clock.Time == 0 && d.initOnce && !in.decided()
	r.diagnosed = diagnosticsRunning(w)
	q := d.thinks.Query(w)
	ok := q.Step(from + 1)
	for i := from; ok && i < to; i, ok = i+1, q.Next() {
		th := q.Get()
		m := decisionModels(w, q.Entity(), &models, hr, gr, true)
		if bits.OnesCount16(uint16(m)) > 1 {
			r.add(CauseDecisionModels, q.Entity())
		}
		if beforeFirst && m != 0 {
			r.Unthought++
		}
		if !(th.Interval >= 0) || math.IsInf(th.Interval, 1) || math.IsNaN(th.Next) || math.IsInf(th.Next, 1) {
			r.add(CauseThinkInvalid, q.Entity())
		} else if th.Interval > MaxThinkInterval {
			r.addNote(CauseThinkIntervalLong, q.Entity(), exampleNote{kind: noteInterval, pos: r2.Vec{X: th.Interval}})
		}
	}
	if ok {
		q.Close()
	}
}

// finish ends a round: the findings of the whole world (systems installed twice,
// resources replaced, the clock, the path queue's and flow field's waits).
func (d *diagnoser) finish(w *arche.World, r *Report) {
	in := d.in
	r.seen = nil
	d.in = nil
	if ecs.LiveClockSystems(w) > 1 {
		r.Twice = append(r.Twice, "clock")
	}
	r.Twice = appendTwice(w, r.Twice)
	r.Replaced = appendReplaced(w, r.Replaced)
	if rp := ecs.Resource[RestorePending](w); rp != nil && len(rp.States) > 0 {
		r.Unrestored = rp.States
	}
	r.Order = appendOrder(in, r.Order)
	r.MachinesAlike = d.alike.appendAlike(w, d.machines, r.MachinesAlike)
	dt := 1.0 / 60
	if c := ecs.Resource[ecs.Clock](w); c != nil {
		r.ClockFault, r.clockDT, r.clockTime = clockFaultOf(c), c.DT, c.Time
		if r.ClockFault == ClockDTOverMax || r.ClockFault == ClockTimeNotFinite && c.DT > MaxDT {
			r.ClockDT = c.DT // over MaxDT and finite (a DT fault comes first): the cause of an infinite Time too
		}
		if r.ClockFault == ClockUsable || r.ClockFault == ClockDTOverMax {
			dt = c.DT
		}
		if given, ok := ecs.ReplacedDT(w); ok && r.ClockFault == ClockUsable {
			r.ClockFault, r.clockDT = ClockDTReplaced, given
		}
		if n, written, step := ecs.IgnoredDT(w); n > 0 && r.ClockFault == ClockUsable {
			r.ClockFault, r.clockDT, r.clockStep, r.clockWrites = ClockDTWritten, written, step, n
		}
		if n, written := ecs.IgnoredTime(w); n > 0 && r.ClockFault == ClockUsable {
			r.ClockFault, r.clockTime, r.clockWrites = ClockTimeWritten, written, n
		}
	}
	if d.queue != nil {
		if pw := d.queue.longWaits(w, int64(math.Ceil(PathWaitLong/dt))); pw.n > 0 {
			r.PathsWaitingLong, r.PathWaitOldest = pw.n, float64(pw.oldest)*dt
			r.PathWaitJumpPoints = d.queue.jumpPointsWouldServe()
			r.PathWaitPriority, r.PathWaitOldestPriority = pw.behind, pw.prio
		}
	}
	if in != nil && in.flowField != nil && in.flowField.filter != nil && !in.flowField.finalized {
		e := &in.flowField.edits
		if e.behindFollowers > 0 && e.behindFrames >= int64(math.Ceil(FlowBehindLong/dt)) {
			r.FlowBehind, r.FlowBehindFor = e.behindFollowers, float64(e.behindFrames)*dt
		}
		if o := &in.flowField.over; o.goals > 0 && o.frames >= int64(math.Ceil(FlowBehindLong/dt)) {
			r.FlowGoalsOver, r.FlowGoalsMax, r.FlowGoalsWaiting = o.goals, in.flowField.MaxFields, in.flowField.Waiting
			if in.flowField.Sectors > 0 { // sector fields hold Capacity goals and do not grow
				r.FlowGoalsMax, r.flowGoalsSector = in.flowField.Capacity, true
			}
		}
	}
}

// FlowBehindLong is how long, in seconds of simulation time, a FlowField's
// followers may follow a field older than the grid before [Diagnose] reports
// them (Report.FlowBehind).
const FlowBehindLong = 2.0

// PathWaitLong is how long, in seconds of simulation time, a path request may
// wait in the [PathQueue] before [Diagnose] reports it (Report.PathsWaitingLong).
const PathWaitLong = 2.0

// motionChecks checks the entities from to to-1 (in Arche's query order) of
// every entity: those with a Position (counted in Agents), and those with a
// steering component but no Position. The slice that reaches the query's end
// ends the pass (CauseHeldFarFromGoal, found among all its slices' agents).
// Each slice is as of its frame: the clock read anew (a flow follower's run,
// flowLast), as flowBlocked reads it.
func (d *diagnoser) motionChecks(w *arche.World, r *Report, from, to int) {
	g := d.grid
	d.held.flowLast = flowLastCheck(clockTime(w))
	q := d.motion.Query(w) // every entity: all eleven are optional
	ok := q.Step(from + 1)
	for i := from; ok && i < to; i++ {
		pos, vel, kin, in, st, path, wt, wa, rnd, ff, des := q.Get()
		d.motionCheck(w, r, g, q.Entity(), pos, vel, kin, in, st, path, wt, wa, rnd, ff, des)
		ok = q.Next()
	}
	if ok {
		q.Close()
		return
	}
	d.far.report(w, g, r)
}

// motionCheck is motionChecks' check of entity e.
func (d *diagnoser) motionCheck(w *arche.World, r *Report, g *grid.Grid, e arche.Entity, pos *components.Position,
	vel *components.Velocity, kin *components.Kinematics, in *components.Intent, st *components.Steering,
	path *components.Path, wt *components.SteeringWeights, wa *components.Wanderer, rnd *components.Rand,
	ff *components.FlowFollower, des *components.Desired) {
	if pos == nil {
		movement := st != nil || wt != nil || wa != nil || des != nil || (asksToMove(in) && !w.Has(e, d.ownMotion))
		if movement || ff != nil || path != nil {
			r.addLacking(CauseSteerIncomplete, e, steerLacks(pos, vel, kin, in, des, st, movement))
		}
		return
	}
	if vel != nil || kin != nil || in != nil || st != nil || path != nil || wt != nil || wa != nil || rnd != nil ||
		ff != nil || des != nil || !d.points.is(w, e) {
		r.Agents++ // a focus point (a camera) is no agent: counted by countUnplaced if misconfigured
	}
	if !finiteVec(pos.Vec) {
		r.addNote(CausePosition, e, exampleNote{kind: noteVec, what: "position", pos: pos.Vec,
			then: "left out of the spatial hash and held still; give it a finite Position"})
	}
	if vel != nil && !finiteVec(vel.Vec) {
		r.addNote(CauseVelocity, e, exampleNote{kind: noteVec, what: "velocity", pos: vel.Vec, then: "Movement sets it to zero"})
	}
	if what, v, bad := modeInvalid(in, des, path); bad {
		r.addNote(CauseModeInvalid, e, exampleNote{kind: noteMode, what: what, n: uint32(v)})
	}
	if in != nil && (!finiteVec(in.Goal) || (targetMode(in.Mode) && in.Target.IsZero() && !finiteVec(in.Point))) {
		r.addNote(CauseGoal, e, needsNote("its Intent's Goal or Point is NaN or infinite"))
	}
	if asksToMove(in) && !usableSpeedFactor(in.SpeedFactor) {
		r.addNote(CauseSpeedFactor, e, exampleNote{kind: noteSpeedFactor, pos: r2.Vec{X: in.SpeedFactor}})
	}
	if in != nil && targetMode(in.Mode) && !in.Target.IsZero() && ecs.Alive(w, in.Target) &&
		(in.Target == e || !(w.Has(in.Target, d.posID) && w.Has(in.Target, d.velID))) {
		r.add(CauseTargetUnusable, e)
	}
	if in != nil && targetMode(in.Mode) && in.Target.IsZero() && in.Point.X == 0 && in.Point.Y == 0 {
		r.addNote(CauseTargetUnset, e, needsNote("no Target and Point (0, 0), the grid's corner: set Intent.Target or Intent.Point with the Mode"))
	}
	if kin != nil && !goodKinematics(kin) {
		r.addNote(CauseKinematics, e, kinematicsNote(kin))
	}
	steered := vel != nil && kin != nil && in != nil && st != nil && des != nil
	if !steered && (st != nil || wt != nil || wa != nil || ff != nil || des != nil ||
		(asksToMove(in) && !w.Has(e, d.ownMotion))) {
		r.addLacking(CauseSteerIncomplete, e, steerLacks(pos, vel, kin, in, des, st, true))
	}
	if steered && wt == nil {
		r.add(CauseWeightsMissing, e)
	}
	if wt != nil && !goodWeights(wt) {
		r.add(CauseWeightsInvalid, e)
	} else if wt != nil && kin != nil && d.stepDT > 0 {
		if lim := d.stepLimit.of(kin, wt); d.stepDT > lim {
			r.addNote(CauseStepTooLong, e, exampleNote{kind: noteStep, pos: r2.Vec{X: d.stepDT, Y: lim}})
		}
	}
	if wa != nil && !goodWander(wa) {
		r.add(CauseWanderInvalid, e)
	}
	if wa != nil && rnd == nil {
		r.add(CauseWanderNoRand, e)
	}
	if path != nil && d.lacks(sysPathQueue) {
		r.addNote(CauseNoPathQueue, e, needsNote("a Path needs systems.PathQueue"))
	}
	if path != nil && d.queue != nil && !path.Want && path.State == components.PathPending {
		if _, ok := d.queued[pathRequest{e, path.Request}]; !ok {
			r.add(CausePathNotQueued, e)
		}
	}
	if ff != nil && d.lacks(sysFlowField) {
		r.addNote(CauseNoFlowFieldSystem, e, needsNote("a FlowFollower needs systems.FlowField"))
	}
	if des != nil && d.lacks(sysPathFollow) {
		r.addNote(CauseNoPathFollowSystem, e, needsNote("a Desired needs systems.PathFollow"))
	}
	if st != nil && d.lacks(sysSteer) {
		r.addNote(CauseNoSteerSystem, e, needsNote("a Steering needs systems.Steer"))
	}
	if st != nil && vel != nil && d.lacks(sysMovement) {
		r.addNote(CauseNoMovementSystem, e, needsNote("a Velocity and a Steering need systems.Movement"))
	}
	// An unusable goal (off the grid, in a wall) is its own finding, CauseGoalUnusable:
	// the agent rests short of it whatever its separation, so it is not also held off.
	// An agent with no route (PathUnreachable: path_unreachable or path_goal_too_narrow)
	// rests short of its goal whatever its separation too, and one waiting for its path
	// (PathPending) seeks straight into any wall between: the wait is paths_waiting_long's.
	goalBad := g != nil && in != nil && in.Move && finiteVec(in.Goal) && !g.Passable(g.CellAt(in.Goal))
	if d.held.nb != nil && steered && wt != nil && in.Move && in.Mode == components.IntentGo && des.Mode != components.DesiredHold &&
		!goalBad && !unreachable(path) && !waitsForPath(path) && d.held.heldOff(w, e, pos.Vec, vel.Vec, in.Goal, kin, wt) {
		r.addNote(CauseHeldOffGoal, e, d.held.note())
	} else if d.held.nb != nil && steered && in.Move && in.Mode == components.IntentGo && des.Mode != components.DesiredHold &&
		!goalBad && !unreachable(path) && !waitsForPath(path) && !narrowGoal(g, in, kin) && d.held.blocked(w, e, pos.Vec, in.Goal, kin) {
		r.addNote(CauseBlockedByAgents, e, d.held.blockedNote(g, pos.Vec, kin))
	} else if ff != nil && ff.ProgressCheck-1 < d.held.flowLast && // a run from check 1 to flowLast (0 wraps round)
		d.held.nb != nil && d.flow != nil && steered && !asksToMove(in) &&
		d.held.flowBlocked(w, e, d.flow, pos.Vec, ff, kin) {
		r.addNote(CauseBlockedByAgents, e, d.held.blockedNote(g, pos.Vec, kin)) // a swarm jammed on its way
	}
	if steered && des.Mode == components.DesiredHold && !goalBad && !unreachable(path) && !narrowIntentGoal(g, in, kin) {
		d.far.consider(e, pos.Vec, vel.Vec, kin, in, des)
	}
	if g == nil {
		return
	}
	if steered && path == nil && d.walls && (in.Move && in.Mode == components.IntentGo || in.Mode == components.IntentPursue) {
		r.addNote(CauseMoveWithoutPath, e, moveNoPathNote(in, ff != nil)) // a pursuit follows a path round walls too (PathFollow)
	}
	switch {
	case in != nil && in.Move && in.Mode == components.IntentGo && in.Goal.X == 0 && in.Goal.Y == 0:
		r.addNote(CauseGoalUnset, e, needsNote("goal (0, 0), the zero Goal: set Intent.Goal before Move"))
	case goalBad:
		r.addNote(CauseGoalUnusable, e, goalNote(g, in.Goal))
	}
	if vel != nil && finiteVec(pos.Vec) {
		switch c := g.CellAt(pos.Vec); {
		case !g.InBounds(c):
			r.addNote(CauseOffGrid, e, placeNote(g, pos.Vec))
		case !g.Passable(c) && kin != nil: // a tower or decoy on a wall (no Kinematics: Movement never moves it) is where the game put it
			n := placeNote(g, pos.Vec)
			if _, near := g.NearestOpen(pos.Vec, 4); !near && ff != nil && (in == nil || !in.Move) {
				n.then = deepInWall // a follower aims only within 4 cells (escapeCell): it stands
			}
			r.addNote(CauseBlocked, e, n)
		}
	}
	live := path != nil && (d.livePath(w, g, path, in) || askedDirectly(g, path, in))
	if live && !g.Passable(path.Goal) &&
		!(goalBad && path.Goal == g.CellAt(in.Goal)) { // the same fault, counted as CauseGoalUnusable
		r.addNote(CausePathGoal, e, cellNote(g, path.Goal, "path goal"))
	}
	if live && g.Passable(path.Goal) {
		if kin != nil && g.Clearance(path.Goal) < grid.ClearanceFor(kin.Radius) {
			r.addNote(CausePathGoalNarrow, e, narrowNote(g, path.Goal, kin.Radius))
		} else if path.State == components.PathUnreachable {
			fit, tooWide := uint8(0), false
			if kin != nil {
				fit, tooWide = tooWideForRoute(g, pos, path.Goal, kin.Radius)
			}
			if tooWide {
				r.addNote(CausePathUnreachable, e, tooWideNote(path.Goal, kin.Radius, fit))
			} else {
				r.addNote(CausePathUnreachable, e, needsNote("walls cut its goal off: its decision should test Path.State"))
			}
		}
	}
	if path != nil && kin != nil && in != nil && (path.Want || path.State != components.PathNone) {
		// a wide agent whose goal is too narrow files its path for the
		// cell beside it where its disc fits (PathFollow's goToFit): it
		// rests there, off its goal, or, with no route its disc fits
		// (PathUnreachable), where it stands
		if gc, ok := moveGoalCell(g, in); ok && gc != path.Goal && g.Passable(gc) && kin.Radius > 0.5 &&
			g.Clearance(gc) < grid.ClearanceFor(kin.Radius) {
			if path.State == components.PathUnreachable { // no route its disc fits to the point beside the goal
				r.addNote(CausePathGoalNarrow, e, narrowRouteNote(g, pos, gc, kin.Radius))
			} else {
				r.addNote(CausePathGoalNarrow, e, narrowNote(g, gc, kin.Radius))
			}
		}
	}
	if ff != nil && !g.Passable(ff.Goal) {
		r.addNote(CauseFlowGoal, e, cellNote(g, ff.Goal, "flow goal"))
	}
	// a follower standing (no direction, not at rest) is cheap to find: only
	// those have their field looked up (flowCut)
	if ff != nil && d.flow != nil && ff.Has && !ff.Steer && !ff.Arrived && ff.Active == ff.Goal &&
		!(in != nil && (in.Mode != components.IntentGo || in.Move && finiteVec(in.Goal))) && finiteVec(pos.Vec) &&
		!(wideFollower(kin) && d.flow.sector == nil) && g.Passable(ff.Goal) {
		if c := g.CellAt(pos.Vec); g.Passable(c) && d.flowCut(ff.Goal, c) {
			r.addNote(CauseFlowUnreachable, e, exampleNote{kind: noteFlowCut, cell: c, to: ff.Goal})
		}
	}
	if ff != nil && d.wide != nil && kin != nil && d.wide.spacing > 0 && 2*kin.Radius > flowSpacingSlack*d.wide.spacing {
		r.addNote(CauseFlowFollowerSpacing, e, needsNote(fmt.Sprintf("its diameter %.3g is wider than FlowField.Spacing %.3g: set Spacing to at least the widest follower's diameter", 2*kin.Radius, d.wide.spacing)))
	}
	if ff != nil && d.wide != nil && wideFollower(kin) {
		if _, sealed := d.sealed[e]; sealed {
			// walls cut it off whatever its width (a door closed): the cause a
			// point follower would get, not its width
			if c := g.CellAt(pos.Vec); finiteVec(pos.Vec) && g.Passable(c) && g.Passable(ff.Goal) && !g.Connected(c, ff.Goal) {
				r.addNote(CauseFlowUnreachable, e, exampleNote{kind: noteFlowCut, cell: c, to: ff.Goal})
			} else {
				r.addNote(CauseFlowFollowerWide, e, needsNote("no way at least as wide as its disc to its goal: it stands"))
			}
		} else if d.wide.sectors && d.walls {
			r.addNote(CauseFlowFollowerWideSector, e, needsNote("whole-grid flow fields: sector fields lead it through gaps narrower than its disc"))
		}
	}
}

// flowCut reports whether the field the world's FlowField last served towards
// goal has no route from cell c (CauseFlowUnreachable): a whole-grid field
// complete and current whose Next is false at c, or a sector field whose
// Integration is +Inf there. False when it holds no field for goal.
func (d *diagnoser) flowCut(goal, c grid.Cell) bool {
	if sf := d.flow.sector; sf != nil {
		for i := range sf.goals {
			if sf.goals[i].goal == goal {
				f := sf.goals[i].field // stale: the grid edited (a door opened) since FlowField last ran
				return !f.Stale() && math.IsInf(f.Integration(c), 1)
			}
		}
		return false
	}
	for i := range d.flow.goals {
		if d.flow.goals[i].goal != goal {
			continue
		}
		f := d.flow.goals[i].field
		if !f.Done() || f.Stale() { // a build or rebuild under way: its answer is not the grid's
			return false
		}
		_, ok := f.Next(c)
		return !ok
	}
	return false
}

// perceptionChecks counts Perceptions without a Position, a Think or a
// Faction.
func (d *diagnoser) perceptionChecks(w *arche.World, r *Report) {
	q := d.perceivers.Query(w)
	for q.Next() {
		_, pos, th, fac := q.Get()
		if pos == nil || th == nil || fac == nil {
			r.addLacking(CausePerceptionIncomplete, q.Entity(),
				lackIf(pos == nil, lackPosition)|lackIf(th == nil, lackThink)|lackIf(fac == nil, lackFaction))
		} else if d.late != 0 {
			if i, ok := d.deciders.lateDecider(w, q.Entity(), d.late); ok {
				r.addNote(CausePerceptionAfterDecision, q.Entity(), exampleNote{kind: noteNeeds, what: perceptionLateNote(i)})
			}
		}
		if d.lacks(sysPerception) {
			r.addNote(CauseNoPerceptionSystem, q.Entity(), needsNote("a Perception needs systems.Perception"))
		}
	}
}

// countUnplaced adds to r.Agents the misconfigured entities (r.seen) without a
// Position, which motionChecks did not count: a decision component, a Path or a
// steering component on an entity without one; and the misconfigured focus
// points that are no agent (a camera with a NaN Position), which it did not count
// either. An entity removed since it was counted (a round spread over frames) is
// not looked at.
func (d *diagnoser) countUnplaced(w *arche.World, r *Report) {
	for e := range r.seen {
		if w.Alive(e) && (!w.Has(e, d.posID) || d.points.is(w, e)) {
			r.Agents++
		}
	}
}

// blackboardChecks counts, among the Brains from to to-1 (in Arche's query
// order), those whose tree has blackboard keys but whose agent has no store of
// the tree's schema.
func (d *diagnoser) blackboardChecks(w *arche.World, r *Report, from, to int) {
	q := d.boards.Query(w)
	ok := q.Step(from + 1)
	for i := from; ok && i < to; i, ok = i+1, q.Next() {
		b, bb := q.Get()
		if b.Tree == nil {
			continue
		}
		if i, secs, ok := b.Tree.LongestTimer(); ok && secs > MaxTreeTimer {
			r.addNote(CauseTreeTimerLong, q.Entity(), exampleNote{kind: noteTreeTimer, what: b.Tree.NodeName(i), pos: r2.Vec{X: secs}})
		}
		schema := b.Tree.Schema()
		if schema == nil || schema.Keys() == 0 { // keys removed by Truncate (a failed build) are none
			if note, ok := d.unstoredNote(q.Entity(), b.Tree, bb); ok {
				r.addNote(CauseBlackboardMissing, q.Entity(), needsNote(note))
			}
			continue
		}
		if bb == nil || bb.Store == nil || bb.Store.Schema() != schema {
			r.add(CauseBlackboardMissing, q.Entity())
		} else if key, ok := b.Tree.UnwrittenKey(bb.Store); ok {
			r.addNote(CauseBlackboardKeyUnwritten, q.Entity(), exampleNote{kind: noteKey, what: key, then: b.Tree.Name()})
		}
	}
	if ok {
		q.Close()
	}
}

// unreadChecks counts the utility agents whose considerations could not read them,
// those whose inputs fell outside [0, 1] under a zero Range, and those whose last
// decision read a NaN input.
func unreadChecks(w *arche.World, r *Report, f *generic.Filter4[components.UtilityBrain, components.Think, components.Position, components.Intent]) {
	q := f.Query(w)
	for q.Next() {
		b, _, _, _ := q.Get()
		if b.State.Unread > 0 {
			r.addNote(CauseUtilityFactWrongType, q.Entity(), needsNote("a consideration's Input could not read the agent: "+
				"a utility.Fact of another type than *systems.Agent, or a utility.KeyInput of the zero blackboard.Key, a key never declared"))
		}
		if b.State.NoBlackboard > 0 {
			r.addNote(CauseBlackboardMissing, q.Entity(), needsNote("a utility.KeyInput consideration reads a blackboard key: "+
				"give the agent a Blackboard whose Store is made from the key's schema"))
		}
		if b.State.Clamped > 0 {
			r.addNote(CauseUtilityInputOutOfRange, q.Entity(), needsNote("an input outside [0, 1] under a consideration's zero Range: set its Range"))
		}
		if b.State.NaNInputs > 0 {
			r.addNote(CauseUtilityInputNaN, q.Entity(), nanInputNote("", &b.State))
		}
	}
}

// decisionChecks checks the agents from to to-1 (in Arche's query order) of f's
// decision component B: a Think, a Position and an Intent, ready (a Tree, ...),
// the decision system installed (noSystem: not).
func decisionChecks[B any](w *arche.World, r *Report, f *generic.Filter4[B, components.Think, components.Position, components.Intent],
	noSystem bool, ready func(*B) bool, from, to int) {
	need := exampleNote{kind: noteNeeds, what: decisionNeeds(any((*B)(nil)))}
	q := f.Query(w)
	ok := q.Step(from + 1)
	for i := from; ok && i < to; i, ok = i+1, q.Next() {
		b, th, pos, in := q.Get()
		e := q.Entity()
		switch {
		case th == nil:
			r.add(CauseThinkMissing, e)
		case pos == nil || in == nil:
			r.addLacking(CauseDecisionIncomplete, e, lackIf(pos == nil, lackPosition)|lackIf(in == nil, lackIntent))
		}
		if !ready(b) {
			r.add(CauseBrainEmpty, e)
		}
		if noSystem {
			r.addNote(CauseNoDecisionSystem, e, need)
		}
	}
	if ok {
		q.Close()
	}
}

// decisionModels returns the decision systems (sysDecision, sysUtility, sysFSM,
// sysHTN, sysGOAP) whose component e has with what the system needs to run it: a
// Tree, a Reasoner, a Machine; for an HTN or GOAP planner, a domain of hr or gr, or
// none asked when resolve is false (see CauseDecisionModels, CauseDownedStillActing).
func decisionModels(w *arche.World, e arche.Entity, ids *decisionIDs, hr *htn.Registry, gr *goap.Registry, resolve bool) systemSet {
	var set systemSet
	if id := ids[bitIndex(sysDecision)]; w.Has(e, id) && (*components.Brain)(w.Get(e, id)).Tree != nil {
		set |= sysDecision
	}
	if id := ids[bitIndex(sysUtility)]; w.Has(e, id) && (*components.UtilityBrain)(w.Get(e, id)).Reasoner != nil {
		set |= sysUtility
	}
	if id := ids[bitIndex(sysFSM)]; w.Has(e, id) && (*components.StateMachine)(w.Get(e, id)).Machine != nil {
		set |= sysFSM
	}
	if id := ids[bitIndex(sysHTN)]; w.Has(e, id) {
		b := (*components.HTNPlanner)(w.Get(e, id))
		if !resolve {
			set |= sysHTN
		} else if hr != nil {
			if d, _ := hr.Resolve(b.Name, b.Domain); d != nil {
				set |= sysHTN
			}
		}
	}
	if id := ids[bitIndex(sysGOAP)]; w.Has(e, id) {
		b := (*components.GOAPPlanner)(w.Get(e, id))
		if !resolve {
			set |= sysGOAP
		} else if gr != nil {
			if d, _ := gr.Resolve(b.Name, b.Domain); d != nil {
				set |= sysGOAP
			}
		}
	}
	return set
}

// asksToMove reports whether in (nil: no Intent) asks the movement pipeline
// for something: a move (Move), or to flee, pursue or evade a target. What
// PathFollow makes of it (a NaN goal is no goal) is not considered: the
// intent needs the movement components either way.
// usableSpeedFactor tells whether f is an Intent.SpeedFactor PathFollow honours as
// given: 0 (full speed) or a fraction in (0, 1]. Any other (NaN, ±Inf, negative, over
// 1) it reads as 1 (see speedFactor), which Diagnose counts as CauseSpeedFactor.
func usableSpeedFactor(f float64) bool { return f == 0 || f > 0 && f <= 1 }

func asksToMove(in *components.Intent) bool {
	if in == nil {
		return false
	}
	switch in.Mode {
	case components.IntentFlee, components.IntentPursue, components.IntentEvade:
		return true
	case components.IntentGo:
		return in.Move
	}
	return false // no mode: PathFollow takes it as no move intent (CauseModeInvalid)
}

func goodKinematics(k *components.Kinematics) bool {
	return UsableKinematics(k) && k.Radius > 0
}

func goodWeights(wt *components.SteeringWeights) bool {
	// each weight ≥ 0 and finite (NaN fails both comparisons), written out: the
	// loop over an array of the six took a tenth of a check at 100,000 agents
	good := func(v float64) bool { return v >= 0 && v <= math.MaxFloat64 }
	return good(wt.Wall) && good(wt.Separation) && good(wt.SeparationRadius) && good(wt.Alignment) &&
		good(wt.Cohesion) && good(wt.NeighbourRadius)
}

func goodWander(wa *components.Wanderer) bool {
	ok := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	return ok(wa.Distance) && ok(wa.Radius) && ok(wa.Jitter) && ok(wa.Response) && ok(wa.Angle) &&
		wa.Distance >= 0 && wa.Radius > 0 && wa.Jitter > 0 && wa.Response >= 0
}

// hasWalls reports whether g has a blocked cell.
func hasWalls(g *grid.Grid) bool {
	for _, c := range g.Costs() {
		if c > math.MaxFloat32 { // grid.Blocked
			return true
		}
	}
	return false
}

// sharedMemoryChecks counts, among the Brains from to to-1 (in Arche's query
// order), those whose node memory is another Brain's met before in the pass
// (CauseMemoryShared): two Memories share their nodes when their first nodes
// are one. The pass begins at from 0.
func (d *diagnoser) sharedMemoryChecks(w *arche.World, r *Report, from, to int) {
	if from == 0 {
		d.memories.reset()
	}
	q := d.trees.Query(w)
	ok := q.Step(from + 1)
	for i := from; ok && i < to; i, ok = i+1, q.Next() {
		b, _, _, _ := q.Get()
		nodes := b.Memory.Nodes()
		if len(nodes) == 0 {
			continue
		}
		if d.memories.meet(unsafe.Pointer(&nodes[0])) {
			r.add(CauseMemoryShared, q.Entity())
		}
	}
	if ok {
		q.Close()
	}
}

// sharedScoresChecks counts, among the UtilityBrains from to to-1, those whose
// State's Scores are another's met before in the pass (CauseMemoryShared), as
// sharedMemoryChecks does the Brains (and after them).
func (d *diagnoser) sharedScoresChecks(w *arche.World, r *Report, from, to int) {
	if from == 0 {
		d.scoresMet.reset()
	}
	q := d.reasons.Query(w)
	ok := q.Step(from + 1)
	for i := from; ok && i < to; i, ok = i+1, q.Next() {
		b, _, _, _ := q.Get()
		if len(b.State.Scores) == 0 {
			continue
		}
		if d.scoresMet.meet(unsafe.Pointer(&b.State.Scores[0])) {
			r.add(CauseMemoryShared, q.Entity())
		}
	}
	if ok {
		q.Close()
	}
}

// sharedStoreChecks counts under CauseBlackboardShared every agent whose Blackboard's
// Store another agent met before holds too.
func (d *diagnoser) sharedStoreChecks(w *arche.World, r *Report) {
	d.boardsMet.reset()
	q := d.stores.Query(w)
	for q.Next() {
		st := q.Get().Store
		if st == nil {
			continue
		}
		if d.boardsMet.meet(unsafe.Pointer(st)) {
			r.add(CauseBlackboardShared, q.Entity())
		}
	}
}

// starvedChecks counts under CauseDecisionStarved the agents of f still due at now
// (frame step dt) when t, the system called name with its Budget budget, has left
// agents waiting for DecisionWaitLong seconds of frames in a row. The example's note is
// the longest any of them has been due.
func starvedChecks[B any](w *arche.World, r *Report, f *generic.Filter4[B, components.Think, components.Position, components.Intent],
	t *thinkers[B], now, dt float64, name string, budget int) {
	if budget <= 0 || t.Waiting <= 0 || float64(t.backlog)*dt < DecisionWaitLong {
		return
	}
	counted := r.Counts[CauseDecisionStarved]
	longest := 0.0
	limit := dueLimit(now, dt)
	q := f.Query(w)
	for q.Next() {
		_, th, _, _ := q.Get()
		if th == nil || !due(th, now, limit) {
			continue
		}
		r.add(CauseDecisionStarved, q.Entity())
		if th.Last <= now {
			longest = max(longest, now-th.Next)
		}
	}
	if r.Counts[CauseDecisionStarved] > counted && (counted == 0 || longest > r.notes[CauseDecisionStarved].pos.X) {
		r.notes[CauseDecisionStarved] = exampleNote{kind: noteStarved, what: name,
			pos: r2.Vec{X: longest, Y: float64(t.backlog) * dt}, h: budget, w: t.Waiting}
	}
}

// targetMode reports whether m is a Mode with a target (IntentFlee, IntentPursue,
// IntentEvade): not IntentGo, nor a value past IntentEvade (CauseModeInvalid).
func targetMode(m components.IntentMode) bool {
	return m >= components.IntentFlee && m <= components.IntentEvade
}

// modeInvalid returns the first field of in, des and path (each may be nil)
// holding no constant of its type, "Intent.Mode", "Desired.Mode" or "Path.State",
// and its value, and whether there is one (CauseModeInvalid).
func modeInvalid(in *components.Intent, des *components.Desired, path *components.Path) (string, uint8, bool) {
	switch {
	case in != nil && in.Mode > components.IntentEvade:
		return "Intent.Mode", uint8(in.Mode), true
	case des != nil && des.Mode > components.DesiredHold:
		return "Desired.Mode", uint8(des.Mode), true
	case path != nil && path.State > components.PathUnreachable:
		return "Path.State", uint8(path.State), true
	}
	return "", 0, false
}
