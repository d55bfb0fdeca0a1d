//go:build !purego

package systems

import (
	"unsafe"

	"golang.org/x/sys/cpu"
	"gonum.org/v1/gonum/spatial/r2"
)

// sepFilterKernel reports whether sepFilter runs sepFilterAVX2.
var sepFilterKernel = cpu.X86.HasAVX2

// setSepFilterKernel lets sepFilter run its kernel or not (where the
// processor has AVX2), for tests; it returns the previous setting.
func setSepFilterKernel(on bool) bool {
	old := sepFilterKernel
	sepFilterKernel = on && cpu.X86.HasAVX2
	return old
}

// sepFilter lists in ents, in order, job by job and run by run, the
// candidates of each job's runs of sorted that are not the agent itself
// and have !(|pos − q|² ≥ r2max) (see sepFilterGo, whose list it is to the
// bit), and returns their number. It may write ents[m], one past the list:
// ents has room for every candidate and one more. Each non-empty run's
// sepSpan(n) slots from its lo must lie in sorted (separationBlock checks);
// an empty run reads nothing.
func sepFilter(sorted []r2.Vec, jobs []sepJob, ents []sepEnt) int {
	if !sepFilterKernel || len(jobs) == 0 {
		return sepFilterGo(sorted, jobs, ents)
	}
	return sepFilterAVX2(unsafe.SliceData(sorted), unsafe.SliceData(jobs), len(jobs), unsafe.SliceData(ents))
}

// sepFilterAVX2 is sepFilter with AVX2, four candidates at a time (see
// steer_separation_amd64.s), for n ≥ 1 jobs.
//
//go:noescape
func sepFilterAVX2(base *r2.Vec, jobs *sepJob, n int, ents *sepEnt) int
