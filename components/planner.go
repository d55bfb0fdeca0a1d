package components

import (
	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ai/htn"
	arche "github.com/mlange-42/arche/ecs"
)

// HTNPlanner is an agent that plans with a hierarchical task network (package ai/htn):
// the domain it plans with, its believed world state and its plan being carried out.
// systems.HTN plans and runs it on the agent's Think cadence.
//
// Name is the truth: the name of the domain (htn.Domain.Name) in the world's
// *htn.Registry resource; a saved world stores it and the loader (package systems/save)
// resolves it against the program's registry. Domain and Cache are a cache of that
// lookup, not saved: the domain's ID in the registry and the domain itself, checked and
// set by systems.HTN before every think (Cache is a pointer to a registry-owned object,
// never the only reference to it, so Arche's byte copies cannot lose it). A planner with
// an empty Name is named by Domain: systems.HTN and the save fill in the domain's name.
//
// Name is interned: the bundle, the loader and systems.HTN set it to the registry's own
// string (Domain.Name()), so no string buffer has its only reference inside a component
// (see systems.Arena). Write it yourself from Domain.Name() or a constant. State and
// Run are plain data: no pointer, fixed-size arrays.
//
// To give an agent another domain, set Name (leave Domain and Cache): at the agent's next
// think systems.HTN sees Name and Cache disagree, the old domain halts the running plan
// (its task's Halt runs) and the agent plans with the new one (HTN.Swapped counts it).
// save.Save refuses the agent in between (ErrMemory). A domain replaced in the registry
// under the same name (htn.Registry.ReloadFile: a designer's hot reload) is swapped the
// same way at each agent's next think, its believed State carried over by fact name.
type HTNPlanner struct {
	Name   string
	Domain htn.ID `json:"-"`
	State  htn.State
	Run    htn.Run
	Cache  *htn.Domain `json:"-"`
}

// GOAPPlanner is an agent that plans with goal-oriented action planning (package
// ai/goap): the domain, its believed world state and its plan being carried out.
// systems.GOAP plans and runs it on the agent's Think cadence. Name (the truth, saved),
// Domain and Cache (its cache, not saved) work as in [HTNPlanner], with the world's
// *goap.Registry resource, and so does a swap of domain by Name (GOAP.Swapped).
type GOAPPlanner struct {
	Name   string
	Domain goap.ID `json:"-"`
	State  goap.State
	Run    goap.Run
	Cache  *goap.Domain `json:"-"`
}

// SquadMember makes an agent a member of a squad: Squad is the entity that holds the
// squad's shared state (a component of the scenario's own, such as who suppresses and
// where the enemy was seen). Members read it when they think; writes to it go through
// the decision systems' Commands (applied after the think, in agent order) or a system
// of the squad's own, so the result does not depend on the number of workers.
//
// Nothing in archai checks that Squad lives: a program that removes a squad's entity
// re-points or clears its members (read it with a liveness check, World.Alive or
// systems.GetOf, which returns nil for a removed entity even once its ID is reused).
// The debugger shows such a squad as removed.
type SquadMember struct {
	Squad arche.Entity
	Slot  uint8 // the member's place in the squad (0 leads), for roles and formation
}
