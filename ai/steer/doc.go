// Package steer holds steering behaviors as pure functions on gonum's r2.Vec,
// after Reynolds, "Steering Behaviors For Autonomous Characters" (GDC 1999)
// and Millington & Funge, "Artificial Intelligence for Games" (2nd ed., ch. 3).
//
// Units: positions in cells, velocities in cells per second, forces (steering
// accelerations) in cells per second², dt in seconds of simulation time. Every
// behavior returns a steering force; the caller integrates it with [Integrate]
// (vel += force·dt, clamped to the maximum speed; pos += vel·dt).
//
// # Outline
//
//   - Towards or away from points: [Seek], [Arrive] (stops on its target
//     without overshoot, see [BrakingSpeed]), [Flee], [Pursue] and [Evade]
//     (with [Predict]), [Wander].
//   - Along routes: [FollowPath] (open paths, in order, stopping at the end),
//     [FollowFlow] (a flow field's sampled direction).
//   - Groups: [Separation], [Alignment], [Cohesion].
//   - Collisions: [WallAvoidance] (feelers against a grid, seen through
//     [Blocked]), [ObstacleAvoidance] (circles).
//   - Combination: [Accumulator] (prioritised, truncated running sum).
//   - [Brake], [Truncate], [Integrate]: stopping, force limits and the Euler step.
//   - [Rand]: a small seeded random source for per-agent randomness.
//
// The functions never return NaN for finite input and never divide by zero:
// at distance 0 a behavior that needs a direction returns the zero vector or a
// documented fallback.
package steer
