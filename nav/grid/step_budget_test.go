package grid_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/require"
)

// Search.Step with a budget ≤ 0 expands one node (a budget of 1): a loop
// calling Step(0) or Step(-1) until done ends, with the path and the
// expansions of a search in one go. It used to expand nothing and never
// report done, so such a loop spun for ever.
func TestSearchStepBudgetBelowOneExpandsOne(t *testing.T) {
	g := grid.New(16, 16)
	for y := int32(2); y < 14; y++ {
		g.SetCost(grid.Cell{X: 8, Y: y}, grid.Blocked)
	}
	start, goal := grid.Cell{X: 1, Y: 8}, grid.Cell{X: 14, Y: 8}
	for _, opt := range []grid.Options{{}, {JumpPoints: true}, {Moves: grid.Moves4}} {
		ref := grid.NewSearchOptions(g, opt)
		want, wantCost, err := ref.Path(start, goal, nil)
		require.NoError(t, err)
		for _, budget := range []int{0, -1, math.MinInt} {
			s := grid.NewSearchOptions(g, opt)
			require.NoError(t, s.Start(start, goal))
			calls, total := 0, 0
			for done := false; !done; calls++ {
				var n int
				n, done = s.Step(budget)
				require.LessOrEqual(t, n, 1, "%+v budget %d", opt, budget)
				require.True(t, n == 1 || done, "%+v budget %d: call %d expanded nothing and the search is pending", opt, budget, calls)
				total += n
				require.Less(t, calls, 10000, "%+v budget %d: Step never reported done", opt, budget)
			}
			path, cost, err := s.Result(nil)
			require.NoError(t, err)
			require.Equal(t, want, path)
			require.Equal(t, wantCost, cost)
			require.Equal(t, ref.Expanded(), total, "%+v budget %d", opt, budget)
			n, done := s.Step(0) // no search pending
			require.Equal(t, 0, n)
			require.True(t, done)
		}
	}
}
