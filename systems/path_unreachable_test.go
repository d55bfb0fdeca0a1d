package systems_test

import (
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

// TestDiagnoseCountsAgentsHeadingForAGoalWalledOff: a Mover sent to a
// passable goal that a wall cuts off presses against the wall for good (its
// path is PathUnreachable and PathFollow seeks the goal in a straight line);
// Diagnose used to report nothing (newbie22). It counts it as
// path_unreachable, and not the Mover on the same side of the wall.
func TestDiagnoseCountsAgentsHeadingForAGoalWalledOff(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	g := grid.New(30, 15)
	for y := int32(0); y < 15; y++ {
		g.SetCost(grid.Cell{X: 15, Y: y}, grid.Blocked)
	}
	arche.AddResource(w, g)
	sp, err := systems.NewSpawner(w, systems.Mover{})
	require.NoError(t, err)
	cut := sp.Spawn(r2.Vec{X: 3.5, Y: 7.5}, func(a *systems.Spawned) { a.MoveTo(r2.Vec{X: 27.5, Y: 7.5}) })
	sp.Spawn(r2.Vec{X: 3.5, Y: 3.5}, func(a *systems.Spawned) { a.MoveTo(r2.Vec{X: 10.5, Y: 3.5}) })
	s := walkers(t, w)
	s.Run(w, 120)
	r := systems.Diagnose(w)
	require.Equal(t, 1, r.Counts[systems.CausePathUnreachable], "%s", r)
	require.Equal(t, cut, r.Examples[systems.CausePathUnreachable])
	require.Contains(t, r.String(), "path_unreachable")
}

// TestDiagnoseSaysAWideAgentHasNoRouteWideEnough: a Mover of radius 0.8 sent
// through a wall whose only gap is 2 cells wide is refused a route (a gap of
// k cells passes radii up to ⌈k/2⌉ − 0.5), though a small agent's goal is
// reachable: a newcomer's tanks stood at the wall, the finding saying "walls
// cut its goal off". The note now says that no route is wide enough for its
// radius and what gap it needs; an agent of radius 0.5 beside it reaches the
// goal, and one walled off by a whole wall keeps the old note.
func TestDiagnoseSaysAWideAgentHasNoRouteWideEnough(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	g := grid.New(30, 15)
	for y := int32(0); y < 15; y++ {
		if y != 7 && y != 8 {
			g.SetCost(grid.Cell{X: 15, Y: y}, grid.Blocked) // a gap of 2 cells at y 7 and 8
		}
	}
	arche.AddResource(w, g)
	wide, err := systems.NewSpawner(w, systems.Mover{Motion: systems.Motion{Radius: 0.8}})
	require.NoError(t, err)
	tank := wide.Spawn(r2.Vec{X: 4, Y: 2}, func(a *systems.Spawned) { a.MoveTo(r2.Vec{X: 25.5, Y: 2.5}) })
	small, err := systems.NewSpawner(w, systems.Mover{Motion: systems.Motion{Radius: 0.5}})
	require.NoError(t, err)
	scout := small.Spawn(r2.Vec{X: 4, Y: 12}, func(a *systems.Spawned) { a.MoveTo(r2.Vec{X: 25.5, Y: 12.5}) })
	s := walkers(t, w)
	s.Run(w, 30)
	r := systems.Diagnose(w)
	require.Equal(t, 1, r.Counts[systems.CausePathUnreachable], "%s", r)
	require.Equal(t, tank, r.Examples[systems.CausePathUnreachable])
	require.Contains(t, r.String(), "no route wide enough for its radius 0.8 to its path goal cell (25, 2), which a smaller agent would reach: "+
		"its routes need gaps of 3 cells (clearance 2, grid.ClearanceFor); its decision should test Path.State, or give it a radius of at most 0.5 (gaps of 1)")
	s.Run(w, 30*30)
	pos := generic.NewMap[components.Position](w)
	require.Greater(t, pos.Get(scout).X, 16.0, "the radius-0.5 agent went through the gap")

	g.SetCost(grid.Cell{X: 15, Y: 7}, grid.Blocked) // the gap closed: walls alone cut the goal off
	g.SetCost(grid.Cell{X: 15, Y: 8}, grid.Blocked)
	s.Run(w, 30)
	r = systems.Diagnose(w)
	require.Contains(t, r.String(), "walls cut its goal off", "%s", r)
}

// walkers initializes, for the test's length, the systems that move Movers along
// paths in w at 30 frames a second.
func walkers(t *testing.T, w *arche.World) *ecs.Scheduler {
	t.Helper()
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/30), &systems.Spatial{}, &systems.PathQueue{},
		&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	s.Initialize(w)
	t.Cleanup(func() { s.Finalize(w) })
	return s
}
