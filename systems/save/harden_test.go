package save_test

import (
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A path queue's state naming an entity past the loaded world's pool is refused at
// restore with ErrDomain, naming the field (it used to panic on the first frame).
func TestPathQueueStateEntityPastThePool(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(8, 8))
	w.NewEntity()
	w.NewEntity() // IDs 1 and 2 are in the pool
	pq := &systems.PathQueue{}
	pq.Initialize(w)
	for _, tc := range []struct{ state, field string }{
		{`{"next_seq":2,"queued":[{"start":{"X":0,"Y":0},"goal":{"X":3,"Y":3},"priority":0,"seq":1,"requests":[{"entity":[999999,0],"request":1}]}],"expanded":0}`,
			"queued[0].requests[0].entity: 999999"},
		{`{"next_seq":2,"queued":[],"active":{"start":{"X":0,"Y":0},"goal":{"X":3,"Y":3},"priority":0,"seq":1,"requests":[{"entity":[1,0],"request":1},{"entity":[5,0],"request":1}]},"expanded":0}`,
			"active.requests[1].entity: 5"},
	} {
		err := pq.LoadState([]byte(tc.state))
		require.Error(t, err)
		assert.ErrorIs(t, err, save.ErrDomain)
		assert.ErrorContains(t, err, tc.field)
		assert.Equal(t, 0, pq.State().Expanded)
		assert.Empty(t, pq.State().Queued, "the queue is left empty")
		assert.NotPanics(t, func() { pq.Update(w) })
	}
}
