package components

import (
	arche "github.com/mlange-42/arche/ecs"
	"gonum.org/v1/gonum/spatial/r2"
)

// Perception holds what the perception system saw on the agent's last update:
// its target, an agent of another team within SightRange, inside the field of
// view and in line of sight (the nearest such agent, or the one it kept: see
// TargetMargin), and a memory of the last place and time such an agent was
// seen, so conditions read cached facts instead of casting rays.
//
// TargetMargin is target selection hysteresis: the target of the last update
// is kept while it stays visible (as the nearest search sees: range, field of
// view, line of sight, another team) unless another visible foe is nearer by
// TargetMargin cells or more; a kept target no longer visible is dropped and
// the nearest taken. Without it a tree that chases Target hops between two
// foes at about the same distance at every think. 0 (the zero value) takes the
// nearest at every update; the Combatant bundle sets 1 cell unless told
// otherwise.
type Perception struct {
	SightRange   float64 // cells
	TargetMargin float64 // cells; keep Target unless another foe is this much nearer (0, < 0 or NaN: always the nearest)
	Time         float64 // simulation time of the last update
	Fresh        bool    // updated since the agent last thought: perception waits for the next think
	// FieldOfView is the full view angle in radians, centred on Heading; 0 or ≥ 2π
	// sees all around.
	//
	// Important: while Heading is zero (an agent that has not moved since it was
	// spawned, and was given none) the agent sees all around, whatever its
	// FieldOfView: a sentry standing at its post from the start has no cone. Give it
	// a Heading at spawn (a.Perception.Heading in a Spawner's set function).
	FieldOfView float64
	Heading     r2.Vec // the direction the agent faces; perception keeps it at the last non-zero velocity (zero: none, see FieldOfView)

	Visible  bool         // a foe is in sight now
	Target   arche.Entity // the visible foe picked (the nearest, or the one kept: TargetMargin) while Visible; else the zero Entity (as an Intent.Target: Intent.Point)
	TargetAt r2.Vec       // its position when seen, cells
	Distance float64      // its distance, cells

	HasLastSeen  bool    // a foe has been seen at some time
	LastSeen     r2.Vec  // where the last seen foe was, cells
	LastSeenTime float64 // when, simulation seconds
}
