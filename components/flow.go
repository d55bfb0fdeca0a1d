package components

import (
	"github.com/archai-go/archai/nav/grid"
	"gonum.org/v1/gonum/spatial/r2"
)

// FlowFollower makes an agent follow the flow field towards Goal (shared by
// every agent with the same goal) when it has no move intent. The flow-field
// system keeps the field Active until the one for a new Goal is complete, and
// caches the direction sample per cell (Cell, Aim, Direct), so the agent's
// steering costs no line-of-sight test while it stays in one cell.
//
// Arrived is set each frame by the flow-field system (see systems.FlowField
// for the exact rule, archai's own): true only for agents inside the packed
// disk of agents gathered around the Active goal, or a packed half disk on one
// side of it, whose radius in cells follows the number of agents really inside
// it (one per Spacing² cells, Spacing being the system's) and whose distances
// are measured along the way to the goal, never through a wall. An agent that
// has arrived stops where it is; the others, in a crowd still too sparse or
// too large for the room around the goal, keep following the field. Arrived is
// false while the agent has no complete field; across a change of Goal it is
// kept while the agent is still packed around the new goal (a goal moved a
// little), and cleared otherwise (a goal moved far); when the goal moved by
// at most two cells, the agent at rest follows it (Following).
//
// A Goal with no field (a cell off the grid or blocked, set so or walled over
// later) is taken as Active at once, with Has true and Steer false: the agent
// stops where it is (after a grid edit, once systems.FlowField's Hold frames
// are over) and Diagnose reports it as flow_goal_unusable. Neither
// systems.SetFlowGoal nor a write to Goal is refused.
type FlowFollower struct {
	Goal   grid.Cell // the goal cell wanted
	Active grid.Cell // the goal cell whose field is being followed
	Has    bool      // Active holds a complete field

	Cell   grid.Cell // the cell Aim was sampled in
	Aim    r2.Vec    // the point to head for, cells (valid when Steer)
	Direct bool      // Aim is the goal itself, in line of sight
	Steer  bool      // the sample gave a direction; false at the goal or where the field has no path

	Arrived bool // inside the packed disk of agents gathered at the goal: the agent stops there

	// Held: Aim is kept from an earlier sample because a grid edit a few
	// frames ago left the agent's cell without a path to the goal (a door
	// closed, or flickering, before it); it stands (Steer false) once the
	// grid has stayed unedited for the flow-field system's Hold frames
	// (see systems.FlowField).
	Held bool `json:",omitempty"`

	// ProgressCost and ProgressCheck are the follower's progress along its
	// field, which systems.FlowField checks every half second of simulation
	// time (systems.FlowProgressPeriod; the checks are the frames whose step
	// holds a multiple of it) while the agent follows a complete field, is not
	// Arrived and has a direction (Steer): ProgressCost is the integration value
	// of its field (its route's cost to the Active goal,
	// flowfield.Field.Integration, or flowfield.SectorField.Integration with
	// sectors) at its cell when its current run without progress began, and
	// ProgressCheck that check's number (its time divided by
	// FlowProgressPeriod, so the run began at ProgressCheck·FlowProgressPeriod
	// seconds). A check that finds it on a cell whose value is lower by at
	// least the grid's least cell cost (a cell nearer its goal along the
	// field) starts a new run there; so does one that finds it 2 such cells'
	// cost or more above ProgressCost (a grid edit made its route longer), or
	// a clock gone back. Both are zero while it is not followed so (at rest at
	// its goal, waiting for its field, standing where no route leads), and
	// from a change of Active to the next check. Diagnose counts a follower
	// whose run is systems.BlockedSpan seconds old or more, touching agents in
	// front of it (towards its Aim) that are not at rest at its goal, as
	// blocked_by_agents: a swarm jammed at a gap or in a corridor.
	//
	// Important: neither is saved nor hashed (json:"-"): they only feed
	// Diagnose, so systems.StateHash of a run is the one it had before they
	// were added. A loaded world's followers start their runs at the first
	// check after the load: a jam is reported BlockedSpan seconds after the
	// load at the earliest (later than in the unbroken run, never earlier).
	// Float32 and uint32, in the struct's padding: FlowFollower stays 80 bytes (64-bit).
	ProgressCost float32 `json:"-"`

	// Following: the agent is at rest (Arrived) and its goal walked, by
	// at most two cells at a time, since it came to rest: it walks to
	// Follow, where it stood moved as far as the goal moved, so that the
	// crowd at rest moves as a body with a walking goal instead of all
	// setting off and stopping again at each step (see systems.FlowField).
	// Its arrival is measured at Follow; the flag is cleared once the agent
	// is within a quarter Spacing of Follow, or no longer Arrived. A Follow
	// written NaN or infinite is nowhere: the agent stops where it is, and
	// is released (Arrived and Following cleared) in the next frame.
	Follow    r2.Vec `json:",omitempty"`
	Following bool   `json:",omitempty"`

	// ProgressCheck: see ProgressCost.
	ProgressCheck uint32 `json:"-"`
}
