package systems

// SetGatherKernel lets Steer's gather run its assembly kernel or not (where
// the processor has AVX2), returning the previous setting.
func SetGatherKernel(on bool) bool { return setGatherKernel(on) }
