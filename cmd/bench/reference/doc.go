// Package reference is the crowd benchmark's yardstick: a minimal,
// data-oriented loop doing the swarm scenario's core work outside Arche, so
// that cmd/bench can print archai's frame time as a ratio of it measured in
// the same run (these machines are noisy: a ratio from one run holds where a
// bare time does not).
//
// Every frame [Loop.Step]:
//
//  1. sorts the agents by grid cell with a counting sort: each worker counts
//     the cells of its contiguous range of agents (done at the end of the
//     previous frame), prefix sums run over contiguous ranges of cells, and
//     each worker scatters its agents to their sorted places; the agents
//     themselves are reordered (structure of arrays, float32 positions and
//     velocities), so neighbours are neighbours in memory;
//  2. for each agent, over contiguous ranges of the sorted agents: separation
//     from the agents within [SeparationRadius] cells (the 3×3 cells around,
//     read from the sorted arrays: the hash is the sort), seek along the
//     flow direction of its cell (a per-cell array copied from a
//     nav/flowfield field built for the goal), force and speed limits, an
//     Euler step, and a wall check (a step into a blocked cell, or diagonally
//     past a blocked corner, slides along the wall or stops, as
//     systems.Movement does); the new state goes to a second set of arrays,
//     so the result does not depend on the number of workers.
//
// It runs on the swarm's map with the swarm's agents and goals
// (scenario.NewSwarmLayout) and the swarm's speed and force. What it leaves
// out is what makes archai a library: components, queries, diagnostics,
// arrive, wall feelers, flow-field look-ahead.
//
//	go run ./cmd/bench -scenario reference -agents 100000 -frames 300 -workers 2
//	go run ./cmd/bench -scenario swarm -agents 100000 -frames 300 -workers 2 -ratio
package reference
