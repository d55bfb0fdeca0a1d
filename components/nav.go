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
	PathUnreachable                  // Goal cannot be reached from the start cell (from a blocked start cell: from any open cell within 4 of it; see systems.PathQueue)
)

// Path is an agent's path-following state. An agent asks for a path by
// setting Want and Goal (and optionally Priority); the path queue system
// serves the request within its per-frame budget and writes the result back
// here. Setting Want again while a request waits replaces it: the newest
// request wins and keeps the older one's place in the queue.
type Path struct {
	Want bool // set to request a path to Goal
	// Priority: higher is served first (e.g. by level of detail); ties oldest
	// first. The priority is strict and does not rise with the wait, so a
	// request waits while any of a higher priority waits: agents that ask
	// again at a higher priority whenever served can starve it for good
	// (systems.Diagnose names Priority in its note on paths waiting long).
	Priority  int8
	Goal      grid.Cell   // the cell a path is wanted or held for (see systems.PathFollow: a path for a former goal is let go)
	State     PathState   // see PathState; one past PathUnreachable is read, and set, as PathNone by systems.PathFollow (systems.Diagnose counts it, mode_invalid; Save and Load refuse it)
	Waypoints []grid.Cell // start to Goal inclusive (a blocked start cell, then the open cell it walks out to); reused between paths
	Next      int         // index of the waypoint being approached; one below 0 is read, and set, as 0 by systems.PathFollow (past the last: the path is done); Save and Load refuse one below 0

	Request uint32 // id of the latest request the queue accepted; written by the queue
	Queued  uint64 // queue ticket of the oldest still pending request; written by the queue

	// The path-following system's line-of-sight cache: whether the straight line
	// from the agent (in cell SightFrom) to its goal (in cell SightTo) was
	// clear when last tested; tested again when either cell changes.
	SightFrom, SightTo     grid.Cell
	SightClear, SightKnown bool
}
