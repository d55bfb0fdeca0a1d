package grid

// Smooth shortens a grid path by line of sight ("string pulling"): walking
// from the first cell, it keeps a cell only when the next cell after it can
// no longer be seen from the last kept one, as judged by [Grid.LineOfSight]
// between cell centres. The result is a list of any-angle waypoints, the
// first and last cells of path included, each in straight sight of the next:
// segments never cross a blocked cell and never squeeze diagonally between
// two blocked cells that share a corner.
//
// It appends to dst[:0] and returns it; dst may be path itself (smoothing in
// place). Paths of fewer than three cells are copied unchanged. The cost of
// [Grid.LineOfSight] grows with segment length, so a path of n cells costs
// O(n·L) for segments of L cells.
//
// Smooth does not check path (it is meant for a path a search returned) and
// returns no error: the first and last cells are kept as given, even off the
// grid; a middle cell is dropped whenever the last kept cell sees the cell after
// it, whether the middle cell is on the grid or not; and nothing is seen from or
// to a cell off the grid, so every cell before and after such a cell is kept.
// Check a path from elsewhere with [Grid.InBounds] first ([Search.Path]
// refuses such cells with ErrOutOfBounds).
//
// Important: smoothing looks at passability only. On terrain with varying
// costs a shortcut may cross cells a cost-optimal path went around; smooth
// such paths only where that is acceptable.
func Smooth(g *Grid, path, dst []Cell) []Cell {
	dst = dst[:0]
	n := len(path)
	if n < 3 {
		return append(dst, path...)
	}
	first, last := path[0], path[n-1]
	anchor := first
	ac := g.Center(anchor)
	dst = append(dst, anchor)
	for i := 2; i < n; i++ {
		if g.LineOfSight(ac, g.Center(path[i])) {
			continue
		}
		anchor = path[i-1] // read before the write below can overwrite it
		ac = g.Center(anchor)
		dst = append(dst, anchor)
	}
	return append(dst, last)
}
