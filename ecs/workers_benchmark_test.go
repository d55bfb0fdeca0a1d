package ecs

import (
	"fmt"
	"syscall"
	"testing"
	"time"
)

// loopJob does iters rounds of arithmetic per chunk: work of a fixed CPU
// cost, whatever else runs on the machine.
type loopJob struct {
	iters int
	sink  []uint64 // per worker
}

func (j *loopJob) Work(worker, _, _ int) {
	x := uint64(worker)
	for i := 0; i < j.iters; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	j.sink[worker] = x
}

// BenchmarkWorkersHandoff measures what a frame pays to hand a pass to the
// workers: Runs of 2 workers over 8 pools in turn (a frame's systems), each
// after a gap of serial work on the caller (the system's own pass), each
// chunk doing a fixed amount of work. ns/op is one Run with its gap and
// cpu-ns/op the process's CPU time for it (getrusage), so the second shows
// what waking and spinning cost on a busy machine, where wall time is noise.
//
//	go test ./ecs -run '^$' -bench WorkersHandoff
func BenchmarkWorkersHandoff(b *testing.B) {
	for _, c := range []struct{ gap, work int }{{0, 0}, {20000, 0}, {20000, 20000}, {200000, 50000}} {
		b.Run(fmt.Sprintf("gap=%d/work=%d", c.gap, c.work), func(b *testing.B) {
			pools := make([]*Workers, 8)
			for i := range pools {
				pools[i] = NewWorkers(2)
				defer pools[i].Close()
			}
			gap := &loopJob{iters: c.gap, sink: make([]uint64, 2)}
			job := &loopJob{iters: c.work, sink: make([]uint64, 2)}
			i := 0
			c0 := cpuTime()
			for b.Loop() {
				gap.Work(0, 0, 0)
				pools[i%len(pools)].Run(job, 2)
				i++
			}
			b.ReportMetric(float64(cpuTime()-c0)/float64(b.N), "cpu-ns/op")
		})
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
