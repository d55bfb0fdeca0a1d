package systems

import (
	"errors"
	"fmt"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
)

// HTNThinker is an agent that plans with a hierarchical task network ([HTN]): a
// [components.HTNPlanner] of Domain (an ID of Registry, which must also be the world's
// *htn.Registry resource; the component is named by the domain's name) starting from the believed State, with a Think cadence, an
// Intent, a Position, a seeded Rand and a [components.Blackboard] (a store of Schema,
// else empty), like a [Thinker]: Think.Next is the spawn time plus a fraction of
// Interval drawn from the agent's Rand. The plan is empty: the first think makes one.
type HTNThinker struct {
	Registry *htn.Registry
	Domain   htn.ID
	// State is the agents' first believed state, by the facts' indices in the domain
	// Domain names when [NewSpawner] is called. After a reload of that domain
	// (htn.Registry.ReloadFile, Replace) the agents spawned start from State carried
	// over to the new domain's facts by name, as the agents already thinking do: a fact
	// the edit added starts at 0, one it removed is dropped.
	State    htn.State
	Interval float64 // seconds between thinks; DefaultThinkInterval (0.1, 10 Hz)
	// Schema, if not nil, makes each agent's blackboard store (one per agent), for a
	// domain whose sensor reads the agent's keys. A world saved with package
	// systems/save needs one schema for every store: give the tree registry's.
	Schema *blackboard.Schema
}

// Validate reports a missing registry, a Domain it does not hold, or a negative or
// non-finite Interval.
func (b HTNThinker) Validate() error {
	return validatePlanner("HTNThinker", b.Registry.Domain(b.Domain) != nil, b.Domain, b.Interval)
}

// Components implements [Bundle].
func (b HTNThinker) Components(w *arche.World) []arche.ID {
	return append(idsOf(w, thinkerBaseIDs...), arche.ComponentID[components.HTNPlanner](w))
}

func (b HTNThinker) sets(w *arche.World) []arche.ID {
	return append(idsOf(w, idThink, idBlackboard), arche.ComponentID[components.HTNPlanner](w))
}

// Init implements [Bundle].
func (b HTNThinker) Init(a *Spawned) {
	d := b.Registry.Domain(b.Domain)
	*Component[components.HTNPlanner](a) = components.HTNPlanner{Name: d.Name(), Domain: b.Domain, State: a.spawner.htnState(b.State, d), Cache: d}
	initThink(a, b.Interval)
	if b.Schema != nil {
		a.Blackboard.Store = a.spawner.newStore(b.Schema)
	}
}

// GOAPThinker is an agent that plans with goal-oriented action planning ([GOAP]): a
// [components.GOAPPlanner] of Domain (an ID of Registry, which must also be the world's
// *goap.Registry resource; the component is named by the domain's name) starting from the believed State, with the rest of a
// [Thinker] as for [HTNThinker] (Schema too).
type GOAPThinker struct {
	Registry *goap.Registry
	Domain   goap.ID
	// State is by fact index and follows a goap.Registry.Replace of the domain by fact
	// name, as HTNThinker.State does.
	State    goap.State
	Interval float64 // seconds between thinks; DefaultThinkInterval (0.1, 10 Hz)
	// Schema, if not nil, makes each agent's blackboard store (one per agent), as
	// HTNThinker.Schema does.
	Schema *blackboard.Schema
}

// Validate reports a missing registry, a Domain it does not hold, or a negative or
// non-finite Interval.
func (b GOAPThinker) Validate() error {
	return validatePlanner("GOAPThinker", b.Registry.Domain(b.Domain) != nil, b.Domain, b.Interval)
}

// Components implements [Bundle].
func (b GOAPThinker) Components(w *arche.World) []arche.ID {
	return append(idsOf(w, thinkerBaseIDs...), arche.ComponentID[components.GOAPPlanner](w))
}

func (b GOAPThinker) sets(w *arche.World) []arche.ID {
	return append(idsOf(w, idThink, idBlackboard), arche.ComponentID[components.GOAPPlanner](w))
}

// Init implements [Bundle].
func (b GOAPThinker) Init(a *Spawned) {
	d := b.Registry.Domain(b.Domain)
	*Component[components.GOAPPlanner](a) = components.GOAPPlanner{Name: d.Name(), Domain: b.Domain, State: a.spawner.goapState(b.State, d), Cache: d}
	initThink(a, b.Interval)
	if b.Schema != nil {
		a.Blackboard.Store = a.spawner.newStore(b.Schema)
	}
}

// validatePlanner is the Validate of a planner bundle: found tells whether the registry
// holds the bundle's domain id.
func validatePlanner(bundle string, found bool, id any, interval float64) error {
	var dom error
	if !found {
		dom = fmt.Errorf("%s: Domain %d is not in the Registry (nil registry, 0 or never added)", bundle, id)
	}
	return errors.Join(dom, checkSize("Interval", interval))
}

// initThink writes a Thinker's cadence, staggered by the agent's Rand, and an empty
// blackboard.
func initThink(a *Spawned, interval float64) {
	interval = orDefault(interval, DefaultThinkInterval)
	*a.Think = components.Think{Interval: interval, Next: a.Time + float64(a.Rand.Float64()*interval), Last: a.Time}
	a.Blackboard.Store = nil
}

// plannerStart is a planner bundle's State as its spawner's agents start: written is the
// domain the State's fact indices are of (the one NewSpawner found), to the domain state
// holds it for after a reload (carried over by fact name), so a batch carries it once.
type plannerStart[D comparable, S any] struct {
	written, to D
	state       S
}

// htnState returns the believed state an HTNThinker agent of domain d starts from: the
// bundle's state if d is the domain the spawner found, else state carried over to d's
// facts by name (a reload replaced the domain, see [HTNThinker].State). A nil s (a
// Spawned made by no spawner) returns state.
func (s *Spawner) htnState(state htn.State, d *htn.Domain) htn.State {
	if s == nil || s.htnStart.written == nil || d == s.htnStart.written {
		return state
	}
	st := &s.htnStart
	if d != st.to {
		carryFacts[htn.Fact](st.state[:], state[:], st.written, d)
		st.to = d
	}
	return st.state
}

// goapState is htnState for a GOAPThinker.
func (s *Spawner) goapState(state goap.State, d *goap.Domain) goap.State {
	if s == nil || s.goapStart.written == nil || d == s.goapStart.written {
		return state
	}
	st := &s.goapStart
	if d != st.to {
		carryFacts[goap.Fact](st.state[:], state[:], st.written, d)
		st.to = d
	}
	return st.state
}
