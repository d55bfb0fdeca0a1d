package systems

import (
	"sync/atomic"

	"github.com/archai-go/archai/ecs"
)

// blockSize is the items a goroutine claims at a time in a [blockRun]: small
// enough that a helper that joins a pass late still takes its share, large
// enough that the claims (one atomic add each) cost nothing beside the work.
const blockSize = 256

// blockRun runs a job whose items are independent (each item's result is
// its own, whatever runs beside it) over a pool in blocks of blockSize items
// that the pool's goroutines claim one at a time, instead of in one
// contiguous chunk per worker. With fixed chunks a pass lasts as long as its
// slowest chunk: a helper that starts late (woken from sleep, or its thread
// not on a CPU) adds its delay to the pass, and if it starts later than the
// calling goroutine finishes its own chunk, the caller runs the whole pass
// alone. With claimed blocks the work goes to whoever is there: the pass
// lasts about (work + delay)/2 on two workers, and agents that cost more
// (crowded, or near walls) do not pile up on one worker. The result is the
// same as one Work over all items, for any number of workers.
//
// job.Work is called with the worker's chunk number (as [ecs.Workers.Run]
// gives it, so per-worker scratch indexed by it is still the goroutine's
// own) and one block's range.
type blockRun struct {
	job  ecs.Job
	n    int
	size int          // items per block
	next atomic.Int64 // the first item not yet claimed
}

// run runs job over items [0, n) on pool, in claimed blocks of blockSize.
func (b *blockRun) run(pool *ecs.Workers, job ecs.Job, n int) {
	b.runSized(pool, job, n, blockSize)
}

// runSized is run in blocks of size items (> 0), for a job whose items
// cost so much more than blockSize's assume that a pass's last block,
// run by one worker while the others wait, would be a large part of it.
func (b *blockRun) runSized(pool *ecs.Workers, job ecs.Job, n, size int) {
	if n <= 0 {
		return
	}
	b.job, b.n, b.size = job, n, size
	b.next.Store(0)
	pool.Run(b, pool.N()) // one claim loop per worker
	b.job = nil
}

// Work implements ecs.Job: claim blocks until none is left.
func (b *blockRun) Work(worker, _, _ int) {
	size := b.size
	for {
		lo := int(b.next.Add(int64(size))) - size
		if lo >= b.n {
			return
		}
		b.job.Work(worker, lo, min(lo+size, b.n))
	}
}
