package graph

import (
	"container/heap"
	"sort"

	"gonum.org/v1/gonum/spatial/kdtree"
	"gonum.org/v1/gonum/spatial/r2"
)

// waypoint is a k-d tree element: a position and its waypoint ID.
type waypoint struct {
	p  r2.Vec
	id int64
}

func (w waypoint) coord(d kdtree.Dim) float64 {
	if d == 0 {
		return w.p.X
	}
	return w.p.Y
}

func (w waypoint) Compare(c kdtree.Comparable, d kdtree.Dim) float64 {
	return w.coord(d) - c.(waypoint).coord(d)
}

func (w waypoint) Dims() int { return 2 }

func (w waypoint) Distance(c kdtree.Comparable) float64 {
	d := r2.Sub(w.p, c.(waypoint).p)
	return float64(d.X*d.X) + float64(d.Y*d.Y) // r2.Dot(d, d), each square rounded: no multiply-add on any build
}

// waypoints is the k-d tree collection; Pivot sorts along the dimension and
// returns the median.
type waypoints []waypoint

func (w waypoints) Index(i int) kdtree.Comparable { return w[i] }
func (w waypoints) Len() int                      { return len(w) }
func (w waypoints) Slice(s, e int) kdtree.Interface {
	return w[s:e]
}
func (w waypoints) Pivot(d kdtree.Dim) int {
	sort.Slice(w, func(i, j int) bool { return w[i].coord(d) < w[j].coord(d) })
	return len(w) / 2
}

// openList is A*'s open list: a min-heap on f, ties towards larger g, then
// towards the lower waypoint ID, with lazy deletion of superseded entries. The
// order is total (equal items are copies of one entry), so the items popped do
// not depend on the order they were pushed in: gonum's graphs give a node's
// neighbours in a Go map's order, which changes from run to run.
type openItem struct {
	f, g float64
	id   int64
}

type openHeap []openItem

func (h openHeap) Len() int { return len(h) }
func (h openHeap) Less(i, j int) bool {
	if h[i].f != h[j].f {
		return h[i].f < h[j].f
	}
	if h[i].g != h[j].g {
		return h[i].g > h[j].g
	}
	return h[i].id < h[j].id
}
func (h openHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *openHeap) Push(x any)   { *h = append(*h, x.(openItem)) }
func (h *openHeap) Pop() any {
	old := *h
	it := old[len(old)-1]
	*h = old[:len(old)-1]
	return it
}

type openList struct{ h openHeap }

func (o *openList) len() int         { return len(o.h) }
func (o *openList) push(it openItem) { heap.Push(&o.h, it) }
func (o *openList) pop() openItem    { return heap.Pop(&o.h).(openItem) }
