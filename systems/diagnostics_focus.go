package systems

import (
	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
)

// focusPoints tells a focus point that is no agent (a camera: a Position and a
// components.Focus, and none of archai's other components) from an agent, for
// Report.Agents.
type focusPoints struct {
	focusID arche.ID   // components.Focus
	agent   arche.Mask // every archai component but Position and Focus
}

// init takes the component IDs of w (registering those w has not met yet).
func (f *focusPoints) init(w *arche.World) {
	f.focusID = arche.ComponentID[components.Focus](w)
	f.agent = arche.All(
		arche.ComponentID[components.Velocity](w), arche.ComponentID[components.Kinematics](w),
		arche.ComponentID[components.OwnMotion](w), arche.ComponentID[components.Desired](w),
		arche.ComponentID[components.Steering](w), arche.ComponentID[components.SteeringWeights](w),
		arche.ComponentID[components.Wanderer](w), arche.ComponentID[components.Progress](w),
		arche.ComponentID[components.Path](w), arche.ComponentID[components.FlowFollower](w),
		arche.ComponentID[components.ORCA](w), arche.ComponentID[components.Intent](w),
		arche.ComponentID[components.Brain](w), arche.ComponentID[components.UtilityBrain](w),
		arche.ComponentID[components.StateMachine](w), arche.ComponentID[components.HTNPlanner](w),
		arche.ComponentID[components.GOAPPlanner](w), arche.ComponentID[components.SquadMember](w),
		arche.ComponentID[components.Think](w), arche.ComponentID[components.LOD](w),
		arche.ComponentID[components.Blackboard](w), arche.ComponentID[components.Perception](w),
		arche.ComponentID[components.Faction](w), arche.ComponentID[components.Health](w),
		arche.ComponentID[components.Weapon](w), arche.ComponentID[components.Rand](w),
	)
}

// is reports whether e is a focus point and no agent: it has a components.Focus
// and no other archai component but its Position.
func (f *focusPoints) is(w *arche.World, e arche.Entity) bool {
	m := w.Mask(e)
	return m.Get(f.focusID) && !m.ContainsAny(&f.agent)
}
