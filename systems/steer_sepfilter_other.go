//go:build !amd64 || purego

package systems

import "gonum.org/v1/gonum/spatial/r2"

// sepFilter is sepFilterGo (on amd64, an AVX2 kernel where the processor
// has it).
func sepFilter(sorted []r2.Vec, jobs []sepJob, ents []sepEnt) int {
	return sepFilterGo(sorted, jobs, ents)
}

// sepFilterKernel reports whether sepFilter runs an assembly kernel.
const sepFilterKernel = false

// setSepFilterKernel does nothing: there is no kernel to switch.
func setSepFilterKernel(bool) bool { return false }
