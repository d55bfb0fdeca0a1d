package grid

import (
	"errors"
	"math"
)

// Sentinel errors returned by [Search.Path]; compare with errors.Is.
var (
	// ErrUnreachable: start and goal lie in different connected components.
	ErrUnreachable = errors.New("grid: goal unreachable from start")
	// ErrOutOfBounds: start or goal lies outside the grid.
	ErrOutOfBounds = errors.New("grid: cell out of bounds")
	// ErrBlocked: start or goal is a Blocked cell.
	ErrBlocked = errors.New("grid: cell blocked")
)

// Sqrt2 is the cost factor of a diagonal move.
const Sqrt2 = math.Sqrt2

// Search finds shortest paths on one [Grid] with A* (Hart, Nilsson & Raphael
// 1968). It keeps its buffers between queries, invalidating them with a
// generation counter instead of clearing, so a query allocates nothing once
// the buffers have grown (pass a dst with enough capacity).
//
// Moves are 8-connected. A straight move costs the cost of the entered cell,
// a diagonal move √2 times that cost, and a diagonal move is allowed only when
// both orthogonal neighbours it passes are passable (no corner cutting, the
// MovingAI/GPPC rule). The heuristic is the octile distance scaled by
// [Grid.MinCost]; it is consistent, so the returned path is shortest.
//
// A Search notices changes made with [Grid.SetCost] between queries. It is not
// safe for concurrent use; use one Search per goroutine.
type Search struct {
	g        *Grid
	nodes    []node
	open     []openItem
	gen      uint32
	expanded int

	goalX, goalY, hScale float64 // heuristic parameters of the running query
}

// NewSearch returns a Search over g. Its buffers (about 40 bytes per cell) are
// allocated here.
func NewSearch(g *Grid) *Search {
	n := g.w * g.h
	return &Search{
		g:     g,
		nodes: make([]node, n),
		open:  make([]openItem, 0, 1024),
	}
}

// Grid returns the grid the search runs on.
func (s *Search) Grid() *Grid { return s.g }

// Path finds a shortest path from start to goal. The path, both ends
// included, is appended to dst[:0] and returned with its cost (the sum of
// move costs, in the grid's cost units; with unit costs, the length in
// cells). start == goal gives [start] and cost 0.
//
// Errors, checked in this order (path is dst[:0] and cost 0):
//   - [ErrOutOfBounds] when start or goal is outside the grid;
//   - [ErrBlocked] when start or goal is Blocked;
//   - [ErrUnreachable] when they are in different components, found with
//     [Grid.Connected] without searching.
func (s *Search) Path(start, goal Cell, dst []Cell) (path []Cell, cost float64, err error) {
	g := s.g
	dst = dst[:0]
	s.expanded = 0
	if !g.InBounds(start) || !g.InBounds(goal) {
		return dst, 0, ErrOutOfBounds
	}
	if !g.Passable(start) || !g.Passable(goal) {
		return dst, 0, ErrBlocked
	}
	if start == goal {
		return append(dst, start), 0, nil
	}
	if !g.Connected(start, goal) {
		return dst, 0, ErrUnreachable
	}
	if len(s.nodes) != g.w*g.h { // defensive: grids do not resize today
		s.nodes = make([]node, g.w*g.h)
		s.gen = 0
	}
	goalIdx := s.run(g.index(start), g.index(goal), goal, float64(g.MinCost()))
	if goalIdx < 0 { // cannot happen when components are right
		return dst, 0, ErrUnreachable
	}
	return s.reconstruct(int32(g.index(start)), goalIdx, dst), s.nodes[goalIdx].g, nil
}

// Expanded returns the number of nodes the last [Search.Path] expanded
// (removed from the open list).
func (s *Search) Expanded() int { return s.expanded }

// Octile returns the octile distance between a and b: the length of a
// shortest 8-connected path on an empty grid, max(dx,dy) + (√2−1)·min(dx,dy).
func Octile(a, b Cell) float64 {
	dx := math.Abs(float64(a.X - b.X))
	dy := math.Abs(float64(a.Y - b.Y))
	return octile(dx, dy)
}
