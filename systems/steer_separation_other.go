//go:build !amd64 || purego || amd64.v3

package systems

import "gonum.org/v1/gonum/spatial/r2"

// sepRuns returns sx, sy plus the separation pushes of the candidates of
// runs a then b of sorted, one at a time, in order (sepRunsGo), and
// whether one of them other than the agent's own slot is at squared
// distance 0 from pos (the sums are then of no use).
func sepRuns(sorted []r2.Vec, pos r2.Vec, radius, r2max, sx, sy float64, a, b sepRun) (float64, float64, bool) {
	return sepRunsGo(sorted, pos, radius, r2max, sx, sy, a, b)
}

// sepKernel reports whether sepRuns runs an assembly kernel.
const sepKernel = false

// setSepKernel does nothing: there is no kernel to switch.
func setSepKernel(bool) bool { return false }

// sepBatch reports whether Steer.Work takes separationBlock: not where
// separation runs sepRunsGo (a build with GOAMD64=v3 or above fuses its
// products and sums, which separationBlock's arithmetic does not).
const sepBatch = false

// setSepBatch does nothing: separationBlock is not taken.
func setSepBatch(bool) bool { return false }
