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
// Domain is the truth: the ID of the domain in the world's *htn.Registry resource.
// Cache is the registry's domain for that ID, set by systems.HTN before every think (a
// pointer to a registry-owned object, never the only reference to it, so Arche's byte
// copies cannot lose it); it is not saved. State and Run are plain data: no pointer,
// fixed-size arrays.
type HTNPlanner struct {
	Domain htn.ID
	State  htn.State
	Run    htn.Run
	Cache  *htn.Domain `json:"-"`
}

// GOAPPlanner is an agent that plans with goal-oriented action planning (package
// ai/goap): the domain, its believed world state and its plan being carried out.
// systems.GOAP plans and runs it on the agent's Think cadence. Domain and Cache work as
// in [HTNPlanner], with the world's *goap.Registry resource.
type GOAPPlanner struct {
	Domain goap.ID
	State  goap.State
	Run    goap.Run
	Cache  *goap.Domain `json:"-"`
}

// SquadMember makes an agent a member of a squad: Squad is the entity that holds the
// squad's shared state (a component of the scenario's own, such as who suppresses and
// where the enemy was seen). Members read it when they think; writes to it go through
// the decision systems' Commands (applied after the think, in agent order) or a system
// of the squad's own, so the result does not depend on the number of workers.
type SquadMember struct {
	Squad arche.Entity
	Slot  uint8 // the member's place in the squad (0 leads), for roles and formation
}
