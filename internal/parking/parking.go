// Package parking refills the Go runtime's cache of parking records, so that
// tests and benchmarks that count heap allocations (runtime.MemStats.Mallocs)
// around code that hands work to goroutines count only that code's objects.
package parking

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Prime has the runtime hold more parking records than its per-P
// caches can keep, so that no later hand-off between goroutines allocates
// one until the next GC cycle. cmd/bench's meter calls it before the frames
// and again at the end of the warm-up, outside the timed region, leaving its
// own allocations out of the counts; allocation tests call it after a
// runtime.GC before they count.
//
// Why: a goroutine that blocks on a channel or a sync.WaitGroup (the worker
// pools' hand-offs, ecs.Workers) takes a parking record (a runtime sudog)
// from its P's cache, or else from a central cache, or else allocates one,
// and gives it back to the cache of the P it wakes on; a P whose cache is
// full (128 records) passes half of it to the central cache, and every GC
// cycle empties the central cache. Goroutines that park on one P and wake on
// another move records from cache to cache, so after a collection a run with
// 2 workers or more allocated a record now and then until the caches had
// filled again. At 100,000 agents the first frame's allocations start a
// collection, and the 60 frames of a 120-frame run's warm-up are only a few
// hundred hand-offs: 1 to 12 records were allocated in the second half, which
// the meter counted as the frames' allocations (traced with a memory profile
// of the steady state, report_steady_test.go). With more records than the
// per-P caches hold (128 per P, plus spare), a record is in a cache whenever a
// goroutine parks. A GC cycle in the steady state empties the central cache
// again: the report shows those cycles (gc_cycles_steady), and the meter
// counts whatever the runtime allocates after them.
func Prime() {
	n := 128*runtime.GOMAXPROCS(0) + 128
	var parked atomic.Int64
	release := make(chan struct{})
	var done sync.WaitGroup
	done.Add(n)
	for range n {
		go func() {
			parked.Add(1)
			<-release // parks, holding a record, until all have started
			done.Done()
		}()
	}
	for parked.Load() < int64(n) {
		runtime.Gosched()
	}
	time.Sleep(time.Millisecond) // the last ones from counting to parking
	close(release)
	done.Wait()
}
