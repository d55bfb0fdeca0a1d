package systems

import (
	"testing"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/internal/alloctest"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSectorSwarmWarmFrameAllocatesNothing: a sector-mode swarm of more
// agents than the shared scans read on one goroutine (so Spatial and Steer
// hand their entity reads to the workers) allocates nothing in a warm frame,
// system by system.
func TestSectorSwarmWarmFrameAllocatesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	g := sectorMaze()
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, g)
	sp, err := NewSpawner(w, FlowFollower{Goal: grid.Cell{X: 80, Y: 80}})
	require.NoError(t, err)
	rng := steer.NewRand(5)
	for range minSharedEntities + 500 {
		for {
			c := grid.Cell{X: int32(rng.Intn(96)), Y: int32(rng.Intn(96))}
			if g.Passable(c) {
				sp.Spawn(g.Center(c), nil)
				break
			}
		}
	}
	sys := []ecs.System{ecs.NewClockSystem(1.0 / 60), &Spatial{CellSize: 1, Workers: 2},
		&FlowField{Sectors: 16, Budget: 4 * 16 * 16, Workers: 2},
		&PathFollow{Workers: 2}, &Steer{Workers: 2}, &Movement{Workers: 2}}
	s := ecs.NewScheduler(sys...)
	s.Initialize(w)
	t.Cleanup(func() { s.Finalize(w) })
	s.Run(w, 300)
	// alloctest counts archai's objects, not the runtime's parking records
	// for the workers' hand-offs nor other goroutines' objects
	m := alloctest.Start(t)
	total := map[string]*alloctest.Window{}
	for _, sy := range sys {
		total[ecs.SystemName(sy)] = &alloctest.Window{}
	}
	for range 20 {
		for _, sy := range sys {
			total[ecs.SystemName(sy)].Add(m.Count(func() { sy.Update(w) }))
		}
	}
	for name, got := range total {
		if got.Mallocs > 0 {
			t.Logf("%s: the process allocated %d objects in its windows, archai %d", name, got.Mallocs, got.Objects)
		}
		assert.Zero(t, got.Objects, "%s allocates in a warm frame: %s", name, got)
	}
}
