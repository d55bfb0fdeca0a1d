//go:build !linux

package systems

import "time"

// threadCPU is not measured outside Linux: benchmarks report 0 CPU time.
func threadCPU() time.Duration { return 0 }
