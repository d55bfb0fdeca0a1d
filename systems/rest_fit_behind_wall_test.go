package systems_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// fitWallGrid is a 40² grid with a one-cell wall at x = 20 for y < top.
func fitWallGrid(top int32) *grid.Grid {
	g := grid.New(40, 40)
	for y := range top {
		g.SetCost(grid.Cell{X: 20, Y: y}, grid.Blocked)
	}
	return g
}

// A Mover of radius 0.8 sent from (10.5, 10.5) to (21.2, 10.5), just east of
// a one-cell wall (x = 20, y < 30, open above), rests where its disc fits
// beside the goal, (21.8, 10.5), on the wall's far side. It used to steer
// straight at that point and press against the wall's near face (x 19.2)
// for good: no path was asked to it. Now it walks round the wall's end and
// stands there from 14 s on. A frame of it on its way, and at rest,
// allocates nothing.
func TestAWideMoverRestsAtAFitPointBehindAWall(t *testing.T) {
	const r = 0.8
	from, goal := r2.Vec{X: 10.5, Y: 10.5}, r2.Vec{X: 21.2, Y: 10.5}
	still, ps, deepest := narrowRest(t, fitWallGrid(30), 1, r, from, goal, 40)
	require.LessOrEqual(t, still, 20, "still moving, at %v", ps[0])
	require.Less(t, deepest, 1e-6)
	require.Less(t, math.Hypot(ps[0].X-21.8, ps[0].Y-10.5), 1e-3, "%v", ps[0])

	w, s := settleWorld(t, fitWallGrid(30), 1, r, goal, func(int) r2.Vec { return from }, 1)
	s.Run(w, 5*60) // on its way round
	require.Zero(t, testing.AllocsPerRun(20, func() { s.Update(w) }))
	s.Run(w, 20*60) // at rest
	require.Zero(t, testing.AllocsPerRun(20, func() { s.Update(w) }))
}

// With the wall's far side sealed off (the wall to the grid's top) no route
// fits the disc to the point beside the goal: the agent stands where it is
// (it does not walk to the wall and press on it) and Diagnose counts the goal
// too narrow, naming its cell.
func TestAWideMoverWithNoRouteToItsFitPointStands(t *testing.T) {
	const r = 0.8
	from := r2.Vec{X: 10.5, Y: 10.5}
	w, s := settleWorld(t, fitWallGrid(40), 1, r, r2.Vec{X: 21.2, Y: 10.5}, func(int) r2.Vec { return from }, 1)
	s.Run(w, 10*60)
	ps, _ := settled(w)
	require.Less(t, r2.Norm(r2.Sub(ps[0], from)), 0.1, "%v", ps[0])
	rep := systems.Diagnose(w)
	require.Equal(t, 1, rep.Counts[systems.CausePathGoalNarrow], "%s", rep)
	require.Contains(t, rep.String(), "path goal cell (21, 10) of clearance 1")
}

// A goal in a one-cell alcove east of the same wall ((21.5, 10.5), walled
// above and below for three cells) has no point a disc of radius 0.8 fits
// in it; the nearest cell centre wide enough is (18.5, 10.5), across the
// wall. Movers sent from the east side walk round the wall's end to it: a
// lone one rests on it from 16 s (as written), 6 settle from 17 s in a
// queue down the wall's west face, the farthest 6.9 cells off; no disc ever
// reaches into a wall.
func TestWideMoversSentIntoAnAlcoveWalkRoundToTheCentreAcrossTheWall(t *testing.T) {
	const r = 0.8
	g := fitWallGrid(30)
	for _, c := range []grid.Cell{{X: 21, Y: 9}, {X: 22, Y: 9}, {X: 23, Y: 9}, {X: 21, Y: 11}, {X: 22, Y: 11}, {X: 23, Y: 11}} {
		g.SetCost(c, grid.Blocked)
	}
	rest := r2.Vec{X: 18.5, Y: 10.5}
	for _, c := range []struct {
		n, by int
		far   float64
	}{{1, 25, 1e-6}, {6, 25, 8}} {
		still, ps, deepest := narrowRest(t, g, c.n, r, r2.Vec{X: 26.5, Y: 2.5}, r2.Vec{X: 21.5, Y: 10.5}, 40)
		require.LessOrEqual(t, still, c.by, "%d: still moving", c.n)
		require.Less(t, deepest, 1e-6)
		for _, p := range ps {
			require.Less(t, p.X, 20-r+1e-6, "%d: %v not across the wall", c.n, p)
			require.Less(t, math.Hypot(p.X-rest.X, p.Y-rest.Y), c.far, "%d: %v", c.n, p)
		}
	}
}
