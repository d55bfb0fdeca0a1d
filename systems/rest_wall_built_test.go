package systems_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestWideMoverAtRestWhenAWallIsBuiltBesideIt: a Mover of radius 1.2
// standing at its goal (8.5, 8.5) on an open 16×16 map when the cell (9, 8)
// closes beside it (its disc now 0.7 into the wall, the goal's cell too
// narrow for it). The path queue answered its request from that cell to
// that cell with a ready path of one cell (the start's exemption from the
// clearance rule covered the goal too), so PathFollow had it arrive at the
// goal where it stood, and it stood with its disc 0.7 in the wall for good
// while Diagnose counted path_goal_too_narrow. Now the answer is
// PathUnreachable (for a path asked to the goal's cell; PathFollow asks for
// the wide cell beside its fit point, goToFit) and the agent moves to where
// its disc fits (fitPoint: 1.2 off the wall's west side, (7.8, 8.5)) and
// rests there.
func TestWideMoverAtRestWhenAWallIsBuiltBesideIt(t *testing.T) {
	const r = 1.2
	goal := r2.Vec{X: 8.5, Y: 8.5}
	g := grid.New(16, 16)
	w, s := settleWorld(t, g, 1, r, goal, func(int) r2.Vec { return goal }, 1)
	s.Run(w, 60)
	g.SetCost(grid.Cell{X: 9, Y: 8}, grid.Blocked)
	s.Run(w, 20*60)
	f := generic.NewFilter3[components.Position, components.Velocity, components.Path]()
	q := f.Query(w)
	require.True(t, q.Next())
	p, v, path := q.Get()
	pos, vel, state := p.Vec, v.Vec, path.State
	q.Close()
	require.NotEqual(t, components.PathPending, state, "at rest, not asking again")
	require.Less(t, discDepth(g, pos, r), 1e-6, "disc in the wall at %v", pos)
	require.InDelta(t, 7.8, pos.X, 1e-3)
	require.InDelta(t, 8.5, pos.Y, 1e-3)
	require.Less(t, math.Hypot(vel.X, vel.Y), 0.005)
}

// TestMoverAtRestWalksOutOfAWallBuiltOnItAndItsGoal: a Mover (radius 0.3)
// standing at its goal (8.5, 8.5) when the 3×3 cells about it close (a
// building placed on it) stood in the wall for good: its goal, in the same
// wall, was where it stood, and goTo's walk out heads for the goal. An agent
// in a blocked cell walks out whatever its intent (PathFollow's rule), so it
// now leaves for the nearest open cell and rests there, beside the wall on
// the straight line to its goal (stopShort), its disc clear of it; Diagnose
// still counts the goal in the wall (goal_unusable) and no longer the agent.
func TestMoverAtRestWalksOutOfAWallBuiltOnItAndItsGoal(t *testing.T) {
	const r = 0.3
	goal := r2.Vec{X: 8.5, Y: 8.5}
	g := grid.New(16, 16)
	w, s := settleWorld(t, g, 1, r, goal, func(int) r2.Vec { return goal }, 1)
	s.Run(w, 60)
	for y := int32(7); y <= 9; y++ {
		for x := int32(7); x <= 9; x++ {
			g.SetCost(grid.Cell{X: x, Y: y}, grid.Blocked)
		}
	}
	s.Run(w, 20*60)
	f := generic.NewFilter2[components.Position, components.Velocity]()
	q := f.Query(w)
	require.True(t, q.Next())
	p, v := q.Get()
	pos, vel := p.Vec, v.Vec
	q.Close()
	require.True(t, g.Passable(g.CellAt(pos)), "still in the wall at %v", pos)
	require.Less(t, discDepth(g, pos, r), 1e-6, "disc in the wall at %v", pos)
	require.Less(t, math.Hypot(vel.X, vel.Y), 0.005)
	rep := systems.Diagnose(w)
	require.Zero(t, rep.Counts[systems.CauseBlocked])
	require.Equal(t, 1, rep.Counts[systems.CauseGoalUnusable])
}

// TestWideMoversSpawnedIntoAWallDoNotSettleThere: two Movers of radius 0.7
// spawned on one point, (5, 5), the corner of the blocked cell (4, 4), sent
// to (5.5, 5.5) (its cell too narrow for them: fitPoint's point, the goal
// itself here) settled at once where they stood (jammed against each other
// within a diameter of the goal: settle.go), DesiredHold, and stood for
// good with a disc 0.68 into the wall: a settled agent only brakes, so
// Movement never pushed it out. A disc in a wall is no place to rest: such
// an agent does not settle until Movement has moved it clear, and the two
// rest with no disc in the wall.
func TestWideMoversSpawnedIntoAWallDoNotSettleThere(t *testing.T) {
	const r = 0.7
	g := grid.New(12, 12)
	g.SetCost(grid.Cell{X: 4, Y: 4}, grid.Blocked)
	w, s := settleWorld(t, g, 2, r, r2.Vec{X: 5.5, Y: 5.5}, func(int) r2.Vec { return r2.Vec{X: 5, Y: 5} }, 1)
	s.Run(w, 20*60)
	f := generic.NewFilter2[components.Position, components.Velocity]()
	q := f.Query(w)
	for q.Next() {
		p, v := q.Get()
		require.Less(t, discDepth(g, p.Vec, r), 1e-6, "disc in the wall at %v", p.Vec)
		require.Less(t, math.Hypot(v.X, v.Y), 0.005)
	}
}
