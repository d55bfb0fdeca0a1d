package components

import (
	"github.com/archai-go/archai/ai/steer"
)

// Faction tells friend from foe: perception looks for the nearest agent of
// another team. An agent without a Faction (a bystander: a crowd member, a
// worker) is nobody's foe: no perceiver picks it, whatever its team. Give it a
// Faction to make it one; an agent that perceives needs one (its own team is
// never its foe). The Spatial system's Neighbours still lists such an agent with
// team 0 (for steering), but Team 0 on a Faction is an ordinary team: there is
// no default, and two armies both left at Team 0 are one side that never fights
// itself, which nothing can report (allies may be meant). Number each side.
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
// the Intent.Attack target if it is alive and within Range, at most once per
// Cooldown.
//
// Without a Cooldown (0) every request strikes, so the damage per second is
// Damage times the rate the agent asks at (its think rate: a far agent of a
// 2 Hz LOD level deals a fifth of a 10 Hz one's). With a Cooldown the agent
// strikes at most once per Cooldown seconds of simulation time: Damage/Cooldown
// per second whatever its think rate, as long as it asks at least once per
// Cooldown (a request before ReadyAt is dropped; see systems.Combat for the
// exact rule). The Cooldown is timed by the world's *ecs.Clock: without one it
// is not, and systems.Diagnose reports it (Report.CooldownsUntimed).
type Weapon struct {
	Damage float64 // health points per strike
	Range  float64 // cells, centre to centre

	// Cooldown is the least time between two strikes, in seconds of simulation
	// time; 0: none (< 0 or NaN read as none, and reported by systems.Diagnose as
	// weapon_invalid; one over systems.MaxWeaponCooldown, 60 s, as
	// weapon_cooldown_too_long: milliseconds given for seconds?).
	Cooldown float64 `json:",omitempty"`
	// ReadyAt is the simulation time (seconds) from which the next strike may
	// land: the last strike's time plus Cooldown, written by systems.Combat.
	// 0 at spawn: ready at once.
	ReadyAt float64 `json:",omitempty"`
}
