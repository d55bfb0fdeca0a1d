//go:build !purego && !amd64.v3

package systems

import (
	"unsafe"

	"golang.org/x/sys/cpu"
	"gonum.org/v1/gonum/spatial/r2"
)

// hasAVX2 reports whether sepRuns may use sepRunsAVX2: the processor has
// AVX2 and the operating system saves the YMM registers.
var hasAVX2 = cpu.X86.HasAVX2

// sepKernel reports whether sepRuns runs an assembly kernel.
var sepKernel = hasAVX2

// setSepKernel lets sepRuns use the assembly kernel or not (where there is
// one), for tests; it returns the previous setting.
func setSepKernel(on bool) bool {
	old := hasAVX2
	hasAVX2 = on && sepKernel
	return old
}

// sepRuns returns sx, sy plus the separation pushes of the candidates of
// runs a then b of sorted (one at a time, in order; see sepRunsGo, whose
// result it is to the bit), and whether one of them other than the agent's
// own slot is at squared distance 0 from pos (the sums are then of no use).
func sepRuns(sorted []r2.Vec, pos r2.Vec, radius, r2max, sx, sy float64, a, b sepRun) (float64, float64, bool) {
	// The kernel reads each run in blocks of four slots, at least one
	// block: all within sorted, or the Go loop does it (the last few
	// slots). The runs are the hash's, in bounds.
	if !hasAVX2 || a.lo+sepSpan(a.n) > len(sorted) || b.lo+sepSpan(b.n) > len(sorted) {
		return sepRunsGo(sorted, pos, radius, r2max, sx, sy, a, b)
	}
	return sepRunsAVX2(unsafe.SliceData(sorted), &sepArgs{pos: pos, radius: radius, r2max: r2max, sum: r2.Vec{X: sx, Y: sy}, runs: [2]sepRun{a, b}})
}

// sepArgs is the input of sepRunsAVX2, one block of memory (the offsets are
// in steer_separation_amd64.s).
type sepArgs struct {
	pos           r2.Vec    // 0: the agent's position
	radius, r2max float64   // 16, 24: separation radius and its square
	sum           r2.Vec    // 32: the sums so far
	runs          [2]sepRun // 48, 72: lo, n, self of each run
}

// sepRunsAVX2 computes with AVX2 the same as sepRunsGo for the runs
// args.runs of the slots from base, starting from the sums args.sum: four
// candidates at a time, each one's push ((r−n)/r)/n·(pos−q), with
// n = √min(|pos−q|², r²) and the agent's own slot at n = r, added to the sums
// one after the other in the runs' order; zero reports a candidate other
// than the agent at squared distance 0. It reads the sepSpan(n) slots from
// each run's lo, which must be slots of the array (sepRuns checks).
//
//go:noescape
func sepRunsAVX2(base *r2.Vec, args *sepArgs) (sx, sy float64, zero bool)

// sepBatch reports whether Steer.Work takes separationBlock (whose
// sepFilter runs an AVX2 kernel) for a dense hash.
var sepBatch = cpu.X86.HasAVX2

// setSepBatch lets Steer.Work take separationBlock or not (where it
// would), for tests; it returns the previous setting.
func setSepBatch(on bool) bool {
	old := sepBatch
	sepBatch = on && cpu.X86.HasAVX2
	return old
}
