package ecs

import (
	"runtime"
	"sync"
)

// Job is work on a range of items, split by [Workers.Run] into contiguous
// chunks. Work is called once per chunk with the worker's number (0 to
// Workers.N()−1) and the half-open range [lo, hi) it owns.
//
// Important: Work runs on several goroutines at once. It must not touch an
// Arche World except to read it, and must write only the items in its own
// range (or per-worker buffers indexed by worker).
type Job interface {
	Work(worker, lo, hi int)
}

// Workers is a fixed pool of goroutines for data-parallel systems. Run splits
// n items into N contiguous chunks in order, so chunk k always holds the same
// items for a given n and N, and per-worker results merged in worker order
// come out in item order, whatever the scheduling. Running a Job allocates
// nothing.
//
// The zero value is not usable; make one with [NewWorkers] and Close it when
// done. A Workers value must be used from one goroutine at a time.
type Workers struct {
	n    int
	jobs []chan task
	wg   sync.WaitGroup
}

type task struct {
	job    Job
	id     int
	lo, hi int
}

// NewWorkers starts a pool of n workers; n ≤ 0 means runtime.GOMAXPROCS(0).
// Worker 0 is the calling goroutine, so a pool of 1 starts no goroutine.
func NewWorkers(n int) *Workers {
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	w := &Workers{n: n, jobs: make([]chan task, n)}
	for i := 1; i < n; i++ {
		ch := make(chan task, 1)
		w.jobs[i] = ch
		go func() {
			for t := range ch {
				t.job.Work(t.id, t.lo, t.hi)
				w.wg.Done()
			}
		}()
	}
	return w
}

// N returns the number of workers.
func (w *Workers) N() int { return w.n }

// Run calls job.Work on N contiguous chunks of [0, n) in parallel and returns
// when all are done. Chunk k is [k·n/N, (k+1)·n/N). With n = 0 it does nothing.
//
// Panics if the pool was closed.
func (w *Workers) Run(job Job, n int) {
	if w.n == 0 {
		panic("ecs: Workers.Run after Close (a system was updated after Finalize)")
	}
	if n <= 0 {
		return
	}
	if w.n == 1 {
		job.Work(0, 0, n)
		return
	}
	w.wg.Add(w.n - 1)
	for k := 1; k < w.n; k++ {
		w.jobs[k] <- task{job: job, id: k, lo: k * n / w.n, hi: (k + 1) * n / w.n}
	}
	job.Work(0, 0, n/w.n)
	w.wg.Wait()
}

// Close stops the pool's goroutines. The pool must not be used afterwards.
func (w *Workers) Close() {
	for i := 1; i < w.n; i++ {
		close(w.jobs[i])
	}
	w.n = 0
}
