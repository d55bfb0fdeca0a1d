package systems

import (
	"syscall"
	"time"
	"unsafe"
)

// threadCPU returns the CPU time the calling OS thread has used, so that
// benchmarks on a shared machine can report the work done apart from the
// time the thread waited for a core. Callers lock the goroutine to its
// thread (runtime.LockOSThread). It reads clock_gettime's
// CLOCK_THREAD_CPUTIME_ID, exact to the nanosecond: getrusage's
// RUSAGE_THREAD times advance only at scheduler ticks (several ms), longer
// than a pass over arena's queries.
func threadCPU() time.Duration {
	var ts syscall.Timespec
	const clockThreadCPUTimeID = 3
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}
