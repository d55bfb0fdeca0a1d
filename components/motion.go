package components

import (
	"github.com/archai-go/archai/ai/steer"
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
//
// Units are the grid's: cells and seconds, never metres or centimetres. A map
// of 1 m cells wants a walking pedestrian's MaxSpeed of about 1.4 (cells per
// second), not 140 (centimetres per second): such a unit mistake is accepted
// (anything up to systems.MaxKinematicSpeed, a million cells a second, is a
// usable speed) and nothing reports it, since Movement supports any step
// (one over half a cell is cut into half-cell sub-steps, each checked
// against walls, so no agent tunnels through one): the agents just move a
// hundred times faster (140 cells/s at 30 frames a second is 4.7 cells a
// frame) and the results change. Check MaxSpeed·dt against the map's scale
// (the default Mover's 4 cells/s at 60 Hz is 0.07 cells a frame).
type Kinematics struct {
	MaxSpeed float64 // cells per second
	MaxForce float64 // cells per second² (the largest steering acceleration)
	Radius   float64 // cells; the separation radius is a multiple of it
}

// OwnMotion tags an agent that the program moves itself, from its [Intent],
// instead of archai's PathFollow, Steer and Movement (a turn-based game, a
// scripted cutscene mover, a system of your own). systems.Diagnose then does
// not count the agent's move intent as one nobody serves (SteerIncomplete).
// Steer does not brake such an agent when it has no Desired (it brakes any
// other agent it cannot steer for want of one), so a system of your own
// may write its Steering. It changes nothing else: an agent that has the
// movement components is still moved by archai's systems.
type OwnMotion struct{}

// Desired is where the agent wants to head this frame: the path-following
// system writes it from the agent's [Intent], path and flow field, and the
// steering system turns it into a force. It is the hand-over between the two,
// small so that steering reads little per agent.
//
// A Mode past DesiredHold is no mode: systems.Steer brakes the agent, as for
// DesiredStop, until PathFollow writes its Desired again (each frame it serves
// it); systems.Diagnose counts it as mode_invalid (CauseModeInvalid), and
// systems/save's Save and Load refuse it.
type Desired struct {
	Mode        DesiredMode // how to head for Point
	SpeedFactor float64     // fraction of Kinematics.MaxSpeed, (0, 1); anything else means 1
	Point       r2.Vec      // cells: the point to seek, arrive at, flow towards, flee from, or the target's position
	Vel         r2.Vec      // cells per second: the target's velocity (Pursue, Evade)
}

// DesiredMode says which steering behavior carries a [Desired] out.
type DesiredMode uint8

// Desired modes.
const (
	DesiredNone   DesiredMode = iota // nowhere to go: brake to a stop, or wander (a Wanderer)
	DesiredSeek                      // seek Point at full speed (a waypoint)
	DesiredArrive                    // arrive at Point: slow down to stop on it (a goal)
	DesiredFlow                      // follow the direction from the agent to Point (a flow-field sample)
	DesiredStop                      // arrived with its crowd: brake and stay, never wander
	DesiredFlee                      // flee from Point
	DesiredPursue                    // pursue a target at Point moving at Vel
	DesiredEvade                     // evade a target at Point moving at Vel
	DesiredHold                      // settled with its crowd at its goal (systems.PathFollow: a wide agent, or a small one that walked into it): brake only, no separation or wall force
)

// Steering is the force the steering system computed this frame, integrated by
// the movement system.
type Steering struct {
	Force r2.Vec // cells per second²
}

// SteeringWeights tune how the steering system mixes behaviors. Forces are
// combined by priority (wall avoidance, then separation, then the move force,
// then alignment and cohesion; a wander comes last), each weighted, within the MaxForce budget; a
// zero weight disables a behavior.
type SteeringWeights struct {
	Wall             float64 // wall avoidance (feelers against the grid)
	Separation       float64
	SeparationRadius float64 // cells; neighbours closer than this push the agent away
	Alignment        float64
	Cohesion         float64
	NeighbourRadius  float64 // cells; the flock seen by alignment and cohesion
}

// Wanderer makes an agent without a move intent wander (Reynolds' wander,
// see steer.Wander) instead of braking; it needs a Rand component.
type Wanderer struct {
	steer.Wander
}

// Progress tracks whether an agent that wants to move gets anywhere: if it
// stays within StuckDistance of Anchor for StuckTime seconds while it has a
// move intent, the path-following system sets Stuck and asks for a new path.
type Progress struct {
	Anchor r2.Vec  // where the agent was when the current window started, cells
	Since  float64 // simulation time the window started
	Stuck  bool    // no progress over the last window; cleared when the agent moves on
	// StuckKnown tells that StuckSince holds the start of the current run (set
	// with it by systems.PathFollow, cleared with them when Stuck is).
	StuckKnown bool `json:",omitempty"`
	Count      int  // times the agent was found stuck
	// StuckSince is the simulation time its current run of stuck windows began
	// (the start of the first window of no progress since it last moved on):
	// read only while Stuck and StuckKnown. Diagnose counts an agent stuck since
	// systems.BlockedSpan seconds or more among agents as blocked_by_agents.
	// StuckKnown, StuckSince and StuckFrom are saved and hashed while set (left
	// out while zero, as json:",omitempty" fields are: the systems clear them when
	// the agent moves on, so a save of agents that are not stuck does not grow), so
	// a loaded world reports its blocked agents at the frames the unbroken run
	// does. A Progress without them (written whole, or loaded from a file written
	// before 2026-12-06) has StuckKnown false until the agent's next window of no
	// progress ends (StuckTime seconds at most), when its run is taken to start
	// at that window's start: the finding comes later than in the unbroken run,
	// never earlier.
	StuckSince float64 `json:",omitempty"`
	// StuckFrom is where the agent was at StuckSince (the anchor of the run's
	// first window), set and read with it: an agent that creeps on, less than
	// StuckDistance a window, is Stuck each window yet gets somewhere, and
	// Diagnose does not count one that went a cell or more from it. Saved and
	// hashed as StuckSince.
	StuckFrom r2.Vec `json:",omitempty"`
}
