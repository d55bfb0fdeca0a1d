//go:build !linux

package scenario

import "time"

// threadsCPU is processCPU where threads' own CPU clocks are not read
// (see the Linux version).
type threadsCPU struct{}

func (t *threadsCPU) begin() time.Duration { return processCPU() }
func (t *threadsCPU) end() time.Duration   { return processCPU() }
