package reference

import (
	"math"
	"testing"

	"github.com/archai-go/archai/cmd/bench/scenario"
	"github.com/archai-go/archai/nav/flowfield"
	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

func newLoop(t *testing.T, agents, workers int) (*Loop, *scenario.SwarmLayout) {
	t.Helper()
	lay, err := scenario.NewSwarmLayout(agents, 5, nil)
	require.NoError(t, err)
	l, err := New(Config{Grid: lay.Grid, Positions: lay.Positions, Goal: lay.Goal, Workers: workers, NextGoal: lay.NextGoal})
	require.NoError(t, err)
	t.Cleanup(l.Close)
	return l, lay
}

// meanCost is the agents' mean integration value (cost to the goal, cells).
func meanCost(f *flowfield.Field, g *grid.Grid, ps []r2.Vec) float64 {
	sum := 0.0
	for _, p := range ps {
		sum += f.Integration(g.CellAt(p))
	}
	return sum / float64(len(ps))
}

// TestLoopMovesTowardGoalNeverIntoWalls: over 4 s the crowd's mean cost to
// the goal falls by most of what the agents can cover at full speed, many
// agents reach the goal's neighbourhood, and no agent is ever in a blocked
// cell.
func TestLoopMovesTowardGoalNeverIntoWalls(t *testing.T) {
	l, lay := newLoop(t, 2000, 2)
	f := flowfield.New(lay.Grid)
	f.Build(lay.Goal)
	before := meanCost(f, lay.Grid, l.Positions())
	require.False(t, math.IsInf(before, 1), "every agent can reach the goal")
	const frames = 240
	for range frames {
		l.Step()
		for i, p := range l.Positions() {
			require.True(t, lay.Grid.Passable(lay.Grid.CellAt(p)), "frame agent %d at %v is in a blocked cell", i, p)
		}
	}
	after := meanCost(f, lay.Grid, l.Positions())
	// 4 s at 4 cells/s is 16 cells (measured: 15.5); crowding and turns cost a little
	assert.Less(t, after, before-13, "mean cost to the goal %.1f → %.1f", before, after)
	near := 0
	goal := lay.Grid.Center(lay.Goal)
	for _, p := range l.Positions() {
		if r2.Norm(r2.Sub(p, goal)) < 6 {
			near++
		}
	}
	t.Logf("mean cost %.1f → %.1f, %d near the goal", before, after, near)
	assert.Greater(t, near, 20, "agents gathered near the goal")
	assert.Zero(t, l.GoalMoves())
}

// TestLoopSameForAnyWorkers: the state after 330 frames (a goal move
// included) is the same for 1, 2 and 3 workers, and it is not the start.
func TestLoopSameForAnyWorkers(t *testing.T) {
	var hashes []uint64
	var start uint64
	for _, w := range []int{1, 2, 3} {
		l, _ := newLoop(t, 1500, w)
		start = l.Hash()
		for range 330 {
			l.Step()
		}
		assert.Equal(t, 1, l.GoalMoves())
		hashes = append(hashes, l.Hash())
	}
	assert.Equal(t, hashes[0], hashes[1], "1 and 2 workers")
	assert.Equal(t, hashes[0], hashes[2], "1 and 3 workers")
	assert.NotEqual(t, start, hashes[0])
}

func TestLoopStepAllocatesNothing(t *testing.T) {
	l, _ := newLoop(t, 1000, 2)
	l.Step()
	assert.Zero(t, testing.AllocsPerRun(20, l.Step))
}

func TestNewRejectsBadInput(t *testing.T) {
	g := grid.New(4, 4)
	g.SetCost(grid.Cell{X: 1, Y: 1}, grid.Blocked)
	for _, tc := range []struct {
		cfg Config
		msg string
	}{
		{Config{Positions: []r2.Vec{{X: 0.5, Y: 0.5}}}, "reference: no grid"},
		{Config{Grid: g}, "reference: no agents"},
		{Config{Grid: g, Positions: []r2.Vec{{X: 1.5, Y: 1.5}}}, "reference: an agent starts outside the grid or in a blocked cell"},
		{Config{Grid: g, Positions: []r2.Vec{{X: -0.5, Y: 1.5}}}, "reference: an agent starts outside the grid or in a blocked cell"},
	} {
		_, err := New(tc.cfg)
		assert.EqualError(t, err, tc.msg)
	}
}
