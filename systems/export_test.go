package systems

// SetSpatialOrderMin sets the crowd size from which systems visit agents in
// spatial order, returning the old value.
func SetSpatialOrderMin(n int) int {
	old := spatialOrderMin
	spatialOrderMin = n
	return old
}
