package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

// TestPathQueueOverlapAlike: a queue whose searches run on a helper beside
// Combat (Overlap, joined by its PathJoin before the respawns and PathFollow)
// gives the crowd of a queue that searches in its Update, with its request scan
// on one goroutine or split over the workers, and the same statistics every
// frame.
func TestPathQueueOverlapAlike(t *testing.T) {
	type result struct {
		hash  uint64
		stats [][4]int // per frame: Served, Expansions, Waiting, Dropped
	}
	run := func(workers, light int, overlap, join bool) result {
		old := systems.SetLightParallelMin(light)
		defer systems.SetLightParallelMin(old)
		c := newCrowd(t, 1500, 6, workers, false)
		// a small budget: searches span frames and requests wait
		c.PathQueue.Workers, c.PathQueue.Overlap, c.PathQueue.Budget = workers, overlap, 12
		if join {
			c.PathJoin = c.PathQueue.Join()
		}
		s := ecs.NewScheduler(c.systems()...)
		s.Initialize(c.World)
		defer s.Finalize(c.World)
		var r result
		for range 100 {
			s.Run(c.World, 1)
			pq := c.PathQueue
			r.stats = append(r.stats, [4]int{pq.Served, pq.Expansions, pq.Waiting, pq.Dropped})
		}
		r.hash = systems.StateHash(c.World)
		return r
	}
	want := run(1, 1<<30, false, false)
	waited, served := 0, 0
	for _, st := range want.stats {
		served += st[0]
		waited += st[2]
	}
	require.Positive(t, served)
	require.Positive(t, waited, "no request waited past a frame: a weak test")
	assert.Equal(t, want, run(2, 1<<30, true, true), "2 workers, overlap")
	assert.Equal(t, want, run(2, 1, true, true), "2 workers, overlap, request scan split")
	assert.Equal(t, want, run(3, 1, true, true), "3 workers, overlap, request scan split")
	assert.Equal(t, want, run(1, 1, true, true), "1 worker: Overlap serves in Update")
	// no PathJoin in the schedule: the queue serves in its Update, and the
	// respawns and PathFollow after Combat see every path written
	assert.Equal(t, want, run(2, 1, true, false), "2 workers, Overlap without a join")
}
