package flowfield

import (
	"fmt"

	"github.com/archai-go/archai/nav/grid"
)

// CacheState is what a [Cache] holds as plain data, for saving a world mid-run: each
// field's goal, when it was last requested and how far its build got (fields are not
// saved: [Cache.Restore] builds them again, to the same point).
type CacheState struct {
	Tick     uint64            `json:"tick"`
	Capacity int               `json:"capacity"`
	Entries  []CacheEntryState `json:"entries"`

	Hits, Misses, Evictions, Rebuilds int
}

// CacheEntryState is one field of a [CacheState].
type CacheEntryState struct {
	Goal    grid.Cell `json:"goal"`
	LastUse uint64    `json:"last_use"`
	Settled int       `json:"settled"` // cells settled so far
	Done    bool      `json:"done"`
}

// State returns the cache's state. It returns an error if a field is being rebuilt after
// a grid change (the old field and its rebuild would both have to be saved).
func (c *Cache) State() (CacheState, error) {
	st := CacheState{Tick: c.tick, Capacity: c.capacity, Entries: []CacheEntryState{},
		Hits: c.Hits, Misses: c.Misses, Evictions: c.Evictions, Rebuilds: c.Rebuilds}
	for i := range c.entries {
		e := &c.entries[i]
		if e.rebuilding || e.field.Stale() {
			return CacheState{}, fmt.Errorf("flowfield: the field towards %v is being rebuilt after a grid change; save after its rebuild", e.goal)
		}
		st.Entries = append(st.Entries, CacheEntryState{Goal: e.goal, LastUse: e.lastUse, Settled: e.field.Settled(), Done: e.field.Done()})
	}
	return st, nil
}

// Restore replaces the cache's fields by those of st, building each again towards its
// goal up to the cells it had settled (a build is deterministic), so the cache answers
// and evicts as the saved one would. It returns an error, leaving the cache empty, if
// the capacity is below 1, below the number of fields or above the grid's cell count (no
// more goals can be distinct), a goal is off the grid, given twice, or its build does
// not reach the saved point (a grid other than the saved run's: another map, or
// its edits not made again). Each field costs about 11 bytes a cell: a caller restoring
// untrusted state bounds st.Capacity first (systems.FlowField.LoadState does, by its
// MaxFields).
func (c *Cache) Restore(st CacheState) error {
	c.Invalidate()
	err := c.restore(st)
	if err != nil {
		c.Invalidate()
	}
	return err
}

func (c *Cache) restore(st CacheState) error {
	if st.Capacity < 1 || st.Capacity < len(st.Entries) {
		return fmt.Errorf("flowfield: capacity %d for %d fields", st.Capacity, len(st.Entries))
	}
	if cells := c.g.Width() * c.g.Height(); st.Capacity > cells {
		return fmt.Errorf("flowfield: capacity %d for a grid of %d cells", st.Capacity, cells)
	}
	c.capacity = st.Capacity
	for _, es := range st.Entries {
		if !c.g.InBounds(es.Goal) {
			return fmt.Errorf("flowfield: goal %v is off the %dx%d grid", es.Goal, c.g.Width(), c.g.Height())
		}
		if _, dup := c.index[es.Goal]; dup {
			return fmt.Errorf("flowfield: goal %v twice", es.Goal)
		}
		f := New(c.g)
		f.Start(es.Goal)
		if es.Settled < 0 {
			return fmt.Errorf("flowfield: goal %v: %d cells settled", es.Goal, es.Settled)
		}
		if es.Done {
			f.Step(int(^uint(0) >> 1))
		} else if es.Settled > 0 {
			f.Step(es.Settled)
		}
		if f.Settled() != es.Settled || f.Done() != es.Done {
			return fmt.Errorf("flowfield: goal %v built again to %d cells (done %v), saved at %d (done %v): "+
				"the grid is not the saved run's (load the same map, with the same edits, before restoring)",
				es.Goal, f.Settled(), f.Done(), es.Settled, es.Done)
		}
		c.entries = append(c.entries, cacheEntry{goal: es.Goal, field: f, lastUse: es.LastUse})
		c.index[es.Goal] = len(c.entries) - 1
	}
	c.tick = st.Tick
	c.Hits, c.Misses, c.Evictions, c.Rebuilds = st.Hits, st.Misses, st.Evictions, st.Rebuilds
	return nil
}
