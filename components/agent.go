package components

import (
	"github.com/archai-go/archai/ai/steer"
)

// Faction tells friend from foe: perception looks for the nearest agent of
// another team.
type Faction struct {
	Team uint8
}

// Health points. An agent with Current ≤ 0 is down; what that means is the
// scenario's choice.
type Health struct {
	Current, Max float64
}

// Rand is the agent's own seeded random source, so a run replays from its seed.
type Rand struct {
	steer.Rand
}

// Weapon is what an agent's strike does: the combat system applies Damage to
// the Intent.Attack target if it is alive and within Range.
type Weapon struct {
	Damage float64 // health points per strike
	Range  float64 // cells, centre to centre
}
