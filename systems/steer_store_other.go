//go:build !amd64 || purego

package systems

// storeAgent copies *src to *dst (on amd64, with non-temporal stores).
func storeAgent(dst, src *steerAgent) { *dst = *src }

// storeFence does nothing (on amd64 it orders storeAgent's stores).
func storeFence() {}
