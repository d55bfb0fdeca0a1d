package systems_test

import (
	"encoding/json"
	"hash/fnv"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// review5: a level restart of the planner systems with agents and 2 workers: the
// HTN and GOAP values of one world, run and finalized, then initialized on a fresh
// world of the same agents, end it as fresh values do.
func TestPlannersLevelRestartRunsAsFresh(t *testing.T) {
	const n, frames = 300, 40
	newLevel := func() *arche.World {
		world := arche.NewWorld()
		w := &world
		hreg, hid := guardHTN(t)
		greg, gid := fetchGOAP(t)
		arche.AddResource(w, hreg)
		arche.AddResource(w, greg)
		hs, err := systems.NewSpawner(w, systems.HTNThinker{Registry: hreg, Domain: hid})
		require.NoError(t, err)
		hs.Seed = 11
		hs.SpawnBatch(n, func(i int, a *systems.Spawned) { a.Position.Vec = r2.Vec{X: float64(i)} })
		gs, err := systems.NewSpawner(w, systems.GOAPThinker{Registry: greg, Domain: gid, Interval: 0.2})
		require.NoError(t, err)
		gs.Seed = 12
		gs.SpawnBatch(n, func(i int, a *systems.Spawned) { a.Position.Vec = r2.Vec{Y: float64(i)} })
		return w
	}
	digest := func(w *arche.World) (uint64, uint64) {
		sum := fnv.New64a()
		hq := generic.NewFilter1[components.HTNPlanner]().Query(w)
		for hq.Next() {
			data, err := json.Marshal(hq.Get())
			require.NoError(t, err)
			sum.Write(data)
		}
		gq := generic.NewFilter1[components.GOAPPlanner]().Query(w)
		for gq.Next() {
			data, err := json.Marshal(gq.Get())
			require.NoError(t, err)
			sum.Write(data)
		}
		return systems.StateHash(w), sum.Sum64()
	}
	run := func(w *arche.World, h *systems.HTN, g *systems.GOAP) {
		s := ecs.NewScheduler(ecs.NewClockSystem(0.05), h, g)
		s.Initialize(w)
		s.Run(w, frames)
		s.Finalize(w)
	}
	fresh := newLevel()
	run(fresh, &systems.HTN{Workers: 2, Budget: 50}, &systems.GOAP{Workers: 2, Budget: 50})
	ws, wp := digest(fresh)

	h, g := &systems.HTN{Workers: 2, Budget: 50}, &systems.GOAP{Workers: 2, Budget: 50}
	run(newLevel(), h, g)
	level := newLevel()
	run(level, h, g)
	gs, gp := digest(level)
	require.Equal(t, ws, gs, "state hash")
	require.Equal(t, wp, gp, "planner components")
}
