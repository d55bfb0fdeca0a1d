// Package components holds archai's ECS components: plain data structs, no
// methods with logic and no pointers to other components. Systems in package
// systems read and write them; the pure packages (ai/..., nav/...) define the
// types some of them embed.
//
// Units: positions in cells (cell (x, y) covers [x, x+1)×[y, y+1)), velocities
// in cells per second, forces in cells per second², times in seconds of
// simulation time.
//
// # Outline
//
//   - Motion: [Position], [Velocity], [Kinematics], [Steering],
//     [SteeringWeights], [Wanderer], [Progress] (stuck detection).
//   - Identity and state: [Faction], [Health], [Weapon], [Rand].
//   - Decision: [Brain] (shared behavior tree + this agent's node memory),
//     [UtilityBrain], [StateMachine], [Think] (cadence), [LOD] and [Focus]
//     (level of detail), [Intent] (what the decision layer wants).
//   - Planning: [HTNPlanner] and [GOAPPlanner] (a domain's ID, the agent's believed
//     world state and its plan being carried out), [SquadMember] (the entity holding a
//     squad's shared state).
//   - Perception: [Perception].
//   - Navigation: [Path] (grid paths from the path queue), [FlowFollower]
//     (shared flow fields).
package components
