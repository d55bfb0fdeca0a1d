package systems

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// Orphaned requests, whose requester died or lost its Position while it waited, are
// not dropped in silence: the queue counts them in Dropped when it reaches them, leaves
// them out of Waiting, and Diagnose reports the agent whose Path still waits without a
// Position (it lacks one); given its Position back, the agent is asked for again
// (Requeued, path_not_queued before that Update) and served. This pins what the queue
// already did (no gap found).
func TestPathQueueCountsOrphanedRequests(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(200, 200))
	pq := &PathQueue{Budget: 5} // far goals: the searches take many frames
	pq.Initialize(w)
	m := generic.NewMap2[components.Position, components.Path](w)
	var es []arche.Entity
	for i := range 3 {
		es = append(es, m.NewWith(&components.Position{Vec: r2.Vec{X: 0.5 + float64(i), Y: 0.5}},
			&components.Path{Want: true, Goal: grid.Cell{X: 190, Y: 190}}))
	}
	pq.Update(w)
	require.Equal(t, 3, pq.Waiting)
	positions := generic.NewMap1[components.Position](w)
	positions.Remove(es[0]) // lost its Position while waiting
	w.RemoveEntity(es[1])   // died while waiting
	pq.Update(w)
	assert.Equal(t, 2, pq.Dropped, "both orphans dropped and counted")
	assert.Equal(t, 1, pq.Waiting, "only the live requester waits")
	r := Diagnose(w)
	assert.Equal(t, 1, r.Counts[CauseSteerIncomplete], "%s", r)
	assert.Equal(t, es[0], r.Examples[CauseSteerIncomplete])
	assert.Contains(t, r.String(), "lacks Position")

	positions.Add(es[0])
	*positions.Get(es[0]) = components.Position{Vec: r2.Vec{X: 0.5, Y: 0.5}}
	r = Diagnose(w)
	assert.Equal(t, 1, r.Counts[CausePathNotQueued], "%s", r)
	pq.Update(w)
	assert.Equal(t, 1, pq.Requeued)
	for f := 0; f < 10000 && pq.Waiting > 0; f++ {
		pq.Update(w)
	}
	paths := generic.NewMap1[components.Path](w)
	assert.Equal(t, components.PathReady, paths.Get(es[0]).State)
	assert.Equal(t, int64(2), pq.TotalDropped)
}
