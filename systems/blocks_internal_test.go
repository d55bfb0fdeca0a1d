package systems

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// countJob counts how often each item is visited and checks each block.
type countJob struct {
	seen    []atomic.Int32
	workers int
	bad     atomic.Int32 // blocks with a bad range or worker number
}

func (j *countJob) Work(worker, lo, hi int) {
	if worker < 0 || worker >= j.workers || lo < 0 || hi > len(j.seen) || hi <= lo || hi-lo > blockSize {
		j.bad.Add(1)
		return
	}
	for i := lo; i < hi; i++ {
		j.seen[i].Add(1)
	}
}

// TestBlockRunVisitsEachItemOnce: whatever the number of workers and of
// items (none, under one block, one block exactly, one item more, many
// blocks), every item is in exactly one block, each block is at most
// blockSize items, the worker number is the chunk's, and a warm run
// allocates nothing.
func TestBlockRunVisitsEachItemOnce(t *testing.T) {
	for _, workers := range []int{1, 2, 3} {
		pool := ecs.NewWorkers(workers)
		for _, n := range []int{0, 1, blockSize - 1, blockSize, blockSize + 1, 10*blockSize + 7} {
			t.Run(fmt.Sprintf("workers=%d/n=%d", workers, n), func(t *testing.T) {
				var b blockRun
				j := &countJob{seen: make([]atomic.Int32, n), workers: workers}
				for range 3 { // a blockRun is reused frame after frame
					b.run(pool, j, n)
				}
				require.Zero(t, j.bad.Load())
				for i := range j.seen {
					require.Equal(t, int32(3), j.seen[i].Load(), "item %d", i)
				}
				assert.Nil(t, b.job, "the job is dropped after the run")
				assert.Zero(t, testing.AllocsPerRun(5, func() { b.run(pool, j, n) }))
			})
		}
		pool.Close()
	}
}
