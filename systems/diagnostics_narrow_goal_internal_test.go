package systems

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// narrowGoal (which spares an agent resting short of a goal too narrow for
// its disc from blocked_by_agents) read the Path's Goal beside the Intent's:
// a wide agent that holds no route (its goal in sight) has the zero cell
// there, (0, 0), an open cell on the grid's edge whose clearance, 1, is below
// the 2 a disc of radius 0.6 or more needs, so every such agent was taken for
// one sent to a goal too narrow, and a Path still naming a former goal's
// narrow cell did the same. It reads the Intent's goal only: the cases below
// against the grid's clearance.
func TestNarrowGoalReadsTheIntentGoal(t *testing.T) {
	g := grid.New(40, 20)
	for x := int32(5); x < 35; x++ {
		g.SetCost(grid.Cell{X: x, Y: 7}, grid.Blocked) // a corridor of rows 8 and 9: clearance 1
		g.SetCost(grid.Cell{X: x, Y: 10}, grid.Blocked)
	}
	wide, small := &components.Kinematics{Radius: 0.9}, &components.Kinematics{Radius: 0.3}
	open, narrow := r2.Vec{X: 20.5, Y: 15.5}, r2.Vec{X: 20.5, Y: 8.5}
	require.Less(t, g.Clearance(grid.Cell{}), grid.ClearanceFor(0.9), "the zero cell is narrow for the disc")
	require.Less(t, g.Clearance(g.CellAt(narrow)), grid.ClearanceFor(0.9))
	require.GreaterOrEqual(t, g.Clearance(g.CellAt(open)), grid.ClearanceFor(0.9))
	move := func(p r2.Vec) *components.Intent {
		return &components.Intent{Move: true, Mode: components.IntentGo, Goal: p}
	}
	for _, tc := range []struct {
		name string
		in   *components.Intent
		kin  *components.Kinematics
		path *components.Path // what the agent holds: narrowGoal no longer takes it
		want bool
	}{
		{"open goal, no route held (the zero Path)", move(open), wide, &components.Path{}, false},
		{"open goal, a route kept for a former narrow goal", move(open), wide,
			&components.Path{Goal: g.CellAt(narrow), State: components.PathReady}, false},
		{"narrow goal, no route held", move(narrow), wide, &components.Path{}, true},
		{"narrow goal, a route to the cell beside it", move(narrow), wide,
			&components.Path{Goal: grid.Cell{X: 20, Y: 14}, State: components.PathReady}, true},
		{"narrow goal, a small agent", move(narrow), small, &components.Path{}, false},
		{"no move", &components.Intent{Goal: narrow}, wide, &components.Path{}, false},
	} {
		require.Equal(t, tc.want, narrowGoal(g, tc.in, tc.kin), tc.name)
		require.Equal(t, tc.want, narrowIntentGoal(g, tc.in, tc.kin), tc.name)
	}
	require.False(t, narrowGoal(nil, move(narrow), wide), "no grid")
	require.False(t, narrowGoal(g, move(narrow), nil), "no Kinematics")
}
