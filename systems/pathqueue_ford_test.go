package systems_test

import (
	"fmt"
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

// fordWorld is newbie19's map: 1024², a river 8 rows deep whose only
// crossing is a ford 2 cells wide at x = 100, 101; 30 Movers of the given
// radius 3 cells apart south of it, each told to move to one point north of
// it, with a PathQueue and a PathFollow in the schedule.
func fordWorld(t *testing.T, radius float64) (*arche.World, *grid.Grid, *ecs.Scheduler, *systems.PathQueue, *systems.PathFollow) {
	t.Helper()
	world := arche.NewWorld()
	w := &world
	const n = 1024
	g := grid.New(n, n)
	for x := range int32(n) {
		if x == 100 || x == 101 {
			continue
		}
		for y := int32(508); y < 516; y++ {
			g.SetCost(grid.Cell{X: x, Y: y}, grid.Blocked)
		}
	}
	arche.AddResource(w, g)
	sp, err := systems.NewSpawner(w, systems.Mover{Motion: systems.Motion{Radius: radius}})
	require.NoError(t, err)
	sp.SpawnBatch(30, func(i int, a *systems.Spawned) {
		a.Position.Vec = r2.Vec{X: 480.5 + float64(3*(i%6)), Y: 560.5 + float64(3*(i/6))}
		a.MoveTo(r2.Vec{X: 512.5, Y: 470.5})
	})
	q, pf := &systems.PathQueue{}, &systems.PathFollow{}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, q, pf, &systems.Steer{}, &systems.Movement{})
	s.Initialize(w)
	return w, g, s, q, pf
}

// TestWideAgentsAcrossAFordAnsweredAtOnce is newbie19's finding 2: 30 agents
// of radius 1.2 (clearance 2) whose goal only a 2-cell ford reaches. Every
// request is answered PathUnreachable in the frame after it is made without expanding
// a node (before: ~520,000 expansions a request, 52 frames each at the
// default budget, and 29 still waiting after 100 s); then, for 50 s in which
// the agents press against the river and are marked stuck, none asks again
// on the unchanged grid (before: one search per stuck mark). When an edit
// widens the ford to 3 cells (its middle column then has clearance 2), the
// queue asks again for them and they get paths (long searches: the
// route goes round through the ford).
func TestWideAgentsAcrossAFordAnsweredAtOnce(t *testing.T) {
	t.Parallel()
	w, g, s, q, pf := fordWorld(t, 1.2)
	s.Update(w) // PathFollow asks (after the queue)
	s.Update(w)
	require.Equal(t, int64(30), q.TotalServed)
	require.Zero(t, q.TotalExpansions)
	require.Equal(t, 30, countPaths(w, components.PathUnreachable))
	searches, stuck := q.TotalSearches, 0
	for range 3000 {
		s.Update(w)
		stuck += pf.Stuck
	}
	require.Positive(t, stuck, "they press against the river")
	require.Equal(t, searches, q.TotalSearches, "nobody asked again on the unchanged grid")
	require.Zero(t, q.TotalExpansions)
	require.Equal(t, 30, countPaths(w, components.PathUnreachable))

	for y := int32(508); y < 516; y++ {
		g.SetCost(grid.Cell{X: 102, Y: y}, 1)
	}
	s.Update(w)
	require.Equal(t, 30, q.Repathed, "the queue asked again for them")
	for range 3000 {
		if s.Update(w); q.Waiting == 0 {
			break
		}
	}
	require.Equal(t, 30, countPaths(w, components.PathReady), "the ford now lets them through")
}

// TestPointAgentsAcrossAFordFindTheirPaths: the same map and orders for
// agents of radius 0.3 find their paths through the ford (the wide agents'
// O(1) answer does not touch theirs).
func TestPointAgentsAcrossAFordFindTheirPaths(t *testing.T) {
	w, _, s, q, _ := fordWorld(t, 0.3)
	for range 2000 {
		s.Update(w)
		if q.Waiting == 0 && countPaths(w, components.PathReady) == 30 {
			break
		}
	}
	require.Equal(t, 30, countPaths(w, components.PathReady))
	require.Positive(t, q.TotalExpansions)
}

func countPaths(w *arche.World, st components.PathState) int {
	n := 0
	q := generic.NewFilter1[components.Path]().Query(w)
	for q.Next() {
		if q.Get().State == st {
			n++
		}
	}
	return n
}

// TestStuckUnreachableAsksAgainOnlyWhereTheAnswerMayDiffer: a stuck agent
// whose Path was answered unreachable for its goal's cell asks again only
// when the goal is reachable from the cell it stands in (for its
// clearance): behind a wall that shuts its room, it does not; in the room of
// its goal (it was answered from elsewhere, or from inside a wall), it does.
// A wide agent in that room whose goal cell is too narrow for it asks, for
// the cell beside the goal where its disc fits ((38, 10): PathFollow's
// goToFit), not for the goal's cell again (it did not ask at all, and
// pressed straight for the point beside the goal).
func TestStuckUnreachableAsksAgainOnlyWhereTheAnswerMayDiffer(t *testing.T) {
	for _, tc := range []struct {
		name   string
		pos    r2.Vec
		radius float64
		goal   r2.Vec
		asks   bool
		asked  grid.Cell // the Path's Goal after the Update (zero: the goal's cell)
	}{
		{"shut out", r2.Vec{X: 4.5, Y: 10.5}, 0.3, r2.Vec{X: 30.5, Y: 10.5}, false, grid.Cell{}},
		{"in the goal's room", r2.Vec{X: 24.5, Y: 10.5}, 0.3, r2.Vec{X: 30.5, Y: 10.5}, true, grid.Cell{}},
		{"wide, narrow goal", r2.Vec{X: 24.5, Y: 10.5}, 1.2, r2.Vec{X: 39.5, Y: 10.5}, true, grid.Cell{X: 38, Y: 10}},
		{"wide, open goal", r2.Vec{X: 24.5, Y: 10.5}, 1.2, r2.Vec{X: 30.5, Y: 10.5}, true, grid.Cell{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			world := arche.NewWorld()
			w := &world
			g := grid.New(40, 20)
			for y := range int32(20) {
				g.SetCost(grid.Cell{X: 20, Y: y}, grid.Blocked)
			}
			arche.AddResource(w, g)
			m := generic.NewMap6[components.Position, components.Intent, components.Desired, components.Path, components.Progress, components.Kinematics](w)
			gc := g.CellAt(tc.goal)
			e := m.NewWith(&components.Position{Vec: tc.pos}, &components.Intent{Move: true, Goal: tc.goal},
				&components.Desired{}, &components.Path{State: components.PathUnreachable, Goal: gc, SightKnown: true, SightFrom: g.CellAt(tc.pos), SightTo: gc},
				&components.Progress{Anchor: tc.pos, Since: -stuckLongAgo}, &components.Kinematics{MaxSpeed: 2, Radius: tc.radius})
			pf := &systems.PathFollow{}
			s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, pf)
			s.Initialize(w)
			s.Update(w)
			require.Equal(t, 1, pf.Stuck)
			_, _, _, p, _, _ := m.Get(e)
			require.Equal(t, tc.asks, p.Want)
			if tc.asked != (grid.Cell{}) {
				gc = tc.asked
			}
			require.Equal(t, gc, p.Goal)
		})
	}
}

// stuckLongAgo is a Progress.Since far enough back that the first
// Update finds the agent stuck.
const stuckLongAgo = systems.StuckTime + 1

// TestDiagnoseReportsLongPathWaits is newbie19's finding 3: a group move of
// 30 point agents, 3 cells apart, to one goal across the river (each start
// its own search of ~250,000 expansions through the ford) keeps the last
// requests waiting for seconds at the default Budget. Diagnose reports them
// (before: "no misconfiguration"): after 5 s, the requests still waiting
// that were made in the second frame, the oldest wait about 5 s, and the
// fix in its text; with a Budget large enough to serve them all at once,
// nothing.
func TestDiagnoseReportsLongPathWaits(t *testing.T) {
	t.Parallel()
	w, _, s, q, _ := fordWorld(t, 0.3)
	for range 300 {
		s.Update(w)
	}
	r := systems.Diagnose(w)
	require.Positive(t, q.Waiting)
	require.Equal(t, q.Waiting, r.PathsWaitingLong, "all were asked for in the first frames")
	require.InDelta(t, 298.0/60, r.PathWaitOldest, 1.0/60)
	require.Equal(t, 1, r.Total(), r.String())
	require.Contains(t, r.String(), fmt.Sprintf("%d path requests waiting 2 s or more, the oldest 5.0 s", q.Waiting))
	require.Contains(t, r.String(), "FlowField")

	w, _, s, q, _ = fordWorld(t, 0.3)
	q.Budget = 1 << 30
	for range 300 {
		s.Update(w)
	}
	r = systems.Diagnose(w)
	require.Zero(t, q.Waiting)
	require.Zero(t, r.PathsWaitingLong)
	require.Zero(t, r.PathWaitOldest)
	require.Zero(t, r.Total(), r.String())
}
