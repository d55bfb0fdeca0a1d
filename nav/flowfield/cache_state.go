package flowfield

import (
	"fmt"
	"math"

	"github.com/archai-go/archai/nav/grid"
)

// CacheState is what a [Cache] holds as plain data, for saving a world mid-run: each
// field's goal, when it was last requested and how far its build got (fields are not
// saved: [Cache.Restore] builds them again, to the same point; a stale field, on the
// costs it was built on).
type CacheState struct {
	Tick     uint64            `json:"tick"`
	Capacity int               `json:"capacity"`
	Entries  []CacheEntryState `json:"entries"`

	Hits, Misses, Evictions, Rebuilds int
}

// CacheEntryState is one field of a [CacheState].
//
// A field built before a grid edit that nobody asked for since (a goal no agent follows
// any more) is stale: the cache still holds it as it was, and serves it, from the old
// costs, while its rebuild runs when its goal is asked for again. Such a field is saved
// with Stale set and Old, the costs it was built on where they differ from the grid's
// now (the edits since), so that [Cache.Restore] builds it again on those costs; a field
// being rebuilt has its rebuild in Rebuild, saved the same way.
type CacheEntryState struct {
	Goal      grid.Cell   `json:"goal"`
	Clearance uint8       `json:"clearance,omitempty"` // the field's clearance (0 and 1: a point field; see Field.SetClearance)
	LastUse   uint64      `json:"last_use"`
	Settled   int         `json:"settled"` // cells settled so far
	Done      bool        `json:"done"`
	Stale     bool        `json:"stale,omitempty"`   // built on costs the grid no longer has
	Old       []CellCost  `json:"old,omitempty"`     // those costs, where they differ from the grid's (Stale only)
	Rebuild   *BuildState `json:"rebuild,omitempty"` // the rebuild of a stale complete field, while it runs
}

// BuildState is how far a field's build got, and on which costs (see
// [CacheEntryState]).
type BuildState struct {
	Settled int        `json:"settled"`
	Done    bool       `json:"done"`
	Stale   bool       `json:"stale,omitempty"`
	Old     []CellCost `json:"old,omitempty"`
}

// CellCost is the cost a cell had: Blocked true for [grid.Blocked] (JSON has no
// infinity), else Cost, a positive number.
type CellCost struct {
	Cell    grid.Cell `json:"cell"`
	Cost    float32   `json:"cost,omitempty"`
	Blocked bool      `json:"blocked,omitempty"`
}

// State returns the cache's state: every field, current or stale (see
// [CacheEntryState]). It does not fail; the error is for fields it could not describe,
// and is nil in this version.
func (c *Cache) State() (CacheState, error) {
	c.fit()
	st := CacheState{Tick: c.tick, Capacity: c.capacity, Entries: []CacheEntryState{},
		Hits: c.Hits, Misses: c.Misses, Evictions: c.Evictions, Rebuilds: c.Rebuilds}
	for i := range c.entries {
		e := &c.entries[i]
		b := buildOf(e.field)
		es := CacheEntryState{Goal: e.goal, Clearance: e.clr, LastUse: e.lastUse, Settled: b.Settled, Done: b.Done, Stale: b.Stale, Old: b.Old}
		if e.rebuilding {
			r := buildOf(e.spare)
			es.Rebuild = &r
		}
		st.Entries = append(st.Entries, es)
	}
	return st, nil
}

// buildOf returns f's build state: for a stale field, the costs it was built on
// where they differ from its grid's now.
func buildOf(f *Field) BuildState {
	b := BuildState{Settled: f.Settled(), Done: f.Done(), Stale: f.Stale()}
	if b.Stale {
		costs := f.g.Costs()
		for i, old := range f.snap { // the costs at f.version (prepare's copy, taken at Start)
			if old == costs[i] {
				continue
			}
			cc := CellCost{Cell: grid.Cell{X: int32(i % f.w), Y: int32(i / f.w)}, Cost: old}
			if old > math.MaxFloat32 {
				cc.Cost, cc.Blocked = 0, true
			}
			b.Old = append(b.Old, cc)
		}
	}
	return b
}

// Restore replaces the cache's fields by those of st, building each again towards its
// goal up to the cells it had settled (a build is deterministic), so the cache answers
// and evicts as the saved one would. A stale field (see [CacheEntryState]) is built on
// the grid's costs with its Old costs put back, and stays stale (asked for again, it is
// served while rebuilt, as the saved one), and its Rebuild, if any, is built as saved.
// It returns an error, leaving the cache empty, if the capacity is below 1, below the
// number of fields or above the grid's cell count (no more goals can be distinct), a
// goal is given twice at one clearance, an old cost is off the grid, given twice for a
// cell, not positive or given for a field not stale, a rebuild is saved for a field not
// stale and complete, or a build does not reach the saved point (a grid other than the
// saved run's: another map, or its edits not made again). Each field costs about 11
// bytes a cell, and a field with its rebuild two: a caller restoring untrusted state
// bounds st.Capacity first (systems.FlowField.LoadState does, by its MaxFields).
// A goal off the grid is restored as [Cache.Request] holds one (a field that reaches
// no cell), so the state of a cache asked for such a goal loads.
func (c *Cache) Restore(st CacheState) error {
	c.fit()
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
		// a goal off the grid is taken back as Cache.Request keeps it (a field that
		// reaches no cell): a follower's goal off the map, which systems.Diagnose reports
		key := cacheKey{es.Goal, max(es.Clearance, 1)}
		if _, dup := c.index[key]; dup {
			return fmt.Errorf("flowfield: goal %v at clearance %d twice", es.Goal, key.clr)
		}
		f, err := c.rebuild(es.Goal, key.clr, BuildState{Settled: es.Settled, Done: es.Done, Stale: es.Stale, Old: es.Old})
		if err != nil {
			return err
		}
		e := cacheEntry{goal: es.Goal, clr: key.clr, field: f, lastUse: es.LastUse}
		if r := es.Rebuild; r != nil {
			if !es.Done || !es.Stale || r.Done {
				return fmt.Errorf("flowfield: goal %v: a rebuild saved for a field that is not stale and complete, or a rebuild complete (stale %v, done %v, rebuild done %v)", es.Goal, es.Stale, es.Done, r.Done)
			}
			if e.spare, err = c.rebuild(es.Goal, key.clr, *r); err != nil {
				return fmt.Errorf("%w (its rebuild)", err)
			}
			e.rebuilding = true
		}
		c.entries = append(c.entries, e)
		c.index[key] = len(c.entries) - 1
	}
	c.tick = st.Tick
	c.Hits, c.Misses, c.Evictions, c.Rebuilds = st.Hits, st.Misses, st.Evictions, st.Rebuilds
	return nil
}

// staleVersion is the version of a restored stale field: no grid version reaches it, so
// the field reads as stale until it is started again, as the saved one did.
const staleVersion = ^uint64(0)

// rebuild builds a field of clearance clr towards goal again to the point b says, on the
// grid's costs or, for a stale build, on the costs it was built on (b.Old over the grid's).
func (c *Cache) rebuild(goal grid.Cell, clr uint8, b BuildState) (*Field, error) {
	if b.Settled < 0 {
		return nil, fmt.Errorf("flowfield: goal %v: %d cells settled", goal, b.Settled)
	}
	if !b.Stale && len(b.Old) > 0 {
		return nil, fmt.Errorf("flowfield: goal %v: old costs saved for a field that is not stale", goal)
	}
	f := New(c.g)
	f.SetClearance(clr)
	if b.Stale {
		costs := append([]float32(nil), c.g.Costs()...)
		var seen []uint64 // a bit per cell
		if len(b.Old) > 0 {
			seen = make([]uint64, (len(costs)+63)/64)
		}
		for _, o := range b.Old {
			k := int(o.Cell.Y)*c.g.Width() + int(o.Cell.X)
			switch {
			case !c.g.InBounds(o.Cell):
				return nil, fmt.Errorf("flowfield: goal %v: old cost of cell %v, off the %dx%d grid", goal, o.Cell, c.g.Width(), c.g.Height())
			case seen[k/64]>>(k%64)&1 != 0:
				return nil, fmt.Errorf("flowfield: goal %v: old cost of cell %v twice", goal, o.Cell)
			case !o.Blocked && !(o.Cost > 0 && o.Cost <= math.MaxFloat32):
				return nil, fmt.Errorf("flowfield: goal %v: old cost %v of cell %v (want a positive number, or blocked)", goal, o.Cost, o.Cell)
			}
			seen[k/64] |= 1 << (k % 64)
			costs[k] = o.Cost
			if o.Blocked {
				costs[k] = grid.Blocked
			}
		}
		f.startOn(costs, staleVersion, []grid.Cell{goal})
	} else {
		f.Start(goal)
	}
	if b.Done {
		f.Step(int(^uint(0) >> 1))
	} else if b.Settled > 0 {
		f.Step(b.Settled)
	}
	if f.Settled() != b.Settled || f.Done() != b.Done {
		return nil, fmt.Errorf("flowfield: goal %v built again to %d cells (done %v), saved at %d (done %v): "+
			"the grid is not the saved run's (load the same map, with the same edits, before restoring)",
			goal, f.Settled(), f.Done(), b.Settled, b.Done)
	}
	return f, nil
}
