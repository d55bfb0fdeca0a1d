package flowfield

import (
	"fmt"
	"math"

	"github.com/archai-go/archai/nav/grid"
)

// Cache holds flow fields keyed by goal cell and clearance, so that every
// agent of one size heading to the same cell shares one field ([Cache.Get]
// and [Cache.Request] serve point agents, clearance 1; [Cache.GetWide] and
// [Cache.RequestWide] wide ones, see [Field.SetClearance]). It keeps at most Capacity fields, evicting
// the least recently used one (and reusing its buffers) when a new goal
// needs room, and rebuilds a field whose grid changed since it was built
// ([grid.Grid.Version]).
//
// A complete field that went stale keeps being served while its rebuild runs
// in a second buffer, and is swapped for the new one when that is complete,
// so agents following it never lose their direction.
//
// Two ways to get a field:
//   - [Cache.Get] returns a complete, current field, building it at once;
//   - [Cache.Request] returns at once and lets [Cache.Update] build pending
//     fields within a per-frame budget of settled cells, so a big field is
//     spread over frames.
//
// A map of another size copied over the grid in place (*g = *other.Clone(),
// see [grid.Grid.Clone]) makes every field held another map's: the cache
// drops them all, and the buffers [Cache.Reserve] made, at its next Request,
// Get, Update, Reserve, State or Restore, and builds the goals asked for
// again anew (a field handed out before answers from the old build, within
// the old size only; see [Field]).
//
// A Cache is not safe for concurrent use.
type Cache struct {
	g        *grid.Grid
	w, h     int // the grid's size its fields are for (see fit)
	capacity int
	entries  []cacheEntry
	index    map[cacheKey]int // (goal, clearance) → entries position; looked up, never iterated
	tick     uint64
	free     []*Field // buffers made by Reserve, taken by new goals before New

	// Statistics since creation.
	Hits, Misses, Evictions, Rebuilds int
}

// cacheKey is what a Cache keys its fields by: the goal and the clearance
// (1 for point agents).
type cacheKey struct {
	goal grid.Cell
	clr  uint8
}

type cacheEntry struct {
	goal       grid.Cell
	clr        uint8  // the fields' clearance, at least 1
	field      *Field // the field served
	spare      *Field // the rebuild of a stale complete field (while rebuilding), or a spare buffer, or nil
	rebuilding bool
	lastUse    uint64
}

// pending reports whether the entry has a build to advance, and which field.
func (e *cacheEntry) pending() (*Field, bool) {
	if e.rebuilding {
		return e.spare, true
	}
	return e.field, !e.field.Done()
}

// step advances the entry's build by budget cells, swapping a finished
// rebuild in, and returns the cells settled.
func (e *cacheEntry) step(budget int) int {
	f, ok := e.pending()
	if !ok {
		return 0
	}
	before := f.Settled()
	if f.Step(budget) && e.rebuilding {
		e.field, e.spare, e.rebuilding = e.spare, e.field, false
	}
	return f.Settled() - before
}

// NewCache returns a cache of at most capacity fields over g. Fields, and the
// cache's tables, are allocated as goals arrive (about 11 bytes per cell each, see
// [New]): a huge capacity costs nothing until that many goals are held.
//
// Panics:
//   - when capacity < 1.
func NewCache(g *grid.Grid, capacity int) *Cache {
	if capacity < 1 {
		panic(fmt.Sprintf("flowfield: NewCache: capacity %d < 1", capacity))
	}
	hint := min(capacity, 64) // the tables grow with the goals held, not with an absurd capacity
	return &Cache{g: g, w: g.Width(), h: g.Height(), capacity: capacity, entries: make([]cacheEntry, 0, hint), index: make(map[cacheKey]int, hint)}
}

// Capacity returns the maximum number of fields held.
func (c *Cache) Capacity() int { return c.capacity }

// SetCapacity changes the maximum number of fields held to n, but never
// below the number held now (a cache does not drop fields to shrink).
func (c *Cache) SetCapacity(n int) {
	c.capacity = max(n, len(c.entries), 1)
}

// Len returns the number of fields held.
func (c *Cache) Len() int { return len(c.entries) }

// Get returns the complete field towards goal for the grid as it is now,
// building (or finishing, or rebuilding) it at once.
func (c *Cache) Get(goal grid.Cell) *Field { return c.GetWide(goal, 1) }

// GetWide is [Cache.Get] for the field of clearance clr (0 and 1: the
// point field Get returns; see [Field.SetClearance]).
func (c *Cache) GetWide(goal grid.Cell, clr uint8) *Field {
	c.RequestWide(goal, clr)
	e := &c.entries[c.index[cacheKey{goal, max(clr, 1)}]]
	e.step(math.MaxInt)
	return e.field
}

// Request returns the field towards goal and whether it is complete and
// current. A missing field is started (evicting the least recently used one
// if the cache is full); [Cache.Update] or [Field.Step] finishes it, and until
// then it reads as unreachable where it has not settled yet. A stale field
// that was complete is still returned (answering from the old costs) while
// its rebuild runs in a second buffer; the rebuilt field is returned once
// complete. A stale field that was never complete is restarted.
func (c *Cache) Request(goal grid.Cell) (*Field, bool) { return c.RequestWide(goal, 1) }

// RequestWide is [Cache.Request] for the field of clearance clr (0 and 1:
// the point field Request returns; see [Field.SetClearance]). Fields of
// different clearances towards one goal are distinct fields, each counting
// towards the capacity.
func (c *Cache) RequestWide(goal grid.Cell, clr uint8) (*Field, bool) {
	c.fit()
	clr = max(clr, 1)
	key := cacheKey{goal, clr}
	c.tick++
	if i, ok := c.index[key]; ok {
		e := &c.entries[i]
		e.lastUse = c.tick
		switch {
		case e.rebuilding && e.spare.Stale(): // the grid changed again during the rebuild
			c.Rebuilds++
			startWide(e.spare, goal, clr)
		case e.field.Stale() && !e.rebuilding && e.field.Done():
			c.Rebuilds++
			if e.spare == nil {
				e.spare = New(c.g)
			}
			startWide(e.spare, goal, clr)
			e.rebuilding = true
		case e.field.Stale() && !e.field.Done():
			c.Rebuilds++
			startWide(e.field, goal, clr)
		}
		ready := e.field.Done() && !e.rebuilding && !e.field.Stale()
		if ready {
			c.Hits++
		}
		return e.field, ready
	}
	c.Misses++
	var f *Field
	if len(c.entries) < c.capacity {
		if k := len(c.free); k > 0 {
			f, c.free = c.free[k-1], c.free[:k-1]
		} else {
			f = New(c.g)
		}
		c.entries = append(c.entries, cacheEntry{goal: goal, clr: clr, field: f, lastUse: c.tick})
		c.index[key] = len(c.entries) - 1
	} else {
		lru := 0
		for i := range c.entries {
			if c.entries[i].lastUse < c.entries[lru].lastUse {
				lru = i
			}
		}
		e := &c.entries[lru]
		delete(c.index, cacheKey{e.goal, e.clr})
		c.Evictions++
		e.goal, e.clr, e.lastUse, e.rebuilding = goal, clr, c.tick, false
		c.index[key] = lru
		f = e.field
	}
	startWide(f, goal, clr)
	return f, false
}

// startWide starts f towards goal at clearance clr.
func startWide(f *Field, goal grid.Cell, clr uint8) {
	f.SetClearance(clr)
	f.Start(goal)
}

// MaxReserveCells bounds what [Cache.Reserve] allocates: the reserved fields'
// cells in total (each field has (width+2)·(height+2) cells, its padded grid),
// 2^30, about 11 GiB at 11 bytes a cell. It turns a typo (a byte count given
// as a number of fields) into an error rather than a process killed for want
// of memory.
const MaxReserveCells = 1 << 30

// Reserve allocates now the buffers of the fields that the next goals will
// take, so that the cache holds n fields (or its capacity, if smaller)
// without allocating when those goals arrive: a game that moves one goal
// now and then reserves 2 (the field followed and the one being built) and
// allocates nothing once the crowd is steady. Each field costs what [New]
// says; the frontier's queues are sized for twice the grid's perimeter and
// grow past it only on maps whose walls make a longer frontier (a maze).
// An n of 0 or less reserves nothing.
//
// Errors: when the fields to allocate would hold more than
// [MaxReserveCells] cells in total, Reserve allocates nothing and returns an
// error naming n, the fields' cells and the limit.
func (c *Cache) Reserve(n int) error {
	c.fit()
	want := min(n, c.capacity) - len(c.entries) - len(c.free)
	if want <= 0 {
		return nil
	}
	cells := (c.g.Width() + 2) * (c.g.Height() + 2)
	if want > MaxReserveCells/cells {
		return fmt.Errorf("flowfield: Cache.Reserve(%d): %d more fields of %d cells each is more than MaxReserveCells (%d) cells; reserve the fields held at once (2 for one goal that moves), not bytes",
			n, want, cells, MaxReserveCells)
	}
	for range want {
		f := New(c.g)
		f.prepare()
		f.goals = make([]grid.Cell, 0, 1)
		c.free = append(c.free, f)
	}
	return nil
}

// Update advances the builds of pending fields and rebuilds of stale ones,
// most recently requested first, settling at most budget cells in total. It
// returns the number of cells settled. Stale fields that nobody requested
// are left alone until [Cache.Request] or [Cache.Get] asks for them. A
// budget <= 0 settles nothing and returns 0.
func (c *Cache) Update(budget int) int {
	c.fit()
	used := 0
	for used < budget {
		best := -1
		for i := range c.entries {
			e := &c.entries[i]
			if _, ok := e.pending(); ok && (best < 0 || e.lastUse > c.entries[best].lastUse) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		used += c.entries[best].step(budget - used)
	}
	return used
}

// Invalidate drops every field (keeping their buffers for reuse is not
// needed: the grid's version already makes them stale; this is for freeing
// memory).
func (c *Cache) Invalidate() {
	c.entries = c.entries[:0]
	clear(c.index)
}

// fit drops every field, and the reserved buffers, when the grid's size is
// no longer the one they were made for (a map of another size copied over
// the grid in place, *g = *other.Clone()): their cells are another map's,
// so not even a stale answer. The goals asked for again are built anew.
func (c *Cache) fit() {
	if c.g.Width() == c.w && c.g.Height() == c.h {
		return
	}
	c.w, c.h = c.g.Width(), c.g.Height()
	c.Invalidate()
	c.free = nil
}
