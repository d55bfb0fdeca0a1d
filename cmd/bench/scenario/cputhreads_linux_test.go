package scenario

import (
	"os"
	"strconv"
	"syscall"
	"time"
	"unsafe"
)

// threadsCPU sums the CPU time of the process's threads, each read through
// its own CPU-time clock (clock_gettime of MAKE_THREAD_CPUCLOCK(tid,
// CPUCLOCK_SCHED)), which the kernel brings up to date when it is read, even
// while the thread runs on another CPU. getrusage(RUSAGE_SELF) (processCPU)
// does so only for the calling thread: another thread's time is counted as
// of its last scheduler tick or switch (every 4 ms at this machine's
// HZ=250). So with helper goroutines at work, a system timed with
// processCPU is charged part of the helpers' time of the systems before it
// and misses part of its own: the guards' spatial system read 4.89 ms of
// CPU in 1.93 ms of wall-clock time on 2 cores.
type threadsCPU struct{ tids []int }

// begin refreshes the list of threads (from /proc/self/task, outside the
// span timed) and returns their CPU time.
func (t *threadsCPU) begin() time.Duration {
	ents, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.tids = t.tids[:0]
		return processCPU()
	}
	t.tids = t.tids[:0]
	for _, e := range ents {
		if id, err := strconv.Atoi(e.Name()); err == nil {
			t.tids = append(t.tids, id)
		}
	}
	return t.end()
}

// end returns the CPU time of the threads begin found. A thread started
// since is not counted (the runtime starts threads at warm-up, seldom
// after); one that ended since counts zero (the Go runtime keeps its
// threads).
func (t *threadsCPU) end() time.Duration {
	if len(t.tids) == 0 {
		return processCPU()
	}
	var sum time.Duration
	for _, id := range t.tids {
		var ts syscall.Timespec
		clock := ^int32(id)<<3 | 6 // MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED)
		if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, uintptr(uint32(clock)), uintptr(unsafe.Pointer(&ts)), 0); e == 0 {
			sum += time.Duration(ts.Nano())
		}
	}
	return sum
}
