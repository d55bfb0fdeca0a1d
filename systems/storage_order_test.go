package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// swarmOrdered builds a dense crowd of flow followers and wanderers (two
// archetypes) on a map with walls and runs frames frames of the movement
// pipeline. Agent i has the same entity ID, position and seed either way;
// reversed stores the agents in the opposite order (Arche stores in
// creation order, and a spawn reuses the entity ID removed last). It returns
// the state hash and the entity IDs in spawn order.
func swarmOrdered(t testing.TB, n, frames, workers int, reversed bool) (uint64, []uint32) {
	w, s, ids := newOrderedSwarm(t, n, workers, reversed)
	s.Run(w, frames)
	return systems.StateHash(w), ids
}

// newOrderedSwarm builds swarmOrdered's world and its initialized scheduler
// (finalized when the test ends).
func newOrderedSwarm(t testing.TB, n, workers int, reversed bool) (*arche.World, *ecs.Scheduler, []uint32) {
	world := arche.NewWorld()
	w := &world
	g := grid.New(40, 40)
	for y := int32(8); y < 32; y++ {
		g.SetCost(grid.Cell{X: 20, Y: y}, grid.Blocked) // a wall to flow around
	}
	arche.AddResource(w, g)
	// bare placeholders hand out their IDs: the one removed last is reused first
	ph := make([]arche.Entity, n)
	for i := range ph {
		ph[i] = w.NewEntity()
	}
	for k := range n {
		i := n - 1 - k // spawn order 0..n-1: remove n-1 first, 0 last
		if reversed {
			i = k
		}
		w.RemoveEntity(ph[i])
	}
	goal := grid.Cell{X: 33, Y: 20}
	flow, err := systems.NewSpawner(w, systems.FlowFollower{Goal: goal})
	require.NoError(t, err)
	wander, err := systems.NewSpawner(w, systems.Wanderer{})
	require.NoError(t, err)
	rng := steer.NewRand(11)
	pos := make([]r2.Vec, n)
	for i := range pos { // packed in a corner, so every agent has neighbours
		pos[i] = r2.Vec{X: 2 + 12*rng.Float64(), Y: 14 + 12*rng.Float64()}
	}
	ids := make([]uint32, n)
	spawn := func(i int) {
		sp := flow
		if i%3 == 0 {
			sp = wander
		}
		sp.Seed = uint64(1000 + i) // the agent's Rand, and the wanderer's first heading
		e := sp.Spawn(pos[i], nil)
		ids[i] = e.ID()
	}
	for k := range n {
		if reversed {
			spawn(n - 1 - k)
		} else {
			spawn(k)
		}
	}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{CellSize: 1, Workers: workers},
		&systems.FlowField{Workers: workers}, &systems.PathFollow{Workers: workers},
		&systems.Steer{Workers: workers}, &systems.Movement{Workers: workers})
	s.Initialize(w)
	t.Cleanup(func() { s.Finalize(w) })
	return w, s, ids
}

// TestResultsIndependentOfStorageOrder: the same agents stored in opposite
// orders (as after a save and load) end in the same state: the neighbour
// order, and every sum over it, follows entity IDs, not storage.
func TestResultsIndependentOfStorageOrder(t *testing.T) {
	const n, frames = 600, 90
	a, idsA := swarmOrdered(t, n, frames, 2, false)
	b, idsB := swarmOrdered(t, n, frames, 2, true)
	require.Equal(t, idsA, idsB, "agent i has the same entity ID in both worlds")
	assert.Equal(t, a, b, "same agents, opposite storage order, same state")
	c, _ := swarmOrdered(t, n, frames, 1, true)
	assert.Equal(t, a, c, "and the same with 1 worker")
	d, _ := swarmOrdered(t, n, frames+1, 2, false)
	assert.NotEqual(t, a, d, "the hash sees the agents move")
}

// TestSwarmFrameAllocatesNothing: once warm, a frame of the swarm's
// pipeline (Spatial, FlowField, PathFollow, Steer, Movement) allocates
// nothing, with agents in and out of the hash's buckets and wanderers.
func TestSwarmFrameAllocatesNothing(t *testing.T) {
	w, s, _ := newOrderedSwarm(t, 600, 2, true)
	s.Run(w, 120)
	assert.Zero(t, testing.AllocsPerRun(30, func() { s.Update(w) }))
}
