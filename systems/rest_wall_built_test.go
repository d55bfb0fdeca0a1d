package systems_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
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
// PathUnreachable and the agent moves to where its disc fits (fitPoint:
// 1.2 off the wall's west side, (7.8, 8.5)) and rests there.
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
	require.Equal(t, components.PathUnreachable, state)
	require.Less(t, discDepth(g, pos, r), 1e-6, "disc in the wall at %v", pos)
	require.InDelta(t, 7.8, pos.X, 1e-3)
	require.InDelta(t, 8.5, pos.Y, 1e-3)
	require.Less(t, math.Hypot(vel.X, vel.Y), 0.005)
}
