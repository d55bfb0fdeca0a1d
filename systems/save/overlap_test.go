package save_test

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestSaveBetweenQueueAndJoinSavesTheJoinedPaths (review17): a Save between a
// PathQueue with Overlap and its PathJoin (the world is not locked there) joins
// the searches in the queue's SaveState, which writes their answers into the
// Paths. Save encoded the components before the states, so the file held the
// Paths still pending while the queue's state no longer held their requests
// (answered): the loaded agents were orphans, asked again, and the loaded run
// was not the saved one. Save now takes the states first.
func TestSaveBetweenQueueAndJoinSavesTheJoinedPaths(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	g := grid.New(40, 40)
	arche.AddResource(w, g)
	pq := &systems.PathQueue{Budget: 10000, Overlap: true, Workers: 2}
	s := ecs.NewScheduler(pq, pq.Join())
	s.Initialize(w)
	defer s.Finalize(w)
	m := generic.NewMap2[components.Position, components.Path](w)
	var es []arche.Entity
	for i := range 4 {
		es = append(es, m.NewWith(&components.Position{Vec: r2.Vec{X: 2.5, Y: 2.5 + float64(i)}},
			&components.Path{Want: true, Goal: grid.Cell{X: 35, Y: 2 + int32(i)}}))
	}
	pq.Update(w) // the frame's searches start; the join is not run yet
	data, err := save.Save(w, nil, pq)
	require.NoError(t, err)
	l, err := save.Load(data, save.Registry{})
	require.NoError(t, err)
	lm := generic.NewMap1[components.Path](l.World)
	for _, e := range es {
		_, p := m.Get(e)
		require.Equal(t, components.PathReady, p.State, "the save joined the searches")
		assert.Equal(t, p.State, lm.Get(e).State, "entity %v: the file holds the Path as the save left it", e)
		assert.Equal(t, p.Waypoints, lm.Get(e).Waypoints, "entity %v", e)
	}
}
