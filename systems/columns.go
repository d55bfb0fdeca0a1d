package systems

import (
	"unsafe"

	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
)

// maxColumns is the most component columns a [columns] records.
const maxColumns = 10

// columns lets several workers read a query's components by index in query
// order, so a system can split the copying of its hot state over its
// workers instead of walking the query on one goroutine.
//
// A pass over the query records, per run of entities stored side by side
// (one archetype), the address of each column's first component; the
// components of the entity at index i are then that address plus the
// offset of i within its run: Arche stores each archetype's components in
// one array per component type, in query order. The pass costs per
// archetype, not per entity ([columns.scanRuns]); the entities are read
// only where a system needs them: all of them on the calling goroutine
// ([columns.scan]) or on the workers ([columns.scanShared]), or a few
// chosen ones ([columns.entitiesAt]).
//
// The pointers are valid until the world changes structure (an entity or a
// component added or removed), that is, within one system's Update.
type columns struct {
	ids  [maxColumns]arche.ID
	size [maxColumns]uintptr
	n    int

	ents  []arche.Entity // empty after scanRuns; after entitiesAt, valid at its indices only
	runs  []columnRun
	top   int // the largest entity ID in ents, -1 if none
	count int // entities of the query

	exact arche.MaskFilter     // scan: the filter of one archetype's exact mask
	rel   arche.RelationFilter // scan: exact, and one relation target
	masks []maskInfo           // scan: the archetype masks seen

	shared entsJob       // scanShared: the workers' job
	qs     []arche.Query // scanShared: per worker, its query
	tops   []int         // scanShared: per worker, the largest entity ID of its range
}

// columnRun is a run of consecutive query entities of one archetype.
type columnRun struct {
	start int                        // index of its first entity in query order
	ptr   [maxColumns]unsafe.Pointer // per column, the first entity's component; nil if absent
}

// reset forgets the columns and everything learnt of a world (the masks
// seen, the last scan), keeping the buffers: a system's Initialize calls it
// before adding its columns, so the system can be initialized again on
// another world (a level restart), whose component IDs may differ.
func (c *columns) reset() {
	c.ids, c.size, c.n = [maxColumns]arche.ID{}, [maxColumns]uintptr{}, 0
	clear(c.ents)
	c.ents, c.runs, c.top, c.count = c.ents[:0], c.runs[:0], -1, 0
	c.exact, c.rel = arche.MaskFilter{}, arche.RelationFilter{}
	c.masks = c.masks[:0]
	clear(c.qs)
	c.qs = c.qs[:0]
}

// column adds a component column of size bytes (unsafe.Sizeof of the
// component; not zero) and returns its index. A column an archetype lacks
// has a nil address in that archetype's run.
//
// Panics: with more than maxColumns columns or a zero size (a programming
// error in archai: a system's Initialize must [columns.reset] first).
func (c *columns) column(id arche.ID, size uintptr) int {
	if c.n == maxColumns || size == 0 {
		panic("systems: columns: too many columns or a zero-sized component")
	}
	c.ids[c.n], c.size[c.n] = id, size
	c.n++
	return c.n - 1
}

// scan walks q (closing it) and records its entities and runs. w is q's
// world.
//
// It visits each entity only to read it: the runs are the query's
// archetypes, found one at a time. At the first entity of an archetype it
// reads the column addresses and the archetype's length, counted by a
// second query whose filter matches that archetype alone (its exact mask,
// and the relation target if the mask holds a relation component). So the
// cost is a few nanoseconds an entity plus well under a microsecond an
// archetype, and two archetypes whose storages happen to lie side by side
// in memory are still two runs.
func (c *columns) scan(w *arche.World, q *arche.Query) { c.walk(w, q, true) }

// scanRuns is scan for a system that needs no entity: it records the runs
// and the count, and leaves ents empty (top −1). It steps over each
// archetype in one call ([arche.Query.Step]), so its cost is per archetype,
// not per entity.
func (c *columns) scanRuns(w *arche.World, q *arche.Query) { c.walk(w, q, false) }

// walk is scan (withEnts) or scanRuns.
//
// Panics: if the archetypes' lengths do not add up to the query's count (a
// bug in archai or Arche).
func (c *columns) walk(w *arche.World, q *arche.Query, withEnts bool) {
	n := q.Count()
	c.runs = c.runs[:0]
	c.ents = c.ents[:0]
	if withEnts {
		c.ents = grow(c.ents, n)
	}
	top := -1
	i := 0
	for ok := q.Next(); ok; {
		r := columnRun{start: i}
		for k := 0; k < c.n; k++ {
			if q.Has(c.ids[k]) {
				r.ptr[k] = q.Get(c.ids[k])
			}
		}
		c.runs = append(c.runs, r)
		l := c.archetypeLen(w, q)
		if i+l > n {
			panic("systems: columns: the query's archetypes hold more entities than its count")
		}
		if !withEnts {
			i += l
			ok = q.Step(l) // to the next archetype's first entity; false (closed) after the last
			continue
		}
		es := c.ents[i : i+l]
		es[0] = q.Entity()
		for j := 1; j < len(es); j++ {
			q.Next() // within the archetype: always true
			es[j] = q.Entity()
		}
		for _, e := range es {
			if id := int(e.ID()); id > top {
				top = id
			}
		}
		i += l
		ok = q.Next()
	}
	if i != n {
		panic("systems: columns: the query's archetypes hold fewer entities than its count")
	}
	c.top, c.count = top, n
}

// maxSharedWorkers is the most workers scanShared hands the entities to (each
// holds one of the world's query locks while it reads); a larger pool reads
// them on the calling goroutine.
const maxSharedWorkers = 16

// minSharedEntities is the fewest entities scanShared hands to its workers:
// below it, reading them on the calling goroutine is cheaper than the
// hand-off.
const minSharedEntities = 4096

// scanShared is scan over a fresh query of f (w's filter of the system),
// with the entities read on pool's workers: the calling goroutine records
// the runs (per archetype), then each worker reads its contiguous range of
// the query's entities through a query of its own, stepped to the range's
// start. The result is scan's, whatever the number of workers. Each extra
// query only reads the world, which stays locked until scanShared returns.
func (c *columns) scanShared(w *arche.World, f arche.Filter, pool *ecs.Workers) {
	if c.beginShared(w, f, pool) {
		pool.Run(&c.shared, c.count)
	}
	c.endShared()
}

// beginShared is the first half of scanShared, for a system whose first
// job over the query reads the entities itself, sparing a hand-off to the
// workers: it records the runs and, when it returns true, leaves each
// worker to read its range's entities with readShared at the start of
// that job (a Job of pool over the query's count, whose chunks are the
// ranges); otherwise it has read them all already, and readShared does
// nothing. endShared, once the job has run, closes the workers' queries
// and finds top. Between the two the world stays locked, and the job may
// read only the entities of its own range.
func (c *columns) beginShared(w *arche.World, f arche.Filter, pool *ecs.Workers) bool {
	q := w.Query(f)
	c.walk(w, &q, false)
	n := c.count
	c.ents = grow(c.ents, n)
	k := pool.N()
	if n < minSharedEntities || k > maxSharedWorkers {
		k = 1
	}
	c.qs, c.tops = grow(c.qs, k), grow(c.tops, k)
	for i := range c.qs {
		c.qs[i] = w.Query(f)
		c.tops[i] = -1 // a worker whose range is empty, or that no job ran
	}
	c.shared.c = c
	if k == 1 {
		c.shared.Work(0, 0, n)
		c.shared.c = nil // read: readShared does nothing
		return false
	}
	return true
}

// readShared reads the entities of worker's range [lo, hi) of a
// beginShared that returned true; otherwise it does nothing.
func (c *columns) readShared(worker, lo, hi int) {
	if c.shared.c != nil {
		c.shared.Work(worker, lo, hi)
	}
}

// openQueries returns qs (its buffer reused) holding k fresh queries of f on w:
// one per worker of a pass in which each steps a query of its own from one
// entity of its range to the next. Close them with [closeQueries].
func openQueries(qs []arche.Query, w *arche.World, f arche.Filter, k int) []arche.Query {
	qs = grow(qs, k)
	for i := range qs {
		qs[i] = w.Query(f)
	}
	return qs
}

// closeQueries closes the queries of an [openQueries] (each stepped at most to its
// range's last entity: still open) and returns qs emptied, holding none.
func closeQueries(qs []arche.Query) []arche.Query {
	for i := range qs {
		qs[i].Close()
	}
	clear(qs)
	return qs[:0]
}

// endShared ends a beginShared: it closes the workers' queries and sets top.
func (c *columns) endShared() {
	c.top = -1
	for i := range c.qs {
		c.qs[i].Close()
		c.top = max(c.top, c.tops[i])
	}
	c.shared.c = nil
}

// entitiesAt sets ents[i] for each query index i in idx (strictly
// increasing) after scanRuns, stepping a fresh query of f (w's filter of
// the system) from one to the next: the cost is per index and per
// archetype crossed, not per entity of the query. The other elements of
// ents are left as they were (ents has the query's length); top is left −1.
//
// Panics: if idx is not strictly increasing or holds an index out of the
// query (a bug in archai).
func (c *columns) entitiesAt(w *arche.World, f arche.Filter, idx []int32) {
	c.ents = grow(c.ents, c.count)
	if len(idx) == 0 {
		return
	}
	if int(idx[len(idx)-1]) >= c.count {
		panic("systems: columns: entitiesAt past the query's last entity")
	}
	q := w.Query(f)
	prev := -1
	for _, i := range idx {
		q.Step(int(i) - prev) // from before the first entity, then from the last index
		prev = int(i)
		c.ents[i] = q.Entity()
	}
	q.Close() // never stepped past the last entity: still open
}

// entsJob reads the entities of a [columns.scanShared], a range a worker.
type entsJob struct{ c *columns }

// Work implements ecs.Job.
func (j *entsJob) Work(worker, lo, hi int) {
	c := j.c
	c.tops[worker] = -1
	if lo == hi {
		return
	}
	q := &c.qs[worker]
	q.Step(lo + 1) // from before the first entity to entity lo
	es := c.ents[lo:hi]
	es[0] = q.Entity()
	for i := 1; i < len(es); i++ {
		q.Next() // never past the query's last entity: no world change
		es[i] = q.Entity()
	}
	top := -1
	for _, e := range es {
		if id := int(e.ID()); id > top {
			top = id
		}
	}
	c.tops[worker] = top
}

// maskInfo is what [columns] knows of an archetype mask: whether it holds a
// relation component, and which.
type maskInfo struct {
	mask   arche.Mask
	rel    arche.ID
	hasRel bool
}

// maxMasks bounds the masks a [columns] remembers (it forgets them all when
// full, and learns them again).
const maxMasks = 64

// archetypeLen returns the number of entities in the archetype of q's
// current entity, by counting a query that matches that archetype alone.
func (c *columns) archetypeLen(w *arche.World, q *arche.Query) int {
	c.exact.Include = q.Mask()
	c.exact.Exclude = c.exact.Include.Not()
	info := c.maskInfo(w, &c.exact.Include)
	var cq arche.Query
	if info.hasRel {
		// a relation node holds one archetype per target
		c.rel = arche.RelationFilter{Filter: &c.exact, Target: q.Relation(info.rel)}
		cq = w.Query(&c.rel)
	} else {
		// a node without relation holds one archetype
		cq = w.Query(&c.exact)
	}
	l := cq.Count()
	cq.Close()
	return l
}

// maskInfo returns what is known of mask m, learning it (allocating) the
// first time m is seen.
func (c *columns) maskInfo(w *arche.World, m *arche.Mask) maskInfo {
	for i := range c.masks {
		if c.masks[i].mask == *m {
			return c.masks[i]
		}
	}
	info := maskInfo{mask: *m}
	for _, id := range arche.ComponentIDs(w) {
		if ci, ok := arche.ComponentInfo(w, id); ok && ci.IsRelation && m.Get(id) {
			info.rel, info.hasRel = id, true
		}
	}
	if len(c.masks) == maxMasks {
		c.masks = c.masks[:0]
	}
	c.masks = append(c.masks, info)
	return info
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
