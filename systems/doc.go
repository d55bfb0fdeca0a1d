// Package systems holds archai's ECS systems. Each has the method set of
// arche-model's model.System (Initialize, Update, Finalize), so it plugs into
// model.New().AddSystem unchanged, or into archai's own [ecs.Scheduler].
//
// A frame runs, in this order:
//
//  1. [ecs.ClockSystem] advances the clock.
//  2. [Spatial] rebuilds the spatial hash of every agent (the [Neighbours] resource).
//  3. [Perception] finds, for each agent about to think, the nearest visible foe.
//  4. [Decision] ticks the behavior tree of each agent whose think time is due.
//  5. [PathQueue] serves path requests within a per-frame budget.
//  6. [Combat] applies the attacks the decision layer asked for.
//  7. [Steer] turns intents and paths into steering forces.
//  8. [Movement] integrates forces into velocities and positions, never into a blocked cell.
//
// Systems find the map as a *grid.Grid world resource (add it with
// arche.AddResource before Initialize). Filters and component maps are built
// once in Initialize; a fresh query is made each Update; structural changes
// are deferred with [ecs.Commands] until the query loop is closed.
//
// Arche's package is imported as arche throughout (see package ecs).
package systems
