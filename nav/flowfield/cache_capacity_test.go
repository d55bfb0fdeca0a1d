package flowfield

import (
	"math"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archai-go/archai/nav/grid"
)

// A capacity far beyond any need (a byte count given for a field count, 1<<50) sized the
// cache's tables at once: "makeslice: cap out of range" or terabytes asked for. The
// tables now grow with the goals held.
func TestNewCacheWithAHugeCapacityAllocatesAsGoalsArrive(t *testing.T) {
	g := grid.New(8, 8)
	for _, capacity := range []int{math.MaxInt / 3, math.MaxInt} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		c := NewCache(g, capacity)
		runtime.ReadMemStats(&after)
		assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20), "capacity %d", capacity)
		assert.Equal(t, capacity, c.Capacity())
		for i := range 100 {
			f := c.Get(grid.Cell{X: int32(i % 8), Y: int32(i / 8 % 8)})
			require.NotNil(t, f)
		}
		assert.Equal(t, 64, c.Len(), "every goal of the 8×8 grid held")
	}
}
