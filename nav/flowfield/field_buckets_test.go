package flowfield

import (
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/require"
)

// The bucket build gives Dijkstra's costs on grids of a few terrain costs
// (buckets as wide as the cheapest move, 0.5 here, spanning the dearest,
// 4√2), built at once and spread over frames, and the same values as the
// FIFO queues' build.
func TestBucketBuildExactWithFewCosts(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	g := grid.New(200, 150)
	costs := []float32{1, 0.5, 2.5, 4}
	for y := int32(0); y < 150; y++ {
		for x := int32(0); x < 200; x++ {
			switch r := rng.IntN(100); {
			case r < 18:
				g.SetCost(grid.Cell{X: x, Y: y}, grid.Blocked)
			case r < 50:
				g.SetCost(grid.Cell{X: x, Y: y}, costs[r%4])
			}
		}
	}
	goals := []grid.Cell{{X: 20, Y: 30}, {X: 170, Y: 120}}
	for _, c := range goals {
		g.SetCost(c, 1)
	}
	f := New(g)
	f.Build(goals...)
	require.True(t, f.useBk, "few costs: the bucket build")
	require.Len(t, f.bk, 16, "a ring spanning 4√2/0.5+3 buckets")
	requireExact(t, f, g, goals...)
	checkLeadsToGoal(t, f, g)

	fifo := New(g)
	fifo.forceFIFO = true
	fifo.Build(goals...)
	spread := New(g)
	spread.Start(goals...)
	frames := 0
	for !spread.Step(997) {
		frames++
	}
	require.Greater(t, frames, 10)
	require.Equal(t, f.Settled(), spread.Settled())
	for y := int32(0); y < 150; y++ {
		for x := int32(0); x < 200; x++ {
			c := grid.Cell{X: x, Y: y}
			require.Equal(t, f.Integration(c), spread.Integration(c), "%v spread over frames", c)
			require.InDelta(t, fifo.Integration(c), f.Integration(c), 1e-4, "%v", c)
		}
	}
}
