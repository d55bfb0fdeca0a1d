package save_test

import (
	"testing"

	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Restore succeeds once: called again frames later it set the path queue back to the
// saved state while the agents had moved on, and returned nil (a reviewer). A Restore
// that failed may be called again.
func TestRestoreSucceedsOnce(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	pq, s := waitingQueue(w)
	spawnWaiters(w)
	s.Initialize(w)
	s.Run(w, 5)
	data, err := save.Save(w, nil, pq)
	require.NoError(t, err)

	l, err := save.Load(data, save.Registry{})
	require.NoError(t, err)
	pq2, s2 := waitingQueue(l.World)
	require.Error(t, l.Restore(pq2), "not initialized yet")
	s2.Initialize(l.World)
	require.NoError(t, l.Restore(pq2), "after a failed Restore")
	s2.Run(l.World, 10)
	err = l.Restore(pq2)
	require.ErrorIs(t, err, save.ErrState)
	assert.Contains(t, err.Error(), "already restored")
}
