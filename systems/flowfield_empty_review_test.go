package systems

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestFlowFieldWithoutFollowersAsksForNoField: once the last follower is
// gone, FlowField asks the cache for no field: a field of a goal nobody
// follows is not rebuilt after a grid edit. The goals of the last frame with
// followers used to be asked for again every frame (the workers' lists of
// goals in use were not reset when no worker ran), each edit rebuilding them.
func TestFlowFieldWithoutFollowersAsksForNoField(t *testing.T) {
	for _, workers := range []int{1, 2} {
		world := arche.NewWorld()
		w := &world
		g := grid.New(32, 32)
		arche.AddResource(w, g)
		sp, err := NewSpawner(w, FlowFollower{Goal: grid.Cell{X: 28, Y: 28}})
		require.NoError(t, err)
		var es []arche.Entity
		for i := range 6 {
			es = append(es, sp.Spawn(r2.Vec{X: 2.5 + float64(i), Y: 3.5}, nil))
		}
		flow := &FlowField{Workers: workers}
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), flow)
		s.Initialize(w)
		s.Run(w, 5)
		require.Positive(t, flow.Cache.Hits, "the followers' field is asked for")
		ffID := arche.ComponentID[components.FlowFollower](w)
		for _, e := range es {
			w.Remove(e, ffID)
		}
		q := generic.NewFilter1[components.FlowFollower]().Query(w)
		require.Zero(t, q.Count())
		q.Close()
		hits, rebuilds := flow.Cache.Hits, flow.Cache.Rebuilds
		for k := range 4 {
			g.SetCost(grid.Cell{X: 10, Y: int32(10 + k)}, grid.Blocked)
			s.Update(w)
		}
		assert.Equal(t, hits, flow.Cache.Hits, "%d workers: no field asked for", workers)
		assert.Equal(t, rebuilds, flow.Cache.Rebuilds, "%d workers: no field rebuilt", workers)
		s.Finalize(w)
	}
}
