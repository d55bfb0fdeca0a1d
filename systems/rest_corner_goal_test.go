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

// cornerGoalRun runs n default Movers (radius 0.3) spawned from from (rows
// of ten, 0.8 cells apart) sent to goal on a 32×32 map whose only blocked
// cell is (10, 10), for secs seconds; it returns the fastest speed of each
// second, the final positions and the deepest any disc reached into a wall
// in the last half of the run.
func cornerGoalRun(t *testing.T, n int, from, goal r2.Vec, secs int) ([]float64, []r2.Vec, float64) {
	t.Helper()
	g := grid.New(32, 32)
	g.SetCost(grid.Cell{X: 10, Y: 10}, grid.Blocked)
	w, s := settleWorld(t, g, n, 0.3, goal, func(i int) r2.Vec {
		return r2.Vec{X: from.X + float64(i%10)*0.8, Y: from.Y + float64(i/10)*0.8}
	}, 1)
	f := generic.NewFilter2[components.Position, components.Velocity]()
	speeds := make([]float64, secs)
	var ps []r2.Vec
	deepest := 0.0
	for sec := range secs {
		for range 60 {
			s.Run(w, 1)
			q := f.Query(w)
			ps = ps[:0]
			for q.Next() {
				p, v := q.Get()
				ps = append(ps, p.Vec)
				speeds[sec] = max(speeds[sec], math.Hypot(v.X, v.Y))
				if sec >= secs/2 {
					deepest = max(deepest, discDepth(g, p.Vec, 0.3))
				}
			}
		}
	}
	return speeds, ps, deepest
}

// TestMoversSentToABlockedCellsCornerRest: a goal exactly on the corner of
// a blocked cell ((10, 10), the cell (10, 10) blocked: a goal in a wall)
// is arrived at short (stopShort), and the line from an agent to it meets
// the wall at that corner, crossing both of its sides at once, or passes
// through the open cells beside it and enters no blocked cell at all.
// stopShort stepped back the radius square to whichever side the cell walk
// happened to cross first: 0.3/|dy| of the line (the disc then about
// touches the corner) or 0.3/|dx| (a cell and more back), by the rounding of
// the two crossings, or, entering no blocked cell, 0.3 back along the line
// (the disc 0.19 into the cell): the point jumped from frame to frame. A
// lone agent from (8.5, 4) stopped at (9.74, 8.95), 0.8 cells short, and 4
// Movers still walked at 0.06–0.08 cells/s after 3 minutes. Now the point
// is where the disc first touches that cell on the line (its corner here):
// the lone agent rests 0.3 from the corner on its line, (9.9272, 9.7090),
// and 4 come to rest (below 0.005 cells/s from 40 s), no
// disc in the wall.
func TestMoversSentToABlockedCellsCornerRest(t *testing.T) {
	goal := r2.Vec{X: 10, Y: 10}
	t.Run("lone", func(t *testing.T) {
		speeds, ps, deepest := cornerGoalRun(t, 1, r2.Vec{X: 8.5, Y: 4}, goal, 20)
		require.Less(t, speeds[19], 1e-3)
		u := r2.Unit(r2.Vec{X: 1.5, Y: 6})
		want := r2.Sub(goal, r2.Scale(0.3, u))
		require.InDelta(t, want.X, ps[0].X, 1e-3, "%v", ps[0])
		require.InDelta(t, want.Y, ps[0].Y, 1e-3, "%v", ps[0])
		require.Less(t, deepest, 1e-6)
	})
	t.Run("4", func(t *testing.T) {
		speeds, _, deepest := cornerGoalRun(t, 4, r2.Vec{X: 2, Y: 2}, goal, 60)
		for sec := 40; sec < 60; sec++ {
			require.Less(t, speeds[sec], 5e-3, "still moving in second %d", sec)
		}
		require.Less(t, deepest, 1e-6)
	})
	t.Run("10", func(t *testing.T) {
		// skipped until the session of 2026-12-05 02:17 (10: 0.05–0.17 cells/s
		// after 4 minutes, 20: 0.3–0.5); at rest by 30 s since (20 by about 70 s)
		speeds, _, deepest := cornerGoalRun(t, 10, r2.Vec{X: 2, Y: 2}, goal, 90)
		for sec := 60; sec < 90; sec++ {
			require.Less(t, speeds[sec], 5e-3, "still moving in second %d", sec)
		}
		require.Less(t, deepest, 1e-6)
	})
	t.Run("pillar", func(t *testing.T) {
		// skipped until the session of 2026-12-05 06:56: the last to come
		// round the pillar walked their paths (the goal out of sight) and
		// pressed into the crowd, or were pushed round the pillar's far
		// side and walked back, at 1.2–2.3 cells/s after 2 minutes; now they
		// hold on touching the crowd (pathfollow_crowd.go): (11, 11) at rest
		// from about 50 s, (9.9, 9.9) below 0.002 cells/s from about 70 s
		for _, g := range []r2.Vec{{X: 11, Y: 11}, {X: 9.9, Y: 9.9}} {
			speeds, ps, deepest := cornerGoalRun(t, 30, r2.Vec{X: 2, Y: 2}, g, 120)
			for sec := 90; sec < 120; sec++ {
				require.Less(t, speeds[sec], 5e-3, "goal %v: still moving in second %d", g, sec)
			}
			require.Less(t, deepest, 1e-6)
			for i, p := range ps { // the crowd stands about its goal
				require.Less(t, math.Hypot(p.X-g.X, p.Y-g.Y), 4.0, "goal %v: agent %d at %v", g, i, p)
			}
		}
	})
}

// TestMoverSpawnedOnAWallsCornerBacksOffIt: a Mover (radius 0.3) spawned
// on (5, 5), the corner of the blocked cell (4, 4), its disc 0.3 into it,
// sent into that cell, (4.5, 4.5), stood where it was for good: the line to
// the goal meets the cell at once, so stopShort gave its own position, and
// an agent whose disc overlaps a wall moves only by the centre's rule (it
// rested at (4.996, 5), its disc 0.3 in the cell). Its stop point is now on
// the line back from the goal where the disc clears the cell, so it backs
// off the corner and rests with its disc touching it (0.3 from it, on the
// open side), clear.
func TestMoverSpawnedOnAWallsCornerBacksOffIt(t *testing.T) {
	g := grid.New(12, 12)
	g.SetCost(grid.Cell{X: 4, Y: 4}, grid.Blocked)
	w, s := settleWorld(t, g, 1, 0.3, r2.Vec{X: 4.5, Y: 4.5}, func(int) r2.Vec { return r2.Vec{X: 5, Y: 5} }, 1)
	s.Run(w, 10*60)
	f := generic.NewFilter2[components.Position, components.Velocity]()
	q := f.Query(w)
	require.True(t, q.Next())
	p, v := q.Get()
	pos, speed := p.Vec, math.Hypot(v.X, v.Y)
	q.Close()
	require.InDelta(t, 0.3, math.Hypot(pos.X-5, pos.Y-5), 1e-3, "%v", pos)
	require.Greater(t, min(pos.X, pos.Y), 5.0, "%v", pos)
	require.Less(t, discDepth(g, pos, 0.3), 1e-6)
	require.Less(t, speed, 1e-3)
}
