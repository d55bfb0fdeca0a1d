package systems

import (
	"sync"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
)

// Arena is the world's owner of the memory archai components point into: for every
// agent (by entity ID) it keeps a reference to its behavior-tree node memory, its
// utility scores, its path waypoints, its blackboard store, and the tree, machine and
// reasoner (with their ID strings) its components name. Add it with [ArenaOf]; it is a
// resource (*Arena) of the world.
//
// Why: Arche v0.15.3 moves an entity's components between or within archetypes
// (removing an entity, adding or removing a component) with a byte copy that Go's
// garbage collector does not see. A slice or pointer whose only reference is inside a
// moved component can then be freed while still in use. With every such reference also
// held by the Arena, which the world keeps alive, nothing a component points to can be
// freed under it, so agents may be removed.
//
// A hybrid.TreeRun in a component of the program's own (examples/guardfsm's Combat) is
// held too: hybrid.TreeState hands it to [Agent.KeepTreeRun] at the agent's first
// update of that state and whenever it allocates the run's node memory, and the Arena
// keeps its node memory, blackboard store and tree per entity and TreeState (kept
// across a new [Arena.Hold] of the same entity, dropped when the ID is held for another
// entity or released). Other pointers in your own components are not held.
//
// Who holds: [Spawner] (every spawn and respawn), [PathQueue] (when it gives an agent a
// waypoint buffer from its spares) and the loader of a saved world. Components you fill by hand
// (a Brain written outside a Spawner's bundles) are held after [Arena.HoldAll] or
// [Arena.Hold]: call it after building such agents and before the first structural
// change. A held entry is replaced when its entity ID is held again (a respawn, or a new
// entity reusing the ID) and dropped by [Arena.Release].
//
// The Arena is not safe for concurrent use: systems hold on their own goroutine (the
// keeping of TreeRuns, by the workers of one system, locks).
type Arena struct {
	held []held     // by entity ID
	mu   sync.Mutex // keep's: machines updated by workers keep at once

	brain, machine, utility, path, blackboard arche.ID
}

// held is what one entity's components point to.
type held struct {
	nodes     []bt.NodeMemory
	waypoints []grid.Cell
	scores    []float64
	cons      []float64
	store     *blackboard.Store
	tree      *bt.Tree
	machine   *fsm.Machine
	reasoner  *utility.Reasoner
	ids       [3]string // the Brain, StateMachine and UtilityBrain IDs

	ent  arche.Entity // the entity kept is for
	kept []kept       // tree runs in components of the program's own, by TreeState
}

// kept is what one hybrid.TreeRun of an entity points to, kept for one TreeState.
type kept struct {
	state any
	nodes []bt.NodeMemory
	store *blackboard.Store
	tree  *bt.Tree
}

// ArenaOf returns the world's Arena, adding an empty one as a resource if the world has
// none, and registering the component types it reads. Call it outside queries the
// first time (it adds a resource and may register components).
func ArenaOf(w *arche.World) *Arena {
	id := arche.ResourceID[Arena](w)
	if r := w.Resources().Get(id); r != nil {
		return r.(*Arena)
	}
	a := &Arena{brain: arche.ComponentID[components.Brain](w), machine: arche.ComponentID[components.StateMachine](w),
		utility: arche.ComponentID[components.UtilityBrain](w), path: arche.ComponentID[components.Path](w),
		blackboard: arche.ComponentID[components.Blackboard](w)}
	w.Resources().Add(id, a)
	return a
}

// entry returns e's entry, growing the table; it allocates only when a larger entity ID
// than any before is held.
func (a *Arena) entry(e arche.Entity) *held {
	i := int(e.ID())
	if i >= len(a.held) {
		a.held = append(a.held, make([]held, i+1-len(a.held))...)
	}
	return &a.held[i]
}

// Hold records what entity e's archai components point to now (replacing what was held
// for its ID). It reads through w.Get, so it may be called while a query is open. A dead
// e is ignored.
func (a *Arena) Hold(w *arche.World, e arche.Entity) {
	if !ecs.Alive(w, e) {
		return
	}
	h := a.renew(e)
	if id := a.brain; w.Has(e, id) {
		a.holdBrain(h, (*components.Brain)(w.Get(e, id)))
	}
	if id := a.machine; w.Has(e, id) {
		a.holdMachine(h, (*components.StateMachine)(w.Get(e, id)))
	}
	if id := a.utility; w.Has(e, id) {
		a.holdUtility(h, (*components.UtilityBrain)(w.Get(e, id)))
	}
	if id := a.path; w.Has(e, id) {
		h.waypoints = (*components.Path)(w.Get(e, id)).Waypoints
	}
	if id := a.blackboard; w.Has(e, id) {
		h.store = (*components.Blackboard)(w.Get(e, id)).Store
	}
}

// HoldAll holds every entity of w ([Arena.Hold]): once after agents were built by hand
// or loaded.
func (a *Arena) HoldAll(w *arche.World) {
	q := w.Query(arche.All())
	var es []arche.Entity
	for q.Next() {
		es = append(es, q.Entity())
	}
	for _, e := range es {
		a.Hold(w, e)
	}
}

// Release forgets what was held for e's ID (after e was removed, so its buffers can be
// collected). It is optional: holding a new entity with the same ID replaces the entry.
func (a *Arena) Release(e arche.Entity) {
	if i := uint(e.ID()); i < uint(len(a.held)) {
		h := &a.held[i]
		clear(h.kept)
		*h = held{kept: h.kept[:0]}
	}
}

// renew returns e's entry emptied for a new hold. What [Agent.KeepTreeRun] kept stays
// when the entry is e's already (a second hold of the same agent: HoldAll, a load) and
// goes when it was another entity's (an ID reused); the kept slice's room is reused.
func (a *Arena) renew(e arche.Entity) *held {
	h := a.entry(e)
	k := h.kept
	if h.ent != e {
		clear(k)
		k = k[:0]
	}
	*h = held{ent: e, kept: k}
	return h
}

// holdScores records e's UtilityBrain scores after the Utility system sized its State
// (a zero State written by hand). Safe for concurrent use by one system's workers.
func (a *Arena) holdScores(e arche.Entity, scores, cons []float64) {
	if a == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	h := a.entry(e)
	h.scores, h.cons = scores, cons
}

// holdBrainOf records e's Brain after the Decision system gave it a new memory (a Brain
// written with a Tree only, or whose Tree was replaced). Safe for concurrent use by one
// system's workers.
func (a *Arena) holdBrainOf(e arche.Entity, b *components.Brain) {
	if a == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.holdBrain(a.entry(e), b)
}

// keep records, for entity e and one hybrid.TreeState (state), what a TreeRun in a
// component points to (see [Agent.KeepTreeRun]), replacing what that state kept for e.
// Safe for concurrent use by the workers of one system (not with Hold): it locks.
// It allocates only when e keeps for more states than ever before for its ID.
func (a *Arena) keep(e arche.Entity, state any, nodes []bt.NodeMemory, store *blackboard.Store, tree *bt.Tree) {
	a.mu.Lock()
	defer a.mu.Unlock()
	h := a.entry(e)
	if h.ent != e {
		clear(h.kept)
		h.kept, h.ent = h.kept[:0], e
	}
	k := kept{state: state, nodes: nodes, store: store, tree: tree}
	for i := range h.kept {
		if h.kept[i].state == state {
			h.kept[i] = k
			return
		}
	}
	h.kept = append(h.kept, k)
}

// HoldWaypoints records wp as e's waypoint buffer (a system that gave e's Path a new
// buffer calls it).
func (a *Arena) HoldWaypoints(e arche.Entity, wp []grid.Cell) { a.entry(e).waypoints = wp }

// Len returns the number of entity IDs the Arena has room for.
func (a *Arena) Len() int { return len(a.held) }

func (a *Arena) holdBrain(h *held, b *components.Brain) {
	h.nodes, h.tree, h.ids[0] = b.Memory.Nodes(), b.Tree, b.ID
}

func (a *Arena) holdMachine(h *held, m *components.StateMachine) {
	h.machine, h.ids[1] = m.Machine, m.ID
}

func (a *Arena) holdUtility(h *held, u *components.UtilityBrain) {
	h.reasoner, h.scores, h.cons, h.ids[2] = u.Reasoner, u.State.Scores, u.State.Considerations, u.ID
}

// holdSpawned records what a new agent's view points to.
func (a *Arena) holdSpawned(s *Spawned) {
	h := a.renew(s.Entity)
	if s.Brain != nil {
		a.holdBrain(h, s.Brain)
	}
	if s.StateMachine != nil {
		a.holdMachine(h, s.StateMachine)
	}
	if s.UtilityBrain != nil {
		a.holdUtility(h, s.UtilityBrain)
	}
	if s.Path != nil {
		h.waypoints = s.Path.Waypoints
	}
	if s.Blackboard != nil {
		h.store = s.Blackboard.Store
	}
}
