package systems

// SetLightParallelMin sets the crowd size from which light passes (finding
// due agents, the foe index) run on the workers,
// returning the old value.
func SetLightParallelMin(n int) int {
	old := lightParallelMin
	lightParallelMin = n
	return old
}

// SetFindBlock sets the agents per block of Perception's find pass,
// returning the old value.
func SetFindBlock(n int) int {
	old := findBlock
	findBlock = n
	return old
}
