// Package scenario builds the worlds that cmd/bench runs: a generated default
// map, and the guard scenario (guards that patrol, chase, attack and flee
// home, against intruders that wander and fight back) with its behavior trees,
// leaves and the system that handles agents that go down.
package scenario
