package components

import (
	"github.com/archai-go/archai/nav/grid"
)

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
