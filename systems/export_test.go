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

// KeptTreeRuns returns the number of hybrid.TreeRuns the Arena keeps for e's ID.
func (a *Arena) KeptTreeRuns(e interface{ ID() uint32 }) int {
	if i := int(e.ID()); i < len(a.held) {
		return len(a.held[i].kept)
	}
	return 0
}

// HeldScores returns the UtilityBrain scores the Arena holds for e's ID.
func (a *Arena) HeldScores(e interface{ ID() uint32 }) []float64 {
	if i := int(e.ID()); i < len(a.held) {
		return a.held[i].scores
	}
	return nil
}

// TookCheck records that worker k's part of Spatial's check pass took ns
// nanoseconds, as if measured (tests: a lopsided split of the query).
func (s *Spatial) TookCheck(k int, ns int64) { s.shares.Took(k, ns) }

// CheckBounds returns the bounds of the workers' ranges of the query in
// Spatial's last check pass.
func (s *Spatial) CheckBounds() []int { return s.bounds }

// SetClaimHook sets the function a worker calls before each block it claims in
// a blockRun (nil: none), returning the old one; see claimHook.
func SetClaimHook(f func(worker int)) func(worker int) {
	old := claimHook
	claimHook = f
	return old
}

// HeldFarRoom is heldFarRoom (CauseHeldFarFromGoal's room about a goal).
var HeldFarRoom = heldFarRoom
