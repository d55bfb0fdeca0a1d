//go:build !purego

package systems

import "gonum.org/v1/gonum/spatial/r2"

// storeAgent writes to dst, a 64-byte aligned record, the record of the
// agent at *pos moving at *vel towards *point, with kind and aux packed in
// kindAux (kind in the low 32 bits, aux in the high ones) and out and run
// in outRun (out in the low 32 bits), with non-temporal stores: the line is written whole without being read into
// the cache first. The stores are weakly ordered: the writer calls
// storeFence before another goroutine may read them.
//
// The fields come straight from the components, not from a copy of the
// record built on the stack first: such a copy is stored field by field,
// and the 16-byte loads that then read it each wait on two smaller stores
// (a failed store-to-load forward): that wait held about a third of the
// gather's samples.
//
//go:noescape
func storeAgent(dst *steerAgent, pos, vel, point *r2.Vec, kindAux, outRun uint64)

// storeFence orders the non-temporal stores of storeAgent before the
// goroutine's later stores (SFENCE).
func storeFence()

// prefetchBlock prefetches what the force pass is about to write and read
// at random for the n records from hot (see steerPrefetch): for each one
// whose out is not 0, the line of its Steering component, for writing, and,
// when its position lies on the grid, its cell's entries of the clearance
// and quadrant tables. A hint: it changes no memory.
//
//go:noescape
func prefetchBlock(hot *steerAgent, n int, pf *steerPrefetch)
