package systems

import (
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/require"
)

// TestFlowOpenGroundFollowsSpacing: the open ground kept for a goal is
// counted by distance step, Spacing/arrivalSteps, so a change of Spacing at
// run time counts it again. Before, a table counted at Spacing 0.75 was
// served at 1.5 (steps of half the length: 5 cells within step 11 where 13
// are), and the cap by the open ground cut a crowd that fits (and, since the
// arrival keep, turned the keep off: flowGoal.cut).
func TestFlowOpenGroundFollowsSpacing(t *testing.T) {
	g := grid.New(64, 64)
	goal := grid.Cell{X: 32, Y: 32}
	c := newCrowd(t, g, 100, goal, 3, 1)
	c.s.Run(c.w, 600)
	for _, sp := range []float64{1.5, 0.5, 0.75} {
		c.flow.Spacing = sp
		c.s.Run(c.w, 1)
		var got []int32
		for i := range c.flow.ground {
			if c.flow.ground[i].goal == goal {
				got = append([]int32(nil), c.flow.ground[i].cum...)
			}
		}
		require.NotEmpty(t, got)
		ground, idx := c.flow.ground, c.flow.groundIdx
		c.flow.ground, c.flow.groundIdx = nil, cellIndex{} // counted afresh
		want := c.flow.openGround(goal, c.flow.goals[0].field, len(got)-1, len(got))
		c.flow.ground, c.flow.groundIdx = ground, idx
		require.Equal(t, want[:len(got)], got, "Spacing %v: the open ground by step", sp)
		require.Equal(t, int32(9), got[int(2/(sp/arrivalSteps))], "Spacing %v: cells whose centres are less than 2 cells from the goal's", sp)
	}
}
