package grid_test

import (
	"hash/fnv"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fingerprint is FNV-1a over the cells in row-major order (1 blocked, 0 open)
// and the number of blocked cells.
func fingerprint(g *grid.Grid) (uint64, int) {
	h := fnv.New64a()
	n := 0
	for y := 0; y < g.Height(); y++ {
		for x := 0; x < g.Width(); x++ {
			b := byte(0)
			if !g.Passable(grid.Cell{X: int32(x), Y: int32(y)}) {
				b, n = 1, n+1
			}
			h.Write([]byte{b})
		}
	}
	return h.Sum64(), n
}

// GenerateTown makes exactly the maps cmd/bench/scenario.GenerateMap made
// before it moved here (fingerprints taken from that code: the benchmark's
// state hashes depend on them); every open cell reaches every other; a size
// below 16 is 16; one over 8192 is ErrTooLarge, not a panic.
func TestGenerateTown(t *testing.T) {
	for _, c := range []struct {
		size    int
		print   uint64
		blocked int
	}{
		{5, 0x735130f550b0a936, 177}, // raised to 16
		{16, 0x735130f550b0a936, 177},
		{64, 0xa676180a15e60d1b, 1312},
		{256, 0xea2cb0a1847e8b86, 16305},
		{1024, 0x48c92beb73f9d58c, 239575}, // cmd/bench's big maps, kept by the scanline fill
		{4096, 0x8bfbd0b0ebfe0f23, 3742734},
	} {
		if c.size > 1024 && testing.Short() {
			continue
		}
		g, err := grid.GenerateTown(c.size, 3)
		require.NoError(t, err)
		assert.Equal(t, max(c.size, 16), g.Width())
		fp, n := fingerprint(g)
		assert.Equal(t, c.print, fp, "size %d", c.size)
		assert.Equal(t, c.blocked, n, "size %d", c.size)
		var first grid.Cell
		found := false
		for y := 0; y < g.Height() && c.size <= 256; y++ { // the big maps: their fingerprints
			for x := 0; x < g.Width(); x++ {
				cell := grid.Cell{X: int32(x), Y: int32(y)}
				if !g.Passable(cell) {
					continue
				}
				if !found {
					first, found = cell, true
				}
				require.True(t, g.Connected(first, cell), "size %d: %v cut off", c.size, cell)
			}
		}
		side := g.Width()
		assert.Greater(t, n, side*side/5, "about a quarter built (buildings overlap), and the border")
	}
	a, _ := grid.GenerateTown(64, 1)
	b, _ := grid.GenerateTown(64, 2)
	fa, _ := fingerprint(a)
	fb, _ := fingerprint(b)
	assert.NotEqual(t, fa, fb, "another seed, another town")
	_, err := grid.GenerateTown(8193, 1)
	assert.ErrorIs(t, err, grid.ErrTooLarge)
}
