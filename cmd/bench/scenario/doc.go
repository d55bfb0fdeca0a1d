// Package scenario builds the worlds that cmd/bench runs: a generated default
// map, and the guard scenario (guards that patrol, chase, attack and flee
// home, against intruders that wander and fight back) with its behavior trees,
// leaves and the system that handles agents that go down; and the swarm scenario.
// Every agent is spawned through the public bundles of package systems
// (systems.Mover, systems.Thinker, systems.Combatant, systems.FlowFollower), so what
// users get is what the benchmark measures.
package scenario
