package systems

import (
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
)

// A world that changes: when cells of the grid change between frames
// (grid.Grid.SetCost: a door closes, a bridge opens), the path queue's next
// Update, before it takes requests, asks for a new path for exactly the
// agents whose held path crosses an edited cell, so they repath around a
// closed door in the same frame. See PathQueue's doc ("Edits").

// editWatch is what the queue remembers of the grid's edits.
type editWatch struct {
	version uint64      // grid version last looked at
	cells   []grid.Cell // scratch: the cells edited since
}

// watchEdits starts watching the grid's edits from its current version.
func (s *PathQueue) watchEdits() { s.edits.version = s.grid.Version() }

// repathEdited sets Path.Want for every agent whose held path crosses a
// cell edited since the last frame, drops the line-of-sight caches that may
// cross one, and lets unreachable agents try again when a cell opened. It
// returns the number of agents asked to repath; nothing is visited (and
// nothing allocated) when the grid did not change.
func (s *PathQueue) repathEdited(w *arche.World) int {
	v := s.grid.Version()
	if v == s.edits.version {
		return 0
	}
	rect, exact := s.grid.EditedSince(s.edits.version)
	s.edits.cells = s.edits.cells[:0]
	opened := !exact
	if exact {
		s.edits.cells, _ = s.grid.EditsSince(s.edits.version, s.edits.cells)
		for _, c := range s.edits.cells {
			opened = opened || s.grid.Passable(c)
		}
	}
	s.edits.version = v
	n := 0
	q := s.filter.Query(w)
	for q.Next() {
		p, _ := q.Get()
		clr := uint8(1)
		if !p.Want && (p.SightKnown || p.State == components.PathReady) {
			clr = s.clearanceOf(q.Entity())
		}
		if p.SightKnown && growRect(rect, clr).Overlaps(grid.EmptyRect.Add(p.SightFrom).Add(p.SightTo)) {
			p.SightKnown = false
		}
		switch {
		case p.Want:
		case p.State == components.PathReady && s.crossesEdits(p, rect, exact, clr):
			p.Want = true
			n++
		case p.State == components.PathUnreachable && opened:
			p.Want = true // a bridge may have opened
			n++
		}
	}
	return n
}

// crossesEdits reports whether the rest of p's path (from the waypoint
// before Next) touches an edited cell: a segment between two waypoints'
// centres that meets the cell's closed square, so a diagonal step through a
// corner counts for both cells beside it. Without an exact list of cells,
// touching the edits' bounding rectangle counts.
//
// A path of a wide agent (clr, its clearance, above 1) also counts as
// crossed by a cell closed within clr cells (Chebyshev) of it: the closed
// cell lowers the clearance of the cells the path enters (those of a path
// smoothed at clearance clr + 1 too), so a gap on the path may have become
// narrower than the agent. Before, such a path was kept and the agent walked
// into the gap and stood there until stuck detection asked again.
func (s *PathQueue) crossesEdits(p *components.Path, rect grid.Rect, exact bool, clr uint8) bool {
	wp := p.Waypoints
	from := max(p.Next-1, 0)
	if from >= len(wp) {
		return false
	}
	near := rect // the cells an edit in rect may matter to
	if clr > 1 {
		near = growRect(rect, clr)
	}
	if len(wp)-from == 1 {
		if !exact {
			return near.Contains(wp[from])
		}
		if rect.Contains(wp[from]) {
			return true
		}
		for _, c := range s.edits.cells {
			if clr > 1 && !s.grid.Passable(c) && growRect(grid.Rect{Min: c, Max: c}, clr).Contains(wp[from]) {
				return true
			}
		}
		return false
	}
	// the path's bounding box first: most paths are nowhere near the edits
	lo, hi := wp[from], wp[from]
	for _, c := range wp[from+1:] {
		lo.X, lo.Y = min(lo.X, c.X), min(lo.Y, c.Y)
		hi.X, hi.Y = max(hi.X, c.X), max(hi.Y, c.Y)
	}
	if !near.Overlaps(grid.Rect{Min: lo, Max: hi}) {
		return false
	}
	for i := from + 1; i < len(wp); i++ {
		a, b := wp[i-1], wp[i]
		box := grid.EmptyRect.Add(a).Add(b)
		if !box.Overlaps(near) {
			continue
		}
		if !exact {
			return true
		}
		for _, c := range s.edits.cells {
			if box.Contains(c) && segmentTouchesCell(a, b, c) {
				return true
			}
			if clr > 1 && !s.grid.Passable(c) {
				if r := growRect(grid.Rect{Min: c, Max: c}, clr); box.Overlaps(r) && segmentTouchesRect(a, b, r) {
					return true
				}
			}
		}
	}
	return false
}

// growRect returns r grown by n cells on every side when n > 1 (the cells
// within n, Chebyshev, of r's), r itself otherwise. An empty r stays empty.
func growRect(r grid.Rect, n uint8) grid.Rect {
	if n <= 1 || r.Empty() {
		return r
	}
	k := int32(n)
	return grid.Rect{Min: grid.Cell{X: r.Min.X - k, Y: r.Min.Y - k}, Max: grid.Cell{X: r.Max.X + k, Y: r.Max.Y + k}}
}

// segmentTouchesCell reports whether the segment between the centres of a
// and b meets the closed square of cell c (Liang & Barsky 1984 clipping).
func segmentTouchesCell(a, b, c grid.Cell) bool {
	return segmentTouchesRect(a, b, grid.Rect{Min: c, Max: c})
}

// segmentTouchesRect reports whether the segment between the centres of a
// and b meets the closed area of the cells of r (not empty).
func segmentTouchesRect(a, b grid.Cell, r grid.Rect) bool {
	ax, ay := float64(a.X)+0.5, float64(a.Y)+0.5
	dx, dy := float64(b.X-a.X), float64(b.Y-a.Y)
	t0, t1 := 0.0, 1.0
	return clipEdge(-dx, ax-float64(r.Min.X), &t0, &t1) && clipEdge(dx, float64(r.Max.X+1)-ax, &t0, &t1) &&
		clipEdge(-dy, ay-float64(r.Min.Y), &t0, &t1) && clipEdge(dy, float64(r.Max.Y+1)-ay, &t0, &t1)
}

// clipEdge narrows [t0, t1] to the parameters t with p·t ≤ q, and reports
// whether any remain.
func clipEdge(p, q float64, t0, t1 *float64) bool {
	if p == 0 {
		return q >= 0
	}
	r := q / p
	if p < 0 {
		if r > *t1 {
			return false
		}
		*t0 = max(*t0, r)
	} else {
		if r < *t0 {
			return false
		}
		*t1 = min(*t1, r)
	}
	return true
}
