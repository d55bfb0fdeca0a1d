//go:build !amd64 || purego

package systems

// storeAgent copies *src to *dst (on amd64, with non-temporal stores).
func storeAgent(dst, src *steerAgent) { *dst = *src }

// storeFence does nothing (on amd64 it orders storeAgent's stores).
func storeFence() {}

// prefetchBlock does nothing (on amd64 it prefetches the lines the force
// pass writes and reads at random).
func prefetchBlock(hot *steerAgent, n int, pf *steerPrefetch) {}
