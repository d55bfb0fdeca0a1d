package components

import (
	arche "github.com/mlange-42/arche/ecs"
	"gonum.org/v1/gonum/spatial/r2"
)

// Perception holds what the perception system saw on the agent's last update:
// the nearest agent of another team within SightRange, inside the field of
// view and in line of sight, and a memory of the last place and time such an
// agent was seen, so conditions read cached facts instead of casting rays.
type Perception struct {
	SightRange  float64 // cells
	Time        float64 // simulation time of the last update
	Fresh       bool    // updated since the agent last thought: perception waits for the next think
	FieldOfView float64 // full view angle in radians, centred on Heading; 0 or ≥ 2π sees all around
	Heading     r2.Vec  // the direction the agent faces; perception keeps it at the last non-zero velocity

	Visible  bool         // a foe is in sight now
	Target   arche.Entity // the nearest visible foe while Visible; else the zero Entity (as an Intent.Target: Intent.Point)
	TargetAt r2.Vec       // its position when seen, cells
	Distance float64      // its distance, cells

	HasLastSeen  bool    // a foe has been seen at some time
	LastSeen     r2.Vec  // where the last seen foe was, cells
	LastSeenTime float64 // when, simulation seconds
}
