package save_test

import (
	"testing"

	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDiagnoseTellsALoadNeverRestored (newbie22): a program that loads a save and
// forgets Loaded.Restore runs on from the systems' fresh state and drifts from
// the saved run with nothing reported. Diagnose names the systems whose saved
// state is not restored, until Restore.
func TestDiagnoseTellsALoadNeverRestored(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	pq, s := waitingQueue(w)
	spawnWaiters(w)
	s.Initialize(w)
	s.Run(w, 20)
	data, err := save.Save(w, nil, pq)
	require.NoError(t, err)
	s.Finalize(w)

	l, err := save.Load(data, save.Registry{})
	require.NoError(t, err)
	pq2, s2 := waitingQueue(l.World)
	s2.Initialize(l.World)
	defer s2.Finalize(l.World)
	r := systems.Diagnose(l.World)
	assert.Equal(t, []string{"pathqueue"}, r.Unrestored)
	assert.Contains(t, r.String(), "loaded from a save without Loaded.Restore: the saved state of pathqueue is lost")
	assert.Positive(t, r.Total())

	require.NoError(t, l.Restore(pq2))
	r = systems.Diagnose(l.World)
	assert.Nil(t, r.Unrestored)
	assert.Zero(t, r.Total(), "%s", r)

	// a save without any system's state has nothing to restore
	world3 := arche.NewWorld()
	w3 := &world3
	pq3, s3 := waitingQueue(w3)
	s3.Initialize(w3)
	data3, err := save.Save(w3, nil, save.Without(pq3))
	require.NoError(t, err)
	s3.Finalize(w3)
	l3, err := save.Load(data3, save.Registry{})
	require.NoError(t, err)
	assert.Nil(t, systems.Diagnose(l3.World).Unrestored)
}
