package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// mixedRun spawns movers with paths, wanderers and flow followers
// interleaved (several archetypes, so the systems' column runs alternate),
// runs the movement pipeline with workers goroutines per system for frames
// frames, and returns every agent's position and velocity in query order.
func mixedRun(t *testing.T, workers, frames int) []r2.Vec {
	t.Helper()
	g := fixtureMap(900, 5)
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, g)
	goal := grid.Cell{X: int32(g.Width() / 2), Y: int32(g.Height() / 2)}
	for !g.Passable(goal) {
		goal.X++
	}
	movers, err := systems.NewSpawner(w, systems.Mover{})
	require.NoError(t, err)
	wanderers, err := systems.NewSpawner(w, systems.Wanderer{})
	require.NoError(t, err)
	flows, err := systems.NewSpawner(w, systems.FlowFollower{Goal: goal})
	require.NoError(t, err)
	r := steer.NewRand(11)
	for i := range 900 {
		switch i % 3 {
		case 0:
			target := g.Center(goal)
			movers.Seed = r.Uint64()
			movers.Spawn(openCell(g, &r), func(a *systems.Spawned) {
				a.Intent.Move, a.Intent.Goal = true, target
			})
		case 1:
			wanderers.Seed = r.Uint64()
			wanderers.Spawn(openCell(g, &r), nil)
		default:
			flows.Seed = r.Uint64()
			flows.Spawn(openCell(g, &r), nil)
		}
	}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{Workers: workers},
		&systems.PathQueue{}, &systems.FlowField{Workers: workers}, &systems.PathFollow{Workers: workers},
		&systems.Steer{Workers: workers}, &systems.Movement{Workers: workers})
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, frames)
	var out []r2.Vec
	q := generic.NewFilter2[components.Position, components.Velocity]().Query(w)
	for q.Next() {
		p, v := q.Get()
		out = append(out, p.Vec, v.Vec)
	}
	return out
}

// TestMixedArchetypesSameForAnyWorkers: with three kinds of agents spawned
// interleaved, Spatial, FlowField, PathFollow and Steer (which copy their
// agents on all workers) move every agent exactly alike for 1, 2 and 3
// workers.
func TestMixedArchetypesSameForAnyWorkers(t *testing.T) {
	want := mixedRun(t, 1, 40)
	require.Len(t, want, 1800)
	moved := 0
	for i := 1; i < len(want); i += 2 {
		if want[i] != (r2.Vec{}) {
			moved++
		}
	}
	require.Greater(t, moved, 600, "most agents move")
	for _, workers := range []int{2, 3} {
		require.Equal(t, want, mixedRun(t, workers, 40), "workers %d", workers)
	}
}
