package grid

// Rect is an axis-aligned rectangle of cells, Min and Max both inclusive.
// A Rect with Max.X < Min.X or Max.Y < Min.Y is empty.
type Rect struct{ Min, Max Cell }

// Empty reports whether r holds no cell.
func (r Rect) Empty() bool { return r.Max.X < r.Min.X || r.Max.Y < r.Min.Y }

// Contains reports whether c lies in r.
func (r Rect) Contains(c Cell) bool {
	return c.X >= r.Min.X && c.X <= r.Max.X && c.Y >= r.Min.Y && c.Y <= r.Max.Y
}

// Overlaps reports whether r and o share a cell.
func (r Rect) Overlaps(o Rect) bool {
	return !r.Empty() && !o.Empty() &&
		r.Min.X <= o.Max.X && o.Min.X <= r.Max.X && r.Min.Y <= o.Max.Y && o.Min.Y <= r.Max.Y
}

// Add returns the smallest Rect holding r and c.
func (r Rect) Add(c Cell) Rect {
	if r.Empty() {
		return Rect{c, c}
	}
	r.Min.X, r.Min.Y = min(r.Min.X, c.X), min(r.Min.Y, c.Y)
	r.Max.X, r.Max.Y = max(r.Max.X, c.X), max(r.Max.Y, c.Y)
	return r
}

// EmptyRect is a Rect that holds no cell.
var EmptyRect = Rect{Min: Cell{0, 0}, Max: Cell{-1, -1}}

// MaxEditLog is the number of recent cost changes a [Grid] remembers for
// [Grid.EditedSince] and [Grid.EditsSince]; older ones are summarised as
// "the whole grid may have changed".
const MaxEditLog = 1024

// edit is one cost change: the cell and the version it produced.
type edit struct {
	c       Cell
	version uint64
}

// logEdit records that c changed, producing the grid's current version.
func (g *Grid) logEdit(c Cell) {
	if g.edits == nil {
		g.edits = make([]edit, 0, MaxEditLog)
	}
	if len(g.edits) == MaxEditLog { // forget the older half
		half := MaxEditLog / 2
		g.editFloor = g.edits[half-1].version
		n := copy(g.edits, g.edits[half:])
		g.edits = g.edits[:n]
	}
	g.edits = append(g.edits, edit{c: c, version: g.version})
}

// EditedSince returns the bounding rectangle of the cells whose cost
// [Grid.SetCost] changed after the grid had version v (a value of
// [Grid.Version]), and whether that rectangle is exact. It is empty when
// nothing changed. When the grid no longer remembers every change since v
// (more than about [MaxEditLog] changes since), it returns the whole grid
// and false, so a cache that compares against it may over-invalidate but
// never misses a change. It allocates nothing.
func (g *Grid) EditedSince(v uint64) (Rect, bool) {
	if v == g.version {
		return EmptyRect, true
	}
	if v < g.editFloor || v == 0 || v > g.version { // v > version: another grid's (copied over this one)
		return Rect{Cell{0, 0}, Cell{int32(g.w - 1), int32(g.h - 1)}}, false
	}
	r := EmptyRect
	for i := len(g.edits) - 1; i >= 0 && g.edits[i].version > v; i-- {
		r = r.Add(g.edits[i].c)
	}
	return r, true
}

// EditsSince appends to dst the cells whose cost changed after the grid had
// version v, newest first (a cell edited twice appears twice), and returns
// it with true; or dst unchanged and false when the grid no longer
// remembers every change since v (see [Grid.EditedSince]).
func (g *Grid) EditsSince(v uint64, dst []Cell) ([]Cell, bool) {
	if v == g.version {
		return dst, true
	}
	if v < g.editFloor || v == 0 || v > g.version { // v > version: another grid's (copied over this one)
		return dst, false
	}
	for i := len(g.edits) - 1; i >= 0 && g.edits[i].version > v; i-- {
		dst = append(dst, g.edits[i].c)
	}
	return dst, true
}
