//go:build !purego

package systems

// storeAgent copies *src to *dst, a 64-byte aligned record, with
// non-temporal stores: the line is written whole without being read into
// the cache first. The stores are weakly ordered: the writer calls
// storeFence before another goroutine may read them.
//
//go:noescape
func storeAgent(dst, src *steerAgent)

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
