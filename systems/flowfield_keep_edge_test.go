package systems_test

import (
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/assert"
)

// A swarm of 200 heading for a goal on the grid's top edge, (32, 0), comes
// to rest around it and stays at rest. Before, the whole disk (open ground
// all around the goal) held more agents than the half disk of ground at the
// edge as soon as they were packed a little denser than one per Spacing², so
// the crowd was cut to about 30 agents on one frame and not on the next: from
// 40 to 60 s, 193 changes of Arrived and 48,796 agent-frames moving, 133 of
// 200 at rest at the end (24,013 changes over the 60 s; now 16, 2,583 and
// 200, 266 over the 60 s).
func TestFlowFollowersAtRestStayAtRestAtTheGridsEdge(t *testing.T) {
	flips, moving, arrived := settleCount(t, grid.New(64, 64), grid.Cell{X: 32, Y: 0}, 200, 60)
	t.Logf("40-60 s: %d changes of Arrived, %d agent-frames moving; %d of 200 at rest at the end", flips, moving, arrived)
	assert.LessOrEqual(t, flips, 40, "changes of Arrived from 40 to 60 s")
	assert.LessOrEqual(t, moving, 6000, "agent-frames moving from 40 to 60 s")
	assert.Equal(t, 200, arrived, "at rest at the end")
}

// 60 agents gathered at a goal beside a wall (a 48-cell wall at x = 33, the
// goal at (32, 32) on its side, and at (32, 20)) come to rest and stay at
// rest, for the same reason as at the grid's edge. Before, from 27 to 40 s:
// 2,445 changes of Arrived and 2,555 agent-frames moving at (32, 32), 616
// and 1,967 at (32, 20) (now 2 and 434, 3 and 1,176).
func TestFlowFollowersAtRestStayAtRestBesideAWall(t *testing.T) {
	for _, goal := range []grid.Cell{{X: 32, Y: 32}, {X: 32, Y: 20}} {
		g := grid.New(64, 64)
		for y := 8; y < 56; y++ {
			g.SetCost(grid.Cell{X: 33, Y: int32(y)}, grid.Blocked)
		}
		flips, moving, arrived := settleCount(t, g, goal, 60, 40)
		t.Logf("goal %v, 27-40 s: %d changes of Arrived, %d agent-frames moving; %d of 60 at rest at the end", goal, flips, moving, arrived)
		assert.LessOrEqual(t, flips, 20, "changes of Arrived from 27 to 40 s, goal %v", goal)
		assert.LessOrEqual(t, moving, 1500, "agent-frames moving from 27 to 40 s, goal %v", goal)
		assert.Equal(t, 60, arrived, "at rest at the end, goal %v", goal)
	}
}
