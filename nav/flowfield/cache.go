package flowfield

import (
	"fmt"
	"math"

	"github.com/archai-go/archai/nav/grid"
)

// Cache holds flow fields keyed by goal cell, so that every agent heading to
// the same cell shares one field. It keeps at most Capacity fields, evicting
// the least recently used one (and reusing its buffers) when a new goal
// needs room, and rebuilds a field whose grid changed since it was built
// ([grid.Grid.Version]).
//
// Two ways to get a field:
//   - [Cache.Get] returns a complete, current field, building it at once;
//   - [Cache.Request] returns at once and lets [Cache.Update] build pending
//     fields within a per-frame budget of settled cells, so a big field is
//     spread over frames.
//
// A Cache is not safe for concurrent use.
type Cache struct {
	g       *grid.Grid
	entries []cacheEntry
	index   map[grid.Cell]int // goal → entries position; looked up, never iterated
	tick    uint64

	// Statistics since creation.
	Hits, Misses, Evictions, Rebuilds int
}

type cacheEntry struct {
	goal    grid.Cell
	field   *Field
	lastUse uint64
}

// NewCache returns a cache of at most capacity fields over g. Fields are
// allocated as goals arrive (about 5 bytes per cell each).
//
// Panics:
//   - when capacity < 1.
func NewCache(g *grid.Grid, capacity int) *Cache {
	if capacity < 1 {
		panic(fmt.Sprintf("flowfield: NewCache: capacity %d < 1", capacity))
	}
	return &Cache{g: g, entries: make([]cacheEntry, 0, capacity), index: make(map[grid.Cell]int, capacity)}
}

// Capacity returns the maximum number of fields held.
func (c *Cache) Capacity() int { return cap(c.entries) }

// Len returns the number of fields held.
func (c *Cache) Len() int { return len(c.entries) }

// Get returns the complete field towards goal for the grid as it is now,
// building (or finishing, or rebuilding) it at once.
func (c *Cache) Get(goal grid.Cell) *Field {
	f, _ := c.Request(goal)
	f.Step(math.MaxInt)
	return f
}

// Request returns the field towards goal and whether it is complete and
// current. A missing field is started (evicting the least recently used one
// if the cache is full), a stale one restarted; [Cache.Update] or
// [Field.Step] finishes them. An incomplete field reads as unreachable
// where it has not settled yet.
func (c *Cache) Request(goal grid.Cell) (*Field, bool) {
	c.tick++
	if i, ok := c.index[goal]; ok {
		e := &c.entries[i]
		e.lastUse = c.tick
		if e.field.Stale() {
			c.Rebuilds++
			e.field.Start(goal)
			return e.field, false
		}
		if e.field.Done() {
			c.Hits++
		}
		return e.field, e.field.Done()
	}
	c.Misses++
	var f *Field
	if len(c.entries) < cap(c.entries) {
		f = New(c.g)
		c.entries = append(c.entries, cacheEntry{goal: goal, field: f, lastUse: c.tick})
		c.index[goal] = len(c.entries) - 1
	} else {
		lru := 0
		for i := range c.entries {
			if c.entries[i].lastUse < c.entries[lru].lastUse {
				lru = i
			}
		}
		e := &c.entries[lru]
		delete(c.index, e.goal)
		c.Evictions++
		e.goal, e.lastUse = goal, c.tick
		c.index[goal] = lru
		f = e.field
	}
	f.Start(goal)
	return f, false
}

// Update advances the builds of pending and stale fields, most recently
// requested first, settling at most budget cells in total. It returns the
// number of cells settled. Stale fields that nobody requested are left alone
// until [Cache.Request] or [Cache.Get] asks for them.
func (c *Cache) Update(budget int) int {
	used := 0
	for used < budget {
		best := -1
		for i := range c.entries {
			e := &c.entries[i]
			if !e.field.Done() && (best < 0 || e.lastUse > c.entries[best].lastUse) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		f := c.entries[best].field
		before := f.Settled()
		f.Step(budget - used)
		used += f.Settled() - before
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
