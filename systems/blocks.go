package systems

import (
	"sync/atomic"

	"github.com/archai-go/archai/ecs"
)

// blockSize is the items a goroutine claims at a time in a [blockRun]: small
// enough that a helper that joins a pass late still takes its share, large
// enough that the claims (one atomic operation each) cost nothing beside the
// work.
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
// Each worker k owns the blocks of the k-th of N contiguous ranges (N the
// pool's workers), the blocks of [ecs.Workers.Run]'s chunk k, and claims
// them from the front; a worker whose range is used up takes the blocks
// left in the others' ranges from their back. So in the common case worker
// k visits the items that chunk k of the pool's fixed-chunk passes visits,
// frame after frame (ecs.Workers's calling goroutine claims chunk 0 before a
// helper can: 120 of 120 frames of the swarm's passes, traced), and finds them in
// its own core's cache, where blocks handed out in one sequence went to
// either worker, so that about half of a pass's lines came from the other
// core's cache (Movement's writes of the positions that the next frame's
// Spatial reads, and so on). At 10,000 swarm agents on 2 workers the frame
// took 0.97–1.19 ms against 1.21–1.51 with one sequence (runs alternated
// under chrt -f on a loaded machine; Steer 0.56–0.71 against 0.72–0.88,
// PathFollow 0.06–0.09 against 0.09–0.11, Spatial 0.08–0.11 against
// 0.12–0.19), the same with 1 worker. A job whose workers must each see
// their blocks in increasing order uses runOrdered.
//
// job.Work is called with the worker's chunk number (as [ecs.Workers.Run]
// gives it, so per-worker scratch indexed by it is still the goroutine's
// own) and one block's range.
type blockRun struct {
	job    ecs.Job
	n      int
	size   int         // items per block
	blocks int         // blocks of size over n items
	ranges []blockPart // per worker: its range of blocks and the claims on it

	ordered bool         // runOrdered: the blocks are claimed in one sequence
	next    atomic.Int64 // runOrdered: the first item not yet claimed
}

// blockPart is a worker's range of blocks in a [blockRun], [first, end),
// and the claims on it: ends holds the number of blocks claimed from its
// front (the owner's, high 32 bits) and from its back (other workers'), so
// a block is claimed once, by one compare-and-swap.
type blockPart struct {
	ends       atomic.Uint64
	first, end int
	_          [40]byte // a cache line of its own: claims on two ranges do not contend
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
	b.prepare(job, n, size, pool.N())
	pool.Run(b, pool.N()) // one claim loop per worker
	b.job = nil
}

// runOrdered is runSized with the blocks claimed in one sequence, from the
// first to the last, so that each worker's blocks come in increasing order
// (a job that steps a query of its own forward from one block to its next
// needs that), at the cost of the affinity of the ranges (see blockRun).
func (b *blockRun) runOrdered(pool *ecs.Workers, job ecs.Job, n, size int) {
	if n <= 0 {
		return
	}
	b.job, b.n, b.size, b.ordered = job, n, size, true
	b.next.Store(0)
	pool.Run(b, pool.N()) // one claim loop per worker
	b.job, b.ordered = nil, false
}

// prepare sets up a run of job over n items (> 0) in blocks of size on
// workers claim loops: worker k's range is blocks k·B/workers to
// (k+1)·B/workers − 1 of the B blocks, none claimed.
func (b *blockRun) prepare(job ecs.Job, n, size, workers int) {
	if len(b.ranges) != workers {
		b.ranges = make([]blockPart, workers) // once per pool
	}
	b.job, b.n, b.size = job, n, size
	b.blocks = (n-1)/size + 1
	for k := range b.ranges {
		r := &b.ranges[k]
		r.first, r.end = k*b.blocks/workers, (k+1)*b.blocks/workers
		r.ends.Store(0)
	}
}

// Work implements ecs.Job: claim blocks until none is left, the worker's
// own range's from its front first, then the others' from their backs (in
// one sequence after runOrdered).
func (b *blockRun) Work(worker, _, _ int) {
	if b.ordered {
		size := b.size
		for {
			lo := int(b.next.Add(int64(size))) - size
			if lo >= b.n {
				return
			}
			if claimHook != nil {
				claimHook(worker)
			}
			b.job.Work(worker, lo, min(lo+size, b.n))
		}
	}
	for i := range b.ranges {
		k := (worker + i) % len(b.ranges)
		r := &b.ranges[k]
		for {
			blk, ok := r.claim(i == 0)
			if !ok {
				break
			}
			lo := blk * b.size
			if claimHook != nil {
				claimHook(worker)
			}
			b.job.Work(worker, lo, min(lo+b.size, b.n))
		}
	}
}

// claimHook, when not nil, is called by a worker before each block it claimed: tests
// set it to delay workers at random, so that other claims happen than a quiet
// machine's, which must give the same results.
var claimHook func(worker int)

// claim claims a block of r, from its front or its back, and reports false
// when none is left.
func (r *blockPart) claim(front bool) (int, bool) {
	for {
		e := r.ends.Load()
		f, bk := int(e>>32), int(uint32(e))
		if r.first+f+bk >= r.end {
			return 0, false
		}
		if front {
			if r.ends.CompareAndSwap(e, e+1<<32) {
				return r.first + f, true
			}
		} else if r.ends.CompareAndSwap(e, e+1) {
			return r.end - 1 - bk, true
		}
	}
}
