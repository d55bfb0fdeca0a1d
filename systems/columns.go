package systems

import (
	"unsafe"

	arche "github.com/mlange-42/arche/ecs"
)

// maxColumns is the most component columns a [columns] records.
const maxColumns = 10

// columns lets several workers read a query's components by index in query
// order, so a system can split the copying of its hot state over its
// workers instead of walking the query on one goroutine.
//
// One light pass over the query ([columns.scan]) records each entity and,
// per run of entities stored side by side (one archetype: the same mask and
// the first column contiguous), the address of each column's first
// component. The components of the entity at index i are then that address
// plus the offset of i within its run: Arche stores each archetype's
// components in one array per component type, in query order.
//
// The pointers are valid until the world changes structure (an entity or a
// component added or removed), that is, within one system's Update.
type columns struct {
	ids  [maxColumns]arche.ID
	size [maxColumns]uintptr
	n    int

	ents  []arche.Entity // empty after scanRuns
	runs  []columnRun
	top   int // the largest entity ID in ents, -1 if none
	count int // entities of the query
}

// columnRun is a run of consecutive query entities of one archetype.
type columnRun struct {
	start int                        // index of its first entity in query order
	ptr   [maxColumns]unsafe.Pointer // per column, the first entity's component; nil if absent
}

// column adds a component column of size bytes (unsafe.Sizeof of the
// component; not zero) and returns its index. The first column must be one
// every entity of the query has.
//
// Panics: with more than maxColumns columns or a zero size (a programming
// error in archai).
func (c *columns) column(id arche.ID, size uintptr) int {
	if c.n == maxColumns || size == 0 {
		panic("systems: columns: too many columns or a zero-sized component")
	}
	c.ids[c.n], c.size[c.n] = id, size
	c.n++
	return c.n - 1
}

// scan walks q (closing it) and records its entities and runs.
func (c *columns) scan(q *arche.Query) {
	c.ents = c.ents[:0]
	c.runs = c.runs[:0]
	c.top = -1
	var prev unsafe.Pointer
	var mask arche.Mask
	for i := 0; q.Next(); i++ {
		e := q.Entity()
		c.ents = append(c.ents, e)
		c.top = max(c.top, int(e.ID()))
		p := q.Get(c.ids[0])
		m := q.Mask()
		if len(c.runs) == 0 || m != mask || p != unsafe.Add(prev, c.size[0]) {
			r := columnRun{start: i}
			for k := 0; k < c.n; k++ {
				if q.Has(c.ids[k]) {
					r.ptr[k] = q.Get(c.ids[k])
				}
			}
			c.runs = append(c.runs, r)
			mask = m
		}
		prev = p
	}
	c.count = len(c.ents)
}

// scanRuns is scan for a system that needs no entity: it records the runs
// and the count, and leaves ents empty (top −1). It skips reading and
// storing each entity, a third of a scan's cost.
func (c *columns) scanRuns(q *arche.Query) {
	c.ents = c.ents[:0]
	c.runs = c.runs[:0]
	c.top = -1
	var prev unsafe.Pointer
	var mask arche.Mask
	i := 0
	for ; q.Next(); i++ {
		p := q.Get(c.ids[0])
		if m := q.Mask(); len(c.runs) == 0 || m != mask || p != unsafe.Add(prev, c.size[0]) {
			r := columnRun{start: i}
			for k := 0; k < c.n; k++ {
				if q.Has(c.ids[k]) {
					r.ptr[k] = q.Get(c.ids[k])
				}
			}
			c.runs = append(c.runs, r)
			mask = m
		}
		prev = p
	}
	c.count = i
}

// run returns the index of the run holding entity i, starting the search at
// run r (workers walk indices in increasing order, so this is amortised
// constant).
func (c *columns) run(i, r int) int {
	for r+1 < len(c.runs) && c.runs[r+1].start <= i {
		r++
	}
	return r
}

// end returns the index after run r's last entity, of a query of n entities.
func (c *columns) end(r, n int) int {
	if r+1 < len(c.runs) {
		return c.runs[r+1].start
	}
	return n
}

// columnOf returns column k of run r as a slice of T indexed from the run's
// first entity (entity i is element i−start), n the query's entity count;
// nil if the run's archetype lacks it. T must be the column's component.
func columnOf[T any](c *columns, r, k, n int) []T {
	p := c.runs[r].ptr[k]
	if p == nil {
		return nil
	}
	return unsafe.Slice((*T)(p), c.end(r, n)-c.runs[r].start)
}

// at returns the address of column k's component of entity i in run r, nil
// if the run's archetype lacks it.
func (c *columns) at(r, k, i int) unsafe.Pointer {
	run := &c.runs[r]
	if run.ptr[k] == nil {
		return nil
	}
	return unsafe.Add(run.ptr[k], uintptr(i-run.start)*c.size[k])
}
