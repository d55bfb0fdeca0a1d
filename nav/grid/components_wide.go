package grid

// ConnectedWide reports whether a search with [Options.Clearance] clearance
// finds a path from a to b: b passable and either a itself or, when a ≠ b,
// b's clearance at least clearance and a itself, or one of a's four
// orthogonal neighbours, in b's component of the cells whose clearance is at
// least clearance (a's own cell is exempt from the clearance, as in the
// search; a diagonal step off it needs both orthogonal cells beside it, so
// the orthogonal neighbours decide). A clearance of 0 or 1 is
// [Grid.Connected]. Blocked or out-of-bounds cells are connected to nothing.
//
// It is O(1) after a one-off O(width·height) labelling per clearance asked
// for (see [Grid.ComponentWide]), so an agent too wide for every route to
// its goal is told so without a search that floods its side of the map.
func (g *Grid) ConnectedWide(a, b Cell, clearance uint8) bool {
	if clearance <= 1 {
		return g.Connected(a, b)
	}
	if !g.Passable(a) || !g.Passable(b) {
		return false
	}
	return a == b || g.reachesWide(a, b, clearance)
}

// ComponentWide returns the label of c's component among the cells whose
// [Grid.Clearance] is at least clearance, 4-connected (which with the
// no-corner-cutting rule is also their 8-connected reachability), or -1 when
// c's clearance is smaller (blocked and out-of-bounds cells included).
// Labels are dense from 0, in row-major order of each component's first
// cell. A clearance of 0 or 1 is [Grid.Component].
//
// The labels of a clearance are computed on its first call for a cell that
// has it (O(width·height); a call for a clearance the cell does not have, e.g.
// 200, builds nothing and returns -1) and after edits that change
// passability, on the next call or [Grid.Prepare]: kept as they are when no
// cell's clearance crossed the threshold (one pass over the field), else
// computed again. Once a clearance was asked for, Prepare keeps its labels up
// to date, so concurrent readers are safe after Prepare, as for the other
// lazy caches; [Grid.PrepareWide] labels a clearance before concurrent readers
// ask for it.
//
// Important: each clearance labelled keeps a table of 4 bytes per cell for the
// grid's life (64 MiB on a 4096² grid). They are bounded only by the
// clearances the grid's cells have: at most M − 1 tables, M the largest
// clearance of a cell, which is at most 255 and at most ⌈min(width, height)/2⌉
// (an open 4096² map: up to 254 tables, 15.9 GiB). A caller asking for one
// clearance per agent radius ([ClearanceFor]: PathQueue and PathFollow do, for
// wide agents) pays a table per distinct radius class; keep wide agents to a
// few radii.
func (g *Grid) ComponentWide(c Cell, clearance uint8) int32 {
	if clearance <= 1 {
		return g.Component(c)
	}
	if !g.InBounds(c) || g.Clearance(c) < clearance {
		return -1 // no table is built for a clearance c does not have
	}
	return g.wideLabels(clearance)[g.index(c)]
}

// PrepareWide labels the components of the cells of clearance at least
// clearance now, if a cell has that clearance (it builds nothing otherwise, nor
// for a clearance of 0 or 1: [Grid.Prepare] labels those), so that readers
// that ask for it later ([Grid.ConnectedWide], [Grid.ComponentWide], a search
// with [Options.Clearance]) read the labels and build nothing: concurrent
// readers are then safe, and Prepare keeps the labels up to date after edits.
// It costs what ComponentWide's first call does (see there, also for the
// memory), and O(1) once the labels are up to date.
func (g *Grid) PrepareWide(clearance uint8) {
	if clearance <= 1 || clearance > g.maxClearance() {
		return
	}
	g.wideLabels(clearance)
}

// maxClearance returns the largest clearance of any cell, found once per grid
// version (one pass over the clearance field).
func (g *Grid) maxClearance() uint8 {
	g.Clearance(Cell{}) // the field up to date
	if g.maxClearAt != g.version+1 {
		var m uint8
		for _, c := range g.clear {
			m = max(m, c)
		}
		g.maxClear, g.maxClearAt = m, g.version+1
	}
	return g.maxClear
}

// reachesWide is ConnectedWide for passable a ≠ b and a clearance above 1.
func (g *Grid) reachesWide(a, b Cell, clearance uint8) bool {
	if g.Clearance(b) < clearance {
		return false
	}
	comp := g.wideLabels(clearance)
	lb := comp[g.index(b)]
	if comp[g.index(a)] == lb {
		return true
	}
	for _, d := range [4]Cell{{0, -1}, {1, 0}, {0, 1}, {-1, 0}} {
		if n := (Cell{a.X + d.X, a.Y + d.Y}); g.InBounds(n) && comp[g.index(n)] == lb {
			return true
		}
	}
	return false
}

// wideComp is the component labelling of the cells of clearance ≥ clear.
type wideComp struct {
	clear   uint8
	version uint64  // topoVersion the labels are for
	comp    []int32 // per cell, -1 below the clearance
}

// wideLabels returns the labels for clearance c (> 1), up to date.
func (g *Grid) wideLabels(c uint8) []int32 {
	g.Clearance(Cell{})
	for i := range g.wide {
		if w := &g.wide[i]; w.clear == c {
			if w.version != g.topoVersion {
				g.relabelWide(w)
			}
			return w.comp
		}
	}
	g.wide = append(g.wide, wideComp{clear: c})
	w := &g.wide[len(g.wide)-1]
	g.relabelWide(w)
	return w.comp
}

// prepareWide brings the labels of every clearance asked for up to date.
func (g *Grid) prepareWide() {
	for i := range g.wide {
		if w := &g.wide[i]; w.version != g.topoVersion {
			g.relabelWide(w)
		}
	}
}

// relabelWide brings w up to date with the clearance field (current): if
// every cell is still on the side of w.clear it was, the labels hold (cells
// only moved within one side: none joined or left a component); else a
// flood fill of the 4-connected cells of clearance ≥ w.clear.
func (g *Grid) relabelWide(w *wideComp) {
	n := g.w * g.h
	cl, c := g.clear, w.clear
	defer func() { w.version = g.topoVersion }()
	if len(w.comp) == n {
		same := true
		for i, l := range w.comp {
			if (l >= 0) != (cl[i] >= c) {
				same = false
				break
			}
		}
		if same {
			return
		}
	} else {
		w.comp = make([]int32, n)
	}
	for i := range w.comp {
		w.comp[i] = -1
	}
	_, _, g.stack, _ = fillComponents(g.clear, c, 255, g.w, g.h, w.comp, -1, 0, 0, g.stack, nil)
}
