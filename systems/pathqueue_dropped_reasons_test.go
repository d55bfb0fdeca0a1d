package systems

import (
	"strconv"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// droppedWorld is a 200×200 grid, a queue of Budget 5 (far searches take many
// frames) and n agents asking for a far goal, served once.
func droppedWorld(t *testing.T, n int) (*arche.World, *PathQueue, []arche.Entity) {
	t.Helper()
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(200, 200))
	pq := &PathQueue{Budget: 5}
	pq.Initialize(w)
	m := generic.NewMap2[components.Position, components.Path](w)
	var es []arche.Entity
	for i := range n {
		es = append(es, m.NewWith(&components.Position{Vec: r2.Vec{X: 0.5 + float64(i), Y: 0.5}},
			&components.Path{Want: true, Goal: grid.Cell{X: 190, Y: 190}}))
	}
	pq.Update(w)
	require.Equal(t, n, pq.Waiting)
	return w, pq, es
}

// PathQueue.Dropped lumped together requests whose requester died (orphans), requests
// replaced by a newer one of the same agent and requests whose Path stopped waiting.
// Each now has its count (Orphaned, Replaced, Cancelled, and their totals), whose sum is
// Dropped.
func TestPathQueueDroppedOrphaned(t *testing.T) {
	w, pq, es := droppedWorld(t, 3)
	positions := generic.NewMap1[components.Position](w)
	positions.Remove(es[0]) // lost its Position while waiting
	w.RemoveEntity(es[1])   // died while waiting
	pq.Update(w)
	assert.Equal(t, 2, pq.Dropped)
	assert.Equal(t, 2, pq.Orphaned)
	assert.Zero(t, pq.Replaced)
	assert.Zero(t, pq.Cancelled)
	pq.Update(w)
	assert.Zero(t, pq.Orphaned, "per frame")
	assert.Equal(t, int64(2), pq.TotalOrphaned)
	assert.Equal(t, int64(2), pq.TotalDropped)
}

func TestPathQueueDroppedReplaced(t *testing.T) {
	w, pq, es := droppedWorld(t, 2)
	paths := generic.NewMap1[components.Path](w)
	// es[1] asks again for another goal while its first request still waits
	// behind es[0]'s search (one search: both asked for one goal from
	// different cells, es[0]'s runs first)
	p := paths.Get(es[1])
	p.Want, p.Goal = true, grid.Cell{X: 5, Y: 5}
	dropped := 0
	for f := 0; f < 10000 && pq.Waiting > 0; f++ {
		pq.Update(w)
		dropped += pq.Dropped
		require.Equal(t, pq.Dropped, pq.Orphaned+pq.Replaced+pq.Cancelled)
	}
	require.Zero(t, pq.Waiting)
	assert.Equal(t, 1, dropped)
	assert.Equal(t, int64(1), pq.TotalReplaced, "its first request, replaced")
	assert.Zero(t, pq.TotalOrphaned)
	assert.Zero(t, pq.TotalCancelled)
	assert.Equal(t, int64(1), pq.TotalDropped)
	assert.Equal(t, components.PathReady, paths.Get(es[1]).State)
	assert.Equal(t, grid.Cell{X: 5, Y: 5}, paths.Get(es[1]).Goal)
}

func TestPathQueueDroppedCancelled(t *testing.T) {
	w, pq, es := droppedWorld(t, 2)
	paths := generic.NewMap1[components.Path](w)
	paths.Get(es[0]).State = components.PathNone // the program gave up waiting
	pq.Update(w)
	assert.Equal(t, 1, pq.Dropped)
	assert.Equal(t, 1, pq.Cancelled)
	assert.Zero(t, pq.Orphaned)
	assert.Zero(t, pq.Replaced)
	assert.Equal(t, int64(1), pq.TotalCancelled)
	assert.Equal(t, components.PathNone, paths.Get(es[0]).State, "a dropped result is not written")
}

// The totals by reason are saved with the queue's state; a file whose reasons add up
// to more than its dropped is refused (ErrOutOfDomain), one written before them (no
// reasons) loads with them at 0.
func TestPathQueueDroppedReasonsSaved(t *testing.T) {
	w, pq, es := droppedWorld(t, 3)
	w.RemoveEntity(es[0])
	paths := generic.NewMap1[components.Path](w)
	paths.Get(es[1]).State = components.PathNone
	pq.Update(w)
	raw, err := pq.SaveState()
	require.NoError(t, err)
	assert.Contains(t, string(raw), `"orphaned":1`)
	assert.Contains(t, string(raw), `"cancelled":1`)
	pq.TotalOrphaned, pq.TotalCancelled = 0, 0
	require.NoError(t, pq.LoadState(raw))
	assert.Equal(t, int64(1), pq.TotalOrphaned)
	assert.Equal(t, int64(1), pq.TotalCancelled)
	assert.Equal(t, int64(2), pq.TotalDropped)

	for _, bad := range []string{`"dropped":2,"orphaned":3`, `"dropped":2,"orphaned":1,"replaced":2`, `"dropped":2,"orphaned":-1`} {
		edited := []byte(`{"next_seq":` + strconv.FormatUint(pq.State().NextSeq, 10) + `,"queued":[],"totals":{` + bad + `}}`)
		err := pq.LoadState(edited)
		require.ErrorIs(t, err, ErrOutOfDomain, bad)
		assert.Equal(t, int64(1), pq.TotalOrphaned, bad)
	}
	require.NoError(t, pq.LoadState([]byte(`{"next_seq":`+strconv.FormatUint(pq.State().NextSeq, 10)+`,"queued":[],"totals":{"dropped":7}}`)))
	assert.Equal(t, int64(7), pq.TotalDropped)
	assert.Zero(t, pq.TotalOrphaned+pq.TotalReplaced+pq.TotalCancelled)
}
