package systems

import (
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
)

// SetFlowGoal moves the goal of a swarm at once: every agent whose
// [components.FlowFollower].Goal is from heads for to from the next [FlowField]
// Update on, and the number of such agents is returned (0 if none; from == to
// changes nothing and counts them). A swarm chasing a player calls it when the
// player enters another cell, with the cell it gave last time as from (see
// Example_swarmChasingAPlayer); groups of followers with goals of their own are
// left alone.
//
// Only Goal is written: the FlowField system keeps following the old field
// (FlowFollower.Active) until the new one is complete, then switches, and keeps
// or clears Arrived as it does for any change of Goal; the new goal's field is
// built once and shared by the whole group. A goal in a wall or off the grid is
// reported as for any FlowFollower (Diagnose). A Mover's goal is its Intent.Goal
// (an r2.Vec, routed by the PathQueue, one search per agent): for a group, a
// FlowFollower is the cheap kind.
//
// It visits every FlowFollower (one query of one component): call it when the
// goal moves, not every frame for nothing. Call it between frames or from a system's Update,
// not from a leaf, consideration or hook (their query is open and other agents
// think on other workers): queue it there on Agent.Commands
// (a.Commands.Run(func(w *arche.World) { systems.SetFlowGoal(w, from, to) })).
//
// Panics:
//   - when called from user code that an archai decision system runs (a tree
//     leaf, a consideration or action, a state hook, an HTN or GOAP operator or
//     sensor): it would write other agents' FlowFollower while other workers may
//     read them. The message names the code and the fix (Agent.Commands); the
//     panic reaches the system's Update caller, as a structural change there
//     does. A call from the program's own goroutines during a pass is not
//     detected.
func SetFlowGoal(w *arche.World, from, to grid.Cell) int {
	if in := ecs.Resource[installed](w); in != nil && in.userCode.code != "" {
		panic("systems: SetFlowGoal called from " + in.userCode.code + " (the " + in.userCode.system +
			" system runs its agents on workers, which may read the followers it would write); queue it on " +
			"Agent.Commands instead, applied after the pass: " +
			"a.Commands.Run(func(w *arche.World) { systems.SetFlowGoal(w, from, to) })")
	}
	id := arche.ComponentID[components.FlowFollower](w)
	q := w.Query(arche.All(id))
	n := 0
	for q.Next() {
		if f := (*components.FlowFollower)(q.Get(id)); f.Goal == from {
			f.Goal = to
			n++
		}
	}
	return n
}
