// Package goap is goal-oriented action planning: an A* search over world states for the
// cheapest sequence of actions that reaches a goal, as in F.E.A.R. (J. Orkin, "Three
// States and a Plan: The A.I. of F.E.A.R.", GDC 2006). It imports nothing of archai and
// knows nothing of Arche: the ECS side is systems.GOAP.
//
// # Model
//
//   - A world [State] is MaxFacts small integer facts (int16), named once in a [Builder]
//     ([Builder.Fact]); a boolean fact is 0 or 1. A state is a plain array: copied,
//     compared and hashed without allocating, saved as JSON as a list of numbers.
//   - An [Action] has preconditions ([Cond]: fact, comparison, value), effects ([Effect]:
//     set or add a value), a cost > 0 and an optional [Operator] that carries it out over
//     several frames, returning Running, Success or Failure.
//   - A [Goal] is a set of conditions with a priority. [Planner.PlanBest] tries the goals
//     that do not hold yet from the highest priority down and returns the first goal's
//     cheapest plan; a goal whose search runs out of the node budget stops it with
//     [ErrBudget] (a plan may exist), never handing the agent a lower goal instead.
//   - [Builder.Build] validates and freezes a [Domain], shared by every agent. A
//     [Registry] holds domains by ID and name: an agent's component stores the name (the
//     truth, saved) and caches the ID; [Registry.Resolve] finds one from the other.
//
// # Search
//
// [Planner.Plan] is A* (Hart, Nilsson and Raphael 1968) forward from the start state:
// nodes are paths (a state, g the summed cost of the actions, and their number), edges
// actions whose preconditions hold. Plans are at most MaxSteps actions long, and the
// search is exact within that bound: a path is dropped only for another path to the same
// state that is no dearer and no longer, so a dearer but shorter path to a state reached
// cheaply near the bound is kept (only it may still reach the goal in MaxSteps actions);
// with an admissible heuristic the plan is a cheapest of at most MaxSteps actions, and
// [ErrPlanTooLong] means there is none.
//
// The default heuristic is h = max(minCost·⌈|F| / E⌉, max over f in F of minCost(f)),
// where F is the set of facts that some unsatisfied goal condition is on, E the most
// distinct facts one action's effects write, minCost the cheapest action's cost and
// minCost(f) the cost of the cheapest action with an effect on f (0 if none does). Every
// fact of F must be written on the way to the goal, so a plan holds at least ⌈|F| / E⌉
// actions and one action writing f: h never overestimates (it is admissible, and
// consistent), and the returned plan is a cheapest one (Orkin's GOAP needs the same of
// its A*). Conditions count by fact: one effect can satisfy several conditions on its
// fact, so counting conditions would overestimate. [ZeroHeuristic]
// turns A* into Dijkstra's search. A user heuristic must be admissible for the plan to
// be cheapest; an inconsistent one is handled (a state reached again more cheaply after
// its expansion is expanded again). The search stops with [ErrBudget] after
// Planner.MaxNodes generated nodes. Ties in f are broken by the lower h, then by the
// order nodes were generated, so the plan is the same on every run and any worker.
//
// Before searching, the planner checks a relaxation: a condition may come to hold if
// it holds in the start state or an effect of an action that may start can make it true
// (a set to a value it holds for, or any add), an action may start when each of its
// preconditions may hold, repeated until nothing changes. Every plan passes the check,
// so a goal that fails it has no plan of any length: [ErrUnreachable] at once, instead
// of a search that runs out of states or, where adds make the states unbounded, out of
// its budget. [Domain.WhyNoPlan] explains such a goal. [Builder.Build] refuses a goal
// condition no action's effect can make true from any state ([ErrNeverTrue]). A goal
// the check lets through may still have no plan (its conditions made true only one at
// a time, a value the actions never hit): the search then ends in plain [ErrNoPlan],
// and [Domain.WhyNeverReached], for diagnostics, explores every state the actions
// reach (at most [NeverReachedStates]) to say so.
//
// # Sensed facts
//
// Some facts are written by perception, not by actions: the domain's Sense hook
// ([Builder.Sense]) or a system that writes the agent's state sets "enemy visible" or
// "under fire", as the sensors of F.E.A.R. write its working memory. A precondition on
// such a fact that the state lacks leaves the planner with no plan ([ErrUnreachable]),
// which is right: the agent waits. [Builder.Sensed] declares these facts so that the
// diagnosis can tell waiting from a broken domain: [Domain.AwaitsPerception] reports a
// goal that may have a plan once sensed facts change (a precondition on a sensed fact may
// come to hold; a goal's own condition must still be made true by an action that can
// then start, even on a sensed fact: "hungry == 0" with every Eat blocked for good is a
// fault of the domain, not a wait), [Domain.WhyNoPlan] explains it as
// waiting for perception, and systems.Diagnose does not count the agent, while a fact
// that no action's effect sets and nothing declares sensed stays a fault of the domain
// (planner_domain_error). The declaration changes no search and no plan.
//
// A search allocates nothing once the planner's buffers have grown (a node arena, a
// binary heap and an open-addressing hash table with generation stamps, so nothing is
// cleared between searches).
//
// # Execution
//
// [Run] is one agent's plan being carried out: plain data (the plan's action IDs, the
// step, the step's start time) kept in a component. [Domain.Tick] advances it on the
// agent's current state: it plans when there is no plan, starts each step after
// checking its preconditions, runs the step's operator, applies the step's effects
// when the operator succeeds, and replans when a step fails, when the next step's
// preconditions no longer hold, or when the state changed (see [Domain.Tick]) so that
// the rest of the plan no longer reaches its goal.
package goap
