package systems

import (
	"fmt"
	"math"
	"reflect"
	"unsafe"

	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
)

// slot is a component's ID and whether a spawner's agents have it.
type slot struct {
	id arche.ID
	ok bool
}

func slotOf[T any](w *arche.World, has map[arche.ID]bool) slot {
	id := arche.ComponentID[T](w)
	return slot{id: id, ok: has[id]}
}

// getter is where a new agent's components are: a batch query or the world.
type getter interface {
	Get(e arche.Entity, id arche.ID) unsafe.Pointer
}

// get returns the component of slot s, or nil.
func get[T any](g getter, e arche.Entity, s slot) *T {
	if !s.ok {
		return nil
	}
	return (*T)(g.Get(e, s.id))
}

// queryGetter reads the components of a batch query's current entity.
type queryGetter struct{ q *arche.Query }

func (g queryGetter) Get(_ arche.Entity, id arche.ID) unsafe.Pointer { return g.q.Get(id) }

// slots are the components a Spawned view shows.
type slots struct {
	position, velocity, kinematics, steering, weights, intent, path, progress, wanderer,
	flow, rand, think, brain, utility, machine, blackboard, perception, faction, health, weapon,
	desired slot
}

func (s *slots) init(w *arche.World, has map[arche.ID]bool) {
	*s = slots{
		position:   slotOf[components.Position](w, has),
		velocity:   slotOf[components.Velocity](w, has),
		kinematics: slotOf[components.Kinematics](w, has),
		steering:   slotOf[components.Steering](w, has),
		weights:    slotOf[components.SteeringWeights](w, has),
		intent:     slotOf[components.Intent](w, has),
		path:       slotOf[components.Path](w, has),
		progress:   slotOf[components.Progress](w, has),
		wanderer:   slotOf[components.Wanderer](w, has),
		flow:       slotOf[components.FlowFollower](w, has),
		rand:       slotOf[components.Rand](w, has),
		think:      slotOf[components.Think](w, has),
		brain:      slotOf[components.Brain](w, has),
		utility:    slotOf[components.UtilityBrain](w, has),
		machine:    slotOf[components.StateMachine](w, has),
		blackboard: slotOf[components.Blackboard](w, has),
		perception: slotOf[components.Perception](w, has),
		faction:    slotOf[components.Faction](w, has),
		health:     slotOf[components.Health](w, has),
		weapon:     slotOf[components.Weapon](w, has),
		desired:    slotOf[components.Desired](w, has),
	}
}

// fillQuery points a's components at the batch query's current entity.
func (s *slots) fillQuery(q *arche.Query, a *Spawned) { s.fill(queryGetter{q}, a.Entity, a) }

// fillEntity points a's components at entity e's.
func (s *slots) fillEntity(w *arche.World, e arche.Entity, a *Spawned) { s.fill(w, e, a) }

// fill points a's components at e's, read through g.
func (s *slots) fill(g getter, e arche.Entity, a *Spawned) {
	a.Position = get[components.Position](g, e, s.position)
	a.Velocity = get[components.Velocity](g, e, s.velocity)
	a.Kinematics = get[components.Kinematics](g, e, s.kinematics)
	a.Steering = get[components.Steering](g, e, s.steering)
	a.SteeringWeights = get[components.SteeringWeights](g, e, s.weights)
	a.Intent = get[components.Intent](g, e, s.intent)
	a.Path = get[components.Path](g, e, s.path)
	a.Progress = get[components.Progress](g, e, s.progress)
	a.Wanderer = get[components.Wanderer](g, e, s.wanderer)
	a.FlowFollower = get[components.FlowFollower](g, e, s.flow)
	a.Rand = get[components.Rand](g, e, s.rand)
	a.Think = get[components.Think](g, e, s.think)
	a.Brain = get[components.Brain](g, e, s.brain)
	a.UtilityBrain = get[components.UtilityBrain](g, e, s.utility)
	a.StateMachine = get[components.StateMachine](g, e, s.machine)
	a.Blackboard = get[components.Blackboard](g, e, s.blackboard)
	a.Perception = get[components.Perception](g, e, s.perception)
	a.Faction = get[components.Faction](g, e, s.faction)
	a.Health = get[components.Health](g, e, s.health)
	a.Weapon = get[components.Weapon](g, e, s.weapon)
	a.Desired = get[components.Desired](g, e, s.desired)
}

// ids returns the IDs of components of types T... (registering them in w).
func idsOf(w *arche.World, ids ...func(*arche.World) arche.ID) []arche.ID {
	out := make([]arche.ID, len(ids))
	for i, f := range ids {
		out[i] = f(w)
	}
	return out
}

// Component ID getters, for idsOf.
var (
	idPosition     = arche.ComponentID[components.Position]
	idVelocity     = arche.ComponentID[components.Velocity]
	idKinematics   = arche.ComponentID[components.Kinematics]
	idSteering     = arche.ComponentID[components.Steering]
	idWeights      = arche.ComponentID[components.SteeringWeights]
	idIntent       = arche.ComponentID[components.Intent]
	idPath         = arche.ComponentID[components.Path]
	idProgress     = arche.ComponentID[components.Progress]
	idWanderer     = arche.ComponentID[components.Wanderer]
	idFlow         = arche.ComponentID[components.FlowFollower]
	idRand         = arche.ComponentID[components.Rand]
	idThink        = arche.ComponentID[components.Think]
	idBrain        = arche.ComponentID[components.Brain]
	idUtility      = arche.ComponentID[components.UtilityBrain]
	idMachine      = arche.ComponentID[components.StateMachine]
	idBlackboard   = arche.ComponentID[components.Blackboard]
	idPerception   = arche.ComponentID[components.Perception]
	idFaction      = arche.ComponentID[components.Faction]
	idHealth       = arche.ComponentID[components.Health]
	idWeapon       = arche.ComponentID[components.Weapon]
	idDesired      = arche.ComponentID[components.Desired]
	motionIDs      = []func(*arche.World) arche.ID{idPosition, idVelocity, idKinematics, idSteering, idWeights, idIntent, idDesired}
	pathFollowIDs  = []func(*arche.World) arche.ID{idPath, idProgress}
	combatantIDs   = []func(*arche.World) arche.ID{idPosition, idVelocity, idFaction, idHealth, idWeapon, idPerception}
	targetIDs      = []func(*arche.World) arche.ID{idPosition, idVelocity, idFaction, idHealth}
	thinkerBaseIDs = []func(*arche.World) arche.ID{idPosition, idIntent, idThink, idRand, idBlackboard}
)

// orDefault returns v, or def if v is 0.
func orDefault(v, def float64) float64 {
	if v == 0 {
		return def
	}
	return v
}

// weight returns a weight: def if 0, off (0) if negative.
func weight(v, def float64) float64 {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 0
	}
	return v
}

// checkSize returns an error unless v is finite and ≥ 0.
func checkSize(name string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return fmt.Errorf("%s = %v: want a finite value ≥ 0 (0: the default)", name, v)
	}
	return nil
}

// checkAtMost returns an error if finite v is above limit (in unit).
func checkAtMost(name string, v, limit float64, unit string) error {
	if v > limit && !math.IsInf(v, 1) {
		return fmt.Errorf("%s = %v: want at most %v %s (a unit mistake?)", name, v, limit, unit)
	}
	return nil
}

// checkWeight returns an error unless v is finite.
func checkWeight(name string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("%s = %v: want a finite weight (0: the default, < 0: off)", name, v)
	}
	return nil
}

// setter is a bundle whose Init sets the values of the components sets returns
// (archai's bundles and With); NewSpawner refuses two bundles that set one
// component. A component a bundle only adds (a Combatant's Position) or only
// adjusts on purpose (an Avoider's separation weight) is not listed.
type setter interface {
	sets(w *arche.World) []arche.ID
}

// spawnerSets returns the components the spawner itself sets (Position from the
// spawn's pos, Rand from its Seed), marked with bundle index -1.
func spawnerSets(w *arche.World) map[arche.ID]int {
	return map[arche.ID]int{idPosition(w): -1, idRand(w): -1}
}

// checkSets records in setBy the components bundle i sets, and returns an error
// naming the component and both bundles if another bundle (or the spawner) sets
// one of them too.
func checkSets(w *arche.World, bundles []Bundle, i int, setBy map[arche.ID]int) error {
	b, ok := bundles[i].(setter)
	if !ok {
		return nil
	}
	for _, id := range b.sets(w) {
		j, taken := setBy[id]
		if !taken {
			setBy[id] = i
			continue
		}
		info, _ := arche.ComponentInfo(w, id)
		if j < 0 {
			return fmt.Errorf("systems: NewSpawner: bundle %d (%s) sets %v, which the spawner sets itself "+
				"(Position from the spawn's pos, Rand from Spawner.Seed): set it per agent in the spawn's set function",
				i, bundleName(bundles[i]), info.Type)
		}
		how := fmt.Sprintf("through bundle %d's fields", j)
		if _, av := bundles[j].(Avoider); !av && info.Type == reflect.TypeFor[components.ORCA]() {
			// Motion.Avoid = AvoidORCA: the moving bundle has no ORCA fields
			how = "through an Avoider's fields (Motion.Avoid = AvoidORCA gives the Avoider defaults: " +
				"leave Avoid unset and list systems.Avoider{...} after the moving bundle instead)"
		}
		return fmt.Errorf("systems: NewSpawner: bundles %d (%s) and %d (%s) both set %v: "+
			"the agent would get bundle %d's value and bundle %d's would be lost, silently; give the value "+
			"%s, or change it per agent in the spawn's set function",
			j, bundleName(bundles[j]), i, bundleName(bundles[i]), info.Type, i, j, how)
	}
	return nil
}

// bundleName names a bundle in errors: "systems.Mover",
// "systems.With(components.Faction)".
func bundleName(b Bundle) string {
	if n, ok := b.(interface{ name() string }); ok {
		return n.name()
	}
	return fmt.Sprintf("%T", b)
}
