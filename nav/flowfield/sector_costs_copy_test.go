package flowfield

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/require"
)

// requireSameGraph checks that a (refreshed after edits) holds the portal
// graph, sector by sector, that b (built afresh on the same grid) does.
func requireSameGraph(t *testing.T, a, b *Sectors, msg string) {
	t.Helper()
	require.Equal(t, len(b.nodes), len(a.nodes), "%s: nodes", msg)
	for i := range b.secs {
		sa, sb := &a.secs[i], &b.secs[i]
		require.Equal(t, len(sb.nodes), len(sa.nodes), "%s: sector %d's nodes", msg, i)
		for k := range sb.nodes {
			require.Equal(t, b.nodes[sb.nodes[k]].cell, a.nodes[sa.nodes[k]].cell, "%s: sector %d node %d", msg, i, k)
		}
		require.True(t, slices.Equal(sb.dist, sa.dist), "%s: sector %d's costs between nodes", msg, i)
		require.True(t, slices.Equal(sb.dirs, sa.dirs), "%s: sector %d's directions", msg, i)
	}
	require.Equal(t, b.sums, a.sums, "%s: checksums", msg)
	require.Equal(t, b.ring, a.ring, "%s: the portal search's buckets", msg)
	require.Equal(t, b.minC, a.minC, "%s: the smallest cost", msg)
}

// TestSectorsKeepNoCopyOfTheCosts (big20): the sector layer finds the
// sectors a grid edit changed from the grid's edit log and a checksum per
// sector, not from a copy of the costs (4 bytes per cell, 64 MB on 4096²):
// what NewSectors keeps, beyond the per-node directions, is under 2 bytes
// per cell (1.45 on this 256² map of 32-cell sectors, 5.45 with the copy).
// Refresh finds no change after edits undone, and the sectors changed after
// one edit and after more edits than the grid remembers; each time the graph
// equals one built afresh.
func TestSectorsKeepNoCopyOfTheCosts(t *testing.T) {
	g, err := grid.GenerateTown(256, 7)
	require.NoError(t, err)
	g.Prepare()
	// What the layer keeps is the live heap with it less the live heap once it
	// is dropped, both read after the same double collection: not the live heap
	// after NewSectors less the one before it. That difference also took in
	// what the runtime made meanwhile (on a loaded machine, threads) and
	// sync.Pool's victim cache of objects from before (dropped by the second
	// collection after them): 0.87 to 1.46 bytes per cell, run to run, against
	// a bound of 2. This one is the same to the byte in every run.
	s, err := NewSectors(g, 32)
	require.NoError(t, err)
	with := liveHeap()
	dirs := 0 // (s is read after with: live there)
	for i := range s.secs {
		dirs += cap(s.secs[i].dirs)
	}
	s = nil
	kept := float64(with) - float64(liveHeap())
	cells := float64(g.Width() * g.Height())
	extra := (kept - float64(dirs)) / cells
	t.Logf("NewSectors: %.2f bytes per cell of directions, %.2f of the rest", float64(dirs)/cells, extra)
	require.Less(t, extra, 2.0, "bytes per cell besides the directions (a copy of the costs was 4)")
	s, err = NewSectors(g, 32)
	require.NoError(t, err)

	fresh := func() *Sectors {
		f, err := NewSectors(g, 32)
		require.NoError(t, err)
		return f
	}
	// edits undone before the refresh: nothing changed
	open := grid.Cell{X: -1}
	for y := range int32(256) {
		if c := (grid.Cell{X: 100, Y: y}); g.Passable(c) {
			open = c
			break
		}
	}
	require.True(t, g.InBounds(open))
	g.SetCost(open, grid.Blocked)
	g.SetCost(open, 1)
	require.Zero(t, s.Refresh(), "edits undone")
	// one edit: its sector, and those whose portals it changed
	g.SetCost(open, grid.Blocked)
	require.Positive(t, s.Refresh(), "one edit")
	requireSameGraph(t, s, fresh(), "one edit")
	require.Zero(t, s.Refresh(), "no edit since")
	// more edits than the grid remembers, in every sector
	rng := rand.New(rand.NewPCG(20, 2))
	for range 2 * grid.MaxEditLog {
		c := grid.Cell{X: int32(rng.IntN(256)), Y: int32(rng.IntN(256))}
		if g.Passable(c) {
			g.SetCost(c, grid.Blocked)
		} else {
			g.SetCost(c, 1)
		}
	}
	_, remembered := g.EditsSince(s.ver, nil)
	require.False(t, remembered, "the grid forgot some edits")
	require.Positive(t, s.Refresh(), "many edits")
	requireSameGraph(t, s, fresh(), "many edits")
}

// liveHeap returns the bytes of live heap objects after two collections (the
// second frees what sync.Pool's victim cache held at the first).
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
