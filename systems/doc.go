// Package systems holds archai's ECS systems. Each has the method set of
// arche-model's model.System (Initialize, Update, Finalize), so it plugs into
// model.New().AddSystem unchanged, or into archai's own [ecs.Scheduler].
//
// A frame runs, in this order (leave out what a game does not use):
//
//  1. [ecs.ClockSystem] advances the clock.
//  2. [LOD] sets each agent's level of detail and think rate from its
//     distance to the focus points, freezing the far ones.
//  3. [Spatial] rebuilds the spatial hash of every agent (the [Neighbours] resource).
//  4. [Perception] finds, for each agent about to think, the nearest visible
//     foe in range, field of view and line of sight, and remembers it.
//  5. Decision, one system per model, each ticking the agents whose think
//     time is due: [Decision] (behavior trees), [Utility] (utility reasoners),
//     [FSM] (state machines), [HTN] and [GOAP] (planners).
//  6. [PathQueue] serves path requests within a per-frame budget.
//  7. [Combat] applies the attacks the decision layer asked for. With
//     PathQueue.Overlap, the queue's searches run on a helper beside Combat
//     (which reads no Path) until its [PathJoin], placed right after Combat.
//  8. [FlowField] serves shared flow fields to swarms and samples them.
//  9. [PathFollow] turns intents, paths and flow fields into where each agent
//     heads (a [components.Desired]): repath policy, waypoints, stuck detection.
//  10. [Steer] turns Desired, neighbours and walls into steering forces.
//  11. [ORCA], if any agent avoids with it (the [Avoider] bundle, or
//     [Motion].Avoid = AvoidORCA), rewrites those agents' forces.
//  12. [Movement] integrates forces into velocities and positions, never into
//     a blocked cell.
//
// Local avoidance is a choice per agent: separation (a force in [Steer]), or
// ORCA (the [ORCA] system, after Steer and before Movement, for the agents
// with a components.ORCA, spawned with the [Avoider] bundle), which rewrites
// the steering force so that Movement reaches the collision-free velocity.
//
// Systems find the map as a *grid.Grid world resource (add it with
// arche.AddResource before Initialize) and keep the one they found until their
// next Initialize. To change the map, edit that grid (Grid.SetCost: doors,
// bridges; held paths are repathed); to load another map, Finalize the systems,
// replace the resource and Initialize them again (a level restart). A grid
// resource swapped between two Updates is not seen: agents keep walking the
// old map's walls ([Diagnose] names it in [Report.Replaced]). Filters and component maps are built once in Initialize; a
// fresh query is made each Update; structural changes are deferred with
// [ecs.Commands] until the query loop is closed.
//
// Per-agent work (the spatial hash's sort, perception, decision, flow
// sampling, path following, steering, ORCA, movement)
// can be split over worker goroutines ([ecs.Workers]): the systems gather
// their agents' component pointers on the main goroutine, the workers compute
// without touching the World's structure, and results are merged in agent
// order, so the state hash is the same for any number of workers. Steady
// state allocates nothing.
//
// No result of the perception, decision, path queue or combat systems
// depends on Arche's storage order, which differs after a world is saved and
// loaded: of foes at the same distance [Perception] picks the lowest entity
// ID; a decision budget takes the agents due the longest (Think.Next, then
// entity ID) and commands queued by leaves are applied by entity ID;
// [PathQueue] numbers the requests of a frame by entity ID and serves by
// (priority, that number); [Combat] applies strikes by attacker entity ID.
//
// Agents are made from bundles with documented defaults: [Mover], [Wanderer],
// [FlowFollower], [Thinker], [Combatant], [Avoider] and [With] for components of your own,
// combined once by a [Spawner] that creates agents with Arche's Builder, one at a time
// or in batches, each with its own seed.
//
// To ask what an agent has: a leaf, consideration, action or hook reads any
// component of its agent with [Get] and asks for one with [Has] ([GetOf] for
// another entity), allocation-free once warm. A system of your own asks Arche:
// generic.Map[T] (generic.NewMap[T](w), one type) has Has and Get, while
// generic.Map1…MapN, made to create and read entities, have no Has; w.Has(e,
// arche.ComponentID[T](w)) works anywhere. What an agent lacks for an archai
// system is a finding of [Diagnose], and [Report.Lacks] names the components.
//
// [StateHash] hashes the world's whole state (order-free) for determinism checks and
// to prove a restore; the [Arena] resource holds every buffer archai components point
// to, so removing agents is safe; package systems/save saves and loads worlds.
//
// # The user's contract
//
// Each system's doc lists the components it requires, reads optionally and
// writes, and the resources it needs, with a table of what it does when a
// component is absent or holds a value it cannot use: either a documented
// opt-out (no Wanderer: the agent brakes instead of wandering) or a
// misconfiguration that [Diagnose] counts by [Cause], with one example entity
// per cause (a Wanderer without a Rand: [CauseWanderNoRand]). Call [Diagnose]
// after spawning, or add the [Diagnostics] system to check every few frames
// without allocating; print the [Report] or read its Counts.
//
// A missing resource, or a system order that cannot work, is a programming
// error: Initialize panics with a message naming what is missing and how to
// add it (the clocked systems without [ecs.ClockSystem] before them, PathFollow,
// Steer, ORCA and Perception without [Spatial] before them, the map users without a
// *grid.Grid, an [ORCA] initialized before Steer or after Movement: it must come
// between them, or no agent avoids). An order that works badly but can work is a
// finding of [Diagnose] instead (the frame's order is the order of Initialize,
// which ecs.Scheduler and arche-model keep for Update): Perception after a
// decision system, whose agents then never perceive (the decision has moved their
// Think.Next on before Perception looks for the agents about to think), is counted
// per agent as [CausePerceptionAfterDecision]; orders that work a frame late
// (Movement before Steer, Steer before PathFollow, a decision system or FlowField
// after PathFollow, Combat before a decision system, LOD after Perception or a
// decision system) are listed in [Report].Order. Bad data never panics or hangs: an agent with a NaN or infinite
// position or velocity, or unusable [components.Kinematics], stands still and
// never reaches its neighbours' forces; a NaN goal is no goal; any dt ends
// (see [Movement]). A clock step over [MaxDT] seconds, usually milliseconds
// given for seconds, is a finding of [Diagnose] ([Report.ClockDT]), as is a NaN,
// infinite or ≤ 0 step or a NaN or infinite time set by a program on its own
// Clock resource, or the Clock's DT written alone while an ecs.ClockSystem steps it
// ([Report.ClockFault]), a think interval over
// [MaxThinkInterval] ([CauseThinkIntervalLong]), a move intent whose goal was
// never set, (0, 0) ([CauseGoalUnset]), and a flee, pursue or evade intent with
// no Target and its Point never set, (0, 0) ([CauseTargetUnset]).
//
// # Life cycle
//
// A system runs Initialize once on a world, then Update once a frame, then Finalize
// (ecs.Scheduler or arche-model's model does it in that order):
//
//   - A fault of setup found by Initialize (a missing resource, an unusable
//     setting, an order of systems that cannot work) panics with an
//     *ecs.SetupError naming the system and the fix; ecs.Scheduler.InitializeChecked
//     returns it as an error (errors.Is ecs.ErrMissingResource, ErrSettings or
//     ErrOrder) after finalizing the systems initialized before and putting the
//     world's resources back as they were, so the same schedule can be
//     initialized again once the world is fixed. Under arche-model, whose
//     model.Run gets the panic, ecs.CheckSetup(w, systems...) before it returns
//     the error (it initializes and finalizes the systems once).
//   - Update before Initialize is a programming error: every system panics with a
//     message naming it ("systems: Steer.Update called before Initialize: ..."),
//     as ecs.ClockSystem does (Update returns nothing, under arche-model as under
//     ecs.Scheduler, so there is no error to return). A system added to an
//     ecs.Scheduler after its Initialize is initialized by Add at once
//     (ecs.Scheduler.AddChecked returns a fault of setup as an error), so a
//     schedule does not get there; arche-model's AddSystem after its
//     initialization panics itself.
//   - After Finalize, the same system value may be initialized on another world (a
//     level restart) and then runs exactly as a fresh value would there: Initialize
//     builds its filters, columns and workers anew, drops what it held of the last
//     world (the path queue's searches) and starts its counters since Initialize at
//     0. The settings are kept, with the defaults Initialize filled in.
//   - Update after Finalize, with no Initialize since, is a programming error too:
//     every system panics naming it ("systems: Steer.Update called after Finalize:
//     ..."), with workers or without. Finalize before Initialize, or twice, releases
//     nothing and does not panic.
//   - Each archai system should be installed once: a second copy (the same value added
//     twice, or two values of one type) runs twice a frame and does its work twice (two
//     Movements move agents twice as far). [Diagnose] names such systems in
//     [Report].Twice. A schedule counts as installed until it is finalized: finalize
//     one before initializing another on the same world.
//   - User code run by the decision systems (tree leaves, utility considerations and
//     actions, state-machine hooks, HTN and GOAP operators) runs with the world
//     locked by an open Arche query: a structural change made on the World directly
//     panics, on any worker, with a message naming the system and Agent.Commands
//     and ending with Arche's "attempt to modify a locked world"; the panic reaches
//     Update's caller (see [Agent]). Queue changes on Agent.Commands.
//
// To see a world: package systems/debugview is a live debugger in the
// browser (a system to add last, and an http.Handler), and package
// systems/render draws maps, agents and flow fields into PNG and GIF
// pictures captioned with the simulation time and a legend.
//
// Arche's package is imported as arche throughout (see package ecs).
package systems
