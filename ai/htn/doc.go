// Package htn is hierarchical task network planning for game agents, in the form games
// use it (Killzone 2, Transformers, Horizon Zero Dawn; T. Humphreys, "Exploring HTN
// Planners through Example", Game AI Pro ch. 12, 2014; the fluid-htn library's model):
// a domain of compound tasks, each with methods tried in order, and primitive tasks with
// conditions, effects and an operator that runs over frames. It imports ai/blackboard and
// ai/script (the language of conditions and effects in data files) and knows nothing of
// Arche: the ECS side is systems.HTN.
//
// # Model
//
//   - A world [State] is MaxFacts small integer facts (int32) named in the domain; a
//     boolean fact is 0 or 1. It is a plain array: copied, compared and saved as JSON
//     without a pointer.
//   - A primitive task has conditions ([Condition]), effects ([Effect]) and an
//     [Operator] returning Running, Success or Failure. A compound task has methods
//     ([Method]): conditions and a list of subtasks.
//   - Conditions and effects are written in Go ([Is], [Func], [Set], [Add], [Do]) or as
//     scripts of package ai/script (the behavior trees' language; each fact is an int64
//     entry of the domain's blackboard schema): [Builder.Script], [Builder.ScriptEffect]
//     and the JSON domain files of [Registry.LoadJSON].
//
// # Planning
//
// [Planner.Plan] decomposes the root task depth first on a copy of the state: a
// primitive task whose conditions hold joins the plan and its effects apply to the copy;
// a compound task tries its methods in order and takes the first whose conditions hold
// and whose subtasks all decompose, in order (if one fails, the state and plan are rolled
// back to before the method and the next method is tried). As in fluid-htn, a compound
// task that decomposed is not revisited when a later sibling fails: the method that
// contains both fails as a whole. The plan records the index of the method chosen at
// each decomposition, in order (the method traversal record, MTR) and the set of facts
// its decomposition read. Decomposition allocates nothing; it fails with ErrDepth past
// MaxDepth nested compound tasks (a recursive domain), with ErrLength past MaxPlan
// primitive tasks and with ErrBudget past Planner.MaxVisits visited tasks (methods that
// backtrack exponentially), so no domain file makes planning hang.
//
// Important: a method that ErrDepth or ErrLength cuts short fails like one whose
// conditions do not hold, so a later method may stand in: a recursion without a base
// condition (Loop: [Step, Loop] | [], where nothing stops Loop from recursing) plans
// as many Steps as the limits allow (31, with Plan error nil) rather than failing, and
// the agent carries them out and plans again. Give such a recursion a condition that
// ends it. (ErrBudget is different: a spent budget fails the whole planning, since the
// search stopped everywhere, not on one branch.)
//
// # Execution and replanning
//
// [Run] is one agent's plan being carried out, plain data kept in a component.
// [Domain.Tick] runs the current task's operator, applies its effects when it succeeds,
// and replans from the root when:
//   - there is no plan (none yet, or the last one completed);
//   - a task's conditions do not hold when it is about to start, its While conditions
//     (fluid-htn's executing conditions) fail while it runs, or its operator fails (the
//     plan is dropped);
//   - a fact that the plan's decomposition read (a condition evaluated, or an effect
//     applied that derives a fact from it) has changed since the last think (the
//     world changed in a way the plan depends on): the new plan replaces the running
//     one only if its MTR is lexicographically smaller, i.e. it uses a method of higher
//     priority at the first decomposition where they differ (fluid-htn's rule). The
//     running task is then halted.
package htn
