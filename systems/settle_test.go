package systems_test

import (
	"math"
	"os"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// settleWorld is a world of n Movers of radius r on grid g, spawned by at(i)
// and sent to goal, run by the movement pipeline with workers workers.
func settleWorld(t *testing.T, g *grid.Grid, n int, r float64, goal r2.Vec, at func(i int) r2.Vec, workers int) (*arche.World, *ecs.Scheduler) {
	t.Helper()
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, g)
	sp, err := systems.NewSpawner(w, systems.Mover{Motion: systems.Motion{Radius: r}})
	require.NoError(t, err)
	for i := range n {
		sp.Spawn(at(i), func(a *systems.Spawned) { a.MoveTo(goal) })
	}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{Workers: workers}, &systems.PathQueue{},
		&systems.PathFollow{Workers: workers}, &systems.Steer{Workers: workers}, &systems.Movement{Workers: workers})
	s.Initialize(w)
	t.Cleanup(func() { s.Finalize(w) })
	return w, s
}

// settled returns the agents' positions and whether every one stands
// settled (Desired DesiredHold, velocity zero).
func settled(w *arche.World) ([]r2.Vec, bool) {
	f := generic.NewFilter3[components.Position, components.Velocity, components.Desired]()
	q := f.Query(w)
	var ps []r2.Vec
	all := true
	for q.Next() {
		p, v, d := q.Get()
		ps = append(ps, p.Vec)
		all = all && d.Mode == components.DesiredHold && v.X == 0 && v.Y == 0
	}
	return ps, all
}

// TestWideMoversSharingAGoalSettle: N Movers of radius 1.5 sent to one point
// used to push each other around it for good (newbie22: 0 of 12 big units
// ever standing). Now every group (2, 3, 8 and 20 agents, from a ring 20
// cells around the goal, and 8 in the corner of a room whose goal is 3 cells
// from two walls) settles within 15 s of simulation time: each agent's
// Desired is DesiredHold and its velocity zero, and the positions stay
// exactly the same over the next 10 s; no disc ever overlaps a wall, and the
// crowd stands around the goal: the nearest within a diameter of it, nobody
// farther than the end of a queue of the group two abreast.
func TestWideMoversSharingAGoalSettle(t *testing.T) {
	const r = 1.5
	room := grid.New(40, 40)
	for i := int32(0); i < 40; i++ {
		room.SetCost(grid.Cell{X: 20, Y: i}, grid.Blocked) // a wall at x = 20 and one at y = 20
		room.SetCost(grid.Cell{X: i, Y: 20}, grid.Blocked)
	}
	cases := []struct {
		name string
		g    *grid.Grid
		n    int
		goal r2.Vec
		at   func(i int) r2.Vec
	}{
		{"2 ring", grid.New(60, 60), 2, r2.Vec{X: 30, Y: 30}, nil},
		{"3 ring", grid.New(60, 60), 3, r2.Vec{X: 30, Y: 30}, nil},
		{"8 ring", grid.New(60, 60), 8, r2.Vec{X: 30, Y: 30}, nil},
		{"20 ring", grid.New(60, 60), 20, r2.Vec{X: 30, Y: 30}, nil},
		{"8 corner", room, 8, r2.Vec{X: 17, Y: 17}, func(i int) r2.Vec {
			return r2.Vec{X: 3 + 4*float64(i%4), Y: 3 + 4*float64(i/4)}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			at := tc.at
			if at == nil {
				at = func(i int) r2.Vec {
					a := 2 * math.Pi * float64(i) / float64(tc.n)
					return r2.Vec{X: tc.goal.X + 20*math.Cos(a), Y: tc.goal.Y + 20*math.Sin(a)}
				}
			}
			w, s := settleWorld(t, tc.g, tc.n, r, tc.goal, at, 0)
			settledAt, after := settleThenHold(t, w, s, tc.g, 15)
			nearest, farthest := math.Inf(1), 0.0
			for _, p := range after {
				d := math.Hypot(p.X-tc.goal.X, p.Y-tc.goal.Y)
				nearest, farthest = min(nearest, d), max(farthest, d)
			}
			require.LessOrEqual(t, nearest, 2*r)
			require.LessOrEqual(t, farthest, float64(tc.n+2)*r)
			t.Logf("settled after %.2f s, nearest %.2f, farthest %.2f cells from the goal", float64(settledAt+1)/60, nearest, farthest)
		})
	}
}

// settleThenHold runs the world until every agent stands settled (see
// settled), at most within secs seconds, then 10 s more, checking the discs
// against g every frame; it fails the test unless all are settled by then
// and still settled, at the same positions, 10 s later. It returns the frame
// (from 0) they all stood settled and their positions.
func settleThenHold(t *testing.T, w *arche.World, s *ecs.Scheduler, g *grid.Grid, secs int) (int, []r2.Vec) {
	t.Helper()
	settledAt := -1
	for frame := 0; frame < secs*60; frame++ {
		s.Update(w)
		checkDiscs(t, w, g)
		if _, ok := settled(w); ok {
			settledAt = frame
			break
		}
	}
	require.GreaterOrEqual(t, settledAt, 0, "not all settled within %d s", secs)
	before, _ := settled(w)
	for range 600 {
		s.Update(w)
		checkDiscs(t, w, g)
	}
	after, ok := settled(w)
	require.True(t, ok, "all still settled 10 s later")
	require.Equal(t, before, after, "settled positions moved")
	return settledAt, after
}

// checkDiscs fails the test if an agent's disc overlaps a blocked cell or
// the grid's edge.
func checkDiscs(t *testing.T, w *arche.World, g *grid.Grid) {
	t.Helper()
	q := generic.NewFilter2[components.Position, components.Kinematics]().Query(w)
	for q.Next() {
		p, k := q.Get()
		if d := distToWall(g, p.Vec); d < k.Radius-1e-9 {
			q.Close()
			t.Fatalf("the disc at %v (radius %v) overlaps a wall by %v", p.Vec, k.Radius, k.Radius-d)
		}
	}
}

// TestWideMoverAloneArrivesOnItsGoal: a lone wide Mover arrives as before,
// on the goal point (within 0.01 cells), its Desired still an Arrive.
func TestWideMoverAloneArrivesOnItsGoal(t *testing.T) {
	goal := r2.Vec{X: 30, Y: 30}
	w, s := settleWorld(t, grid.New(60, 60), 1, 1.5, goal, func(int) r2.Vec { return r2.Vec{X: 10, Y: 12} }, 0)
	s.Run(w, 600)
	q := generic.NewFilter2[components.Position, components.Desired]().Query(w)
	require.True(t, q.Next())
	p, d := q.Get()
	require.Less(t, math.Hypot(p.X-goal.X, p.Y-goal.Y), 0.01)
	require.Equal(t, components.DesiredArrive, d.Mode)
	q.Close()
}

// TestSettledWideMoversLeaveForANewGoal: a settled crowd moves on when its
// goal changes and settles at the new one; the result does not depend on
// the number of workers (same state hash with 1 and 2), and a frame of the
// settled crowd allocates nothing.
func TestSettledWideMoversLeaveForANewGoal(t *testing.T) {
	run := func(workers int) uint64 {
		goal := r2.Vec{X: 20, Y: 20}
		at := func(i int) r2.Vec { return r2.Vec{X: 5 + 4*float64(i%5), Y: 5 + 4*float64(i/5)} }
		w, s := settleWorld(t, grid.New(60, 60), 10, 1.2, goal, at, workers)
		s.Run(w, 900)
		_, ok := settled(w)
		require.True(t, ok, "settled at the first goal")
		q := generic.NewFilter1[components.Intent]().Query(w)
		for q.Next() {
			q.Get().Goal = r2.Vec{X: 45, Y: 40}
		}
		s.Run(w, 60)
		_, ok = settled(w)
		require.False(t, ok, "moving to the new goal")
		s.Run(w, 1200)
		ps, ok := settled(w)
		require.True(t, ok, "settled at the new goal")
		for _, p := range ps {
			require.LessOrEqual(t, math.Hypot(p.X-45, p.Y-40), 12*1.2) // a queue of them two abreast
		}
		h := systems.StateHash(w)
		if workers == 1 {
			require.Zero(t, testing.AllocsPerRun(20, func() { s.Update(w) }))
		}
		return h
	}
	require.Equal(t, run(1), run(2))
}

// Wide Movers spawned on one spot, on their goal, settle the same way whatever
// the workers and their timing. The workers list the settle candidates in the
// order they happen to claim blocks of agents, and the rule sorted them by
// goal, distance, position and radius only: two alike agents kept that order,
// the first settled and the second, deep in it, did not, and which was which
// changed from run to run (about one run in three with 2 workers). Alike agents
// now share one answer (none settles while they are on one spot; separation
// parts them first). Two such agents at the goal of a 200×200 map, 700 others
// between them in the query (so they fall in blocks far apart) on goals of their
// own: after 1 frame neither holds, and after 120 frames the two pairs of
// positions and modes are bit for bit those of the 1-worker run, in 6 runs with
// 2 workers and 2 with 3 (ARCHAI_LONG=1; by default one of each).
func TestWideMoversOnOneSpotSettleAlikeForAnyWorkers(t *testing.T) {
	t.Parallel()
	goal := r2.Vec{X: 100.5, Y: 100.5}
	type pair struct {
		pos   [2]r2.Vec
		modes [2]components.DesiredMode
	}
	run := func(workers, frames int) pair {
		world := arche.NewWorld()
		w := &world
		arche.AddResource(w, grid.New(200, 200))
		sp, err := systems.NewSpawner(w, systems.Mover{Motion: systems.Motion{Radius: 0.9}})
		require.NoError(t, err)
		a := sp.Spawn(goal, func(s *systems.Spawned) { s.MoveTo(goal) })
		for k := range 700 {
			p := r2.Vec{X: 2.5 + float64(k%190), Y: 2.5 + float64(k/190)*3}
			sp.Spawn(p, func(s *systems.Spawned) { s.MoveTo(p) })
		}
		b := sp.Spawn(goal, func(s *systems.Spawned) { s.MoveTo(goal) })
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{Workers: workers}, &systems.PathQueue{},
			&systems.PathFollow{Workers: workers}, &systems.Steer{Workers: workers}, &systems.Movement{Workers: workers})
		s.Initialize(w)
		defer s.Finalize(w)
		s.Run(w, frames)
		var out pair
		for k, e := range []arche.Entity{a, b} {
			out.pos[k] = (*components.Position)(w.Get(e, arche.ComponentID[components.Position](w))).Vec
			out.modes[k] = (*components.Desired)(w.Get(e, arche.ComponentID[components.Desired](w))).Mode
		}
		return out
	}
	first := run(1, 1)
	require.Equal(t, [2]components.DesiredMode{components.DesiredArrive, components.DesiredArrive}, first.modes,
		"on one spot neither settles: separation first")
	want := run(1, 120)
	require.NotEqual(t, want.pos[0], want.pos[1], "parted")
	for trial := range 8 {
		workers := 2 + trial/6
		if os.Getenv("ARCHAI_LONG") == "" && trial != 0 && trial != 6 { // one run of each worker count
			continue
		}
		require.Equal(t, want, run(workers, 120), "run %d, %d workers", trial, workers)
	}
}
