package orca

import (
	"cmp"
	"math"
	"slices"

	"gonum.org/v1/gonum/spatial/r2"
)

// Blocked reports whether the grid cell (x, y) is a wall: a static obstacle.
// Cell (x, y) covers [x, x+1)×[y, y+1) in cells. Cells off the grid are never
// asked for: [Solver.GridSegments] counts them as walls itself.
type Blocked func(x, y int32) bool

// GridSegments returns the obstacle segments near pos (cells) on a grid of
// width×height cells: the boundary edges between the open cells and the
// blocked ones (or the grid's border) that pass within reach cells of pos,
// oriented with the blocked side on the left (see [Segment]) and with
// collinear edges of neighbouring cells joined into one segment. They come
// nearest first, ready for [Solver.Velocity]. RVO2 looks for obstacles within
// ObstacleHorizon·MaxSpeed + Radius cells; that is the reach to give.
//
// The segments are in s's buffer, valid until the next call on s. The cells
// read are those within reach of pos, clipped to the grid, so a huge reach
// costs at most a scan of the grid, never more. A NaN or infinite pos, or a
// reach that is not ≥ 0 (or NaN), returns no segment.
func (s *Solver) GridSegments(pos r2.Vec, reach float64, width, height int, blocked Blocked) []Segment {
	s.segs, s.dist = s.segs[:0], s.dist[:0]
	if !finite(pos) || !(reach >= 0) || width <= 0 || height <= 0 {
		return s.segs
	}
	// the open cells whose edges may be within reach, clipped to the grid
	x0 := clampCell(math.Floor(pos.X-reach), width)
	x1 := clampCell(math.Floor(pos.X+reach), width)
	y0 := clampCell(math.Floor(pos.Y-reach), height)
	y1 := clampCell(math.Floor(pos.Y+reach), height)
	if pos.X+reach < 0 || pos.Y+reach < 0 || pos.X-reach >= float64(width) || pos.Y-reach >= float64(height) {
		return s.segs // the whole window is off the grid
	}
	// wall map of the window and a ring round it: cells off the grid are walls
	nx, ny := x1-x0+3, y1-y0+3
	if cap(s.cells) < nx*ny {
		s.cells = make([]bool, nx*ny)
	}
	cells := s.cells[:nx*ny]
	for j := range ny {
		y := y0 - 1 + j
		for i := range nx {
			x := x0 - 1 + i
			cells[j*nx+i] = x < 0 || y < 0 || x >= width || y >= height || blocked(int32(x), int32(y))
		}
	}
	wall := func(x, y int) bool { return cells[(y-y0+1)*nx+(x-x0+1)] }
	// Horizontal edges, row by row: the bottom edge (y) of an open cell over a
	// wall runs from x+1 to x (wall on the left of −x), its top edge (y+1)
	// under a wall from x to x+1.
	for y := y0; y <= y1; y++ {
		for _, below := range [2]bool{true, false} {
			start := -1
			for x := x0; x <= x1+1; x++ {
				edge := x <= x1 && !wall(x, y) && ((below && wall(x, y-1)) || (!below && wall(x, y+1)))
				switch {
				case edge && start < 0:
					start = x
				case !edge && start >= 0:
					a, b := float64(start), float64(x)
					if below {
						s.add(pos, reach, r2.Vec{X: b, Y: float64(y)}, r2.Vec{X: a, Y: float64(y)})
					} else {
						s.add(pos, reach, r2.Vec{X: a, Y: float64(y + 1)}, r2.Vec{X: b, Y: float64(y + 1)})
					}
					start = -1
				}
			}
		}
	}
	// Vertical edges, column by column: the left edge (x) of an open cell
	// beside a wall runs from y to y+1, its right edge (x+1) from y+1 to y.
	for x := x0; x <= x1; x++ {
		for _, left := range [2]bool{true, false} {
			start := -1
			for y := y0; y <= y1+1; y++ {
				edge := y <= y1 && !wall(x, y) && ((left && wall(x-1, y)) || (!left && wall(x+1, y)))
				switch {
				case edge && start < 0:
					start = y
				case !edge && start >= 0:
					a, b := float64(start), float64(y)
					if left {
						s.add(pos, reach, r2.Vec{X: float64(x), Y: a}, r2.Vec{X: float64(x), Y: b})
					} else {
						s.add(pos, reach, r2.Vec{X: float64(x + 1), Y: b}, r2.Vec{X: float64(x + 1), Y: a})
					}
					start = -1
				}
			}
		}
	}
	s.sortSegments()
	return s.segs
}

// sortSegments sorts the segments found nearest first; stable, so ties keep the
// scan's order (deterministic). A few segments (the usual reach) are sorted in
// place by insertion; more (a huge reach over a maze finds tens of thousands,
// which an insertion sort took 1.4 s for one agent to sort on a 128×128
// checkerboard of walls) by slices.SortStableFunc.
func (s *Solver) sortSegments() {
	if len(s.segs) <= 32 {
		for i := 1; i < len(s.segs); i++ {
			for j := i; j > 0 && s.dist[j] < s.dist[j-1]; j-- {
				s.segs[j], s.segs[j-1] = s.segs[j-1], s.segs[j]
				s.dist[j], s.dist[j-1] = s.dist[j-1], s.dist[j]
			}
		}
		return
	}
	s.found = s.found[:0]
	for i, sg := range s.segs {
		s.found = append(s.found, foundSegment{distSq: s.dist[i], seg: sg})
	}
	slices.SortStableFunc(s.found, func(a, b foundSegment) int { return cmp.Compare(a.distSq, b.distSq) })
	for i, f := range s.found {
		s.segs[i], s.dist[i] = f.seg, f.distSq
	}
}

// foundSegment is a segment within reach and its squared distance to the agent.
type foundSegment struct {
	distSq float64
	seg    Segment
}

// add keeps segment a→b if it passes within reach of pos.
func (s *Solver) add(pos r2.Vec, reach float64, a, b r2.Vec) {
	d := segmentDistSq(pos, a, b)
	if d > reach*reach {
		return
	}
	s.segs = append(s.segs, Segment{A: a, B: b})
	s.dist = append(s.dist, d)
}

// segmentDistSq is the squared distance from p to the segment a–b.
func segmentDistSq(p, a, b r2.Vec) float64 {
	ab := r2.Sub(b, a)
	t := dot(r2.Sub(p, a), ab) / dot(ab, ab)
	t = min(max(t, 0), 1)
	return distSq(p, addScaled(a, t, ab))
}

// clampCell returns the cell index of coordinate v clipped to [0, n).
func clampCell(v float64, n int) int {
	if !(v >= 0) {
		return 0
	}
	if v >= float64(n-1) {
		return n - 1
	}
	return int(v)
}
