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

// orderJob records the first item of each block in the order visited.
type orderJob struct{ firsts []int }

func (j *orderJob) Work(_, lo, _ int) { j.firsts = append(j.firsts, lo) }

// TestBlockRunOwnRangeFirst: a worker claims the blocks of its own range
// (chunk k's items, as ecs.Workers.Run splits them) from the front, then the
// blocks left in the other workers' ranges, each from its back, the next
// worker's range first. Run here on one goroutine, so the order is fixed.
func TestBlockRunOwnRangeFirst(t *testing.T) {
	blocks := func(firsts []int) []int {
		out := make([]int, len(firsts))
		for i, lo := range firsts {
			out[i] = lo / 10
		}
		return out
	}
	for _, c := range []struct {
		workers, worker, n int
		want               []int
	}{
		{2, 0, 100, []int{0, 1, 2, 3, 4, 9, 8, 7, 6, 5}},
		{2, 1, 100, []int{5, 6, 7, 8, 9, 4, 3, 2, 1, 0}},
		{2, 1, 95, []int{5, 6, 7, 8, 9, 4, 3, 2, 1, 0}}, // a short last block
		{3, 0, 100, []int{0, 1, 2, 5, 4, 3, 9, 8, 7, 6}},
		{3, 2, 100, []int{6, 7, 8, 9, 2, 1, 0, 5, 4, 3}},
		{2, 1, 10, []int{0}}, // one block: worker 0's range is empty
	} {
		var b blockRun
		j := &orderJob{}
		b.prepare(j, c.n, 10, c.workers)
		b.Work(c.worker, 0, 0)
		assert.Equal(t, c.want, blocks(j.firsts), "%d workers, worker %d, %d items", c.workers, c.worker, c.n)
	}
	// the owner from the front and another worker from the back meet in the
	// middle, each block claimed once
	var b blockRun
	b.prepare(&orderJob{}, 50, 10, 1)
	r := &b.ranges[0]
	var got []int
	for i := 0; ; i++ {
		blk, ok := r.claim(i%3 != 0)
		if !ok {
			break
		}
		got = append(got, blk)
	}
	assert.Equal(t, []int{4, 0, 1, 3, 2}, got)
}
