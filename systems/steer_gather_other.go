//go:build !amd64 || purego

package systems

// gatherKernel reports whether gatherRun runs an assembly kernel.
const gatherKernel = false

// setGatherKernel does nothing: there is no kernel to switch.
func setGatherKernel(bool) bool { return false }

// gatherRunKernel is never called (gatherKernel is false).
func gatherRunKernel(*gatherArgs) int { panic("systems: no gather kernel") }
