// Package scenario builds the worlds that cmd/bench runs: a generated default
// map, and the guard scenario (guards that patrol, chase, attack and flee
// home, against intruders that wander and fight back) with its behavior trees,
// leaves and the system that handles agents that go down; and the swarm scenario.
// Every agent is spawned through the public bundles of package systems
// (systems.Mover, systems.Thinker, systems.Combatant, systems.FlowFollower), so what
// users get is what the benchmark measures. One departure: the guard scenario
// then sets each agent's first think by blocks of storage order instead of the
// Thinker bundle's random fraction of the interval (same rate, same number of
// thinkers a frame; see staggerByStorage), so a frame's thinkers are
// neighbours in memory.
package scenario
