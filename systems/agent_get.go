package systems

import (
	"reflect"
	"sync"

	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
)

// Get returns agent a's component of type T (any component: archai's Faction, Weapon,
// Kinematics, ORCA, ... or one of your own), or nil if the agent has none. It is how a
// leaf, consideration, action or hook reads what the [Agent] view does not show: its
// team, its weapon's range, its home in a component of your own.
//
// The pointer is valid only during the call the view was given to (never keep it), like
// the view's own. Write only components of a's own that no system reads while the
// decision systems run (Intent, Path, your own components), as leaves may; with several
// workers, other agents think at the same time.
//
// Get allocates nothing once T is known to the decision system: the first time a
// type registered after the system's Initialize is asked for, it is looked up among the
// agent's components (one small allocation) and learnt at the system's next Update.
// A type no entity has ever had is registered in the world then (as
// arche.ComponentID would), so later calls allocate nothing either. Get does not
// panic on a type the world does not know: it returns nil.
//
// Panics: if a.Entity is dead (Arche's Get), which the decision systems never hand out.
func Get[T any](a *Agent) *T {
	return GetOf[T](a, a.Entity)
}

// Has tells whether agent a has a component of type T (see [Get]).
func Has[T any](a *Agent) bool { return Get[T](a) != nil }

// GetOf returns entity e's component of type T, or nil if e is dead, is the zero
// entity, is not an entity of a's world (past its entities) or has none: what an agent may read of another one (its target's Faction or
// Health). Read it only: other agents' leaves run at the same time on other workers, so
// read only components no decision code writes (Faction, Health, Position, Kinematics,
// Weapon, ...; not another agent's Intent or blackboard). Like [Get], it allocates
// nothing once T is known, and the pointer is valid only during the call.
func GetOf[T any](a *Agent, e arche.Entity) *T {
	w := a.World
	if w == nil || e.IsZero() || !ecs.Alive(w, e) { // ecs.Alive: e may be of another world
		return nil
	}
	id, ok := a.types.id(w, e, reflect.TypeFor[T]())
	if !ok || !w.Has(e, id) {
		return nil
	}
	return (*T)(w.Get(e, id))
}

// componentTypes maps the component types of one world to their IDs for [Get], without
// registering a type while the world is locked (Arche panics then, and the workers
// would race on its registry). The decision system that owns it refreshes it at
// Initialize and at the start of each Update, when the world is not locked; the
// workers only read ids while the agents think, and note the types they missed.
type componentTypes struct {
	ids map[reflect.Type]arche.ID

	mu     sync.Mutex
	missed []reflect.Type // asked for while locked and not in ids
}

// refresh learns every component type registered in w, at Initialize.
func (c *componentTypes) refresh(w *arche.World) {
	c.ids = map[reflect.Type]arche.ID{}
	for _, id := range arche.ComponentIDs(w) {
		if info, ok := arche.ComponentInfo(w, id); ok {
			c.ids[info.Type] = id
		}
	}
	c.missed = c.missed[:0]
}

// learn adds the types missed since the last call, registering those w does not
// know; w must not be locked. Nothing to learn: no allocation.
func (c *componentTypes) learn(w *arche.World) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, tp := range c.missed {
		c.ids[tp] = arche.TypeID(w, tp)
	}
	clear(c.missed)
	c.missed = c.missed[:0]
}

// id returns the ID of component type tp in w, and false if entity e cannot have it
// (tp is not registered). c may be nil (an Agent view made by hand).
func (c *componentTypes) id(w *arche.World, e arche.Entity, tp reflect.Type) (arche.ID, bool) {
	if c != nil && c.ids != nil {
		if id, ok := c.ids[tp]; ok {
			return id, true
		}
	}
	if !w.IsLocked() { // not while agents think: registering is safe
		return arche.TypeID(w, tp), true
	}
	if c != nil {
		c.mu.Lock()
		known := false
		for _, m := range c.missed {
			known = known || m == tp
		}
		if !known {
			c.missed = append(c.missed, tp)
		}
		c.mu.Unlock()
	}
	for _, id := range w.Ids(e) { // e has it: tp is registered, as id
		if info, ok := arche.ComponentInfo(w, id); ok && info.Type == tp {
			return id, true
		}
	}
	return arche.ID{}, false
}
