package components

import (
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"gonum.org/v1/gonum/spatial/r2"
)

// Position is an agent's position in cells.
type Position struct {
	r2.Vec
}

// Velocity is an agent's velocity in cells per second.
type Velocity struct {
	r2.Vec
}

// Kinematics are an agent's movement limits.
type Kinematics struct {
	MaxSpeed float64 // cells per second
	MaxForce float64 // cells per second² (the largest steering acceleration)
	Radius   float64 // cells; the separation radius is a multiple of it
}

// Steering is the force the steering system computed this frame, integrated by
// the movement system.
type Steering struct {
	Force r2.Vec // cells per second²
}

// Faction tells friend from foe: perception looks for the nearest agent of
// another team.
type Faction struct {
	Team uint8
}

// Health points. An agent with Current ≤ 0 is down; what that means is the
// scenario's choice.
type Health struct {
	Current, Max float64
}

// Rand is the agent's own seeded random source, so a run replays from its seed.
type Rand struct {
	steer.Rand
}

// Brain is an agent's behavior tree: the compiled tree shared by every agent
// that runs it, and this agent's node memory (allocated once, when the agent
// gets the tree).
type Brain struct {
	Tree   *bt.Tree
	Memory bt.Memory
}

// Think is an agent's decision cadence. The decision system ticks the brain
// when the clock reaches Next, passes Time−Last as the tree's dt, then sets
// Last to now and Next to now + Interval. Staggering Next at spawn spreads the
// work over frames.
type Think struct {
	Interval float64 // seconds between decisions (0.1 for 10 Hz)
	Next     float64 // simulation time of the next decision
	Last     float64 // simulation time of the last decision
}

// Intent is what the decision layer wants; it never moves the agent itself.
type Intent struct {
	Move        bool         // go to Goal
	Goal        r2.Vec       // cells
	SpeedFactor float64      // fraction of Kinematics.MaxSpeed to move at, (0, 1]; 0 means 1
	Attack      arche.Entity // a target to strike this frame; the zero Entity for none
}

// Perception holds what the perception system saw on the agent's last update:
// the nearest visible agent of another team within SightRange, and a memory of
// the last place such an agent was seen.
type Perception struct {
	SightRange float64 // cells

	Visible  bool         // a foe is in sight now
	Target   arche.Entity // the nearest visible foe (valid while Visible)
	TargetAt r2.Vec       // its position when seen, cells
	Distance float64      // its distance, cells

	HasLastSeen  bool    // a foe has been seen at some time
	LastSeen     r2.Vec  // where the last seen foe was, cells
	LastSeenTime float64 // when, simulation seconds
}

// PathState is the state of an agent's path.
type PathState uint8

// Path states.
const (
	PathNone        PathState = iota // no path requested
	PathPending                      // waiting in the path queue
	PathReady                        // Waypoints hold a path to Goal
	PathUnreachable                  // Goal cannot be reached from the start cell
)

// Path is an agent's path-following state. An agent asks for a path by
// setting Want and Goal; the path queue system serves the request within its
// per-frame budget and writes the result back here.
type Path struct {
	Want      bool        // set to request a path to Goal
	Goal      grid.Cell   // the cell a path is wanted or held for
	State     PathState   // see PathState
	Waypoints []grid.Cell // start to Goal inclusive; reused between paths
	Next      int         // index of the waypoint being approached
}

// Weapon is what an agent's strike does: the combat system applies Damage to
// the Intent.Attack target if it is alive and within Range.
type Weapon struct {
	Damage float64 // health points per strike
	Range  float64 // cells, centre to centre
}

// SteeringWeights tune how the steering system mixes behaviors.
type SteeringWeights struct {
	Separation       float64 // weight of separation against the move force; 0 disables it
	SeparationRadius float64 // cells; neighbours closer than this push the agent away
}
