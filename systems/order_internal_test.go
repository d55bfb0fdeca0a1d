package systems

import (
	"testing"

	"github.com/archai-go/archai/nav/spatial"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestSpatialOrderSparse: on a hash with far more buckets than agents (a
// big map), spatialOrder sorts by blocks of buckets: still a permutation,
// buckets never out of block order, ties in index order, and its count
// array holds about 4 entries per agent, not one per bucket.
func TestSpatialOrderSparse(t *testing.T) {
	h := spatial.NewHash(2, 4096, 4096) // 2048² buckets
	pts := []r2.Vec{{X: 4000, Y: 4000}, {X: 1, Y: 1}, {X: 2000, Y: 10}, {X: 3, Y: 1}, {X: 1.5, Y: 1.5}, {X: 2001, Y: 11}}
	var o spatialOrder
	got := o.sort(h, len(pts), func(i int) r2.Vec { return pts[i] })
	require.Len(t, got, len(pts))
	assert.LessOrEqual(t, len(o.starts), 4*len(pts)+1)
	// 6 agents: blocks of 2^18 buckets (128 bucket rows), so all but the far
	// corner share the first block, in index order
	assert.Equal(t, []int32{1, 2, 3, 4, 5, 0}, got)
	assert.Zero(t, testing.AllocsPerRun(3, func() { o.sort(h, len(pts), func(i int) r2.Vec { return pts[i] }) }))
}
