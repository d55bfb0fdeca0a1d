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
