//go:build !purego

package flowfield

import "unsafe"

// prefetch asks the processor to bring the cache lines at a and b into its
// caches (PREFETCHT0), without waiting for them.
//
//go:noescape
func prefetch(a, b unsafe.Pointer)
