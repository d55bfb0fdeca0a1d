//go:build !linux

package flowfield

import "time"

// threadCPU is not measured outside Linux: benchmarks report 0 CPU time.
func threadCPU() time.Duration { return 0 }

func processCPU() time.Duration { return 0 }
