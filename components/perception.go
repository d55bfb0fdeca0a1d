package components

import (
	arche "github.com/mlange-42/arche/ecs"
	"gonum.org/v1/gonum/spatial/r2"
)

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
