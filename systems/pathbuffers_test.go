package systems

import (
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSpareClasses(t *testing.T) {
	for _, c := range []struct{ cells, keep, need int }{
		{0, -1, 0}, {15, -1, 0}, {16, 0, 0}, {17, 0, 1}, {31, 0, 1}, {32, 1, 1}, {33, 1, 2},
		{64, 2, 2}, {65, 2, 3}, {127, 2, 3}, {128, 3, 3}, {129, 3, 4},
	} {
		assert.Equal(t, c.keep, spareClass(c.cells), "a buffer of %d cells is kept in", c.cells)
		assert.Equal(t, c.need, needClass(c.cells), "a path of %d cells needs", c.cells)
		if k := needClass(c.cells); c.cells > 0 {
			assert.GreaterOrEqual(t, spareMin<<k, c.cells, "every buffer of the class holds the path")
			assert.Less(t, spareMin<<k, 2*max(c.cells, spareMin), "and the class is the smallest that does")
		}
	}
}

// A path longer than the agent's buffer exchanges it for a spare of the
// path's class; a short path later gives the large buffer back for a small
// one; once the stock has what the exchanges need, they allocate nothing.
func TestWaypointSparesExchange(t *testing.T) {
	var s waypointSpares
	own := make([]grid.Cell, 0, 64) // the bundles' buffer (DefaultPathCapacity)
	wp, ok := s.fit(own, 80, 100)
	require.True(t, ok, "80 cells do not fit in 64")
	assert.Equal(t, 128, cap(wp), "a class-3 spare: 128 cells")
	assert.Equal(t, spareFirstBatch, s.made[3], "a first batch of spareFirstBatch for a small crowd")
	assert.Equal(t, spareFirstBatch-1, len(s.spare[3]))
	require.Len(t, s.spare[2], 1, "the agent's own buffer is kept")
	assert.Equal(t, 64, cap(s.spare[2][0]))

	same, ok := s.fit(wp, 100, 100)
	assert.False(t, ok, "100 cells fit in 128, and class 3 is the smallest that holds them")
	assert.Equal(t, cap(wp), cap(same))

	small, ok := s.fit(wp, 20, 100)
	require.True(t, ok, "20 cells fit a 64-cell spare: the large buffer goes back")
	assert.Equal(t, 64, cap(small))
	assert.Len(t, s.spare[3], spareFirstBatch)
	assert.Empty(t, s.spare[2])

	kept, ok := s.fit(small, 20, 100)
	assert.False(t, ok, "no smaller spare: the agent keeps its buffer")
	assert.Equal(t, 64, cap(kept))

	// agents taking turns with long and short paths: no allocation once warm
	bufs := make([][]grid.Cell, 50)
	for i := range bufs {
		bufs[i] = make([]grid.Cell, 0, 64)
	}
	round := 0
	path := make([]grid.Cell, 90) // a path's cells (not made in the turn: -race builds allocate it)
	turn := func() {
		round++
		for i := range bufs {
			n := 20
			if (i+round)%3 == 0 { // a third of them, a different third each turn
				n = 90
			}
			if b, ok := s.fit(bufs[i], n, 50); ok {
				bufs[i] = b
			}
			bufs[i] = append(bufs[i][:0], path[:n]...)
		}
	}
	turn()
	turn()
	assert.Zero(t, testing.AllocsPerRun(20, turn))
	assert.Equal(t, 4*spareFirstBatch, s.made[3], "17 long paths at once: the stock of 8 doubled twice, to 32")
}

// A large crowd's first batch has one buffer per spareAgentsPer agents, as
// far as spareBatchBytes allows; a batch is at least one buffer.
func TestWaypointSparesBatch(t *testing.T) {
	var s waypointSpares
	s.fit(nil, 100, 100000)
	assert.Equal(t, 100000/spareAgentsPer, s.made[3])
	s.fit(nil, 1<<17, 100000) // 1 MB a buffer
	assert.Equal(t, 1, s.made[needClass(1<<17)])
	s.fit(nil, 1<<17, 100000)
	assert.Equal(t, 2, s.made[needClass(1<<17)], "doubled")
}
