//go:build !amd64 || purego

package systems

import "gonum.org/v1/gonum/spatial/r2"

// storeAgent writes the record of the agent at *pos moving at *vel
// towards *point, with kind and aux packed in kindAux (kind in the low 32
// bits), and out and run packed in outRun (out in the low 32 bits), to *dst
// (on amd64, with non-temporal stores).
func storeAgent(dst *steerAgent, pos, vel, point *r2.Vec, kindAux, outRun uint64) {
	*dst = steerAgent{pos: *pos, vel: *vel, point: *point, kind: uint32(kindAux), aux: int32(kindAux >> 32),
		out: int32(outRun), run: int32(outRun >> 32)}
}

// storeFence does nothing (on amd64 it orders storeAgent's stores).
func storeFence() {}

// prefetchBlock does nothing (on amd64 it prefetches the lines the force
// pass writes and reads at random).
func prefetchBlock(hot *steerAgent, n int, pf *steerPrefetch) {}
