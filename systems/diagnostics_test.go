package systems

import (
	"github.com/archai-go/archai/ecs"
	"github.com/mlange-42/arche/generic"
	"math"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// put adds v to e (or overwrites it). v is also kept in keepAlive, so whatever it points
// to stays reachable while Arche moves e's components (see keepAlive).
func put[T any](w *arche.World, e arche.Entity, v T) {
	keepAlive = append(keepAlive, v)
	id := arche.ComponentID[T](w)
	if !w.Has(e, id) {
		w.Add(e, id)
	}
	if p := (*T)(w.Get(e, id)); p != nil { // nil for a tag (a zero-size component)
		*p = v
	}
}

// drop removes e's T.
func drop[T any](w *arche.World, e arche.Entity) { w.Remove(e, arche.ComponentID[T](w)) }

func compOf[T any](w *arche.World, e arche.Entity) *T {
	return (*T)(w.Get(e, arche.ComponentID[T](w)))
}

// goodAgent spawns an agent with every component the contract tables name,
// set up well, at (2.5, 2.5) on g (a 10×10 grid).
func goodAgent(t testing.TB, w *arche.World) arche.Entity {
	t.Helper()
	tree, err := bt.Compile("idle", bt.Action("idle", func(*bt.Context) bt.Status { return bt.Running }))
	require.NoError(t, err)
	keepAlive = append(keepAlive, tree)
	e := w.NewEntity()
	put(w, e, components.Position{Vec: r2.Vec{X: 2.5, Y: 2.5}})
	put(w, e, components.Velocity{})
	put(w, e, components.Kinematics{MaxSpeed: 2, MaxForce: 10, Radius: 0.3})
	put(w, e, components.Intent{Move: true, Goal: r2.Vec{X: 5.5, Y: 5.5}})
	put(w, e, components.Steering{})
	put(w, e, components.Desired{})
	put(w, e, components.Path{})
	put(w, e, components.SteeringWeights{Wall: 1, Separation: 1, SeparationRadius: 1})
	put(w, e, components.Wanderer{Wander: steer.Wander{Distance: 1, Radius: 0.5, Jitter: 1}})
	put(w, e, components.Rand{Rand: steer.NewRand(1)})
	put(w, e, components.FlowFollower{Goal: grid.Cell{X: 4, Y: 4}})
	put(w, e, components.Brain{Tree: tree, Memory: tree.NewMemory()})
	put(w, e, components.Think{Interval: 0.1})
	put(w, e, components.Perception{SightRange: 5})
	put(w, e, components.Faction{Team: 1})
	return e
}

// flowCutOff walls e (moved to cell (8, 8), without a move Intent) off from the
// flow goal of both agents, and runs a FlowField once: e stands (Steer false).
func flowCutOff(t *testing.T, w *arche.World, e arche.Entity, goal grid.Cell) {
	g := ecs.Resource[grid.Grid](w)
	for _, c := range []grid.Cell{{X: 7, Y: 7}, {X: 8, Y: 7}, {X: 9, Y: 7}, {X: 7, Y: 8}, {X: 7, Y: 9}} {
		g.SetCost(c, grid.Blocked)
	}
	compOf[components.Position](w, e).Vec = r2.Vec{X: 8.5, Y: 8.5}
	*compOf[components.Intent](w, e) = components.Intent{}
	compOf[components.FlowFollower](w, e).Goal = goal
	ff := &FlowField{Workers: 1}
	ff.Initialize(w)
	t.Cleanup(func() { ff.Finalize(w) })
	ff.Update(w)
	require.True(t, compOf[components.FlowFollower](w, e).Has)
	require.False(t, compOf[components.FlowFollower](w, e).Steer)
}

// dropMotion removes from e what the Mover bundle adds but Position and
// Intent: what a Thinker spawned without a Mover lacks.
func dropMotion(w *arche.World, e arche.Entity) {
	drop[components.Velocity](w, e)
	drop[components.Kinematics](w, e)
	drop[components.Steering](w, e)
	drop[components.SteeringWeights](w, e)
	drop[components.Desired](w, e)
	drop[components.Path](w, e)
	drop[components.Wanderer](w, e)
	drop[components.FlowFollower](w, e)
}

// keepOnly removes every component of e, then puts vs.
func keepOnly(w *arche.World, e arche.Entity, vs ...any) {
	for _, id := range w.Ids(e) {
		w.Remove(e, id)
	}
	for _, v := range vs {
		switch v := v.(type) {
		case components.Position:
			put(w, e, v)
		case components.Velocity:
			put(w, e, v)
		case components.Intent:
			put(w, e, v)
		case components.Path:
			put(w, e, v)
		case components.OwnMotion:
			put(w, e, v)
		default:
			panic("keepOnly: add a case for this type")
		}
	}
}

// portTree loads a tree whose SetBlackboard writes the key "n", from a registry of its own.
func portTree(t *testing.T) *bt.Tree {
	t.Helper()
	reg := bt.NewRegistry(nil)
	id, err := reg.LoadXML("n.xml", []byte(`<root BTCPP_format="4"><BehaviorTree ID="N"><SetBlackboard value="3" output_key="n"/></BehaviorTree></root>`))
	require.NoError(t, err)
	tree, err := reg.Tree(id)
	require.NoError(t, err)
	keepAlive = append(keepAlive, tree)
	return tree
}

// keepAlive holds the values (trees, memories, stores) these tests put into components. The tests add and remove
// components one by one, and Arche v0.15.3 moves an entity's components between
// archetypes with a byte copy the garbage collector does not see (README "Removing
// agents"): an object referenced only from a moved component can be freed meanwhile.
var keepAlive []any

// xmlTree builds the main tree of a BehaviorTree.CPP v4 document in a registry of its own
// (kept alive, see keepAlive).
func xmlTree(t *testing.T, doc string) *bt.Tree {
	t.Helper()
	reg := bt.NewRegistry(nil)
	require.NoError(t, reg.RegisterAction("Wait2", func(p *bt.Ports) (func(*bt.Context) bt.Status, error) {
		d := bt.InputPort[float64](p, "delay")
		return func(c *bt.Context) bt.Status {
			if _, ok := d.Get(c); !ok {
				return bt.Failure
			}
			return bt.Success
		}, nil
	}))
	id, err := reg.LoadXML("t.xml", []byte(`<root BTCPP_format="4"><BehaviorTree ID="T">`+doc+`</BehaviorTree></root>`))
	require.NoError(t, err)
	tree, err := reg.Tree(id)
	require.NoError(t, err)
	keepAlive = append(keepAlive, tree)
	return tree
}

// causeCase is an agent spoilt so as to have the causes want (none: well set up).
type causeCase struct {
	name    string
	open    bool      // a grid without walls
	without systemSet // systems missing from the world (all others are initialized)
	spoil   func(w *arche.World, e arche.Entity)
	want    []Cause
}

// causeCases returns TestDiagnoseCountsEachCause's agents, one or more per cause.
func causeCases(t *testing.T) []causeCase {
	nan, inf := math.NaN(), math.Inf(1)
	return []causeCase{
		{"well set up", false, 0, func(*arche.World, arche.Entity) {}, nil},
		{"brain without Think", false, 0, func(w *arche.World, e arche.Entity) {
			drop[components.Think](w, e)
			drop[components.Perception](w, e)
		}, []Cause{CauseThinkMissing}},
		{"utility brain without Think", false, 0, func(w *arche.World, e arche.Entity) {
			drop[components.Brain](w, e)
			drop[components.Think](w, e)
			drop[components.Perception](w, e)
			put(w, e, components.UtilityBrain{})
		}, []Cause{CauseThinkMissing, CauseBrainEmpty}},
		{"state machine without Think", false, 0, func(w *arche.World, e arche.Entity) {
			drop[components.Brain](w, e)
			drop[components.Think](w, e)
			drop[components.Perception](w, e)
			put(w, e, components.StateMachine{})
		}, []Cause{CauseThinkMissing, CauseBrainEmpty}},
		{"utility fact of the wrong type", false, 0, func(w *arche.World, e arche.Entity) {
			drop[components.Brain](w, e)
			r, err := utility.New("r", utility.Policy{}, utility.Action{Name: "a", Considerations: []utility.Consideration{
				{Name: "x", Input: utility.Fact(func(p *components.Position) float64 { return p.X })}}})
			if err != nil {
				panic(err)
			}
			b := components.UtilityBrain{Reasoner: r, State: r.NewState()}
			r.Decide(&Agent{}, &b.State, nil) // as the Utility system does
			put(w, e, b)
		}, []Cause{CauseUtilityFactWrongType}},
		{"utility fact 0–100 under the zero Range", false, 0, func(w *arche.World, e arche.Entity) {
			drop[components.Brain](w, e)
			r, err := utility.New("r", utility.Policy{}, utility.Action{Name: "a", Considerations: []utility.Consideration{
				{Name: "hunger", Input: utility.Fact(func(*Agent) float64 { return 70 })}}})
			if err != nil {
				panic(err)
			}
			b := components.UtilityBrain{Reasoner: r, State: r.NewState()}
			r.Decide(&Agent{}, &b.State, nil)
			put(w, e, b)
		}, []Cause{CauseUtilityInputOutOfRange}},
		{"utility fact 0/0 = NaN", false, 0, func(w *arche.World, e arche.Entity) {
			drop[components.Brain](w, e)
			var food, people float64
			r, err := utility.New("r", utility.Policy{}, utility.Action{Name: "eat", Considerations: []utility.Consideration{
				{Name: "food per head", Input: utility.Fact(func(*Agent) float64 { return food / people }), Range: utility.Range{Max: 10}}}})
			if err != nil {
				panic(err)
			}
			b := components.UtilityBrain{Reasoner: r, State: r.NewState()}
			r.Decide(&Agent{}, &b.State, nil)
			put(w, e, b)
		}, []Cause{CauseUtilityInputNaN}},
		{"utility fact 0–100 with its Range: fine", false, 0, func(w *arche.World, e arche.Entity) {
			drop[components.Brain](w, e)
			r, err := utility.New("r", utility.Policy{}, utility.Action{Name: "a", Considerations: []utility.Consideration{
				{Name: "hunger", Input: utility.Fact(func(*Agent) float64 { return 70 }), Range: utility.Range{Max: 100}}}})
			if err != nil {
				panic(err)
			}
			b := components.UtilityBrain{Reasoner: r, State: r.NewState()}
			r.Decide(&Agent{}, &b.State, nil)
			put(w, e, b)
		}, nil},
		{"brain without Intent", false, 0, func(w *arche.World, e arche.Entity) {
			drop[components.Intent](w, e)
		}, []Cause{CauseDecisionIncomplete, CauseSteerIncomplete}},
		{"brain without a tree", false, 0, func(w *arche.World, e arche.Entity) {
			put(w, e, components.Brain{})
		}, []Cause{CauseBrainEmpty}},
		{"think interval NaN", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Think](w, e).Interval = nan
		}, []Cause{CauseThinkInvalid}},
		{"think interval +Inf", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Think](w, e).Interval = inf
		}, []Cause{CauseThinkInvalid}},
		{"think next +Inf: never due", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Think](w, e).Next = inf
		}, []Cause{CauseThinkInvalid}},
		{"think interval negative", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Think](w, e).Interval = -1
		}, []Cause{CauseThinkInvalid}},
		{"speed factor given as a percentage", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Intent](w, e).SpeedFactor = 50
		}, []Cause{CauseSpeedFactor}},
		{"intent mode past IntentEvade", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Intent](w, e).Mode = components.IntentEvade + 1
		}, []Cause{CauseModeInvalid}},
		{"intent mode 255, no target nor point", false, 0, func(w *arche.World, e arche.Entity) {
			in := compOf[components.Intent](w, e)
			in.Mode, in.Move = 255, false // not also target_unset: no mode asks for a target
		}, []Cause{CauseModeInvalid}},
		{"desired mode past DesiredHold", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Desired](w, e).Mode = components.DesiredHold + 1
		}, []Cause{CauseModeInvalid}},
		{"path state past PathUnreachable", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Path](w, e).State = components.PathUnreachable + 1
		}, []Cause{CauseModeInvalid}},
		{"speed factor a fraction: meant", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Intent](w, e).SpeedFactor = 0.25
		}, nil},
		{"think interval in milliseconds", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Think](w, e).Interval = 100
		}, []Cause{CauseThinkIntervalLong}},
		{"think interval at MaxThinkInterval: meant", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Think](w, e).Interval = MaxThinkInterval
		}, nil},
		{"steered without Kinematics", false, 0, func(w *arche.World, e arche.Entity) {
			drop[components.Kinematics](w, e)
		}, []Cause{CauseSteerIncomplete}},
		{"steering without a Position", false, 0, func(w *arche.World, e arche.Entity) {
			drop[components.Position](w, e)
			drop[components.Perception](w, e)
		}, []Cause{CauseSteerIncomplete, CauseDecisionIncomplete}},
		{"Path without a Position", false, 0, func(w *arche.World, e arche.Entity) {
			for _, id := range w.Ids(e) {
				w.Remove(e, id)
			}
			put(w, e, components.Path{}) // not counted in Agents: no Position, no brain
		}, []Cause{CauseSteerIncomplete}},
		{"steered without Desired", false, 0, func(w *arche.World, e arche.Entity) {
			drop[components.Desired](w, e) // PathFollow never serves it, Steer never steers it
		}, []Cause{CauseSteerIncomplete}},
		{"a thinker asked to move, without the Mover's components", false, 0, func(w *arche.World, e arche.Entity) {
			dropMotion(w, e) // Position, Intent (Move), Brain, Think, Perception, Faction are left
		}, []Cause{CauseSteerIncomplete}},
		{"a thinker without the Mover's components that asks for nothing: a turret", false, 0, func(w *arche.World, e arche.Entity) {
			dropMotion(w, e)
			compOf[components.Intent](w, e).Move = false
		}, nil},
		{"a thinker without the Mover's components, asked to flee", false, 0, func(w *arche.World, e arche.Entity) {
			dropMotion(w, e)
			*compOf[components.Intent](w, e) = components.Intent{Mode: components.IntentFlee, Point: r2.Vec{X: 1, Y: 1}}
		}, []Cause{CauseSteerIncomplete}},
		{"a thinker without the Mover's components, asked to pursue", false, 0, func(w *arche.World, e arche.Entity) {
			dropMotion(w, e)
			*compOf[components.Intent](w, e) = components.Intent{Mode: components.IntentPursue, Target: e}
		}, []Cause{CauseSteerIncomplete, CauseTargetUnusable}}, // its target, itself, has no Velocity left: not hashed
		{"a thinker without the Mover's components, asked to evade", false, 0, func(w *arche.World, e arche.Entity) {
			dropMotion(w, e)
			*compOf[components.Intent](w, e) = components.Intent{Mode: components.IntentEvade, Point: r2.Vec{X: 1, Y: 1}}
		}, []Cause{CauseSteerIncomplete}},
		{"Position, Velocity and a move Intent only", false, 0, func(w *arche.World, e arche.Entity) {
			keepOnly(w, e, components.Position{Vec: r2.Vec{X: 2.5, Y: 2.5}}, components.Velocity{},
				components.Intent{Move: true, Goal: r2.Vec{X: 5.5, Y: 5.5}})
		}, []Cause{CauseSteerIncomplete}},
		{"Position, Velocity and an Intent that asks for nothing", false, 0, func(w *arche.World, e arche.Entity) {
			keepOnly(w, e, components.Position{Vec: r2.Vec{X: 2.5, Y: 2.5}}, components.Velocity{}, components.Intent{})
		}, nil},
		{"a move Intent without a Position", false, 0, func(w *arche.World, e arche.Entity) {
			keepOnly(w, e, components.Intent{Move: true}) // not counted in Agents: no Position, no brain
		}, []Cause{CauseSteerIncomplete}},
		{"a Path wanted, nothing to follow it: PathQueue alone serves it", false, 0, func(w *arche.World, e arche.Entity) {
			keepOnly(w, e, components.Position{Vec: r2.Vec{X: 2.5, Y: 2.5}}, components.Path{Want: true, Goal: grid.Cell{X: 5, Y: 5}})
		}, nil},
		{"a move Intent on an agent the program moves itself (OwnMotion)", false, 0, func(w *arche.World, e arche.Entity) {
			keepOnly(w, e, components.Position{Vec: r2.Vec{X: 2.5, Y: 2.5}}, components.Velocity{},
				components.Intent{Move: true, Goal: r2.Vec{X: 5.5, Y: 5.5}}, components.OwnMotion{})
		}, nil},
		{"OwnMotion does not excuse a half-built steered agent", false, 0, func(w *arche.World, e arche.Entity) {
			drop[components.Desired](w, e)
			put(w, e, components.OwnMotion{})
		}, []Cause{CauseSteerIncomplete}},
		{"a Path held, not wanted: PathQueue alone serves it", false, 0, func(w *arche.World, e arche.Entity) {
			keepOnly(w, e, components.Position{Vec: r2.Vec{X: 2.5, Y: 2.5}},
				components.Path{State: components.PathReady, Goal: grid.Cell{X: 5, Y: 5}})
		}, nil},
		{"steered without SteeringWeights", false, 0, func(w *arche.World, e arche.Entity) {
			drop[components.SteeringWeights](w, e)
		}, []Cause{CauseWeightsMissing}},
		{"negative separation", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.SteeringWeights](w, e).Separation = -1
		}, []Cause{CauseWeightsInvalid}},
		{"NaN separation radius", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.SteeringWeights](w, e).SeparationRadius = nan
		}, []Cause{CauseWeightsInvalid}},
		{"zero Wanderer", false, 0, func(w *arche.World, e arche.Entity) {
			put(w, e, components.Wanderer{})
		}, []Cause{CauseWanderInvalid}},
		{"Wanderer with infinite jitter", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Wanderer](w, e).Jitter = inf
		}, []Cause{CauseWanderInvalid}},
		{"Wanderer with a negative response", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Wanderer](w, e).Response = -1
		}, []Cause{CauseWanderInvalid}},
		{"Wanderer without Rand", false, 0, func(w *arche.World, e arche.Entity) {
			drop[components.Rand](w, e)
		}, []Cause{CauseWanderNoRand}},
		{"move without Path among walls", false, 0, func(w *arche.World, e arche.Entity) {
			drop[components.Path](w, e)
		}, []Cause{CauseMoveWithoutPath}},
		{"move without Path in the open", true, 0, func(w *arche.World, e arche.Entity) {
			drop[components.Path](w, e)
		}, nil},
		{"pursuit without Path among walls", false, 0, func(w *arche.World, e arche.Entity) {
			drop[components.Path](w, e)
			in := compOf[components.Intent](w, e)
			in.Move, in.Mode, in.Point = false, components.IntentPursue, r2.Vec{X: 3.5, Y: 3.5}
		}, []Cause{CauseMoveWithoutPath}},
		{"MaxSpeed 0", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Kinematics](w, e).MaxSpeed = 0
		}, []Cause{CauseKinematics}},
		{"MaxSpeed +Inf", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Kinematics](w, e).MaxSpeed = inf
		}, []Cause{CauseKinematics}},
		{"MaxForce NaN", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Kinematics](w, e).MaxForce = nan
		}, []Cause{CauseKinematics}},
		{"Radius 0", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Kinematics](w, e).Radius = 0
		}, []Cause{CauseKinematics}},
		{"NaN position", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Position](w, e).X = nan
		}, []Cause{CausePosition}},
		{"infinite position", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Position](w, e).Y = -inf
		}, []Cause{CausePosition}},
		{"NaN velocity", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Velocity](w, e).X = nan
		}, []Cause{CauseVelocity}},
		{"infinite goal", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Intent](w, e).Goal.X = inf
		}, []Cause{CauseGoal}},
		{"flee from a NaN point", false, 0, func(w *arche.World, e arche.Entity) {
			in := compOf[components.Intent](w, e)
			in.Mode, in.Point.Y = components.IntentFlee, nan
		}, []Cause{CauseGoal}},
		{"flee from an entity (itself), Point unused", false, 0, func(w *arche.World, e arche.Entity) {
			in := compOf[components.Intent](w, e)
			in.Mode, in.Target, in.Point.Y = components.IntentFlee, e, nan
		}, []Cause{CauseTargetUnusable}}, // the NaN Point is not a goal_not_finite; fleeing itself is unusable
		{"inside a blocked cell", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Position](w, e).Vec = r2.Vec{X: 9.5, Y: 9.5}
		}, []Cause{CauseBlocked}},
		{"off the grid", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Position](w, e).Vec = r2.Vec{X: -3, Y: 4}
		}, []Cause{CauseOffGrid}},
		{"far off the grid (finite)", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Position](w, e).Vec = r2.Vec{X: 1e300, Y: -math.MaxFloat64}
		}, []Cause{CauseOffGrid}},
		{"path goal on a wall", false, 0, func(w *arche.World, e arche.Entity) {
			*compOf[components.Path](w, e) = components.Path{Want: true, Goal: grid.Cell{X: 9, Y: 9}}
		}, []Cause{CausePathGoal}},
		{"path goal off the grid", false, 0, func(w *arche.World, e arche.Entity) {
			*compOf[components.Path](w, e) = components.Path{Want: true, Goal: grid.Cell{X: 20, Y: 3}}
		}, []Cause{CausePathGoal}},
		{"path unreachable for the point the agent pursues, off the grid", false, 0, func(w *arche.World, e arche.Entity) {
			*compOf[components.Path](w, e) = components.Path{State: components.PathUnreachable, Goal: grid.Cell{X: 20, Y: 3}}
			*compOf[components.Intent](w, e) = components.Intent{Mode: components.IntentPursue, Point: r2.Vec{X: 20.5, Y: 3.5}}
		}, []Cause{CausePathGoal}},
		{"path unreachable for the passable goal the agent still heads for", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Intent](w, e).Goal = r2.Vec{X: 5.5, Y: 5.5}
			*compOf[components.Path](w, e) = components.Path{State: components.PathUnreachable, Goal: grid.Cell{X: 5, Y: 5}}
		}, []Cause{CausePathUnreachable}},
		{"path unreachable for a goal the agent has given up: inert, not counted", false, 0, func(w *arche.World, e arche.Entity) {
			*compOf[components.Path](w, e) = components.Path{State: components.PathUnreachable, Goal: grid.Cell{X: 20, Y: 3}}
		}, nil},
		{"path asked for directly off the grid, answered unreachable, no move intent", false, 0, func(w *arche.World, e arche.Entity) {
			*compOf[components.Intent](w, e) = components.Intent{}
			*compOf[components.Path](w, e) = components.Path{State: components.PathUnreachable, Goal: grid.Cell{X: 20, Y: 3}}
		}, []Cause{CausePathGoal}},
		{"path asked for directly in a wall, answered unreachable, no move intent", false, 0, func(w *arche.World, e arche.Entity) {
			*compOf[components.Intent](w, e) = components.Intent{}
			*compOf[components.Path](w, e) = components.Path{State: components.PathUnreachable, Goal: grid.Cell{X: 9, Y: 9}}
		}, []Cause{CausePathGoal}},
		{"stopped at its own goal in a wall (Move = false while unreachable): not counted", false, 0, func(w *arche.World, e arche.Entity) {
			in := compOf[components.Intent](w, e)
			in.Goal, in.Move = r2.Vec{X: 9.5, Y: 9.5}, false
			*compOf[components.Path](w, e) = components.Path{State: components.PathUnreachable, Goal: grid.Cell{X: 9, Y: 9}}
		}, nil},
		{"path goal too narrow for the radius", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Kinematics](w, e).Radius = 1.2
			drop[components.FlowFollower](w, e) // a wide Mover, not a wide flow follower
			*compOf[components.Path](w, e) = components.Path{Want: true, Goal: grid.Cell{X: 9, Y: 8}}
		}, []Cause{CausePathGoalNarrow}},
		{"held off its goal by separation: at rest, stuck, a neighbour at rest within its SeparationRadius, none touching", false, 0, func(w *arche.World, e arche.Entity) {
			heldOffAgent(w, e, true)
		}, []Cause{CauseHeldOffGoal}},
		{"the same, not found stuck (yet): not counted", false, 0, func(w *arche.World, e arche.Entity) {
			heldOffAgent(w, e, false)
		}, nil},
		{"holds at rest 4.24 cells from its goal, the room for the 2 agents sent there 0.85 cells: held far from its goal", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Desired](w, e).Mode = components.DesiredHold
		}, []Cause{CauseHeldFarFromGoal}},
		{"the same, 1.41 cells from its goal (within the room, a diameter and a cell): not counted", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Desired](w, e).Mode = components.DesiredHold
			compOf[components.Position](w, e).Vec = r2.Vec{X: 4.5, Y: 4.5}
		}, nil},
		{"the same far, still moving (faster than a twentieth of MaxSpeed): not counted", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Desired](w, e).Mode = components.DesiredHold
			compOf[components.Velocity](w, e).Vec = r2.Vec{X: 0.2}
		}, nil},
		{"blocked by agents: stuck for BlockedSpan, a disc touching its own, another goal", false, 0, func(w *arche.World, e arche.Entity) {
			blockedAgent(w, e, 0)
		}, []Cause{CauseBlockedByAgents}},
		{"the same, stuck for less than BlockedSpan: not counted", false, 0, func(w *arche.World, e arche.Entity) {
			blockedAgent(w, e, 10)
		}, nil},
		{"the same, stuck for BlockedSpan but crept on over a cell since (a queue at a door moving up): not counted", false, 0, func(w *arche.World, e arche.Entity) {
			blockedAgent(w, e, 0)
			compOf[components.Progress](w, e).StuckFrom = r2.Vec{X: 1.9, Y: 2.5}
		}, nil},
		{"path pending that the path queue holds no request of (a load without Restore)", false, 0, func(w *arche.World, e arche.Entity) {
			(&PathQueue{}).Initialize(w)
			*compOf[components.Path](w, e) = components.Path{State: components.PathPending, Request: 3, Goal: grid.Cell{X: 5, Y: 5}}
		}, []Cause{CausePathNotQueued}},
		{"path goal wide enough for the radius", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Kinematics](w, e).Radius = 1.2
			drop[components.FlowFollower](w, e) // a wide Mover, not a wide flow follower
			*compOf[components.Path](w, e) = components.Path{Want: true, Goal: grid.Cell{X: 5, Y: 5}}
		}, nil},
		{"flow goal on a wall", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.FlowFollower](w, e).Goal = grid.Cell{X: 9, Y: 9}
		}, []Cause{CauseFlowGoal}},
		{"flow goal off the grid", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.FlowFollower](w, e).Goal = grid.Cell{X: -1, Y: 0}
		}, []Cause{CauseFlowGoal}},
		{"flow follower of radius 1.2 sealed off from its goal", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Kinematics](w, e).Radius = 1.2
			arche.AddResource(w, &flowWide{sealed: []arche.Entity{e}}) // as FlowField's Update lists it
		}, []Cause{CauseFlowFollowerWide}},
		{"flow follower of radius 1.2 with a route: fine", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Kinematics](w, e).Radius = 1.2
			arche.AddResource(w, &flowWide{})
		}, nil},
		{"flow follower of radius 1.2, sector fields, a grid with walls", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Kinematics](w, e).Radius = 1.2
			arche.AddResource(w, &flowWide{sectors: true})
		}, []Cause{CauseFlowFollowerWideSector}},
		{"flow follower of radius 1.2, sector fields, an open grid", true, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Kinematics](w, e).Radius = 1.2
			arche.AddResource(w, &flowWide{sectors: true})
		}, nil},
		{"flow follower of radius 0.5, FlowField.Spacing 0.75", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Kinematics](w, e).Radius = 0.5
			arche.AddResource(w, &flowWide{spacing: 0.75})
		}, []Cause{CauseFlowFollowerSpacing}},
		{"flow follower of radius 0.44, FlowField.Spacing 0.75: fine", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Kinematics](w, e).Radius = 0.44
			arche.AddResource(w, &flowWide{spacing: 0.75})
		}, nil},
		{"flow follower of radius 0.5: a point agent, fine", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Kinematics](w, e).Radius = 0.5
		}, nil},
		{"flow follower walled off from its goal", false, 0, func(w *arche.World, e arche.Entity) {
			flowCutOff(t, w, e, grid.Cell{X: 4, Y: 4})
		}, []Cause{CauseFlowUnreachable}},
		{"flow follower walled off, its Intent moving it along a path: fine", false, 0, func(w *arche.World, e arche.Entity) {
			flowCutOff(t, w, e, grid.Cell{X: 4, Y: 4})
			*compOf[components.Intent](w, e) = components.Intent{Move: true, Goal: r2.Vec{X: 8.5, Y: 9.5}}
		}, nil},
		{"flow follower standing with a route to goal cell (0, 0): fine", false, 0, func(w *arche.World, e arche.Entity) {
			ff := &FlowField{Workers: 1}
			ff.Initialize(w)
			t.Cleanup(func() { ff.Finalize(w) })
			*compOf[components.Intent](w, e) = components.Intent{}
			*compOf[components.FlowFollower](w, e) = components.FlowFollower{} // goal (0, 0)
			ff.Update(w)
			require.True(t, compOf[components.FlowFollower](w, e).Has)
			compOf[components.FlowFollower](w, e).Steer = false // as between two samples
		}, nil},
		{"Perception without Faction", false, 0, func(w *arche.World, e arche.Entity) {
			drop[components.Faction](w, e)
		}, []Cause{CausePerceptionIncomplete}},
		{"a machine re-entering its state on each of its last 4 updates", false, 0, func(w *arche.World, e arche.Entity) {
			m, work := reentryMachine(t)
			drop[components.Brain](w, e) // one decision model
			put(w, e, components.StateMachine{Machine: m, Memory: fsm.Memory{Active: work, Previous: work, Transitions: 9, Reentries: ReentryLimit}})
		}, []Cause{CauseStateReentered}},
		{"a Brain left waiting by a Decision budget behind for 10 s", false, 0, func(w *arche.World, e arche.Entity) {
			arche.AddResource(w, &ecs.Clock{Time: 20, DT: 1.0 / 60})
			q := generic.NewFilter1[components.Think]().Query(w)
			for q.Next() {
				q.Get().Next = 30 // not due: the neighbour
			}
			compOf[components.Think](w, e).Next = 19.5
			dec := &Decision{Budget: 1}
			dec.due.filter = brainFilterFor()
			dec.due.Waiting, dec.due.backlog = 1, 600
			ecs.Resource[installed](w).decision = dec
		}, []Cause{CauseDecisionStarved}},
		{"a perceiver whose schema declares target_visible as an int", false, 0, func(w *arche.World, e arche.Entity) {
			s := blackboard.NewSchema()
			blackboard.MustDeclare[int](s, KeyTargetVisible)
			put(w, e, components.Blackboard{Store: s.NewStore()})
		}, []Cause{CausePerceptionKeyWrongType}},
		{"a perceiver whose schema declares the perception keys: fine", false, 0, func(w *arche.World, e arche.Entity) {
			s := blackboard.NewSchema()
			require.NoError(t, DeclarePerceptionKeys(s))
			put(w, e, components.Blackboard{Store: s.NewStore()})
		}, nil},
		{"a Brain whose Intent flip-flopped 0.5 s ago", false, 0, func(w *arche.World, e arche.Entity) {
			flippedAt(w, e, 19.5)
		}, []Cause{CauseIntentFlipFlop}},
		{"a Brain whose Intent flip-flopped over utility.FlipWindow ago: fine", false, 0, func(w *arche.World, e arche.Entity) {
			flippedAt(w, e, 20-utility.FlipWindow-0.1)
		}, nil},
		{"a machine that re-entered its state 3 times: fine", false, 0, func(w *arche.World, e arche.Entity) {
			m, work := reentryMachine(t)
			drop[components.Brain](w, e) // one decision model
			put(w, e, components.StateMachine{Machine: m, Memory: fsm.Memory{Active: work, Previous: work, Transitions: 9, Reentries: ReentryLimit - 1}})
		}, nil},
		{"separation too stiff for a 0.05 s step", false, 0, func(w *arche.World, e arche.Entity) {
			arche.AddResource(w, &ecs.Clock{DT: 0.05})               // the neighbour's limit: 0.4·√(1/10) = 0.126 s
			compOf[components.SteeringWeights](w, e).Separation = 20 // 0.4·√(1/200) = 0.028 s
		}, []Cause{CauseStepTooLong}},
		{"separation without a radius on a 0.05 s step: no force to be stiff", false, 0, func(w *arche.World, e arche.Entity) {
			arche.AddResource(w, &ecs.Clock{DT: 0.05})
			wt := compOf[components.SteeringWeights](w, e)
			wt.Separation, wt.SeparationRadius = 20, 0
		}, nil},
		{"tree with ports, no Blackboard", false, 0, func(w *arche.World, e arche.Entity) {
			tree := portTree(t)
			put(w, e, components.Brain{Tree: tree, Memory: tree.NewMemory()})
		}, []Cause{CauseBlackboardMissing}},
		{"tree with ports, store of another schema", false, 0, func(w *arche.World, e arche.Entity) {
			tree := portTree(t)
			put(w, e, components.Brain{Tree: tree, Memory: tree.NewMemory()})
			put(w, e, components.Blackboard{Store: portTree(t).Schema().NewStore()})
		}, []Cause{CauseBlackboardMissing}},
		{"tree reading a misspelt key nothing writes", false, 0, func(w *arche.World, e arche.Entity) {
			tree := xmlTree(t, `<Sequence><SetBlackboard value="5" output_key="delay"/><Wait2 delay="{dealy}"/></Sequence>`)
			put(w, e, components.Brain{Tree: tree, Memory: tree.NewMemory()})
			put(w, e, components.Blackboard{Store: tree.Schema().NewStore()})
		}, []Cause{CauseBlackboardKeyUnwritten}},
		{"tree with a Cooldown of 5000 s (ms meant)", false, 0, func(w *arche.World, e arche.Entity) {
			tree := xmlTree(t, `<Cooldown seconds="5000"><AlwaysSuccess/></Cooldown>`)
			put(w, e, components.Brain{Tree: tree, Memory: tree.NewMemory()})
		}, []Cause{CauseTreeTimerLong}},
		{"attacking a downed target for 10 s", false, 0, func(w *arche.World, e arche.Entity) {
			arche.AddResource(w, &ecs.Clock{Time: 20, DT: 1.0 / 60})
			foe := w.NewEntity()
			put(w, foe, components.Health{Current: 0, Max: 100})
			compOf[components.Intent](w, e).Attack = foe
			compOf[components.Think](w, e).Last = 19.9
			arche.AddResource(w, &downedTargets{recs: map[arche.Entity]downedTarget{e: {target: foe, since: 10}}})
		}, []Cause{CauseAttackingDowned}},
		{"asking to strike an ally", false, 0, func(w *arche.World, e arche.Entity) {
			ally := w.NewEntity()
			put(w, ally, components.Faction{Team: 1})
			c := &Combat{}
			c.Initialize(w) // installed: the world's Combat, its latest Update refused e's request
			c.allies = append(c.allies, [2]arche.Entity{e, ally})
		}, []Cause{CauseAttackingAlly}},
		{"attacking a downed target, not thought since: fine", false, 0, func(w *arche.World, e arche.Entity) {
			arche.AddResource(w, &ecs.Clock{Time: 20, DT: 1.0 / 60})
			foe := w.NewEntity()
			put(w, foe, components.Health{Current: 0, Max: 100})
			compOf[components.Intent](w, e).Attack = foe
			compOf[components.Think](w, e).Last = 9
			arche.AddResource(w, &downedTargets{recs: map[arche.Entity]downedTarget{e: {target: foe, since: 10}}})
		}, nil},
		{"tree with a Wait of MaxTreeTimer: fine", false, 0, func(w *arche.World, e arche.Entity) {
			tree := xmlTree(t, `<Wait seconds="600"/>`)
			put(w, e, components.Brain{Tree: tree, Memory: tree.NewMemory()})
		}, nil},
		{"tree reading a key it writes: fine", false, 0, func(w *arche.World, e arche.Entity) {
			tree := xmlTree(t, `<Sequence><SetBlackboard value="5" output_key="delay"/><Wait2 delay="{delay}"/></Sequence>`)
			put(w, e, components.Brain{Tree: tree, Memory: tree.NewMemory()})
			put(w, e, components.Blackboard{Store: tree.Schema().NewStore()})
		}, nil},
		{"tree with ports and its store: fine", false, 0, func(w *arche.World, e arche.Entity) {
			tree := portTree(t)
			put(w, e, components.Brain{Tree: tree, Memory: tree.NewMemory()})
			put(w, e, components.Blackboard{Store: tree.Schema().NewStore()})
		}, nil},
		{"move goal in a wall", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Intent](w, e).Goal = r2.Vec{X: 9.5, Y: 9.5}
		}, []Cause{CauseGoalUnusable}},
		{"move goal in a wall, copied to a wanted Path: one finding", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Intent](w, e).Goal = r2.Vec{X: 9.5, Y: 9.5}
			*compOf[components.Path](w, e) = components.Path{Want: true, Goal: grid.Cell{X: 9, Y: 9}} // as PathFollow writes it
		}, []Cause{CauseGoalUnusable}},
		{"move goal in a wall, a Path to another wall: two findings", false, 0, func(w *arche.World, e arche.Entity) {
			g := ecs.Resource[grid.Grid](w)
			g.SetCost(grid.Cell{X: 8, Y: 9}, grid.Blocked)
			compOf[components.Intent](w, e).Goal = r2.Vec{X: 9.5, Y: 9.5}
			*compOf[components.Path](w, e) = components.Path{Want: true, Goal: grid.Cell{X: 8, Y: 9}}
		}, []Cause{CausePathGoal, CauseGoalUnusable}},
		{"move goal (0, 0), the zero Goal: unset, one finding", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Intent](w, e).Goal = r2.Vec{}
		}, []Cause{CauseGoalUnset}},
		{"pursue the zero Target, Point (0, 0): unset, one finding", false, 0, func(w *arche.World, e arche.Entity) {
			*compOf[components.Intent](w, e) = components.Intent{Mode: components.IntentPursue}
		}, []Cause{CauseTargetUnset}},
		{"evade the zero Target, Point the corner cell's centre: fine", false, 0, func(w *arche.World, e arche.Entity) {
			*compOf[components.Intent](w, e) = components.Intent{Mode: components.IntentEvade, Point: r2.Vec{X: 0.5, Y: 0.5}}
		}, nil},
		{"move goal off the grid", false, 0, func(w *arche.World, e arche.Entity) {
			compOf[components.Intent](w, e).Goal = r2.Vec{X: 30, Y: 2}
		}, []Cause{CauseGoalUnusable}},
		{"goal off the grid without Move: fine", false, 0, func(w *arche.World, e arche.Entity) {
			*compOf[components.Intent](w, e) = components.Intent{Goal: r2.Vec{X: 30, Y: 2}}
		}, nil},
		{"ORCA well set up", false, 0, func(w *arche.World, e arche.Entity) {
			put(w, e, components.ORCA{TimeHorizon: 2, ObstacleHorizon: 1, MaxNeighbours: 10, NeighbourDist: 5, Bias: 0.3})
		}, nil},
		{"ORCA time horizon in milliseconds", false, 0, func(w *arche.World, e arche.Entity) {
			put(w, e, components.ORCA{TimeHorizon: 2000, ObstacleHorizon: 1, MaxNeighbours: 10, NeighbourDist: 5})
		}, []Cause{CauseORCAHorizonLong}},
		{"ORCA avoiding everyone", false, 0, func(w *arche.World, e arche.Entity) {
			put(w, e, components.ORCA{TimeHorizon: 2, ObstacleHorizon: 1, MaxNeighbours: 1e9, NeighbourDist: 1e300})
		}, []Cause{CauseORCANeighboursMany}},
		{"ORCA avoiding MaxORCANeighbours: meant", false, 0, func(w *arche.World, e arche.Entity) {
			put(w, e, components.ORCA{TimeHorizon: 2, ObstacleHorizon: 1, MaxNeighbours: MaxORCANeighbours, NeighbourDist: 1e300})
		}, nil},
		{"ORCA horizons at MaxORCAHorizon: meant", false, 0, func(w *arche.World, e arche.Entity) {
			put(w, e, components.ORCA{TimeHorizon: MaxORCAHorizon, ObstacleHorizon: MaxORCAHorizon, MaxNeighbours: 10, NeighbourDist: 5})
		}, nil},
		{"ORCA time horizon 0", false, 0, func(w *arche.World, e arche.Entity) {
			put(w, e, components.ORCA{ObstacleHorizon: 1, MaxNeighbours: 10, NeighbourDist: 5})
		}, []Cause{CauseORCAInvalid}},
		{"ORCA negative neighbours, NaN distance", false, 0, func(w *arche.World, e arche.Entity) {
			put(w, e, components.ORCA{TimeHorizon: 2, ObstacleHorizon: 1, MaxNeighbours: -1, NeighbourDist: nan})
		}, []Cause{CauseORCAInvalid}},
		{"ORCA infinite obstacle horizon", false, 0, func(w *arche.World, e arche.Entity) {
			put(w, e, components.ORCA{TimeHorizon: 2, ObstacleHorizon: inf, NeighbourDist: 5})
		}, []Cause{CauseORCAInvalid}},
		{"ORCA without Steering", false, 0, func(w *arche.World, e arche.Entity) {
			put(w, e, components.ORCA{TimeHorizon: 2, ObstacleHorizon: 1, MaxNeighbours: 10, NeighbourDist: 5})
			drop[components.Steering](w, e)
		}, []Cause{CauseSteerIncomplete, CauseORCAInvalid}},
		{"no ORCA system", false, sysORCA, func(w *arche.World, _ arche.Entity) {
			var all []arche.Entity // both agents avoid with ORCA
			q := w.Query(arche.All(arche.ComponentID[components.Position](w)))
			for q.Next() {
				all = append(all, q.Entity())
			}
			for _, a := range all {
				put(w, a, components.ORCA{TimeHorizon: 2, ObstacleHorizon: 1, MaxNeighbours: 10, NeighbourDist: 5, Bias: 0.3})
			}
		}, []Cause{CauseNoORCASystem}},
		{"no Combat system", false, sysCombat, func(w *arche.World, _ arche.Entity) {
			var all []arche.Entity // both agents are asked to strike
			q := w.Query(arche.All(arche.ComponentID[components.Intent](w)))
			for q.Next() {
				all = append(all, q.Entity())
			}
			for _, a := range all {
				put(w, a, components.Weapon{Damage: 1, Range: 2})
				compOf[components.Intent](w, a).Attack = all[0]
			}
		}, []Cause{CauseNoCombatSystem}},
		{"no LOD system", false, sysLOD, func(w *arche.World, _ arche.Entity) {
			var all []arche.Entity // both agents have a LOD
			q := w.Query(arche.All(arche.ComponentID[components.Think](w)))
			for q.Next() {
				all = append(all, q.Entity())
			}
			for _, a := range all {
				put(w, a, components.LOD{})
			}
			cam := w.NewEntity() // a focus point: a level of detail is meant
			put(w, cam, components.Focus{})
		}, []Cause{CauseNoLODSystem}},
		{"a LOD system and no agent with a LOD", false, sysLOD, func(w *arche.World, _ arche.Entity) {
			markInstalled(w, sysLOD) // live: both agents think without a LOD
		}, []Cause{CauseNoLODComponent}},
		{"a LOD, with a LOD system: not counted", false, 0, func(w *arche.World, e arche.Entity) {
			put(w, e, components.LOD{})
		}, nil},
		{"a weapon cooldown in milliseconds", false, 0, func(w *arche.World, e arche.Entity) {
			put(w, e, components.Weapon{Damage: 1, Range: 2, Cooldown: 500})
		}, []Cause{CauseWeaponCooldownLong}},
		{"a weapon cooldown at MaxWeaponCooldown: meant", false, 0, func(w *arche.World, e arche.Entity) {
			put(w, e, components.Weapon{Damage: 1, Range: 2, Cooldown: MaxWeaponCooldown})
		}, nil},
		{"a weapon of NaN damage", false, 0, func(w *arche.World, e arche.Entity) {
			put(w, e, components.Weapon{Damage: math.NaN(), Range: 2})
		}, []Cause{CauseWeaponInvalid}},
		{"a Weapon asked to strike, with a Combat system: not counted", false, 0, func(w *arche.World, e arche.Entity) {
			put(w, e, components.Weapon{Damage: 1, Range: 2})
			compOf[components.Intent](w, e).Attack = e
		}, nil},
		{"pursue a live target without a Position (not hashed)", false, 0, func(w *arche.World, e arche.Entity) {
			target := w.NewEntity(arche.ComponentID[components.Velocity](w)) // not an agent: no Position
			in := compOf[components.Intent](w, e)
			in.Mode, in.Target = components.IntentPursue, target
		}, []Cause{CauseTargetUnusable}},
		{"flee from a dead target: no target, not counted", false, 0, func(w *arche.World, e arche.Entity) {
			target := w.NewEntity(arche.ComponentID[components.Velocity](w))
			w.RemoveEntity(target)
			in := compOf[components.Intent](w, e)
			in.Mode, in.Target = components.IntentFlee, target
		}, nil},
		{"planner domain unknown", false, 0, func(w *arche.World, e arche.Entity) {
			put(w, e, components.HTNPlanner{Domain: 5}) // the world has no *htn.Registry
		}, []Cause{CausePlannerDomain}},
		{"a Perception on an agent whose decision system runs before Perception", false, 0, func(w *arche.World, e arche.Entity) {
			r, err := utility.New("r", utility.Policy{}, utility.Action{Name: "a"})
			require.NoError(t, err)
			drop[components.Brain](w, e) // one decision model
			put(w, e, components.UtilityBrain{Reasoner: r, State: r.NewState()})
			in := ecs.Resource[installed](w) // the schedule: Utility, Perception, Decision (the neighbour's)
			markInstalled(w, sysUtility)
			markInstalled(w, sysPerception)
			markInstalled(w, sysDecision)
			in.live = [numSystems]int32{}
			for _, sys := range []systemSet{sysUtility, sysPerception, sysDecision} {
				in.live[bitIndex(sys)] = 1
			}
		}, []Cause{CausePerceptionAfterDecision}},
		{"a Brain whose memory is the neighbour's (a template's copied)", false, 0, func(w *arche.World, e arche.Entity) {
			q := generic.NewFilter1[components.Brain]().Query(w)
			var shared bt.Memory
			for q.Next() {
				if q.Entity() != e {
					shared = q.Get().Memory
				}
			}
			compOf[components.Brain](w, e).Memory = shared
		}, []Cause{CauseMemoryShared}},
		{"HTN planner whose domain failed to plan (ErrDepth)", false, 0, func(w *arche.World, e arche.Entity) {
			reg := ecs.Resource[htn.Registry](w)
			if reg == nil {
				reg = &htn.Registry{}
				b := htn.NewBuilder("d")
				b.Root(b.Primitive("p", htn.Primitive{}))
				d, err := b.Build()
				require.NoError(t, err)
				_, err = reg.Add(d)
				require.NoError(t, err)
				arche.AddResource(w, reg)
			}
			drop[components.Brain](w, e) // one decision model
			put(w, e, components.HTNPlanner{Name: "d", Run: htn.Run{DomainErrors: 3}})
		}, []Cause{CausePlannerDomainError}},
		{"a Blackboard whose store is the neighbour's (a template's copied)", false, 0, func(w *arche.World, e arche.Entity) {
			shared := components.Blackboard{Store: blackboard.NewSchema().NewStore()}
			q := generic.NewFilter1[components.Brain]().Query(w)
			var others []arche.Entity
			for q.Next() {
				if q.Entity() != e {
					others = append(others, q.Entity())
				}
			}
			for _, x := range append(others, e) {
				put(w, x, shared)
			}
		}, []Cause{CauseBlackboardShared}},
		{"a Brain and a UtilityBrain: two decision models", false, 0, func(w *arche.World, e arche.Entity) {
			r, err := utility.New("r", utility.Policy{}, utility.Action{Name: "a"})
			require.NoError(t, err)
			put(w, e, components.UtilityBrain{Reasoner: r, State: r.NewState()})
		}, []Cause{CauseDecisionModels}},
		{"a Brain without a Tree and a UtilityBrain: one model ready", false, 0, func(w *arche.World, e arche.Entity) {
			r, err := utility.New("r", utility.Policy{}, utility.Action{Name: "a"})
			require.NoError(t, err)
			compOf[components.Brain](w, e).Tree = nil
			put(w, e, components.UtilityBrain{Reasoner: r, State: r.NewState()})
		}, []Cause{CauseBrainEmpty}},
		{"an agent at 0 health still thinking and asked to move", false, 0, func(w *arche.World, e arche.Entity) {
			put(w, e, components.Health{Current: 0, Max: 100})
		}, []Cause{CauseDownedStillActing}},
		{"an agent at 0 health, frozen, its Intent cleared, no Wanderer or FlowFollower: fine", false, 0, func(w *arche.World, e arche.Entity) {
			put(w, e, components.Health{Current: 0, Max: 100})
			compOf[components.Think](w, e).Frozen = true
			*compOf[components.Intent](w, e) = components.Intent{}
			drop[components.Wanderer](w, e)
			drop[components.FlowFollower](w, e)
		}, nil},
		{"an agent at 0 health, frozen, its Intent cleared, still a Wanderer", false, 0, func(w *arche.World, e arche.Entity) {
			put(w, e, components.Health{Current: 0, Max: 100})
			compOf[components.Think](w, e).Frozen = true
			*compOf[components.Intent](w, e) = components.Intent{}
			drop[components.FlowFollower](w, e)
		}, []Cause{CauseDownedStillActing}},
		{"an agent at 1 health: fine", false, 0, func(w *arche.World, e arche.Entity) {
			put(w, e, components.Health{Current: 1, Max: 100})
		}, nil},
		{"a utility choice that flip-flopped", false, 0, func(w *arche.World, e arche.Entity) {
			drop[components.Brain](w, e)
			r, err := utility.New("r", utility.Policy{}, utility.Action{Name: "a"}, utility.Action{Name: "b"})
			require.NoError(t, err)
			b := components.UtilityBrain{Reasoner: r, State: r.NewState()}
			b.State.FlipFlops, b.State.FlipActions = 1, [2]int{0, 1}
			put(w, e, b)
		}, []Cause{CauseUtilityFlipFlop}},
		{"a utility choice that flip-flopped over utility.FlipWindow ago: fine", false, 0, func(w *arche.World, e arche.Entity) {
			drop[components.Brain](w, e)
			r, err := utility.New("r", utility.Policy{}, utility.Action{Name: "a"}, utility.Action{Name: "b"})
			require.NoError(t, err)
			b := components.UtilityBrain{Reasoner: r, State: r.NewState()}
			b.State.FlipFlops, b.State.FlipActions, b.State.FlipTime = 1, [2]int{0, 1}, -utility.FlipWindow-0.1
			put(w, e, b)
		}, nil},
		{"a Softmax reasoner without a Rand", false, 0, func(w *arche.World, e arche.Entity) {
			drop[components.Brain](w, e)
			drop[components.Wanderer](w, e) // (a Wanderer without a Rand is wander_no_rand)
			drop[components.Rand](w, e)
			r, err := utility.New("r", utility.SoftmaxPolicy(0.1), utility.Action{Name: "a"}, utility.Action{Name: "b"})
			require.NoError(t, err)
			put(w, e, components.UtilityBrain{Reasoner: r, State: r.NewState()})
		}, []Cause{CauseUtilityNoRand}},
	}
}

func TestDiagnoseCountsEachCause(t *testing.T) {
	cases := causeCases(t)
	// A missing system: every archai system is initialized but the one named.
	for _, m := range []struct {
		name    string
		without systemSet
		cause   Cause
	}{
		{"no Decision system", sysDecision, CauseNoDecisionSystem},
		{"no Perception system", sysPerception, CauseNoPerceptionSystem},
		{"no PathQueue", sysPathQueue, CauseNoPathQueue},
		{"no FlowField system", sysFlowField, CauseNoFlowFieldSystem},
		{"no Steer system", sysSteer, CauseNoSteerSystem},
		{"no Movement system", sysMovement, CauseNoMovementSystem},
		{"no PathFollow system", sysPathFollow, CauseNoPathFollowSystem},
	} {
		cases = append(cases, causeCase{m.name, false, m.without, func(*arche.World, arche.Entity) {}, []Cause{m.cause}})
	}
	covered := map[Cause]bool{}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, g := newWorld(10, 10)
			if !c.open {
				g.SetCost(grid.Cell{X: 9, Y: 9}, grid.Blocked)
			}
			pretendInstalled(w, ^c.without)
			first := goodAgent(t, w) // a well set up neighbour is never counted
			e := goodAgent(t, w)
			c.spoil(w, e)
			r := Diagnose(w)
			var want [NumCauses]int
			var examples [NumCauses]arche.Entity
			per := 1 // agents counted per cause
			for _, cause := range c.want {
				want[cause], examples[cause] = 1, e
				if c.without != 0 { // a missing system fails the neighbour too
					per, want[cause], examples[cause] = 2, 2, first
				}
				covered[cause] = true
			}
			assert.Equal(t, want, r.Counts, "%s", r)
			assert.Equal(t, examples, r.Examples)
			assert.Equal(t, per*len(c.want), r.Total())
			if len(c.want) > 0 {
				assert.Equal(t, per, r.Misconfigured, "distinct agents")
			} else {
				assert.Zero(t, r.Misconfigured)
			}
			assert.Equal(t, 2, r.Agents, "a misconfigured entity without a Position is examined too")
		})
	}
	for cause := range NumCauses {
		assert.True(t, covered[cause], "no case for %s", cause)
	}
}

// flippedAt gives w a clock at 20 s and a Decision whose count of e's Intent
// (intentFlips) holds its last flip-flop at simulation time at.
func flippedAt(w *arche.World, e arche.Entity, at float64) {
	arche.AddResource(w, &ecs.Clock{Time: 20, DT: 1.0 / 60})
	dec := &Decision{}
	dec.due.filter = brainFilterFor()
	dec.due.flips.grow(e.ID())
	dec.due.flips.recs[e.ID()] = intentFlip{e: e, flipFlops: 3, flipTime: at,
		keys: [2]intentKey{{move: true}, {mode: components.IntentFlee, target: e}}}
	ecs.Resource[installed](w).decision = dec
}

func TestDiagnoseWithoutAGridSkipsTheGridChecks(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	e := goodAgent(t, w)
	compOf[components.Position](w, e).Vec = r2.Vec{X: -3, Y: 4}
	drop[components.Path](w, e)
	r := Diagnose(w)
	assert.Zero(t, r.Total(), "%s", r)
}

func TestReportString(t *testing.T) {
	w, _ := newWorld(10, 10)
	goodAgent(t, w)
	const unchecked = " (before any system's Initialize: missing systems not checked; call Diagnose after Initialize)"
	assert.Equal(t, "diagnostics: 1 agent, no misconfiguration found"+unchecked, Diagnose(w).String())
	e := goodAgent(t, w)
	drop[components.Rand](w, e)
	compOf[components.Intent](w, e).Goal.Y = math.NaN()
	r := Diagnose(w)
	assert.Equal(t, 1, r.Misconfigured, "one agent with two causes")
	assert.Equal(t, 2, r.Total(), "two findings")
	assert.Equal(t, "diagnostics: 2 agents, 1 of them misconfigured (2 findings): wander_no_rand 1 (e.g. entity 2), goal_not_finite 1 (e.g. entity 2, its Intent's Goal or Point is NaN or infinite)"+unchecked,
		r.String())
	drop[components.SteeringWeights](w, goodAgent(t, w))
	compOf[components.Intent](w, e).Goal.Y = 5.5
	assert.Equal(t, "diagnostics: 3 agents, 2 of them misconfigured (2 findings): weights_missing 1 (e.g. entity 3), wander_no_rand 1 (e.g. entity 2)"+unchecked,
		Diagnose(w).String())
	assert.Equal(t, "cause(200)", Cause(200).String())
}

func TestDiagnosticsSystemChecksEveryFramesWithoutAllocating(t *testing.T) {
	w, g := newWorld(10, 10)
	g.SetCost(grid.Cell{X: 9, Y: 9}, grid.Blocked)
	for range 100 {
		goodAgent(t, w)
	}
	bad := goodAgent(t, w)
	s := &Diagnostics{Every: 3}
	s.Initialize(w)
	for range 7 {
		s.Update(w)
	}
	assert.Equal(t, 3, s.Checks, "frames 0, 3 and 6")
	assert.Zero(t, s.Report.Total())
	drop[components.SteeringWeights](w, bad)
	r := s.Check(w)
	assert.Equal(t, 1, r.Counts[CauseWeightsMissing])
	assert.Equal(t, bad, s.Report.Examples[CauseWeightsMissing])
	assert.Equal(t, 101, r.Agents)
	allocs := testing.AllocsPerRun(20, func() { s.Check(w) })
	assert.Zero(t, allocs)
}

func TestDiagnoseTellsMissingSystemsOnlyOnceInitialized(t *testing.T) {
	w, _ := newWorld(10, 10)
	goodAgent(t, w)
	before := Diagnose(w)
	assert.Zero(t, before.Total(), "before Initialize nothing is known of the systems")
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Spatial{}, &Steer{Workers: 1}, &Movement{Workers: 1})
	s.Initialize(w)
	defer s.Finalize(w)
	r := Diagnose(w)
	assert.Equal(t, 1, r.Counts[CauseNoPathQueue], "%s", r)
	assert.Equal(t, 1, r.Counts[CauseNoDecisionSystem])
	assert.Equal(t, 1, r.Counts[CauseNoPerceptionSystem])
	assert.Equal(t, 1, r.Counts[CauseNoFlowFieldSystem])
	assert.Zero(t, r.Counts[CauseNoSteerSystem])
	assert.Zero(t, r.Counts[CauseNoMovementSystem])
}

// brainFilterFor is a thinkers filter for components.Brain, standing for an initialized Decision.
func brainFilterFor() *generic.Filter10[components.Brain, components.Think, components.Position, components.Intent,
	components.Velocity, components.Perception, components.Health, components.Path, components.Rand, components.Blackboard] {
	return generic.NewFilter10[components.Brain, components.Think, components.Position, components.Intent,
		components.Velocity, components.Perception, components.Health, components.Path, components.Rand, components.Blackboard]()
}

// blockedAgent spoils e, a goodAgent beside another at (2.5, 2.5), into an agent whose disc
// touches its neighbour's, sent to (7.5, 2.5) and stuck since the given time, at 25 s of a
// clock (CauseBlockedByAgents if stuck since BlockedSpan); then builds the Neighbours resource.
func blockedAgent(w *arche.World, e arche.Entity, since float64) {
	compOf[components.Position](w, e).Vec = r2.Vec{X: 3.1, Y: 2.5}
	compOf[components.Intent](w, e).Goal = r2.Vec{X: 7.5, Y: 2.5}
	put(w, e, components.Progress{Stuck: true, StuckKnown: true, StuckSince: since, StuckFrom: r2.Vec{X: 3.1, Y: 2.5}})
	arche.AddResource(w, &ecs.Clock{Time: 25, DT: 1.0 / 60})
	sp := &Spatial{Workers: 1}
	sp.Initialize(w)
	sp.Update(w)
}

// heldOffAgent spoils e, a goodAgent beside another at (2.5, 2.5), into an agent held
// off its goal (5.5, 5.5) by separation (CauseHeldOffGoal) if stuck: 3 cells east of
// its neighbour, whose disc is 2.4 cells from its own, within its SeparationRadius of
// 4, both at rest, and (if stuck) found stuck; then builds the Neighbours resource.
func heldOffAgent(w *arche.World, e arche.Entity, stuck bool) {
	compOf[components.Position](w, e).Vec = r2.Vec{X: 5.5, Y: 2.5}
	compOf[components.SteeringWeights](w, e).SeparationRadius = 4
	put(w, e, components.Progress{Stuck: stuck})
	sp := &Spatial{Workers: 1}
	sp.Initialize(w)
	sp.Update(w)
}
