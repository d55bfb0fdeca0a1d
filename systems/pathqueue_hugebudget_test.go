package systems_test

import (
	"math"
	"runtime"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A Budget set huge to mean "no limit" searches as any other: the room the queue
// makes up front for a frame's answers is bounded (the first version of that room
// took Budget+1 results: makeslice panicked for math.MaxInt, and a Budget of 10⁹
// would have asked for 24 GB).
func TestPathQueueHugeBudget(t *testing.T) {
	for _, budget := range []int{math.MaxInt, math.MaxInt32, 1e9} {
		world := arche.NewWorld()
		w := &world
		g := grid.New(40, 40)
		for y := range int32(30) {
			g.SetCost(grid.Cell{X: 20, Y: y}, grid.Blocked)
		}
		arche.AddResource(w, g)
		sp, err := systems.NewSpawner(w, systems.Mover{})
		require.NoError(t, err)
		e := sp.Spawn(r2.Vec{X: 5.5, Y: 5.5}, func(a *systems.Spawned) { a.MoveTo(r2.Vec{X: 35.5, Y: 5.5}) })
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{Budget: budget},
			&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
		s.Initialize(w)
		s.Run(w, 3)
		runtime.ReadMemStats(&after)
		path := (*components.Path)(w.Get(e, arche.ComponentID[components.Path](w)))
		assert.Equal(t, components.PathReady, path.State, "budget %d", budget)
		assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(64<<20), "budget %d: bytes allocated", budget)
		s.Finalize(w)
	}
}
