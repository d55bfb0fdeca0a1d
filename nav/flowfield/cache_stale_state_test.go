package flowfield

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archai-go/archai/nav/grid"
)

// sameField asserts that a and b hold the same values and directions on every cell.
func sameField(t *testing.T, a, b *Field, msg string) {
	t.Helper()
	require.Equal(t, a.Done(), b.Done(), msg)
	require.Equal(t, a.Settled(), b.Settled(), msg)
	require.Equal(t, a.Stale(), b.Stale(), msg)
	g := a.Grid()
	for y := int32(0); y < int32(g.Height()); y++ {
		for x := int32(0); x < int32(g.Width()); x++ {
			c := grid.Cell{X: x, Y: y}
			na, oka := a.Next(c)
			nb, okb := b.Next(c)
			if na != nb || oka != okb || a.Integration(c) != b.Integration(c) {
				t.Fatalf("%s: cell %v: %v %v %v, restored %v %v %v", msg, c, na, oka, a.Integration(c), nb, okb, b.Integration(c))
			}
		}
	}
}

// roundTrip saves c, as JSON, and restores it into a new cache on the same grid.
func roundTrip(t *testing.T, c *Cache) (*Cache, CacheState) {
	t.Helper()
	st, err := c.State()
	require.NoError(t, err)
	raw, err := json.Marshal(st)
	require.NoError(t, err)
	var back CacheState
	require.NoError(t, json.Unmarshal(raw, &back))
	r := NewCache(c.g, 1)
	require.NoError(t, r.Restore(back))
	return r, st
}

// A field built before a grid edit and not asked for since (its goal abandoned) is
// saved as stale with the costs it was built on, and restored as it was: it answers
// from the old costs (the wall opened since does not show), and when its goal is asked
// for again it is served, rebuilt and swapped in as in the saved cache, cell for cell.
// A field saved mid-rebuild (in use when the grid changed) is restored with its
// rebuild. Both for a door opened (a blocked cell made passable) and a cost raised.
func TestCacheSavesStaleFields(t *testing.T) {
	g := grid.New(40, 30)
	for y := int32(0); y < 25; y++ {
		g.SetCost(grid.Cell{X: 20, Y: y}, grid.Blocked)
	}
	c := NewCache(g, 4)
	old, used := grid.Cell{X: 35, Y: 3}, grid.Cell{X: 2, Y: 28}
	c.Get(old)
	c.Get(used)
	g.SetCost(grid.Cell{X: 20, Y: 3}, 1)           // a door opens
	g.SetCost(grid.Cell{X: 5, Y: 5}, 7)            // mud
	g.SetCost(grid.Cell{X: 6, Y: 6}, grid.Blocked) // and a crate
	f, ready := c.Request(used)                    // in use: its rebuild starts, the old field served
	require.False(t, ready)
	c.Update(300) // part of the rebuild
	require.True(t, c.entries[c.index[cacheKey{used, 1}]].rebuilding)

	r, st := roundTrip(t, c)
	require.Len(t, st.Entries, 2)
	for _, es := range st.Entries {
		assert.True(t, es.Stale, "goal %v", es.Goal)
		assert.ElementsMatch(t, []CellCost{{Cell: grid.Cell{X: 20, Y: 3}, Blocked: true}, {Cell: grid.Cell{X: 5, Y: 5}, Cost: 1}, {Cell: grid.Cell{X: 6, Y: 6}, Cost: 1}}, es.Old, "goal %v", es.Goal)
		if es.Goal == used {
			require.NotNil(t, es.Rebuild)
			assert.Equal(t, 300, es.Rebuild.Settled)
			assert.False(t, es.Rebuild.Stale)
		} else {
			assert.Nil(t, es.Rebuild)
		}
	}
	// the stale field of the abandoned goal still routes around the closed door
	assert.Greater(t, c.entries[c.index[cacheKey{old, 1}]].field.Integration(grid.Cell{X: 10, Y: 3}), 40.0)
	for _, goal := range []grid.Cell{old, used} {
		sameField(t, c.entries[c.index[cacheKey{goal, 1}]].field, r.entries[r.index[cacheKey{goal, 1}]].field, "saved field")
	}
	sameField(t, c.entries[c.index[cacheKey{used, 1}]].spare, r.entries[r.index[cacheKey{used, 1}]].spare, "saved rebuild")
	_ = f

	// the abandoned goal comes back, after another edit: both caches do the same
	g.SetCost(grid.Cell{X: 30, Y: 20}, grid.Blocked)
	for frame := 0; frame < 8; frame++ {
		for _, cc := range []*Cache{c, r} {
			cc.Request(old)
			cc.Request(used)
			cc.Update(500)
		}
		for _, goal := range []grid.Cell{old, used} {
			a, b := c.entries[c.index[cacheKey{goal, 1}]], r.entries[r.index[cacheKey{goal, 1}]]
			require.Equal(t, a.rebuilding, b.rebuilding, "frame %d goal %v", frame, goal)
			sameField(t, a.field, b.field, "served field")
		}
	}
	assert.Equal(t, c.Rebuilds, r.Rebuilds)
	assert.False(t, c.entries[c.index[cacheKey{old, 1}]].field.Stale())
	assert.Less(t, c.entries[c.index[cacheKey{old, 1}]].field.Integration(grid.Cell{X: 10, Y: 3}), 30.0, "rebuilt through the open door")
}

// A stale field whose costs came back to the built ones (a door closed and opened
// again) is stale with no old costs, and restored stale.
func TestCacheSavesStaleFieldOfUndoneEdit(t *testing.T) {
	g := grid.New(16, 16)
	c := NewCache(g, 2)
	c.Get(grid.Cell{X: 3, Y: 3})
	g.SetCost(grid.Cell{X: 8, Y: 8}, grid.Blocked)
	g.SetCost(grid.Cell{X: 8, Y: 8}, 1)
	r, st := roundTrip(t, c)
	require.Len(t, st.Entries, 1)
	assert.True(t, st.Entries[0].Stale)
	assert.Empty(t, st.Entries[0].Old)
	assert.True(t, r.entries[0].field.Stale())
	_, ready := r.Request(grid.Cell{X: 3, Y: 3})
	assert.False(t, ready, "restored stale: asked for again, it is rebuilt")
	assert.Equal(t, 1, r.Rebuilds-st.Rebuilds)
}

// Restore refuses old costs that no grid has, or given for a current field.
func TestCacheRestoreRejectsBadOldCosts(t *testing.T) {
	g := grid.New(8, 8)
	goal := grid.Cell{X: 1, Y: 1}
	for _, tc := range []struct {
		name string
		es   CacheEntryState
		want string
	}{
		{"off the grid", CacheEntryState{Goal: goal, Done: true, Stale: true, Old: []CellCost{{Cell: grid.Cell{X: 8, Y: 0}, Cost: 1}}}, "off the 8x8 grid"},
		{"twice", CacheEntryState{Goal: goal, Done: true, Stale: true, Old: []CellCost{{Cell: grid.Cell{X: 2, Y: 2}, Cost: 2}, {Cell: grid.Cell{X: 2, Y: 2}, Cost: 3}}}, "twice"},
		{"zero cost", CacheEntryState{Goal: goal, Done: true, Stale: true, Old: []CellCost{{Cell: grid.Cell{X: 2, Y: 2}}}}, "want a positive number"},
		{"not stale", CacheEntryState{Goal: goal, Done: true, Old: []CellCost{{Cell: grid.Cell{X: 2, Y: 2}, Cost: 2}}}, "not stale"},
		{"rebuild of a current field", CacheEntryState{Goal: goal, Settled: 64, Done: true, Rebuild: &BuildState{}}, "rebuild saved"},
	} {
		c := NewCache(g, 2)
		err := c.Restore(CacheState{Capacity: 2, Entries: []CacheEntryState{tc.es}})
		require.Error(t, err, tc.name)
		assert.Contains(t, err.Error(), tc.want, tc.name)
		assert.Zero(t, c.Len(), tc.name)
	}
}
