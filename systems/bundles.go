package systems

import (
	"fmt"
	"reflect"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"gonum.org/v1/gonum/spatial/r2"
)

// Bundle is a named set of components with their initial values: one kind of agent,
// or one part of it ([Mover], [Wanderer], [FlowFollower], [Thinker], [Combatant], or a
// component of your own through [With]). A [Spawner] combines bundles and creates
// agents from them in batches.
//
// Components returns the IDs of the components the bundle adds (registering them in w);
// a component named by several bundles of one spawner is added once. Init writes the
// bundle's initial values into a new agent; it runs after the spawner has seeded the
// agent's [components.Rand] and before the caller's set function. A bundle may also have
// a Validate() error method, which [NewSpawner] calls.
type Bundle interface {
	Components(w *arche.World) []arche.ID
	Init(a *Spawned)
}

// Spawned is the view of one new agent that bundles' Init and a spawn's set function
// fill in. The component pointers are nil for components the spawner's agents lack and
// are valid only during the call (never keep them); the World must not be changed
// structurally meanwhile (the batch query is open).
type Spawned struct {
	World  *arche.World
	Entity arche.Entity
	Index  int     // index of the agent in its batch, from 0
	Seed   uint64  // the seed its Rand started from
	Time   float64 // simulation time of the spawn (the Clock resource's, or 0)

	Position        *components.Position
	Velocity        *components.Velocity
	Kinematics      *components.Kinematics
	Steering        *components.Steering
	SteeringWeights *components.SteeringWeights
	Intent          *components.Intent
	Path            *components.Path
	Progress        *components.Progress
	Wanderer        *components.Wanderer
	FlowFollower    *components.FlowFollower
	Rand            *components.Rand
	Think           *components.Think
	Brain           *components.Brain
	UtilityBrain    *components.UtilityBrain
	StateMachine    *components.StateMachine
	Blackboard      *components.Blackboard
	Perception      *components.Perception
	Faction         *components.Faction
	Health          *components.Health
	Weapon          *components.Weapon
	Desired         *components.Desired

	spawner *Spawner
}

// MoveTo gives the agent a move intent to goal (cells), if it has an Intent.
func (a *Spawned) MoveTo(goal r2.Vec) {
	if a.Intent != nil {
		a.Intent.Move, a.Intent.Goal = true, goal
	}
}

// Component returns the new agent's component of type T (one of your own, added with
// [With]), or nil if the agent has none.
//
// Panics: if T is not a component type of the world yet and a batch is being spawned
// (Arche registers no component in a locked world); a type added by a bundle always is.
func Component[T any](a *Spawned) *T {
	id := arche.ComponentID[T](a.World)
	if !a.World.Has(a.Entity, id) {
		return nil
	}
	return (*T)(a.World.Get(a.Entity, id))
}

// With returns a bundle that adds a component of type T holding value to every agent:
// a component of your own (a marker, a faction's state), or one of archai's that the
// other bundles do not set (a Health for a Thinker without a Combatant, a
// components.LOD, ...). With a component another bundle of the spawner sets (a
// Faction beside a Combatant) or the spawner sets itself (Position, Rand), [NewSpawner]
// returns an error: change such values through that bundle's fields or per agent in
// the spawn's set function. Its Init copies value, so slices and maps in it are shared
// by every agent: give each agent its own in the spawn's set function.
func With[T any](value T) Bundle { return with[T]{value} }

type with[T any] struct{ value T }

func (b with[T]) Components(w *arche.World) []arche.ID {
	return []arche.ID{arche.ComponentID[T](w)}
}

func (b with[T]) Init(a *Spawned) { *Component[T](a) = b.value }

func (b with[T]) sets(w *arche.World) []arche.ID { return b.Components(w) }

func (b with[T]) name() string { return "systems.With(" + reflect.TypeFor[T]().String() + ")" }

// Spawner creates agents from a fixed list of bundles. The component set is worked out
// once, by [NewSpawner], into an [arche.Builder]; [Spawner.Spawn] creates one agent
// ([arche.Builder.New]), [Spawner.SpawnBatch] a crowd in one Arche batch
// ([arche.Builder.NewBatchQ]); each writes every bundle's values, then calls the caller's
// set function for what differs per agent (position, goal, team, ...).
//
// Seeds: every agent's [components.Rand] (if it has one) starts from Seed, and Seed then
// advances to the next number of a SplitMix64 stream, so a crowd replays from the
// spawner's first Seed. The think stagger of a [Thinker] is drawn from that Rand. Set
// Seed before a spawn to give one agent a seed of your own.
//
// A Spawner is not safe for concurrent use. Spawning is a structural change: spawn
// between queries, or after a query loop (see [ecs.Commands]).
type Spawner struct {
	Seed uint64 // seed of the next agent

	world    *arche.World
	bundles  []Bundle
	builder  *arche.Builder
	ids      []arche.ID
	slots    slots
	tree     *bt.Tree           // the Thinker's tree, for recycled memory
	reasoner *utility.Reasoner  // the Thinker's reasoner, for recycled states
	schema   *blackboard.Schema // the Thinker's blackboard schema
	// the HTNThinker's (GOAPThinker's) State as its agents start: see Spawner.htnState
	htnStart  plannerStart[*htn.Domain, htn.State]
	goapStart plannerStart[*goap.Domain, goap.State]
	view      Spawned
	arena     *Arena // the world's, holding what new agents' components point to

	// buffers of recycled agents (see Recycle), used last in first out
	memories  []bt.Memory
	states    []utility.State
	waypoints [][]grid.Cell
	stores    []*blackboard.Store
}

// NewSpawner returns a spawner of agents made of bundles, in world w. Bundles may add
// the same component (a Mover and a Combatant both add Position and Velocity), but only
// one may give it its value: two bundles that both set a component would leave the
// agent with the later one's value, silently, so that is an error.
//
// It returns an error if there is no bundle or a bundle's Validate fails (a negative or
// non-finite speed, force, radius or weight, a Thinker without a decision model, ...);
// for two bundles that set the same component, naming the component and both bundles
// ([With] of a component another bundle sets, such as With(components.Faction{Team: 2})
// beside a Combatant: give the value through that bundle's fields, Combatant.Team, or
// per agent in the spawn's set function; With(components.Position{...}) or
// With(components.Rand{...}), which the spawner itself sets; two moving bundles; two
// decision bundles; Motion.Avoid = AvoidORCA beside an [Avoider]); and for an [Avoider]
// listed before a moving bundle (Mover, Wanderer, FlowFollower), whose separation weight
// would win over the Avoider's turning it off (set Avoider.KeepSeparation to mean both).
// A bundle of your own type (not made by [With]) is not checked for overlaps: NewSpawner
// does not know which of its components its Init sets.
func NewSpawner(w *arche.World, bundles ...Bundle) (*Spawner, error) {
	if len(bundles) == 0 {
		return nil, fmt.Errorf("systems: NewSpawner: no bundle")
	}
	s := &Spawner{world: w, bundles: bundles}
	seen := map[arche.ID]bool{}
	setBy := spawnerSets(w) // bundle index that sets a component; -1: the spawner
	avoider := -1           // index of an Avoider that turns separation off, once listed
	for i, b := range bundles {
		if b == nil {
			return nil, fmt.Errorf("systems: NewSpawner: bundle %d is nil", i)
		}
		if v, ok := b.(interface{ Validate() error }); ok {
			if err := v.Validate(); err != nil {
				return nil, fmt.Errorf("systems: NewSpawner: bundle %d (%s): %w", i, bundleName(b), err)
			}
		}
		if err := checkSets(w, bundles, i, setBy); err != nil {
			return nil, err
		}
		switch b.(type) {
		case Avoider:
			if !b.(Avoider).KeepSeparation && avoider < 0 {
				avoider = i
			}
		case Mover, Wanderer, FlowFollower:
			if avoider >= 0 {
				return nil, fmt.Errorf("systems: NewSpawner: bundle %d (systems.Avoider) is listed before bundle %d (%T), "+
					"whose separation weight would win and separate the agents as well as ORCA: list Avoider after "+
					"the moving bundle, or set Avoider.KeepSeparation to keep both", avoider, i, b)
			}
		}
		if t, ok := b.(Thinker); ok {
			s.tree, s.reasoner, s.schema = t.Tree, t.Reasoner, t.schema()
		}
		if t, ok := b.(HTNThinker); ok {
			s.htnStart = plannerStart[*htn.Domain, htn.State]{written: t.Registry.Domain(t.Domain)}
			if t.Schema != nil {
				s.schema = t.Schema
			}
		}
		if t, ok := b.(GOAPThinker); ok {
			s.goapStart = plannerStart[*goap.Domain, goap.State]{written: t.Registry.Domain(t.Domain)}
			if t.Schema != nil {
				s.schema = t.Schema
			}
		}
		for _, id := range b.Components(w) {
			if !seen[id] {
				seen[id] = true
				s.ids = append(s.ids, id)
			}
		}
	}
	s.slots.init(w, seen)
	s.arena = ArenaOf(w)
	s.builder = arche.NewBuilder(w, s.ids...)
	return s, nil
}

// Spawn creates one agent at pos (cells) and returns it. set, if not nil, is called
// after the bundles' values are written, to change what differs for this agent. Once
// the world has the agent's archetype, a spawn with recycled buffers (see
// [Spawner.Recycle]) allocates nothing.
//
// Panics: if a query of the world is open (Arche's locked world).
func (s *Spawner) Spawn(pos r2.Vec, set func(a *Spawned)) arche.Entity {
	e := s.builder.New()
	a := s.begin(e, 0)
	s.slots.fillEntity(s.world, e, a)
	s.init(a)
	if a.Position != nil {
		a.Position.Vec = pos
	}
	if set != nil {
		set(a)
	}
	s.arena.holdSpawned(a)
	*a = Spawned{}
	return e
}

// SpawnBatch creates n agents in one Arche batch (nothing for n ≤ 0). set is called
// for each agent in order, i from 0 to n−1, after the bundles' values are written: give
// each its position there (a.Position.Vec), and whatever else differs per agent. set
// must not change the World structurally (the batch's query is open).
//
// Panics: if a query of the world is open (Arche's locked world).
func (s *Spawner) SpawnBatch(n int, set func(i int, a *Spawned)) {
	if n <= 0 {
		return
	}
	q := s.builder.NewBatchQ(n)
	for i := 0; q.Next(); i++ {
		a := s.begin(q.Entity(), i)
		s.slots.fillQuery(&q, a)
		s.init(a)
		if set != nil {
			set(i, a)
		}
		s.arena.holdSpawned(a)
	}
	s.view = Spawned{}
}

// begin starts the view of new agent e, number i of its batch, and advances Seed.
func (s *Spawner) begin(e arche.Entity, i int) *Spawned {
	now := 0.0
	if c := ecs.Resource[ecs.Clock](s.world); c != nil {
		now = c.Time
	}
	a := &s.view
	*a = Spawned{World: s.world, Entity: e, Index: i, Seed: s.Seed, Time: now, spawner: s}
	r := steer.NewRand(s.Seed)
	s.Seed = r.Uint64()
	return a
}

// init seeds a's Rand and runs the bundles' Init.
func (s *Spawner) init(a *Spawned) {
	if a.Rand != nil {
		a.Rand.Rand = steer.NewRand(a.Seed)
	}
	for _, b := range s.bundles {
		b.Init(a)
	}
}

// Respawn gives agent e, alive and made by this spawner (it has every component of the
// spawner's bundles), a fresh start in place, as if [Spawner.Spawn] had made it at pos:
// its buffers are recycled ([Spawner.Recycle]), every component of the spawner's bundles
// is zeroed and written again by the bundles (with a new seed from Seed), then set, if
// not nil, changes what differs. The entity keeps its ID: references to it held by other
// agents (a guard's Perception.Target, an Intent.Attack) now name the new agent, so clear
// them where that matters. Halt the agent's tree first if its leaves have halt hooks.
//
// Respawn makes no structural change, so it may be called while a query is open, and it
// allocates nothing. It returns an error, changing nothing, if e is dead or lacks one of
// the spawner's components.
//
// Respawn is cheaper than removing an agent and spawning another (no structural change,
// no allocation). Removing is safe for the buffers archai's components point to, which
// the world's [Arena] holds (Arche v0.15.3 moves components with a byte copy the garbage
// collector does not see); see the README's "Removing agents".
func (s *Spawner) Respawn(e arche.Entity, pos r2.Vec, set func(a *Spawned)) error {
	w := s.world
	if !ecs.Alive(w, e) {
		return fmt.Errorf("systems: Respawn: entity %d is dead (or not of this spawner's world)", e.ID())
	}
	for _, id := range s.ids {
		if !w.Has(e, id) {
			info, _ := arche.ComponentInfo(w, id)
			return fmt.Errorf("systems: Respawn: entity %d has no %v, so this spawner did not make it", e.ID(), info.Type)
		}
	}
	s.Recycle(e)
	for _, id := range s.ids {
		if info, _ := arche.ComponentInfo(w, id); info.Type.Size() > 0 {
			reflect.NewAt(info.Type, w.Get(e, id)).Elem().SetZero() // typed: the collector sees it
		}
	}
	a := s.begin(e, 0)
	s.slots.fillEntity(w, e, a)
	s.init(a)
	if a.Position != nil {
		a.Position.Vec = pos
	}
	if set != nil {
		set(a)
	}
	s.arena.holdSpawned(a)
	*a = Spawned{}
	return nil
}

// Recycle keeps the buffers of agent e, which the caller is about to remove (prefer
// [Spawner.Respawn], which does not remove it and is cheaper) (its
// behavior-tree memory if it runs the spawner's tree, its utility state if it runs the
// spawner's reasoner, its path waypoints and its blackboard store if of the spawner's
// schema), for the next agents this spawner creates, so replacing agents allocates
// nothing. The memory is cleared here (halt the agent's tree first if its leaves have
// halt hooks), the waypoints emptied, the store reset. It may be called while a query
// is open; a dead e is ignored. e must not be used after it is removed.
func (s *Spawner) Recycle(e arche.Entity) {
	w := s.world
	if !ecs.Alive(w, e) {
		return // nothing to keep: a dead entity's components are gone
	}
	if s.tree != nil && s.slots.brain.ok && w.Has(e, s.slots.brain.id) {
		b := (*components.Brain)(w.Get(e, s.slots.brain.id))
		if b.Tree == s.tree && b.Memory.Len() == s.tree.Len() && b.Memory.Tree() == s.tree {
			clear(b.Memory.Nodes())
			s.memories = append(s.memories, b.Memory)
			b.Memory = bt.Memory{}
		}
	}
	if s.reasoner != nil && s.slots.utility.ok && w.Has(e, s.slots.utility.id) {
		u := (*components.UtilityBrain)(w.Get(e, s.slots.utility.id))
		if u.Reasoner == s.reasoner && u.State.Scores != nil {
			s.states = append(s.states, u.State)
			u.State = utility.State{}
		}
	}
	if s.slots.path.ok && w.Has(e, s.slots.path.id) {
		p := (*components.Path)(w.Get(e, s.slots.path.id))
		if cap(p.Waypoints) > 0 {
			s.waypoints = append(s.waypoints, p.Waypoints[:0])
			p.Waypoints = nil
		}
	}
	if s.schema != nil && s.slots.blackboard.ok && w.Has(e, s.slots.blackboard.id) {
		bb := (*components.Blackboard)(w.Get(e, s.slots.blackboard.id))
		if bb.Store != nil && bb.Store.Schema() == s.schema {
			bb.Store.Reset()
			s.stores = append(s.stores, bb.Store)
			bb.Store = nil
		}
	}
}

// newMemory returns a recycled memory of tree t, or a new one.
func (s *Spawner) newMemory(t *bt.Tree) bt.Memory {
	if n := len(s.memories); n > 0 && t == s.tree {
		m := s.memories[n-1]
		s.memories[n-1] = bt.Memory{}
		s.memories = s.memories[:n-1]
		return m
	}
	return t.NewMemory()
}

// newState returns a recycled state of reasoner r, made fresh, or a new one.
func (s *Spawner) newState(r *utility.Reasoner) utility.State {
	if n := len(s.states); n > 0 && r == s.reasoner {
		st := s.states[n-1]
		s.states[n-1] = utility.State{}
		s.states = s.states[:n-1]
		clear(st.Scores)
		clear(st.Considerations)
		return utility.State{Choice: utility.None, Previous: utility.None, Scores: st.Scores,
			Considerations: st.Considerations}
	}
	return r.NewState()
}

// newWaypoints returns a recycled empty waypoint buffer, or a new one of room for
// capacity cells.
func (s *Spawner) newWaypoints(capacity int) []grid.Cell {
	if n := len(s.waypoints); n > 0 {
		wp := s.waypoints[n-1]
		s.waypoints[n-1] = nil
		s.waypoints = s.waypoints[:n-1]
		return wp
	}
	return make([]grid.Cell, 0, capacity)
}

// newStore returns a recycled store of schema sc, or a new one.
func (s *Spawner) newStore(sc *blackboard.Schema) *blackboard.Store {
	if n := len(s.stores); n > 0 && sc == s.schema {
		st := s.stores[n-1]
		s.stores[n-1] = nil
		s.stores = s.stores[:n-1]
		return st
	}
	return sc.NewStore()
}
