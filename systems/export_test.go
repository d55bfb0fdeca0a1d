package systems

// SetSpatialOrderMin sets the crowd size from which systems visit agents in
// spatial order, returning the old value.
func SetSpatialOrderMin(n int) int {
	old := spatialOrderMin
	spatialOrderMin = n
	return old
}

// SetSpatialNoFast turns off (on) the fast loop of sp's check pass, the one
// for agents that are last frame's at their query index.
func SetSpatialNoFast(sp *Spatial, off bool) { sp.noFast = off }
