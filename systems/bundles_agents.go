package systems

import (
	"errors"
	"fmt"
	"github.com/archai-go/archai/internal/detmath"
	"math"
	"slices"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"gonum.org/v1/gonum/spatial/r2"
)

// Default tuning of the moving bundles ([Motion]).
const (
	DefaultMaxSpeed   = 4.0  // cells per second
	DefaultMaxForce   = 20.0 // cells per second²: full speed from rest in 0.2 s
	DefaultRadius     = 0.3  // cells
	DefaultWallWeight = 1.0  // wall avoidance weight, first in priority
	DefaultSeparation = 1.0  // separation weight of a Mover or Wanderer
	// DefaultNeighbourRadius is the flock radius (cells) of alignment and cohesion when
	// one of them is on.
	DefaultNeighbourRadius = 3.0
	// DefaultTargetMargin is a Combatant's target selection hysteresis in cells
	// (components.Perception.TargetMargin): its target is kept while in sight
	// unless another foe is a cell nearer. A cell is about what two foes at
	// about the same distance differ by as they and the perceiver move between
	// two thinks (4 cells/s at 10 Hz: 0.4 cells each), and a fraction of the
	// default sight range (8 cells).
	DefaultTargetMargin = 1.0
	// DefaultPathCapacity is the number of waypoints a Mover's path buffer holds before
	// the PathQueue exchanges it for a larger one.
	DefaultPathCapacity = 64
)

// Motion is the movement tuning shared by the moving bundles ([Mover], [Wanderer],
// [FlowFollower]): the agent's [components.Kinematics] and [components.SteeringWeights].
// A zero field takes its default; a negative weight turns that behavior off.
type Motion struct {
	MaxSpeed float64 // cells per second (grid units, not cm/s or m/s: see components.Kinematics); DefaultMaxSpeed (4)
	MaxForce float64 // cells per second²; DefaultMaxForce (20)
	Radius   float64 // cells; DefaultRadius (0.3)

	Wall             float64 // wall avoidance weight; DefaultWallWeight (1)
	Separation       float64 // separation weight; DefaultSeparation (1; a FlowFollower's 1.5)
	SeparationRadius float64 // cells; 3·Radius (a FlowFollower's 2.5·Radius)
	Alignment        float64 // alignment weight; 0: off
	Cohesion         float64 // cohesion weight; 0: off
	NeighbourRadius  float64 // cells, the flock of alignment and cohesion; DefaultNeighbourRadius (3)

	// Avoid chooses the local avoidance between neighbours: AvoidSeparation (the
	// default), the separation force of [Steer]; or AvoidORCA, velocity obstacles
	// solved by an ORCA system run between Steer and Movement.
	Avoid Avoidance
}

// Avoidance is a choice of local avoidance (see [Motion]).
type Avoidance uint8

// Local avoidance choices.
const (
	AvoidSeparation Avoidance = iota // Steer's separation force (Reynolds)
	// AvoidORCA: optimal reciprocal collision avoidance (van den Berg et al. 2011) by
	// the [ORCA] system between [Steer] and [Movement]: the bundle adds a
	// [components.ORCA] with the [Avoider] defaults and turns separation off (as
	// listing Avoider{} after the bundle does).
	AvoidORCA
)

// String returns "separation" or "orca".
func (a Avoidance) String() string {
	switch a {
	case AvoidSeparation:
		return "separation"
	case AvoidORCA:
		return "orca"
	}
	return fmt.Sprintf("avoidance(%d)", uint8(a))
}

// ParseAvoidance returns the Avoidance named s ("separation" or "orca", as
// [Avoidance.String] prints them), or an error naming the choices.
func ParseAvoidance(s string) (Avoidance, error) {
	for _, a := range []Avoidance{AvoidSeparation, AvoidORCA} {
		if a.String() == s {
			return a, nil
		}
	}
	return 0, fmt.Errorf("unknown avoidance %q: want separation or orca", s)
}

// resolve returns m with its defaults filled in, the separation weight defaulting to
// sep and its radius to sepRadius·Radius.
func (m Motion) resolve(sep, sepRadius float64) Motion {
	m.MaxSpeed = orDefault(m.MaxSpeed, DefaultMaxSpeed)
	m.MaxForce = orDefault(m.MaxForce, DefaultMaxForce)
	m.Radius = orDefault(m.Radius, DefaultRadius)
	m.Wall = weight(m.Wall, DefaultWallWeight)
	m.Separation = weight(m.Separation, sep)
	m.SeparationRadius = orDefault(m.SeparationRadius, sepRadius*m.Radius)
	m.Alignment = max(m.Alignment, 0)
	m.Cohesion = max(m.Cohesion, 0)
	m.NeighbourRadius = orDefault(m.NeighbourRadius, DefaultNeighbourRadius)
	return m
}

// Validate reports a negative or non-finite speed, force or radius, a speed above
// MaxKinematicSpeed, a force above MaxKinematicForce or a Radius above
// MaxKinematicRadius, a non-finite weight, or an Avoid that is neither
// AvoidSeparation nor AvoidORCA.
func (m Motion) Validate() error {
	var avoid error
	switch m.Avoid {
	case AvoidSeparation:
	case AvoidORCA:
	default:
		avoid = fmt.Errorf("Avoid = %v: want AvoidSeparation or AvoidORCA", m.Avoid)
	}
	return errors.Join(avoid, checkSize("MaxSpeed", m.MaxSpeed), checkSize("MaxForce", m.MaxForce),
		checkAtMost("MaxSpeed", m.MaxSpeed, MaxKinematicSpeed, "cells per second"),
		checkAtMost("MaxForce", m.MaxForce, MaxKinematicForce, "cells per second²"),
		checkSize("Radius", m.Radius), checkAtMost("Radius", m.Radius, MaxKinematicRadius, "cells"),
		checkSize("SeparationRadius", m.SeparationRadius),
		checkSize("NeighbourRadius", m.NeighbourRadius), checkWeight("Wall", m.Wall),
		checkWeight("Separation", m.Separation), checkWeight("Alignment", m.Alignment),
		checkWeight("Cohesion", m.Cohesion))
}

// init writes a resolved m into a's motion components; the agent starts at rest.
func (m Motion) init(a *Spawned) {
	*a.Kinematics = components.Kinematics{MaxSpeed: m.MaxSpeed, MaxForce: m.MaxForce, Radius: m.Radius}
	*a.SteeringWeights = components.SteeringWeights{Wall: m.Wall, Separation: m.Separation,
		SeparationRadius: m.SeparationRadius, Alignment: m.Alignment, Cohesion: m.Cohesion,
		NeighbourRadius: m.NeighbourRadius}
	if m.Avoid == AvoidORCA {
		Avoider{}.Init(a)
	}
}

// avoidIDs returns the components m's avoidance adds: a components.ORCA for AvoidORCA.
func (m Motion) avoidIDs(w *arche.World) []arche.ID {
	if m.Avoid == AvoidORCA {
		return Avoider{}.Components(w)
	}
	return nil
}

// Mover is an agent that walks to its Intent goal around walls: Position, Velocity,
// Kinematics, Steering, SteeringWeights, Intent, Desired (the hand-over from path
// following to steering), Path (a buffer of DefaultPathCapacity waypoints) and Progress
// (stuck detection). Give it a goal with [Spawned.MoveTo] or by writing its Intent. It
// moves under [PathQueue], [PathFollow], [Steer] and [Movement] ([Spatial] first, for
// the neighbours). Defaults: see [Motion].
type Mover struct {
	Motion
}

// DefaultMover returns a Mover with every default written out.
func DefaultMover() Mover { return Mover{Motion{}.resolve(DefaultSeparation, 3)} }

// Components implements [Bundle].
func (b Mover) Components(w *arche.World) []arche.ID {
	return append(append(idsOf(w, motionIDs...), idsOf(w, pathFollowIDs...)...), b.avoidIDs(w)...)
}

// Init implements [Bundle].
func (b Mover) Init(a *Spawned) {
	b.resolve(DefaultSeparation, 3).init(a)
	*a.Path = components.Path{Waypoints: a.spawner.newWaypoints(DefaultPathCapacity)}
}

func (b Mover) sets(w *arche.World) []arche.ID {
	return append(idsOf(w, idKinematics, idWeights, idPath), b.avoidIDs(w)...)
}

// Wanderer is an agent that wanders (Reynolds' wander, [steer.Wander]) while it has no
// move intent, and walks to its Intent goal like a [Mover] when it has one: a Mover's
// components plus a [components.Wanderer] and its seeded [components.Rand]. It starts
// heading in a random direction (at a tenth of MaxSpeed).
// Zero fields take their defaults (see [Motion] for the movement).
//
// Measured on an open map, 400 agents with the defaults: 18.4–18.7 cells from the start
// after 10 s (40 walked) at 30, 60, 120 and 240 frames a second alike (the wander angle
// drifts as a random walk whose spread per second does not depend on the frame, and the
// agent turns toward its wander target with a time constant, WanderResponse, not within
// the frame). A smaller WanderResponse or a larger Jitter loops tighter.
// An animal that should range over a whole map (a wolf prowling a village) needs goals: give it
// a Thinker that sets Intent.Move and Intent.Goal to points it picks, and let it wander
// in between.
type Wanderer struct {
	Motion
	WanderDistance float64 // cells ahead of the agent to the wander circle; 2
	WanderRadius   float64 // cells, the wander circle's radius; 1
	Jitter         float64 // radians per √second: the standard deviation of the wander angle's drift over a second (steer.Wander); 0.3
	WanderResponse float64 // seconds to turn to the wander target's direction (steer.Wander.Response); 0.25
}

// DefaultWanderer returns a Wanderer with every default written out.
func DefaultWanderer() Wanderer { return Wanderer{}.resolve() }

func (b Wanderer) resolve() Wanderer {
	b.Motion = b.Motion.resolve(DefaultSeparation, 3)
	b.WanderDistance = orDefault(b.WanderDistance, 2)
	b.WanderRadius = orDefault(b.WanderRadius, 1)
	b.Jitter = orDefault(b.Jitter, 0.3)
	b.WanderResponse = orDefault(b.WanderResponse, 0.25)
	return b
}

// Validate reports bad movement values or a negative or non-finite wander parameter.
func (b Wanderer) Validate() error {
	return errors.Join(b.Motion.Validate(), checkSize("WanderDistance", b.WanderDistance),
		checkSize("WanderRadius", b.WanderRadius), checkSize("Jitter", b.Jitter),
		checkSize("WanderResponse", b.WanderResponse))
}

// Components implements [Bundle].
func (b Wanderer) Components(w *arche.World) []arche.ID {
	return append(Mover{b.Motion}.Components(w), idsOf(w, idWanderer, idRand)...)
}

// Init implements [Bundle].
func (b Wanderer) Init(a *Spawned) {
	r := b.resolve()
	Mover{r.Motion}.Init(a)
	heading := 2 * math.Pi * a.Rand.Float64()
	a.Wanderer.Wander = steer.Wander{Distance: r.WanderDistance, Radius: r.WanderRadius, Jitter: r.Jitter, Response: r.WanderResponse}
	a.Velocity.Vec = r2.Scale(r.MaxSpeed/10, r2.Vec{X: detmath.Cos(heading), Y: detmath.Sin(heading)})
}

func (b Wanderer) sets(w *arche.World) []arche.ID {
	return append(Mover{b.Motion}.sets(w), idsOf(w, idWanderer, idVelocity)...)
}

// FlowFollower is a swarm agent that follows the shared flow field to Goal ([FlowField],
// then [PathFollow], [Steer] and [Movement]): Position, Velocity, Kinematics, Steering,
// SteeringWeights, Intent, Desired and a [components.FlowFollower]. It needs no Path. Its movement defaults are
// those of [Motion] but for a denser crowd: separation weight 1.5 within 2.5·Radius.
// A Radius over 0.5 routes it through gaps wide enough for its disc with whole-grid
// fields (one per clearance and goal), and as a point agent with sector fields (see
// Wide agents in [FlowField]). A crowd gathers at its goal at FlowField.Spacing
// between agents: with followers wider than it they never all arrive (Spacing left at 0
// fits the widest follower; set by hand, at least the widest diameter; Diagnose:
// CauseFlowFollowerSpacing).
type FlowFollower struct {
	Motion
	Goal grid.Cell // the goal cell; no default: the zero Goal is cell (0, 0), the grid's corner, where the swarm then goes (set it here or per agent)
}

// DefaultFlowFollower returns a FlowFollower with every default written out.
func DefaultFlowFollower() FlowFollower { return FlowFollower{Motion: Motion{}.resolve(1.5, 2.5)} }

// Components implements [Bundle].
func (b FlowFollower) Components(w *arche.World) []arche.ID {
	return append(append(idsOf(w, motionIDs...), idFlow(w)), b.avoidIDs(w)...)
}

// Init implements [Bundle].
func (b FlowFollower) Init(a *Spawned) {
	b.Motion.resolve(1.5, 2.5).init(a)
	*a.FlowFollower = components.FlowFollower{Goal: b.Goal}
}

func (b FlowFollower) sets(w *arche.World) []arche.ID {
	return append(idsOf(w, idKinematics, idWeights, idFlow), b.avoidIDs(w)...)
}

// Thinker is an agent that decides: exactly one decision model (a behavior Tree for
// [Decision], a utility Reasoner for [Utility] or a state Machine for [FSM]), its Think
// cadence, an Intent, a Position, a seeded Rand and a [components.Blackboard].
//
// The tree's node memory (or the utility state, or the machine's memory) is fresh. The
// blackboard's store is made from Schema, else from Registry's schema, else from the
// tree's own (a tree loaded through a registry); with none of them it is nil, a
// blackboard with nothing in it. Think.Interval is Interval, Think.Last the spawn time,
// and Think.Next the spawn time plus a fraction of Interval drawn from the agent's Rand,
// so a crowd spawned together thinks spread over frames.
type Thinker struct {
	Tree     *bt.Tree
	Reasoner *utility.Reasoner
	Machine  *fsm.Machine

	Registry *bt.Registry       // the registry that loaded Tree, for the blackboard's schema
	Schema   *blackboard.Schema // the blackboard's schema, if not Registry's

	Interval float64 // seconds (not milliseconds) between decisions; DefaultThinkInterval (0.1, 10 Hz); over MaxThinkInterval (10 s) Diagnose counts it (CauseThinkIntervalLong)
}

// Validate reports a Thinker without exactly one decision model, or a negative or
// non-finite Interval.
func (b Thinker) Validate() error {
	n := 0
	for _, set := range []bool{b.Tree != nil, b.Reasoner != nil, b.Machine != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		return fmt.Errorf("Thinker has %d decision models: want exactly one of Tree, Reasoner and Machine", n)
	}
	return checkSize("Interval", b.Interval)
}

func (b Thinker) schema() *blackboard.Schema {
	switch {
	case b.Schema != nil:
		return b.Schema
	case b.Registry != nil:
		return b.Registry.Schema()
	case b.Tree != nil:
		return b.Tree.Schema()
	}
	return nil
}

// Components implements [Bundle].
func (b Thinker) Components(w *arche.World) []arche.ID {
	ids := idsOf(w, thinkerBaseIDs...)
	switch {
	case b.Tree != nil:
		ids = append(ids, idBrain(w))
	case b.Reasoner != nil:
		ids = append(ids, idUtility(w))
	case b.Machine != nil:
		ids = append(ids, idMachine(w))
	}
	return ids
}

// Init implements [Bundle].
func (b Thinker) Init(a *Spawned) {
	switch {
	case b.Tree != nil:
		*a.Brain = components.Brain{ID: b.Tree.Name(), Tree: b.Tree, Memory: a.spawner.newMemory(b.Tree)}
	case b.Reasoner != nil:
		*a.UtilityBrain = components.UtilityBrain{ID: b.Reasoner.Name(), Reasoner: b.Reasoner, State: a.spawner.newState(b.Reasoner)}
	case b.Machine != nil:
		*a.StateMachine = components.StateMachine{ID: b.Machine.MachineName(), Machine: b.Machine}
	}
	interval := orDefault(b.Interval, DefaultThinkInterval)
	*a.Think = components.Think{Interval: interval, Next: a.Time + float64(a.Rand.Float64()*interval), Last: a.Time}
	a.Blackboard.Store = nil
	if sc := b.schema(); sc != nil {
		a.Blackboard.Store = a.spawner.newStore(sc)
	}
}

func (b Thinker) sets(w *arche.World) []arche.ID {
	ids := b.Components(w)
	return slices.DeleteFunc(ids, func(id arche.ID) bool { return id == idPosition(w) || id == idIntent(w) || id == idRand(w) })
}

// Combatant is what the guard-like agents fight with: a Faction (Team), Health,
// a Weapon and Perception (the nearest foe in sight, kept while in sight unless another
// is TargetMargin nearer; updated when the agent thinks: pair it with a [Thinker]), with a
// Position and Velocity so others see it. Zero fields take their defaults.
//
// A Combatant whose Health.Current falls to 0 or below is down: [Combat] refuses its
// strikes, and nothing else stops it (its brain decides, a Mover walks, Perception
// still shows it to its foes). Handle [Combat.Downed] after Combat: remove the agents
// (Commands.RemoveEntity, after [Spawner.Recycle]), respawn them ([Spawner.Respawn]),
// or take their brain away and clear their Intent; [Diagnose] reports a downed agent
// that still acts as [CauseDownedStillActing].
type Combatant struct {
	Team       uint8   // the agent's faction; no default: 0 is a team like any other (two armies both left at 0 are allies: they never fight, and Diagnose cannot tell)
	SightRange float64 // cells; 8
	// FieldOfView is the full view angle in radians, at most 2π; 0 sees all around.
	// It is centred on Perception.Heading, which the bundle leaves zero: the agent
	// sees all around until it first moves (its Heading follows its Velocity),
	// unless the set function gives it one (a.Perception.Heading = r2.Vec{X: 1}).
	FieldOfView float64
	// TargetMargin is the Perception's target selection hysteresis, in cells
	// (components.Perception.TargetMargin): the target is kept while in sight
	// unless another foe is nearer by this much; DefaultTargetMargin (1); < 0:
	// none, the nearest foe at every think.
	TargetMargin float64
	MaxHealth    float64 // health points, the agent starts full; 100
	Damage       float64 // health points per strike; 10
	Range        float64 // strike range in cells, centre to centre; 1.5
	// Cooldown is the least time between two strikes, in seconds of simulation
	// time (Weapon.Cooldown); 0: none, every request strikes, so the damage per
	// second follows the think rate. Set it to make far agents of a slower LOD
	// level fight as hard as near ones.
	Cooldown float64
}

// Validate reports a negative or non-finite value (a negative TargetMargin is
// none, not an error), and a FieldOfView over 2π: an angle in degrees, most
// likely, which would see all around (the Perception component reads any angle
// ≥ 2π so).
func (b Combatant) Validate() error {
	return errors.Join(checkSize("SightRange", b.SightRange), checkFieldOfView(b.FieldOfView),
		checkSize("MaxHealth", b.MaxHealth), checkSize("Damage", b.Damage), checkSize("Range", b.Range),
		checkSize("Cooldown", b.Cooldown), checkMargin("TargetMargin", b.TargetMargin))
}

// checkMargin returns an error unless v is finite.
func checkMargin(name string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("%s = %v: want a finite distance in cells (0: the default, < 0: none)", name, v)
	}
	return nil
}

// checkFieldOfView returns an error unless v is a finite angle in [0, 2π] radians.
func checkFieldOfView(v float64) error {
	if err := checkSize("FieldOfView", v); err != nil {
		return err
	}
	if v > 2*math.Pi {
		return fmt.Errorf("FieldOfView = %v: want a full view angle in radians, at most 2π (0: all around); "+
			"degrees? %v° is %.4g rad", v, v, v*math.Pi/180)
	}
	return nil
}

// Components implements [Bundle].
func (b Combatant) Components(w *arche.World) []arche.ID { return idsOf(w, combatantIDs...) }

// Init implements [Bundle].
func (b Combatant) Init(a *Spawned) {
	hp := orDefault(b.MaxHealth, 100)
	*a.Faction = components.Faction{Team: b.Team}
	*a.Health = components.Health{Current: hp, Max: hp}
	*a.Weapon = components.Weapon{Damage: orDefault(b.Damage, 10), Range: orDefault(b.Range, 1.5), Cooldown: b.Cooldown}
	*a.Perception = components.Perception{SightRange: orDefault(b.SightRange, 8), FieldOfView: b.FieldOfView,
		TargetMargin: weight(b.TargetMargin, DefaultTargetMargin)}
}

func (b Combatant) sets(w *arche.World) []arche.ID {
	return idsOf(w, idFaction, idHealth, idWeapon, idPerception)
}

// Target is an agent that others see and strike but that neither perceives nor
// strikes itself (a player's avatar the program moves, a decoy, a crate to
// break): a Faction (Team) and Health, with a Position and Velocity so that
// Perception finds it. Unlike a [Combatant] it needs no [Thinker] (a Combatant
// without one is counted as CausePerceptionIncomplete). A Combatant is a target
// already: the two together are refused (both set Faction and Health). Zero
// fields take their defaults.
type Target struct {
	Team      uint8   // the agent's faction; 0 is a team like any other (see Combatant.Team)
	MaxHealth float64 // health points, the agent starts full; 100
}

// Validate reports a negative or non-finite MaxHealth.
func (b Target) Validate() error { return checkSize("MaxHealth", b.MaxHealth) }

// Components implements [Bundle].
func (b Target) Components(w *arche.World) []arche.ID { return idsOf(w, targetIDs...) }

// Init implements [Bundle].
func (b Target) Init(a *Spawned) {
	hp := orDefault(b.MaxHealth, 100)
	*a.Faction = components.Faction{Team: b.Team}
	*a.Health = components.Health{Current: hp, Max: hp}
}

func (b Target) sets(w *arche.World) []arche.ID { return idsOf(w, idFaction, idHealth) }
