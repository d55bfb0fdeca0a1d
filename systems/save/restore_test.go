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
)

// A program that keeps its systems across a load (the scheduler built once) restores
// the saved state into a PathQueue initialized on the saved world, not the loaded
// one. Restore accepts it, the queue then runs on the loaded world with the old
// world's filter and maps, and every pending agent waits forever while Diagnose
// reports no misconfiguration (nothing was initialized on the loaded world). The
// queue's LoadState only checks that it was initialized at all.
func TestRestoreIntoQueueOfAnotherWorld(t *testing.T) {
	w, pq, es := pendingWorld(t)
	data, err := save.Save(w, nil, pq)
	require.NoError(t, err)
	l, err := save.Load(data, save.Registry{})
	require.NoError(t, err)
	arche.AddResource(l.World, ecs.Resource[grid.Grid](w))
	err = l.Restore(pq) // pq is still the saved world's
	require.Error(t, err, "used to succeed, and the agents waited forever")
	assert.ErrorIs(t, err, systems.ErrNotInitialized)
	assert.ErrorIs(t, err, save.ErrState)
	assert.ErrorContains(t, err, "another world")

	pq.Initialize(l.World) // the fix the error names
	require.NoError(t, l.Restore(pq))
	pq.Budget = 500
	for range 20 {
		pq.Update(l.World)
	}
	m := generic.NewMap1[components.Path](l.World)
	for _, e := range es {
		assert.Equal(t, components.PathReady, m.Get(e).State, "entity %v", e)
	}
}
