package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	"github.com/stretchr/testify/assert"
)

// TestLightPassesAlikeForAnyWorkers: the light passes (due agents,
// perception's foe index) split over 1, 2 or 3 workers, or run on one
// goroutine as small crowds do, give the same crowd (strike and path
// requests are found on one goroutine whatever Workers says).
func TestLightPassesAlikeForAnyWorkers(t *testing.T) {
	hash := func(workers, light int) uint64 {
		old := systems.SetLightParallelMin(light)
		defer systems.SetLightParallelMin(old)
		c := newCrowd(t, 1500, 6, workers, false)
		c.Combat.Workers, c.PathQueue.Workers = workers, workers
		s := ecs.NewScheduler(c.systems()...)
		s.Initialize(c.World)
		defer s.Finalize(c.World)
		s.Run(c.World, 100)
		assert.Positive(t, c.Combat.TotalStrikes)
		assert.Positive(t, c.PathQueue.TotalServed)
		return systems.StateHash(c.World)
	}
	want := hash(1, 1<<30)
	assert.Equal(t, want, hash(2, 1), "2 workers")
	assert.Equal(t, want, hash(3, 1), "3 workers")
	// Perception's find pass in many claimed blocks: each worker's query
	// steps on from its last block
	old := systems.SetFindBlock(97)
	defer systems.SetFindBlock(old)
	assert.Equal(t, want, hash(2, 1), "2 workers, find blocks of 97")
	assert.Equal(t, want, hash(3, 1), "3 workers, find blocks of 97")
}
