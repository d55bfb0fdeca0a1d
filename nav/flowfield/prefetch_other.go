//go:build !amd64 || purego

package flowfield

import "unsafe"

// prefetch does nothing (on amd64 it prefetches the lines at a and b).
func prefetch(a, b unsafe.Pointer) {}
