package systems

// SetPathViewsFor sets how many requests a PathQueue with Overlap takes views of
// before its serve starts on the helper, given how many the last frame looked at
// (see startServe), returning the old rule.
func SetPathViewsFor(f func(lastLooked int) int) func(int) int {
	old := pathViewsFor
	pathViewsFor = f
	return old
}
