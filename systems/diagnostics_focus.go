package systems

import (
	"reflect"
	"slices"

	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
)

// focusPoints tells a focus point that is no agent (a camera: a Position and a
// components.Focus, and none of archai's other components) from an agent, for
// Report.Agents.
type focusPoints struct {
	focusID  arche.ID   // components.Focus, if hasFocus
	hasFocus bool       // w knows components.Focus
	agent    arche.Mask // every archai component but Position and Focus
}

// init takes the component IDs of w. It registers no component type: a type w has not
// met yet is one no entity has, left out of the mask (a Focus unknown to w: no entity
// is a focus point). It walks the types w has registered (componentID, as
// ownStateChecks.learn does) and allocates nothing: it runs at every check.
func (f *focusPoints) init(w *arche.World) {
	f.hasFocus, f.agent = false, arche.Mask{}
	for n := range arche.MaskTotalBits {
		id := componentID(n)
		info, ok := arche.ComponentInfo(w, id)
		if !ok {
			break
		}
		if info.Type == focusType {
			f.focusID, f.hasFocus = id, true
		} else if slices.Contains(focusAgentTypes[:], info.Type) {
			f.agent.Set(id, true)
		}
	}
}

// focusType and focusAgentTypes are components.Focus and archai's components that
// make an entity an agent (all but Position and Focus).
var (
	focusType       = reflect.TypeFor[components.Focus]()
	focusAgentTypes = [...]reflect.Type{
		reflect.TypeFor[components.Velocity](), reflect.TypeFor[components.Kinematics](),
		reflect.TypeFor[components.OwnMotion](), reflect.TypeFor[components.Desired](),
		reflect.TypeFor[components.Steering](), reflect.TypeFor[components.SteeringWeights](),
		reflect.TypeFor[components.Wanderer](), reflect.TypeFor[components.Progress](),
		reflect.TypeFor[components.Path](), reflect.TypeFor[components.FlowFollower](),
		reflect.TypeFor[components.ORCA](), reflect.TypeFor[components.Intent](),
		reflect.TypeFor[components.Brain](), reflect.TypeFor[components.UtilityBrain](),
		reflect.TypeFor[components.StateMachine](), reflect.TypeFor[components.HTNPlanner](),
		reflect.TypeFor[components.GOAPPlanner](), reflect.TypeFor[components.SquadMember](),
		reflect.TypeFor[components.Think](), reflect.TypeFor[components.LOD](),
		reflect.TypeFor[components.Blackboard](), reflect.TypeFor[components.Perception](),
		reflect.TypeFor[components.Faction](), reflect.TypeFor[components.Health](),
		reflect.TypeFor[components.Weapon](), reflect.TypeFor[components.Rand](),
	}
)

// is reports whether e is a focus point and no agent: it has a components.Focus
// and no other archai component but its Position.
func (f *focusPoints) is(w *arche.World, e arche.Entity) bool {
	m := w.Mask(e)
	return f.hasFocus && m.Get(f.focusID) && !m.ContainsAny(&f.agent)
}
